#!/bin/bash
# Turns a tree staged from one install list (`make install-rows LAYOUT=debian INSTALL_LIST=... DESTDIR=STAGE`)
# into OUTDIR/PACKAGE_<version>_<arch>.deb: man pages and the changelog
# gzipped, copyright and lintian overrides added, maintainer scripts,
# conffiles (everything under /etc), md5sums, Depends from what the ELF files
# link. Reproducible: every timestamp is the changelog's date, owners are
# root:root, dpkg-deb sorts the members.
# The Debian source package's files at the top of the tree (debian/) are this route's too, so the two build the
# same packages: PACKAGE's stanza of debian/control, its substitution variables filled in as debhelper would
# (${shlibs:Depends}, ${tss2:Recommends}, ${source:Version}, ${binary:Version}; ${misc:Depends} is empty here), is its control
# file, with the source stanza's Maintainer, Section and Priority where the stanza has none. As debhelper
# does, the first package (pam-pattern) takes debian/postinst, prerm, postrm, triggers and lintian-overrides;
# another one debian/PACKAGE.postinst and so on, where it has them. A package whose stanza says
# "Architecture: all" holds no ELF file (nothing for dpkg-shlibdeps) and its Depends are the stanza's own.
# Usage: build-deb.sh PACKAGE STAGE OUTDIR [VERSION]
set -euo pipefail

package=$1 stage=$(realpath -- "$2") outdir=$3
here=$(cd "$(dirname "$0")" && pwd)
meta=$(dirname "$here")/debian
changelog=$meta/changelog
version=${4:-$(dpkg-parsechangelog -l "$changelog" -SVersion)}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(dpkg-parsechangelog -l "$changelog" -STimestamp)}
docdir=$stage/usr/share/doc/$package
umask 022

[ -d "$stage" ] || { echo "build-deb.sh: no staged tree at $stage" >&2; exit 1; }
# The package's stanza: from its "Package:" line to the next blank line.
stanza=$(awk -v p="$package" '/^Package: / { keep = ($2 == p) } keep && /^$/ { exit } keep' "$meta/control")
[ -n "$stanza" ] || { echo "build-deb.sh: no stanza for $package in $meta/control" >&2; exit 1; }
first=$(sed -n 's/^Package: //p' "$meta/control" | head -n 1)
# debian/NAME of this package: PACKAGE.NAME, or NAME for the first package.
meta_file() {
    if [ -e "$meta/$package.$1" ]; then echo "$meta/$package.$1"
    elif [ "$package" = "$first" ] && [ -e "$meta/$1" ]; then echo "$meta/$1"
    fi
}
if grep -q '^Architecture: all$' <<< "$stanza"; then arch=all; else arch=$(dpkg --print-architecture); fi
# The source stanza's FIELD (the first paragraph).
source_field() { awk -v f="$1: " '/^$/ { exit } index($0, f) == 1 { print substr($0, length(f) + 1) }' "$meta/control"; }

# Debian policy: man pages and changelogs compressed (gzip -9n: no name, no time).
if [ -d "$stage/usr/share/man" ]; then
    find "$stage/usr/share/man" -type f ! -name '*.gz' -exec gzip -9nf {} +
fi
install -d "$docdir"
install -m 0644 "$meta/copyright" "$docdir/copyright"
gzip -9n < "$changelog" > "$docdir/changelog.gz"   # a native package's changelog
chmod 0644 "$docdir/changelog.gz"
overrides=$(meta_file lintian-overrides)
if [ -n "$overrides" ] && grep -q -v -E '^[[:space:]]*(#|$)' "$overrides"; then
    install -D -m 0644 "$overrides" "$stage/usr/share/lintian/overrides/$package"
fi

rm -rf "$stage/DEBIAN"
install -d "$stage/DEBIAN"
for script in postinst prerm postrm; do
    file=$(meta_file $script)
    # debhelper's #DEBHELPER# token: what dh_installdeb would put there is nothing here (no dh snippets)
    [ -z "$file" ] || { sed '/^#DEBHELPER#$/d' "$file" > "$stage/DEBIAN/$script" && chmod 0755 "$stage/DEBIAN/$script"; }
done
# dpkg triggers the package is interested in (no script: postinst is called with "triggered").
triggers=$(meta_file triggers)
[ -z "$triggers" ] || install -m 0644 "$triggers" "$stage/DEBIAN/triggers"
if [ -d "$stage/etc" ]; then
    (cd "$stage" && find etc -type f | LC_ALL=C sort | sed 's|^|/|') > "$stage/DEBIAN/conffiles"
    [ -s "$stage/DEBIAN/conffiles" ] || rm -f "$stage/DEBIAN/conffiles"
fi
# dpkg checks conffiles itself; md5sums lists the rest (as dh_md5sums does)
(cd "$stage" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -print \
    | sed 's|^\./||' | LC_ALL=C sort | xargs -r -d '\n' md5sum) > "$stage/DEBIAN/md5sums"

# ${shlibs:Depends}: the packages whose libraries the ELF files link (dpkg-shlibdeps wants a debian/control
# beside it).
depends="" recommends=""
if [ "$arch" != all ]; then
    elves=()
    while IFS= read -r -d '' f; do
        [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && elves+=("-e$f")
    done < <(find "$stage" -path "$stage/DEBIAN" -prune -o -type f -print0 | sort -z)
    shlibs_dir=$(mktemp -d)
    trap 'rm -rf "$shlibs_dir"' EXIT
    mkdir "$shlibs_dir/debian"
    printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$package" "$package" > "$shlibs_dir/debian/control"
    shlibs=$(cd "$shlibs_dir" && dpkg-shlibdeps -O "${elves[@]}" | sed -n 's/^shlibs:Depends=//p')
    [ -n "$shlibs" ] || { echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
    depends=$shlibs
    recommends=$("$here/tss2-recommends.sh")
fi

size=$(du -s -k --apparent-size --exclude=DEBIAN "$stage" | cut -f1)
{
    printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: %s\nInstalled-Size: %s\n' \
        "$package" "$version" "$arch" "$(source_field Maintainer)" "$size"
    for field in Section Priority; do
        grep -q "^$field: " <<< "$stanza" || printf '%s: %s\n' "$field" "$(source_field $field)"
    done
    grep -v -E '^(Package|Architecture): ' <<< "$stanza" |
        sed -e "s#\${shlibs:Depends}#$depends#" -e "s#\${tss2:Recommends}#$recommends#" \
            -e "s#\${source:Version}#$version#g" -e "s#\${binary:Version}#$version#g" -e 's#, *\${misc:Depends}##; s#\${misc:Depends}, *##'
} > "$stage/DEBIAN/control"

find "$stage" -type d -exec chmod 0755 {} +
# The directories make install made with a mode of their own (the root-only store and state),
# as "DIR MODE" lines of make print-installed-directories.
while read -r dir mode; do
    [ -z "$dir" ] || chmod "$mode" "$stage$dir"
done <<< "${DIRECTORY_MODES:-}"
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$outdir"
deb=$outdir/${package}_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
# Directories other packages make (SHARED_DIRECTORIES, the PAM module directory) are not claimed.
shared=()
for dir in ${SHARED_DIRECTORIES:-}; do [ ! -d "$stage$dir" ] || shared+=("$dir"); done
[ ${#shared[@]} -eq 0 ] || "$here/unclaim-directories.py" "$deb" "${shared[@]}"
echo "$deb"
