#!/bin/bash
# make bench: pam_pattern next to pam_unix, same machine, same run, same
# yescrypt cost. Runs in a private mount namespace over copies of
# /etc/passwd and /etc/shadow that hold a bench user, so nothing real changes.
# Prints one table (markdown). Root only.
set -euo pipefail
build=${1:?usage: run-bench.sh BUILD_DIR}
cost=${BENCH_COST:-7}
iterations=${BENCH_ITERATIONS:-30}
# The helper's ratio has a target 3 % above 1 and two execs are about 2 % of a cost-7 hash here: 30 samples left
# it moving by 0.03 from run to run, 120 settle it.
helper_iterations=${BENCH_HELPER_ITERATIONS:-120}
loads=${BENCH_LOADS:-40}
secret=2759148
user=ppbench
unix_module=/lib/$(gcc -print-multiarch)/security/pam_unix.so

if [ "$(id -u)" != 0 ]; then echo "make bench needs root (pam_unix reads /etc/shadow)" >&2; exit 1; fi
if [ "${PP_IN_NAMESPACE:-}" != 1 ]; then
    exec env PP_IN_NAMESPACE=1 unshare --mount --propagation private "$0" "$@"
fi

work=$(mktemp -d /tmp/pam_pattern-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0700 "$work"
mkdir -m 0700 "$work/store" "$work/big" "$work/state" "$work/pam.d"

# A bench user whose password is the same digits, hashed at the same cost.
unix_hash=$(/usr/bin/python3 -W ignore -c '
import ctypes, crypt, sys
lib = ctypes.CDLL("libcrypt.so.1"); lib.crypt_gensalt.restype = ctypes.c_char_p
salt = lib.crypt_gensalt(b"$y$", int(sys.argv[2]), None, 0).decode()
print(crypt.crypt(sys.argv[1], salt))' "$secret" "$cost")
# A copy of the whole /etc, not of single files: a file bind mount vanishes
# when another process renames over /etc/passwd (useradd does).
cp -a /etc "$work/etc"
echo "$user:x:64124:64124:bench:/nonexistent:/usr/sbin/nologin" >>"$work/etc/passwd"
echo "$user:$unix_hash:20000:0:99999:7:::" >>"$work/etc/shadow"
mount --bind "$work/etc" /etc

printf '%s\n%s\n' "$secret" "$secret" |
    "$build/patternctl" set --store "$work/store/patterns" --state "$work/state" --cost "$cost" "$user" >/dev/null

# 100,000 users: the bench user's line repeated under other names.
line=$(grep "^$user" "$work/store/patterns")
rest=${line#"$user"}
/usr/bin/python3 -c '
import sys
rest = sys.argv[1]
with open(sys.argv[2], "w") as f:
    for i in range(100000):
        f.write("user%06d%s\n" % (i, rest))' "$rest" "$work/big/patterns"
chmod 0600 "$work/big/patterns"

cat >"$work/pam.d/pattern" <<PAM
auth required $build/pam_pattern.so store=$work/store/patterns state=$work/state
PAM
cat >"$work/pam.d/unix" <<PAM
auth required $unix_module
PAM
cat >"$work/pam.d/lookup-big" <<PAM
auth required $build/pam_pattern.so store=$work/big/patterns state=$work/state nullok
PAM
cat >"$work/pam.d/lookup-small" <<PAM
auth required $build/pam_pattern.so store=$work/store/patterns state=$work/state nullok
PAM

gcc -O2 -o "$work/pam_bench" "$(dirname "$0")/pam_bench.c" -lpam
gcc -O2 -o "$work/load_probe" "$(dirname "$0")/load_probe.c" -ldl

auth=$("$work/pam_bench" "$work/pam.d" "$user" "$iterations" "pattern=$secret" "unix=$secret")
p_us=$(awk '$1=="pattern"{print $2}' <<<"$auth"); u_us=$(awk '$1=="unix"{print $2}' <<<"$auth")
p_res=$(awk '$1=="pattern"{print $4}' <<<"$auth"); u_res=$(awk '$1=="unix"{print $4}' <<<"$auth")
if [ "$p_res" != success ] || [ "$u_res" != success ]; then
    echo "bench: authentication did not succeed: $auth" >&2; exit 1
fi

# lookup: an unenrolled user (nullok, no prompt, no hash) in 100,000 vs 1 entries
lookup=$("$work/pam_bench" "$work/pam.d" nobody "$iterations" "lookup-big=x" "lookup-small=x")
big_us=$(awk '$1=="lookup-big"{print $2}' <<<"$lookup"); small_us=$(awk '$1=="lookup-small"{print $2}' <<<"$lookup")

median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
probe() { for _ in $(seq "$loads"); do "$work/load_probe" "$1"; done; }
probe "$build/pam_pattern.so" >"$work/load-p"; probe "$unix_module" >"$work/load-u"
lp=$(cut -d' ' -f1 "$work/load-p" | median); lu=$(cut -d' ' -f1 "$work/load-u" | median)
rp=$(cut -d' ' -f2 "$work/load-p" | median); ru=$(cut -d' ' -f2 "$work/load-u" | median)
size=$(stat -c %s "$build/pam_pattern.so")
usize=$(stat -c %s "$unix_module")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b>0) printf "%.2f", a/b; else print "n/a" }'; }
ms() { awk -v a="$1" 'BEGIN{printf "%.2f ms", a/1000}'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN{ print (v<=t) ? "ok" : "OVER" }'; }

# TPM mode: one check of the right pattern by the TPM layer's driver (a process each time, as the setuid
# helper is) on swtpm, against the module's yescrypt verification above: bound to the session key (what
# enrolment sets up) and salted (the fallback without one, and what every check did before the session key).
# swtpm has no resource manager, so each conversation also looks for leftovers (2 light commands that
# /dev/tpmrm0 does not need). The estimate for discrete chips: 5 ms per light command (as assumed in the
# README) plus, salted, the chip's published P-256 key creation + ECDH (wolfTPM's benchmark table).
tpm_rows=""
if command -v swtpm >/dev/null && [ -x "$build/tpm-driver" ]; then
    mkdir -m 0700 "$work/tpm" "$work/tpm/key"
    swtpm socket --tpm2 --tpmstate dir="$work/tpm" --server type=unixio,path="$work/tpm/s" \
        --ctrl type=unixio,path="$work/tpm/s.ctrl" --flags not-need-init,startup-clear \
        --pid file="$work/tpm/pid" --daemon
    trap 'kill -9 "$(cat "$work/tpm/pid")" 2>/dev/null; rm -rf "$work"' EXIT
    tcti="swtpm:path=$work/tpm/s"
    record=$(env -i "$build/tpm-driver" enroll "$tcti" "$user" "$secret" 20)
    key_store="$work/tpm/key/patterns"
    env -i "$build/tpm-driver" session-key "$tcti" "$key_store" >/dev/null
    runs() {  # microseconds per run of: tpm-driver ARGS...
        for _ in $(seq "$iterations"); do
            start=$(date +%s%N); env -i "$build/tpm-driver" "$@" >/dev/null || exit 1; end=$(date +%s%N)
            echo $(( (end - start) / 1000 ))
        done | median
    }
    commands() { env -i "$build/tpm-driver" check "$tcti" "$user" "$secret" "$record" commands "$@" | awk '$1=="right"{print $2}'; }
    n_bound=$(commands "$key_store"); n_salted=$(commands)
    if [ -z "$n_bound" ] || [ -z "$n_salted" ]; then echo "bench: the TPM check did not succeed" >&2; exit 1; fi
    b_us=$(runs check "$tcti" "$user" "$secret" "$record" commands "$key_store")
    s_us=$(runs check "$tcti" "$user" "$secret" "$record" commands)
    t0_us=$(runs auth 00112233445566778899aabbccddeeff "$user" "$secret")
    # Per chip: name, P-256 key creation ms, ECDH ms (slowest first).
    chips="SLB9670:231:232 ST33TP:220:247 ATTPM20:153:64 NPCT750:84:29 Nations:52:39"
    estimate() {  # ms on every chip, for LIGHT light commands (+ key creation and ECDH when $2 = salted)
        for chip in $chips; do
            IFS=: read -r name create ecdh <<<"$chip"
            heavy=0; [ "$2" != salted ] || heavy=$((create + ecdh))
            printf '%s %d ms, ' "$name" $(( $1 * 5 + heavy ))
        done | sed 's/, $//'
    }
    slowest_ms() { estimate "$@" | sed 's/^[^ ]* \([0-9]*\) ms.*/\1/'; }
    # Real chips sit behind /dev/tpmrm0: no leftover look (2 commands); salted, 2 of the rest are the heavy ones.
    light_bound=$((n_bound - 2)); light_salted=$((n_salted - 2 - 2))
    b_ratio=$(ratio "$(( $(slowest_ms "$light_bound" bound) * 1000 ))" "$p_us")
    s_ratio=$(ratio "$(( $(slowest_ms "$light_salted" salted) * 1000 ))" "$p_us")
    # Each conversation on the slowest chips' model against its deadline (bench/tpm_slow_chips.py).
    model_rows=$(/usr/bin/python3 "$(dirname "$0")/tpm_slow_chips.py" "$build")
    tpm_rows="| TPM check on swtpm, bound to the session key ($n_bound TPM commands, all light) vs yescrypt cost $cost verification | $(ms "$b_us") (process alone: $(ms "$t0_us")) | pam_pattern yescrypt: $(ms "$p_us") | $(ratio "$b_us" "$p_us") | |
| TPM check on swtpm, salted session (no session key; $n_salted TPM commands, one key creation and one ECDH) | $(ms "$s_us") | pam_pattern yescrypt: $(ms "$p_us") | $(ratio "$s_us" "$p_us") | |
| TPM check on discrete chips, estimate, bound ($light_bound light commands) | $(estimate "$light_bound" bound) | slowest vs yescrypt: | $b_ratio | <= 1.00 ($(verdict "$b_ratio" 1.00)) |
| TPM check on discrete chips, estimate, salted ($light_salted light + 2 heavy) | $(estimate "$light_salted" salted) | slowest vs yescrypt: | $s_ratio | |
$model_rows"
fi

# Through the setuid helper: the same module, store and cost, run by the bench user instead of root, so every
# authentication runs /usr/sbin/pam_pattern_helper once (`authenticate`: the check, then the guess) (put there in this namespace by an overlay whose upper layer
# is in $work: never a bind mount of the real /usr/sbin, which the EXIT trap's rm -rf would reach). The helper
# takes its paths from pam_pattern.conf, which names the same store and state. Runs alternate (user, root) in
# rounds so both see the same machine state.
helper_row=""
if [ -x "$build/pam_pattern_helper" ]; then
    chmod 0755 "$work" "$work/pam.d"  # the bench user reads the bench program and its service files
    printf 'store = %s\nstate = %s\n' "$work/store/patterns" "$work/state" >"$work/etc/security/pam_pattern.conf"
    chmod 0644 "$work/etc/security/pam_pattern.conf"
    mkdir -p "$work/sbin/up" "$work/sbin/work"
    chmod 0755 "$work/sbin/up"
    mount -t overlay overlay -o lowerdir=/usr/sbin,upperdir="$work/sbin/up",workdir="$work/sbin/work" /usr/sbin
    install -m 4755 "$build/pam_pattern_helper" /usr/sbin/pam_pattern_helper
    bench_uid=$(id -u "$user")
    # Short rounds (3 each way), the order swapped every round, and the ratio taken per round: the machine's
    # speed drifts by more than the helper's cost between stretches of a few seconds, so each round's helper
    # time is set against the in-process time measured right beside it; the median of those ratios is reported.
    per_round=3; rounds=$(( (helper_iterations + per_round - 1) / per_round ))
    : >"$work/rounds-helper"; : >"$work/rounds-root"; : >"$work/rounds-ratio"
    as_bench() { setpriv --reuid="$bench_uid" --regid="$bench_uid" --clear-groups "$@"; }
    for round in $(seq "$rounds"); do
        if [ $(( round % 2 )) = 0 ]; then
            h=$(as_bench "$work/pam_bench" "$work/pam.d" "$user" "$per_round" "pattern=$secret")
            r=$("$work/pam_bench" "$work/pam.d" "$user" "$per_round" "pattern=$secret")
        else
            r=$("$work/pam_bench" "$work/pam.d" "$user" "$per_round" "pattern=$secret")
            h=$(as_bench "$work/pam_bench" "$work/pam.d" "$user" "$per_round" "pattern=$secret")
        fi
        if [ "$(awk '{print $4}' <<<"$h")" != success ] || [ "$(awk '{print $4}' <<<"$r")" != success ]; then
            echo "bench: authentication through the helper did not succeed: $h / $r" >&2; exit 1
        fi
        h_round=$(awk '{print $2}' <<<"$h"); r_round=$(awk '{print $2}' <<<"$r")
        echo "$h_round" >>"$work/rounds-helper"; echo "$r_round" >>"$work/rounds-root"
        awk -v a="$h_round" -v b="$r_round" 'BEGIN{printf "%.5f\n", a/b}' >>"$work/rounds-ratio"
    done
    h_us=$(median <"$work/rounds-helper"); i_us=$(median <"$work/rounds-root")
    h_ratio=$(median <"$work/rounds-ratio" | awk '{printf "%.3f", $1}')
    helper_row="| authentication through pam_pattern_helper (run as the user) vs in-process (root), same store and cost ($rounds side-by-side rounds of $per_round each way; medians, the ratio's per round) | $(ms "$h_us") | in-process: $(ms "$i_us") | $h_ratio | <= 1.03 ($(verdict "$h_ratio" 1.03)) |"
    # One run of the helper for a non-TPM check (the start of the module's one run per authentication, before
    # the hash: the exec, the dynamic loader, the store lookup, the answer), beside /bin/true's, as the bench user.
    gcc -O2 -o "$work/exec_probe" "$(dirname "$0")/exec_probe.c"
    # In turn (helper, /bin/true, helper, ...): both medians come from the same stretch of the machine's time.
    { read -r exec_us exec_status; read -r true_us _; } < <(
        as_bench "$work/exec_probe" 500 /usr/sbin/pam_pattern_helper check "$user" -- /bin/true)
    if [ "$exec_status" != 0 ]; then echo "bench: pam_pattern_helper check exited $exec_status" >&2; exit 1; fi
    helper_row="$helper_row
| one run of pam_pattern_helper for a non-TPM check (fork, exec, answer; median of 500, in turn with /bin/true) | $(ms "$exec_us") ($(ms $(( exec_us - true_us ))) above /bin/true) | /bin/true: $(ms "$true_us") | $(ratio "$exec_us" "$true_us") | < 1 ms ($(verdict "$exec_us" 1000)) |"
    # What starting it costs the host itself, for a host the size of a screen locker: the module's spawn
    # (helper_spawn.c, linked into the probe) against fork + exec, each with the host writing its pages after.
    bench_dir=$(dirname "$0")
    gcc -O2 -I "$bench_dir/../Sources/CPatternSystem/include" -o "$work/spawn_probe" \
        "$bench_dir/spawn_probe.c" "$bench_dir/../Sources/CPatternSystem/helper_spawn.c"
    read -r spawn_us fork_us < <(as_bench "$work/spawn_probe" 16 200 /bin/true)
    helper_row="$helper_row
| starting a program from a 16 MiB host (a screen locker's size): the module's spawn, then the host writing its pages (median of 200) | $(ms "$spawn_us") | fork + exec: $(ms "$fork_us") | $(ratio "$spawn_us" "$fork_us") | |"
fi

# The lock-screen pad (auth_pattern) on Xvfb, waiting at a pattern prompt (a stand-in authproto that asks and
# then waits), beside xsecurelock's own auth_x11 in the same state: CPU share of one core while idle and while
# the pointer moves at 100 Hz, from /proc/PID/stat; and the time from a pointer warp to the first frame that
# shows the pad's pointer there (bench/pad_probe.c reads the screen back), while drawing (button held) and
# with the button up.
pad_rows=""
auth_x11=/usr/libexec/xsecurelock/auth_x11
# A private Xvfb with a screen-sized window standing in for the one xsecurelock hands its auth module: sets DISPLAY,
# XSCREENSAVER_WINDOW, xvfb_pid and window_pid; $1 names its files in $work.
locker_display() {
    Xvfb -displayfd 8 -nolisten tcp -screen 0 1024x768x24 8>"$work/display$1" >/dev/null 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 100); do [ -s "$work/display$1" ] && break; sleep 0.1; done
    export DISPLAY=":$(cat "$work/display$1")"
    "$work/pad_probe" window 100000 0 0 >"$work/window$1" &
    window_pid=$!
    for _ in $(seq 100); do [ -s "$work/window$1" ] && break; sleep 0.1; done
    export XSCREENSAVER_WINDOW="$(cat "$work/window$1")"
}
if [ -x "$build/auth_pattern" ] && command -v Xvfb >/dev/null && command -v xdotool >/dev/null \
    && gcc -O2 -o "$work/pad_probe" "$(dirname "$0")/pad_probe.c" -lX11 2>/dev/null; then
    printf '#!/bin/sh\nprintf "P 9\\nPattern: \\n"\nexec cat >/dev/null\n' >"$work/proto"
    chmod 0755 "$work/proto"
    locker_display 1
    # A program that ended early reads as 0 ticks (its row then shows 0), never an exit that leaves Xvfb behind.
    ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
    share() { awk -v t="$1" -v s="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "%.2f", 100 * t / hz / s}'; }
    # The key pipe stays open, as xsecurelock's does (auth_x11 ends at its end): a FIFO held open here.
    mkfifo "$work/keys"
    exec 9<>"$work/keys"
    # cpu PROGRAM: "idle% moving%" of PROGRAM at the stand-in's prompt.
    cpu() {
        XSECURELOCK_AUTHPROTO="$work/proto" "$1" <"$work/keys" >/dev/null 2>&1 &
        local pid=$! a b c
        sleep 2; a=$(ticks "$pid"); sleep 10; b=$(ticks "$pid")
        "$work/pad_probe" move 5 150 600; c=$(ticks "$pid")
        kill "$pid"; wait "$pid" 2>/dev/null || true
        echo "$(share $((b - a)) 10) $(share $((c - b)) 5)"
    }
    XSECURELOCK_AUTHPROTO="$work/proto" "$build/auth_pattern" <"$work/keys" >/dev/null 2>&1 &
    pad_pid=$!
    sleep 2
    read -r up_med up_p95 _ < <("$work/pad_probe" latency 60 150 600)
    xdotool mousemove 300 300 mousedown 1; sleep 0.3
    draw_cpu_a=$(ticks "$pad_pid"); "$work/pad_probe" move 5 150 600; draw_cpu_b=$(ticks "$pad_pid")
    read -r down_med down_p95 _ < <("$work/pad_probe" latency 60 150 600)
    xdotool mouseup 1
    kill "$pad_pid"; wait "$pad_pid" 2>/dev/null || true
    # auth_x11 last: it shrinks the window it is given to its own box.
    read -r pad_idle pad_moving < <(cpu "$build/auth_pattern")
    ref_idle=n/a ref_moving=n/a
    if [ -x "$auth_x11" ]; then read -r ref_idle ref_moving < <(cpu "$auth_x11"); fi
    kill "$window_pid" "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
    exec 9>&-
    pad_drawing=$(share $((draw_cpu_b - draw_cpu_a)) 5)
    pad_rows="| pad CPU, idle at the pattern prompt (10 s), % of one core | $pad_idle % | auth_x11: $ref_idle % | | < 1 % ($(verdict "$pad_idle" 1)) |
| pad CPU, pointer moving at 100 Hz (5 s), button up / held | $pad_moving % / $pad_drawing % | auth_x11: $ref_moving % | | |
| pointer move to the frame showing it, drawing (median / p95 of 60) | $(ms "$down_med") / $(ms "$down_p95") | | | < 16 ms ($(verdict "$down_p95" 16000)) |
| pointer move to the frame showing it, button up (median / p95 of 60) | $(ms "$up_med") / $(ms "$up_p95") | | | < 16 ms ($(verdict "$up_p95" 16000)) |"
fi

# The pad at the real xsecurelock, as the bench user, with pam_pattern alone in a PAM service of its own (through
# the setuid helper installed above): the time from the release of the right drawing to xsecurelock's exit (the
# screen open), against one yescrypt verification of the same cost in the same round (bench/pad_unlock.py). Then
# the pad loop's longest stall while a PAM run it cancelled is still ending: a stand-in authproto says a wrong
# pattern and asks for the password, a drawing cancels it, and the stand-in takes 2 s to end (pam_unix's fail delay) while pad_probe times
# pointer moves to the frames that show them.
unlock_rows=""
if [ -n "$helper_row" ] && [ -n "$pad_rows" ] && [ -x /usr/libexec/xsecurelock/authproto_pam ] \
    && command -v xsecurelock >/dev/null; then
    install -m 0755 "$build/auth_pattern" "$work/auth_pattern"
    printf 'auth required %s\naccount required pam_permit.so\n' "$build/pam_pattern.so" >"$work/etc/pam.d/pattern-pad"
    chmod 0644 "$work/etc/pam.d/pattern-pad"
    read -r unlock_us verify_us unlock_ratio unlock_rounds < <(/usr/bin/python3 -W ignore \
        "$(dirname "$0")/pad_unlock.py" "$work/auth_pattern" "$bench_uid" pattern-pad "$secret" "$unix_hash" \
        "$secret" "${BENCH_PAD_ROUNDS:-9}")
    unlock_rows="| pad at xsecurelock: release of the right drawing to xsecurelock's exit (the success frame drawn first), as the user through the helper (median of $unlock_rounds; the ratio's per round) | $(ms "$unlock_us") | one yescrypt cost $cost verification: $(ms "$verify_us") | $unlock_ratio | <= 1.5 ($(verdict "$unlock_ratio" 1.5)) |"
    locker_display 2
    # The module's word first (the pad offers the grid only once PAM said there is a pattern), then the password.
    printf '#!/bin/sh\nm="Wrong pattern. 4 tries left before a wait."\nprintf "e %%d\\n%%s\\n" ${#m} "$m"\nprintf "P 10\\nPassword: \\n"\nread -r answer\necho "$answer" >>"%s"\nsleep 2\n' \
        "$work/cancelled" >"$work/slow-proto"
    chmod 0755 "$work/slow-proto"
    mkfifo "$work/keys2"
    exec 9<>"$work/keys2"
    XSECURELOCK_AUTHPROTO="$work/slow-proto" XSECURELOCK_PATTERN_SIZE=100 "$build/auth_pattern" <"$work/keys2" \
        >/dev/null 2>&1 &
    pad_pid=$!
    sleep 2
    # Dots 1, 2, 3, 6 of the grid (100 px apart, centred 33 px above the middle), a sample at each.
    xdotool mousemove 412 251; sleep 0.1; xdotool mousedown 1; sleep 0.05
    for point in "512 251" "612 251" "612 351"; do xdotool mousemove $point; sleep 0.03; done
    xdotool mouseup 1
    read -r _ _ stall_seen stall_us < <("$work/pad_probe" latency 60 150 600)
    kill "$pad_pid" "$window_pid" 2>/dev/null || true
    wait "$pad_pid" 2>/dev/null || true
    kill "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
    exec 9>&-
    if ! grep -q '^x 0$' "$work/cancelled" 2>/dev/null; then echo "bench: the drawing did not cancel the run" >&2; exit 1; fi
    unlock_rows="$unlock_rows
| pad loop's longest stall while a cancelled run ends (2 s), pointer move to the frame showing it (longest of $stall_seen) | $(ms "$stall_us") | | | < 20 ms ($(verdict "$stall_us" 20000)) |"
fi

# The KDE lock screen (Plasma 5.27's real greeter with the QML lock screen `make build` assembled), as the bench
# user, the PAM service `kde` holding pam_pattern alone (through the setuid helper installed above): its CPU while
# idle showing the grid, the pointer move to the frame whose trail ends there while drawing (pad_probe reads the
# screen back), and the release of the right drawing to the lock screen's success against one yescrypt
# verification of the same cost in the same round (bench/kde_lock_screen.py).
# pattern-lock on a headless sway (the Wayland lock screen), as the bench user, the PAM service pattern-lock holding
# pam_pattern alone (through the setuid helper installed above): its CPU while idle at the pattern prompt, each
# pointer move while drawing to the locker's next frame, and the release of the right drawing to the locker's exit
# (the session unlocked) against one yescrypt verification of the same cost in the same round (bench/wayland_lock.py).
wayland_rows=""
if [ -n "$helper_row" ] && [ -x "$build/pattern-lock" ] && [ -x "$build/wayland-pointer" ] && command -v sway >/dev/null; then
    mkdir -m 0755 "$work/wayland"
    install -m 0755 "$build/pattern-lock" "$build/pattern-lock-pam" "$build/wayland-pointer" "$work/wayland/"
    mkdir -m 0700 "$work/wayland/run"
    chown "$bench_uid:$bench_uid" "$work/wayland/run"
    printf 'auth required %s\naccount required pam_permit.so\n' "$build/pam_pattern.so" >"$work/etc/pam.d/pattern-lock"
    chmod 0644 "$work/etc/pam.d/pattern-lock"
    wl=$(/usr/bin/python3 -W ignore "$(dirname "$0")/wayland_lock.py" "$work/wayland/pattern-lock" \
        "$work/wayland/pattern-lock-pam" "$work/wayland/wayland-pointer" "$bench_uid" "$work/wayland/run" "$secret" \
        "$unix_hash" "$secret" "${BENCH_WAYLAND_ROUNDS:-7}")
    read -r _ wl_idle < <(grep '^idle ' <<<"$wl")
    read -r _ wl_med wl_p95 wl_moves < <(grep '^latency ' <<<"$wl")
    read -r _ wl_unlock wl_verify wl_ratio wl_rounds < <(grep '^unlock ' <<<"$wl")
    wayland_rows="| pattern-lock (Wayland, headless sway 1.7, pixman) CPU, idle at the pattern prompt (10 s), % of one core | $wl_idle % | | | < 1 % ($(verdict "$wl_idle" 1)) |
| pattern-lock: virtual pointer move (from just before it is sent) to the locker's next frame commit, drawing (median / p95 of $wl_moves) | $(ms "$wl_med") / $(ms "$wl_p95") | | | < 16 ms ($(verdict "$wl_p95" 16000)) |
| pattern-lock: release of the right drawing to the locker's exit (the session unlocked), as the user through the helper (median of $wl_rounds; the ratio's per round) | $(ms "$wl_unlock") | one yescrypt cost $cost verification: $(ms "$wl_verify") | $wl_ratio | <= 1.5 ($(verdict "$wl_ratio" 1.5)) |"
fi

kde_rows=""
greeter=/usr/lib/$(gcc -print-multiarch)/libexec/kscreenlocker_greet
if [ -n "$helper_row" ] && [ -n "$pad_rows" ] && [ -x "$greeter" ] \
    && [ -f "$build/kde/plasma5/contents/lockscreen/LockScreen.qml" ]; then
    cp -r "$build/kde/plasma5" "$work/kde-theme"
    chmod -R a+rX "$work/kde-theme"
    mkdir -m 0700 "$work/kde-home"
    chown "$bench_uid:$bench_uid" "$work/kde-home"
    printf 'auth required %s\naccount required pam_permit.so\n' "$build/pam_pattern.so" >"$work/etc/pam.d/kde"
    chmod 0644 "$work/etc/pam.d/kde"
    kde=$(/usr/bin/python3 -W ignore "$(dirname "$0")/kde_lock_screen.py" "$greeter" "$work/kde-theme" "$bench_uid" \
        "$work/kde-home" "$work/pad_probe" "$secret" "$unix_hash" "$secret" "${BENCH_KDE_ROUNDS:-7}")
    read -r _ kde_idle < <(grep '^idle ' <<<"$kde")
    read -r _ kde_idle_stock < <(grep '^idle_stock ' <<<"$kde")
    kde_idle_ratio=$(awk -v a="$kde_idle" -v b="$kde_idle_stock" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
    read -r _ kde_med kde_p95 < <(grep '^latency ' <<<"$kde")
    read -r _ kde_soft_med kde_soft_p95 < <(grep '^latency_software ' <<<"$kde")
    read -r _ kde_unlock kde_verify kde_ratio kde_rounds < <(grep '^unlock ' <<<"$kde")
    kde_rows="| KDE lock screen (Plasma 5.27 greeter, QML) CPU, idle showing the grid (10 s), % of one core | $kde_idle % | | | < 1 % ($(verdict "$kde_idle" 1)) |
| the same as a ratio to Plasma's stock Breeze lock screen idle in the same greeter and run ($kde_idle_stock %) | $kde_idle % | stock: $kde_idle_stock % | $kde_idle_ratio | <= 1.25 ($(verdict "$kde_idle_ratio" 1.25)) |
| KDE lock screen: pointer move to the frame whose trail ends there, drawing, Qt Quick on OpenGL (Mesa's software rasteriser on Xvfb; median / p95 of 60) | $(ms "$kde_med") / $(ms "$kde_p95") | | | < 16 ms ($(verdict "$kde_p95" 16000)) |
| the same, Qt Quick's software renderer (QT_QUICK_BACKEND=software) | $(ms "$kde_soft_med") / $(ms "$kde_soft_p95") | | | < 16 ms ($(verdict "$kde_soft_p95" 16000)) |
| KDE lock screen: release of the right drawing to the greeter's success, as the user through the helper (median of $kde_rounds; the ratio's per round) | $(ms "$kde_unlock") | one yescrypt cost $cost verification: $(ms "$kde_verify") | $kde_ratio | <= 1.5 ($(verdict "$kde_ratio" 1.5)) |"
fi

# The GNOME lock screen (the real gnome-shell 43 with the extension `make build` assembled), as the bench user, GDM
# and logind stood in for, the PAM service gdm-password holding pam_pattern alone, run as root as GDM's worker does:
# the release of the right drawing to the verification's end against one yescrypt verification of the same cost in
# the same round, and the shell's idle CPU at the prompt with the grid against the stock prompt
# (bench/gnome_lock_screen.py).
gnome_rows=""
if [ -n "$helper_row" ] && command -v gnome-shell >/dev/null \
    && [ -f "$build/gnome/pam-pattern@pam-pattern.org/extension.js" ]; then
    mkdir -m 0700 "$work/gnome-home"
    chown "$bench_uid:$bench_uid" "$work/gnome-home"
    printf 'auth required %s\naccount required pam_permit.so\n' "$build/pam_pattern.so" >"$work/etc/pam.d/gdm-password"
    chmod 0644 "$work/etc/pam.d/gdm-password"
    gnome=$(/usr/bin/python3 -W ignore "$(dirname "$0")/gnome_lock_screen.py" "$(cd "$(dirname "$0")/.." && pwd)" \
        "$build" "$work" "$bench_uid" "$user" "$work/gnome-home" "$secret" "$unix_hash" "$secret" "${BENCH_GNOME_ROUNDS:-5}")
    read -r _ gnome_unlock gnome_verify gnome_ratio gnome_rounds < <(grep '^unlock ' <<<"$gnome")
    read -r _ gnome_idle gnome_stock gnome_idle_ratio < <(grep '^idle ' <<<"$gnome")
    gnome_rows="| GNOME lock screen (gnome-shell 43, the extension): release of the right drawing to logind's Unlock, PAM run as root by the GDM stand-in (median of $gnome_rounds; the ratio's per round) | $(ms "$gnome_unlock") | one yescrypt cost $cost verification: $(ms "$gnome_verify") | $gnome_ratio | <= 1.5 ($(verdict "$gnome_ratio" 1.5)) |
| GNOME lock screen: the shell's CPU, idle at the prompt (10 s), % of one core, with the grid / the stock prompt | $gnome_idle % | $gnome_stock % | $gnome_idle_ratio | |"
fi

# The LightDM greeter (pam-pattern-greeter, the login and XFCE's lock screen) at the real lightdm daemon, headless,
# the PAM service lightdm holding pam_pattern alone, run as root by the daemon: the release of the right drawing to
# the daemon running the session (and to the session's first command, after Xsession) and, after `dm-tool lock`,
# to the daemon returning to the locked session, each against one yescrypt verification of
# the same cost in the same round; the greeter's CPU idle showing the grid beside lightdm-gtk-greeter's; the pointer
# warp to the frame showing it while drawing (pad_probe) (bench/lightdm_greeter.py).
lightdm_rows=""
if [ -n "$helper_row" ] && [ -x "$build/pam-pattern-greeter" ] && [ -x /usr/sbin/lightdm ] && command -v xdotool >/dev/null; then
    [ -x "$work/pad_probe" ] || gcc -O2 -o "$work/pad_probe" "$(dirname "$0")/pad_probe.c" -lX11
    install -m 0755 "$build/pam-pattern-greeter" /usr/sbin/pam-pattern-greeter
    printf 'auth required %s\naccount required pam_permit.so\nsession required pam_permit.so\npassword required pam_deny.so\n' \
        "$build/pam_pattern.so" >"$work/etc/pam.d/lightdm"
    chmod 0644 "$work/etc/pam.d/lightdm"
    ld_version=$(/usr/sbin/lightdm --version 2>&1 | awk '{print $2}')
    ld=$(/usr/bin/python3 -W ignore "$(dirname "$0")/lightdm_greeter.py" "$(cd "$(dirname "$0")/.." && pwd)" "$work" \
        "$bench_uid" "$user" "$secret" "$unix_hash" "$secret" "${BENCH_LIGHTDM_ROUNDS:-5}" "$work/pad_probe")
    read -r _ ld_handed ld_verify ld_handed_ratio ld_rounds < <(grep '^handed ' <<<"$ld")
    read -r _ ld_start _ ld_start_ratio _ < <(grep '^start ' <<<"$ld")
    read -r _ ld_resume ld_resume_verify ld_resume_ratio _ < <(grep '^resume ' <<<"$ld")
    read -r _ ld_idle ld_stock ld_idle_ratio < <(grep '^idle ' <<<"$ld")
    read -r _ ld_med ld_p95 ld_seen < <(grep '^latency ' <<<"$ld")
    lightdm_rows="| LightDM greeter (pam-pattern-greeter, lightdm $ld_version): release of the right drawing to the daemon running the session (its session child about to exec it), PAM run as root by the daemon (median of $ld_rounds; the ratio's per round) | $(ms "$ld_handed") | one yescrypt cost $cost verification: $(ms "$ld_verify") | $ld_handed_ratio | <= 1.5 ($(verdict "$ld_handed_ratio" 1.5)) |
| the same release to the session's first command, after Debian's /etc/X11/Xsession and its Xsession.d scripts (the same for every greeter) | $(ms "$ld_start") | one yescrypt cost $cost verification: $(ms "$ld_verify") | $ld_start_ratio | |
| LightDM greeter after \`dm-tool lock\`: release of the right drawing to the daemon returning to the locked session (median of $ld_rounds; the ratio's per round) | $(ms "$ld_resume") | one yescrypt cost $cost verification: $(ms "$ld_resume_verify") | $ld_resume_ratio | <= 1.5 ($(verdict "$ld_resume_ratio" 1.5)) |
| LightDM greeter CPU, idle showing the grid (10 s), % of one core, beside lightdm-gtk-greeter's login screen in the same daemon and run | $ld_idle % | lightdm-gtk-greeter: $ld_stock % | $ld_idle_ratio | < 1 % ($(verdict "$ld_idle" 1)) |
| LightDM greeter: pointer move to the frame showing it, drawing (median / p95 of $ld_seen) | $(ms "$ld_med") / $(ms "$ld_p95") | | | < 16 ms ($(verdict "$ld_p95" 16000)) |"
fi

auth_ratio=$(ratio "$p_us" "$u_us")
echo "pam_pattern benchmark: $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r), yescrypt cost $cost, median of $iterations (auth) / $loads (load)"
echo
echo "| measure | pam_pattern | pam_unix | ratio | target |"
echo "|---|---|---|---|---|"
echo "| authentication, right secret | $(ms "$p_us") | $(ms "$u_us") | $auth_ratio | <= 1.10 ($(verdict "$auth_ratio" 1.10)) |"
echo "| module load (dlopen+dlsym, fresh process) | $lp us | $lu us | $(ratio "$lp" "$lu") | |"
echo "| RSS added by the load | $rp KB | $ru KB | $(ratio "$rp" "$ru") | |"
echo "| stripped module size | $((size / 1024)) KB | $((usize / 1024)) KB | $(ratio "$size" "$usize") | < 256 KB |"
echo "| lookup, 100,000-user store (no hash) | $(ms "$big_us") | 1-user store: $(ms "$small_us") | | < 5 ms ($(verdict "$big_us" 5000)) |"
[ -z "$helper_row" ] || echo "$helper_row"
[ -z "$tpm_rows" ] || echo "$tpm_rows"
[ -z "$pad_rows" ] || echo "$pad_rows"
[ -z "$unlock_rows" ] || echo "$unlock_rows"
[ -z "$kde_rows" ] || echo "$kde_rows"
[ -z "$wayland_rows" ] || echo "$wayland_rows"
[ -z "$gnome_rows" ] || echo "$gnome_rows"
[ -z "$lightdm_rows" ] || echo "$lightdm_rows"
