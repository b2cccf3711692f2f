#!/bin/bash
# Turns a tree staged from one install list (`make install-rows LAYOUT=debian INSTALL_LIST=... DESTDIR=STAGE`)
# into OUTDIR/PACKAGE_<version>_<arch>.deb: man pages and the changelog
# gzipped, copyright and lintian overrides added, maintainer scripts,
# conffiles (everything under /etc), md5sums, Depends from what the ELF files
# link. Reproducible: every timestamp is the changelog's date, owners are
# root:root, dpkg-deb sorts the members.
# PACKAGE's stanza of debian/control is its control file. As in a Debian source package, the first
# package (pam-pattern) takes debian/postinst, prerm, postrm, triggers and lintian-overrides; another one
# debian/PACKAGE.postinst and so on, where it has them. A package whose stanza says "Architecture: all"
# holds no ELF file (nothing for dpkg-shlibdeps) and its Depends are the stanza's own.
# Usage: build-deb.sh PACKAGE STAGE OUTDIR [VERSION]
set -euo pipefail

package=$1 stage=$(realpath -- "$2") outdir=$3
here=$(cd "$(dirname "$0")" && pwd)
meta=$here/debian
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
    [ -z "$file" ] || install -m 0755 "$file" "$stage/DEBIAN/$script"
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

# Depends: the packages whose libraries the ELF files link (dpkg-shlibdeps
# wants a debian/control beside it), plus pam-auth-update for the first package.
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
    # The first package's: pam-auth-update, and (Recommends) the tpm2-tss libraries the helper dlopens for TPM
    # mode (pattern_tss.c), by the packages that hold those sonames here.
    if [ "$package" = "$first" ]; then
        depends="$shlibs, libpam-runtime (>= 1.0.1-6)"
        for soname in libtss2-esys.so.0 libtss2-sys.so.1 libtss2-rc.so.0; do
            file=$(realpath "$(gcc -print-file-name="$soname")")
            owner=$(dpkg -S "$file" 2>/dev/null || dpkg -S "${file/\/usr\/lib\//\/lib\/}" 2>/dev/null) ||
                { echo "build-deb.sh: no package holds $soname" >&2; exit 1; }
            recommends="${recommends:+$recommends, }${owner%%:*}"
        done
    fi
fi

size=$(du -s -k --apparent-size --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@INSTALLED_SIZE@|$size|" \
    -e "s|@DEPENDS@|$depends|" -e "s|@RECOMMENDS@|$recommends|" <<< "$stanza" > "$stage/DEBIAN/control"

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
