#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Builds softdoca's Debian packages (debian/: libsoftdoca3, libsoftdoca-dev, softdoca-tools, in
# DOCA's layout under /opt/mellanox/doca) and puts the .deb files in OUTDIR (default: the current
# directory). dpkg-buildpackage runs on a copy of the tree in a temporary directory, removed at
# the end: the source tree gets no debian/ build files, build directory or .deb files.
#   scripts/build-debs.sh [OUTDIR]
# Needs dpkg-buildpackage, debhelper and the build dependencies of debian/control
# (scripts/deps.sh installs them).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
outdir=${1:-.}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
for p in dpkg-buildpackage dh; do
	command -v "$p" >/dev/null 2>&1 || { echo "build-debs: $p not found; run scripts/deps.sh (or apt-get install dpkg-dev debhelper)" >&2; exit 1; }
done
# The package version is softdoca's: debian/changelog must name the version meson.build does.
meson_ver=$(sed -n "s/^[[:space:]]*version: '\([^']*\)',*$/\1/p" "$src/meson.build" | head -1)
deb_ver=$(sed -n '1s/^softdoca (\([^)]*\)).*/\1/p' "$src/debian/changelog")
if [ "$meson_ver" != "$deb_ver" ]; then
	echo "build-debs: debian/changelog is at $deb_ver, meson.build at $meson_ver; add a debian/changelog entry for $meson_ver" >&2
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$work/softdoca"
# The tree as it is (committed or not), without what git ignores (build directories).
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\n" "$f"; done' sh) |
		(cd "$src" && tar -cf - -T -) | tar -xf - -C "$work/softdoca"
else
	(cd "$src" && tar -cf - --exclude='./_build*' --exclude='./build' .) | tar -xf - -C "$work/softdoca"
fi
jobs=$(nproc 2>/dev/null || echo 1)
(cd "$work/softdoca" && DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} parallel=$jobs" dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1 || {
	echo "build-debs: dpkg-buildpackage failed; its errors and the end of its log:" >&2
	grep -E '^(FAILED|ERROR|dh_[a-z_]*: error|dpkg-[a-z]*: error)|error:' "$work/build.log" | cut -c1-300 | head -20 >&2
	tail -5 "$work/build.log" | cut -c1-300 >&2
	exit 1
}
n=0
for deb in "$work"/*.deb; do
	[ -e "$deb" ] || continue
	cp "$deb" "$outdir/"
	echo "$outdir/$(basename "$deb")"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "build-debs: dpkg-buildpackage made no .deb" >&2; exit 1; }
