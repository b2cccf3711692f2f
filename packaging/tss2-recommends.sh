#!/bin/bash
# pam-pattern's Recommends: the tpm2-tss libraries the helper dlopens for TPM mode (pattern_tss.c), by the
# packages that hold those sonames on the building system (Debian 13 and unstable renamed them *t64), as one
# comma-separated list. build-deb.sh and debian/rules (the ${tss2:Recommends} of debian/control) both ask here.
set -euo pipefail

recommends=""
for soname in libtss2-esys.so.0 libtss2-sys.so.1 libtss2-rc.so.0; do
    file=$(realpath "$(gcc -print-file-name="$soname")")
    owner=$(dpkg -S "$file" 2>/dev/null || dpkg -S "${file/\/usr\/lib\//\/lib\/}" 2>/dev/null) ||
        { echo "tss2-recommends.sh: no package holds $soname" >&2; exit 1; }
    recommends="${recommends:+$recommends, }${owner%%:*}"
done
echo "$recommends"
