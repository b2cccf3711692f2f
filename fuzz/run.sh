#!/bin/bash
# Builds the libFuzzer targets with ASan and runs each for a set time (make fuzz, make test-fuzz).
#
#   fuzz/run.sh --seconds N [--scratch DIR] [--module build/pam_pattern.so] [--merge] [--jobs J] [TARGET...]
#
# Targets: pattern store state options conf helper pad (fuzz/PatternFuzz, one binary, PATTERN_FUZZ_TARGET picks one)
# and pam (fuzz/pam_fuzz.c: a whole pam_sm_authenticate through libpam). For each target it first
# replays the committed corpus fuzz/corpus/<target> (every input once), then fuzzes for N seconds,
# starting from the committed corpus plus what earlier runs found (DIR/corpus/<target>; the committed
# corpus is never written unless --merge is given, which adds the new inputs that add coverage).
# The pam target replays the corpus against the release module given by --module (the real artifact,
# no instrumentation inside), then fuzzes a coverage- and ASan-instrumented build of the same module.
# A crash, ASan report, leak, hang (> 10 s) or broken property stops with the input saved under
# DIR/artifacts/<target>/ and the command that reproduces it. Ends with one table of the figures.
# --jobs J runs J targets at a time (each fuzzer is one process on one core: on J free cores every target
# still gets its N seconds of a whole core); a failing target's lane stops, the others finish.
set -u
# The whole script is one compound command, read before it runs: editing this file (a git pull) during
# a long `make fuzz` cannot change what the running script does next.
{
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_EACH=300
SCRATCH="$ROOT/.build-fuzz"
MODULE="$ROOT/build/pam_pattern.so"
MERGE=0
JOBS=1
TARGETS=()
SWIFT="${SWIFT:-swift}"
CLANG="${CLANG:-$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/clang}"
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) SECONDS_EACH="$2"; shift 2 ;;
        --scratch) SCRATCH="$2"; shift 2 ;;
        --module) MODULE="$2"; shift 2 ;;
        --merge) MERGE=1; shift ;;
        --jobs) JOBS="$2"; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) TARGETS+=("$1"); shift ;;
    esac
done
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(pattern store state options conf helper pad pam)
case "$SCRATCH" in /*) ;; *) SCRATCH="$ROOT/$SCRATCH" ;; esac
mkdir -p "$SCRATCH"

# No interactive Swift backtracer (it would hold a crashing input for 30 s); libFuzzer reports crashes.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
FUZZ_FLAGS=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

log() { printf '%s\n' "$*"; }
fail() { log "fuzz: $*"; exit 1; }
case "$JOBS" in '' | *[!0-9]* | 0) fail "--jobs wants a number of at least 1, not '$JOBS'" ;; esac

# Runs a build, showing its output without progress lines and the sanitizer runtime's linker noise;
# returns the build's own status.
quietly() {
    local output status
    output=$("$@" 2>&1)
    status=$?
    printf '%s\n' "$output" | grep -v -e "Cannot export local symbol" -e "^\[[0-9]*/[0-9]*\]" || true
    return $status
}

# --- builds (their own scratch paths: the release build in .build is never touched) -------------
SWIFT_FUZZ="$SCRATCH/swift/release/PatternFuzz"
build_swift() {
    log "== building PatternFuzz with libFuzzer + ASan ($SCRATCH/swift)"
    # --sanitize=fuzzer makes SwiftPM link libFuzzer's main; the -Xswiftc form instruments every Swift
    # file with coverage AND ASan (two --sanitize options reach the frontend as only the last one).
    quietly "$SWIFT" build -c release --package-path "$ROOT" --scratch-path "$SCRATCH/swift" --product PatternFuzz \
        --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
        -Xswiftc -parse-as-library -Xswiftc -D -Xswiftc PATTERN_LIBFUZZER || fail "PatternFuzz did not build"
}

PAM_FUZZ="$SCRATCH/pam/pam_fuzz"
FUZZ_MODULE="$SCRATCH/module/release/libpam_pattern.so"
build_pam() {
    log "== building the instrumented module ($SCRATCH/module) and fuzz/pam_fuzz.c"
    # Coverage + ASan inside the module; its ASan and coverage symbols come from the harness at dlopen,
    # so -z undefs lifts the module's -z defs for this build only.
    quietly "$SWIFT" build -c release --package-path "$ROOT" --scratch-path "$SCRATCH/module" --product pam_pattern \
        -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
        -Xlinker -z -Xlinker undefs || fail "the instrumented module did not build"
    mkdir -p "$SCRATCH/pam"
    # -rdynamic: the harness's pam_syslog/pam_vsyslog replace libpam's for the module (no syslog flood).
    quietly "$CLANG" -g -O1 -fsanitize=fuzzer,address -rdynamic -Wall -Wextra -Werror \
        -o "$PAM_FUZZ" "$ROOT/fuzz/pam_fuzz.c" -lpam -lcrypt -ldl || fail "pam_fuzz did not build"
}

# --- running ----------------------------------------------------------------------------------
# Each target's row of the final table, written by whichever lane ran it.
SUMMARY_DIR="$SCRATCH/logs/summary"
summary_row() { printf '%s\n' "$2" >"$SUMMARY_DIR/$1"; }
stat_of() { grep -E "^stat::$1:" "$2" | tail -1 | awk '{print $2}'; }

# The private directories the targets make (removed at exit, but not after a crash: ASan and abort
# skip atexit). Those that appear during a failed run are removed by it.
private_dirs() { ls -d /dev/shm/pam-fuzz.* /dev/shm/pattern-fuzz.* /tmp/pam-fuzz.* /tmp/pattern-fuzz.* 2>/dev/null | sort; }
remove_new_private_dirs() {
    comm -13 <(printf '%s\n' "$1") <(private_dirs) | while read -r dir; do [ -n "$dir" ] && rm -rf "$dir"; done
}

# run_target NAME BINARY MODULE_FOR_REPLAY MODULE_FOR_FUZZING
run_target() {
    local name="$1" binary="$2" replay_module="$3" fuzz_module="$4"
    local corpus="$ROOT/fuzz/corpus/$name" work="$SCRATCH/corpus/$name" artifacts="$SCRATCH/artifacts/$name/"
    local logs="$SCRATCH/logs" dict=()
    mkdir -p "$work" "$artifacts" "$logs"
    [ -f "$ROOT/fuzz/dict/$name.dict" ] && dict=(-dict="$ROOT/fuzz/dict/$name.dict")
    local count
    count=$(find "$corpus" -type f | wc -l)

    log "== $name: replaying $count committed inputs"
    if ! PATTERN_FUZZ_TARGET="$name" PAM_PATTERN_MODULE="$replay_module" \
        "$binary" "${FUZZ_FLAGS[@]}" -runs=0 -artifact_prefix="$artifacts" "$corpus" >"$logs/$name.replay" 2>&1; then
        tail -40 "$logs/$name.replay"
        fail "$name: the committed corpus fails (log: $logs/$name.replay)"
    fi

    log "== $name: fuzzing for ${SECONDS_EACH}s"
    if ! PATTERN_FUZZ_TARGET="$name" PAM_PATTERN_MODULE="$fuzz_module" \
        "$binary" "${FUZZ_FLAGS[@]}" "${dict[@]}" -max_total_time="$SECONDS_EACH" \
        -artifact_prefix="$artifacts" "$work" "$corpus" >"$logs/$name.fuzz" 2>&1; then
        grep -v -E "^#[0-9]+" "$logs/$name.fuzz" | tail -60
        local crash
        crash=$(ls -t "$artifacts" 2>/dev/null | head -1)
        log "fuzz: $name FAILED; input: $artifacts$crash"
        if [ "$name" = pam ]; then
            log "reproduce: PAM_PATTERN_MODULE=$fuzz_module $binary $artifacts$crash"
        else
            log "reproduce: PATTERN_FUZZ_TARGET=$name $binary $artifacts$crash"
        fi
        [ "$name" != pam ] && log "   (without sanitizers: swift build --product PatternFuzz; .build/debug/PatternFuzz $name FILE)"
        exit 1
    fi
    if [ "$MERGE" = 1 ]; then
        PATTERN_FUZZ_TARGET="$name" PAM_PATTERN_MODULE="$fuzz_module" \
            "$binary" -merge=1 "$corpus" "$work" >"$logs/$name.merge" 2>&1 || fail "$name: merge failed"
    fi
    local runs rate added
    runs=$(stat_of number_of_executed_units "$logs/$name.fuzz")
    rate=$(stat_of average_exec_per_sec "$logs/$name.fuzz")
    added=$(stat_of new_units_added "$logs/$name.fuzz")
    summary_row "$name" "$(printf '%-8s %8ss %12s %10s %9s %9s  ok' "$name" "$SECONDS_EACH" "$runs" "$rate" "$count" "$added")"
}

IS_ROOT=0
[ "$(id -u)" = 0 ] && IS_ROOT=1
need_swift=0 need_pam=0
for t in "${TARGETS[@]}"; do
    case "$t" in
        pattern|options|conf|helper|pad) need_swift=1 ;;
        store|state) [ $IS_ROOT = 1 ] && need_swift=1 ;;
        pam) [ $IS_ROOT = 1 ] && need_pam=1 ;;
        *) fail "unknown target '$t' (pattern store state options conf helper pad pam)" ;;
    esac
done
builds=()
[ $need_swift = 1 ] && builds+=(build_swift)
if [ $need_pam = 1 ]; then
    [ -f "$MODULE" ] || fail "no module at $MODULE (run make build)"
    builds+=(build_pam)
fi
if [ "$JOBS" -gt 1 ] && [ ${#builds[@]} -gt 1 ]; then
    # Two scratch paths, so the two builds can run at once; each is mostly one long compile after another (a
    # chain of modules), so side by side they fill two cores. Their output is shown when both are done.
    mkdir -p "$SCRATCH/logs"
    pids=()
    for b in "${builds[@]}"; do
        "$b" >"$SCRATCH/logs/$b.out" 2>&1 &
        pids+=($!)
    done
    failed=0
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" || failed=1
        cat "$SCRATCH/logs/${builds[$i]}.out"
    done
    [ $failed = 0 ] || exit 1
else
    for b in "${builds[@]}"; do "$b"; done
fi

run_one() {
    local t="$1"
    case "$t" in
        store|state|pam)
            if [ $IS_ROOT != 1 ]; then
                log "== $t: SKIPPED, needs root (the store and the module refuse files not owned by root)"
                summary_row "$t" "$(printf '%-8s %9s %12s %10s %9s %9s  skipped (not root)' "$t" - - - - -)"
                return 0
            fi ;;
    esac
    if [ "$t" = pam ]; then
        run_target pam "$PAM_FUZZ" "$MODULE" "$FUZZ_MODULE"
    else
        run_target "$t" "$SWIFT_FUZZ" "" ""
    fi
}

# The targets dealt round-robin to JOBS lanes; each lane (a subshell: fail ends only it) runs its own in turn.
rm -rf "$SUMMARY_DIR" && mkdir -p "$SUMMARY_DIR"
before=$(private_dirs)
lanes=()
for ((lane = 0; lane < JOBS && lane < ${#TARGETS[@]}; lane++)); do
    (
        for ((i = lane; i < ${#TARGETS[@]}; i += JOBS)); do run_one "${TARGETS[$i]}"; done
    ) &
    lanes+=($!)
done
failed=0
for pid in "${lanes[@]}"; do wait "$pid" || failed=1; done
if [ $failed = 1 ]; then
    # Left by a crash (ASan and abort skip atexit), now that no target runs any more.
    remove_new_private_dirs "$before"
    exit 1
fi

log ""
log "target     time        execs    execs/s   corpus  new units"
for t in "${TARGETS[@]}"; do cat "$SUMMARY_DIR/$t"; done
exit 0
}
