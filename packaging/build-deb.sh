#!/bin/bash
# Turns a `make install LAYOUT=debian DESTDIR=STAGE` tree into
# OUTDIR/pam-pattern_<version>_<arch>.deb: man pages and the changelog
# gzipped, copyright and lintian overrides added, maintainer scripts,
# conffiles (everything under /etc), md5sums, Depends from what the ELF files
# link. Reproducible: every timestamp is the changelog's date, owners are
# root:root, dpkg-deb sorts the members.
# Usage: build-deb.sh STAGE OUTDIR [VERSION]
set -euo pipefail

stage=$(realpath -- "$1") outdir=$2
here=$(cd "$(dirname "$0")" && pwd)
meta=$here/debian
changelog=$meta/changelog
version=${3:-$(dpkg-parsechangelog -l "$changelog" -SVersion)}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(dpkg-parsechangelog -l "$changelog" -STimestamp)}
arch=$(dpkg --print-architecture)
package=pam-pattern
docdir=$stage/usr/share/doc/$package
umask 022

[ -d "$stage" ] || { echo "build-deb.sh: no staged tree at $stage" >&2; exit 1; }

# Debian policy: man pages and changelogs compressed (gzip -9n: no name, no time).
if [ -d "$stage/usr/share/man" ]; then
    find "$stage/usr/share/man" -type f ! -name '*.gz' -exec gzip -9nf {} +
fi
install -d "$docdir"
install -m 0644 "$meta/copyright" "$docdir/copyright"
gzip -9n < "$changelog" > "$docdir/changelog.gz"   # a native package's changelog
chmod 0644 "$docdir/changelog.gz"
if grep -q -v -E '^[[:space:]]*(#|$)' "$meta/lintian-overrides"; then
    install -D -m 0644 "$meta/lintian-overrides" "$stage/usr/share/lintian/overrides/$package"
fi

rm -rf "$stage/DEBIAN"
install -d "$stage/DEBIAN"
for script in postinst prerm postrm; do
    install -m 0755 "$meta/$script" "$stage/DEBIAN/$script"
done
if [ -d "$stage/etc" ]; then
    (cd "$stage" && find etc -type f | LC_ALL=C sort | sed 's|^|/|') > "$stage/DEBIAN/conffiles"
    [ -s "$stage/DEBIAN/conffiles" ] || rm -f "$stage/DEBIAN/conffiles"
fi
# dpkg checks conffiles itself; md5sums lists the rest (as dh_md5sums does)
(cd "$stage" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -print \
    | sed 's|^\./||' | LC_ALL=C sort | xargs -r -d '\n' md5sum) > "$stage/DEBIAN/md5sums"

# Depends: the packages whose libraries the ELF files link (dpkg-shlibdeps
# wants a debian/control beside it), plus pam-auth-update.
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
depends="$shlibs, libpam-runtime (>= 1.0.1-6)"
# Recommends: the tpm2-tss libraries the helper dlopens for TPM mode (pattern_tss.c), by the packages
# that hold those sonames here.
recommends=""
for soname in libtss2-esys.so.0 libtss2-sys.so.1 libtss2-rc.so.0; do
    file=$(realpath "$(gcc -print-file-name="$soname")")
    owner=$(dpkg -S "$file" 2>/dev/null || dpkg -S "${file/\/usr\/lib\//\/lib\/}" 2>/dev/null) ||
        { echo "build-deb.sh: no package holds $soname" >&2; exit 1; }
    recommends="${recommends:+$recommends, }${owner%%:*}"
done

size=$(du -s -k --apparent-size --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@INSTALLED_SIZE@|$size|" \
    -e "s|@DEPENDS@|$depends|" -e "s|@RECOMMENDS@|$recommends|" "$meta/control" > "$stage/DEBIAN/control"

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
echo "$deb"
