#!/bin/bash
# make demo: set a demo pattern for you in a private temporary store and let
# you type it at a real PAM prompt (real libpam, real pam_pattern.so, a
# private service directory). Nothing under /etc is changed; everything is
# removed on exit.
set -euo pipefail
build=${1:?usage: run-demo.sh BUILD_DIR}
pattern=${DEMO_PATTERN:-2759148}
tries=3

if [ "$(id -u)" != 0 ]; then
    echo "make demo needs root: the store must be owned by root, as in real use." >&2
    echo "Run: sudo make demo" >&2
    exit 1
fi
user=${SUDO_USER:-$(id -un)}

work=$(mktemp -d /tmp/pam_pattern-demo.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0700 "$work"
store="$work/store/patterns"
state="$work/state"
mkdir -m 0700 "$work/store" "$work/state" "$work/pam.d"

printf '%s\n%s\n' "$pattern" "$pattern" |
    "$build/patternctl" set --store "$store" --state "$state" "$user" >/dev/null

cat >"$work/pam.d/pattern-demo" <<PAM
# private demo service: only pam_pattern, nothing else
auth     required  $build/pam_pattern.so store=$store state=$state show_grid
account  required  pam_permit.so
PAM

echo "pam_pattern demo: user '$user' now has the demo pattern $pattern:"
"$build/patternctl" show "$pattern" | sed -n '2,$p'
echo
echo "Type it at the prompt below (digits, e.g. $pattern; '1379' style shortcuts work)."
echo "You have $tries tries; a wrong one is refused, and so is an empty one (just Enter: a real stack"
echo "would go on to the password). The store is $store (deleted on exit)."
echo
# Not finding the pattern is the demo's answer, not make's failure.
if ! "$build/pam-try" "$work/pam.d" pattern-demo "$user" "$tries"; then
    echo
    echo "None of the $tries tries was the demo pattern $pattern; run 'sudo make demo' to try again."
fi
