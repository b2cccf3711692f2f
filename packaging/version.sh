#!/bin/bash
# The version of the packages `make deb` builds: a release is a version, and only a release has the bare number.
# debian/changelog's top entry names the version; the commit tagged v<version> is that release and builds as
# <version>. Every other commit builds as a version of its own that sorts where it belongs:
#   <version>+git<N>.<commit>  N commits after the release v<version>
#   <version>~git<N>.<commit>  on the way to it (no tag v<version> yet): N commits after the last v* tag
# Outside a git checkout (an unpacked source package), the changelog's version as it is.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(dpkg-parsechangelog -l "$root/debian/changelog" -SVersion)
repo() { git -C "$root" "$@"; }
if ! repo rev-parse -q --verify HEAD >/dev/null 2>&1; then
    echo "$version"
    exit 0
fi
commit=$(repo rev-parse --short=7 HEAD)
if repo rev-parse -q --verify "refs/tags/v$version" >/dev/null && repo merge-base --is-ancestor "v$version" HEAD; then
    after=$(repo rev-list --count "v$version..HEAD")
    if [ "$after" = 0 ]; then echo "$version"; else echo "$version+git$after.$commit"; fi
else
    last=$(repo describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || true)
    echo "$version~git$(repo rev-list --count ${last:+$last..}HEAD).$commit"
fi
