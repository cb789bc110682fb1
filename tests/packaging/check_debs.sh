#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The Debian packages, end to end, on this machine: builds them (scripts/build-debs.sh), runs
# lintian (any E: fails), installs them with apt, checks that apt counts DOCA's package names as
# installed, runs /opt/mellanox/doca/tools/doca_caps --list-devs, builds dma_check.c outside the
# tree with nothing but pkg-config pointed at /opt/mellanox/doca/lib/<triplet>/pkgconfig and runs
# it (no rpath, no LD_LIBRARY_PATH: the ld.so.conf.d entry finds the libraries), then purges the
# packages and checks that /opt/mellanox/doca, the ld.so.conf.d entry and the linker cache's
# entries are gone, and that the source tree is as it was.
#
# It installs system packages, so it runs only where that is wanted: as root, with CI=true or
# SOFTDOCA_TEST_PACKAGES=1, and only where no DOCA (softdoca's or NVIDIA's) is installed already.
# Otherwise it skips (exit 77).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
start=$(date +%s)
say() { echo "check_debs: [$(($(date +%s) - start)) s] $*"; }
skip() { say "skipped: $*"; exit 77; }
fail() { say "FAIL: $*"; exit 1; }

[ "${CI:-}" = true ] || [ "${SOFTDOCA_TEST_PACKAGES:-}" = 1 ] ||
	skip "installs system packages; set SOFTDOCA_TEST_PACKAGES=1 (or CI=true) to run it"
[ "$(id -u)" = 0 ] || skip "needs root (apt-get install)"
for p in dpkg-buildpackage dh apt-get lintian pkg-config cc; do
	command -v "$p" >/dev/null 2>&1 || skip "$p not found (scripts/deps.sh installs it)"
done
pkgs="libsoftdoca3 libsoftdoca-dev softdoca-tools"
for p in $pkgs; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q installed; then
		skip "$p is installed already; this check installs and removes its own"
	fi
done
[ ! -e /opt/mellanox/doca ] || skip "/opt/mellanox/doca exists (a DOCA install this check must not touch)"
had_mellanox=0
[ -e /opt/mellanox ] && had_mellanox=1
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null) || fail "dpkg-architecture names no multiarch triplet"
doca=/opt/mellanox/doca
libdir=$doca/lib/$triplet

work=$(mktemp -d "${TMPDIR:-/tmp}/check-debs.XXXXXX") || exit 1
installed=0
cleanup() {
	if [ "$installed" = 1 ]; then
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -qq $pkgs >/dev/null 2>&1
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -m 0700 "$work/run" "$work/tmp" "$work/lintian"
# What the programs below make at run time stays in the check's own directories.
XDG_RUNTIME_DIR=$work/run TMPDIR=$work/tmp
export XDG_RUNTIME_DIR TMPDIR
unset LD_LIBRARY_PATH PKG_CONFIG_PATH
tree_before=$(git -C "$src" status --porcelain 2>/dev/null)

say "building the packages"
sh "$src/scripts/build-debs.sh" "$work/debs" >"$work/build.out" 2>&1 || { cat "$work/build.out"; fail "scripts/build-debs.sh"; }
debs=""
for p in $pkgs; do
	f=$(ls "$work/debs/${p}_"*.deb 2>/dev/null | head -1)
	[ -n "$f" ] || fail "scripts/build-debs.sh made no $p package"
	debs="$debs $f"
done
[ "$(git -C "$src" status --porcelain 2>/dev/null)" = "$tree_before" ] ||
	fail "scripts/build-debs.sh changed the source tree: $(git -C "$src" status --porcelain)"

say "lintian"
# shellcheck disable=SC2086
TMPDIR=$work/lintian lintian $debs >"$work/lintian.out" 2>&1
grep -E '^[EW]: ' "$work/lintian.out"
! grep -q '^E: ' "$work/lintian.out" || fail "lintian reports errors"

say "apt-get install$debs"
installed=1
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debs >"$work/apt.out" 2>&1 ||
	{ cat "$work/apt.out"; fail "apt-get install of the packages"; }
# DOCA's package names count as installed: apt has nothing to do for them.
apt-get install -s libdoca-sdk-dma-dev libdoca-sdk-common-dev doca-sdk-dma libdoca-sdk-gpunetio-dev doca-caps \
	>"$work/apt-doca.out" 2>&1 || { cat "$work/apt-doca.out"; fail "apt cannot satisfy DOCA's package names"; }
! grep -q '^Inst ' "$work/apt-doca.out" || { cat "$work/apt-doca.out"; fail "apt would install packages for DOCA's names"; }

for f in "$libdir/libdoca_dma.so.3" "$libdir/pkgconfig/doca-dma.pc" "$libdir/pkgconfig/dpu/doca-dma.pc" \
	"$libdir/pkgconfig/host/doca-dma.pc" "$doca/include/doca_dma.h" "$doca/applications/VERSION" \
	/etc/ld.so.conf.d/softdoca.conf; do
	[ -e "$f" ] || fail "the packages installed no $f"
done
pc="env PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config"
ver=$($pc --modversion doca-common) || fail "pkg-config finds no doca-common in $libdir/pkgconfig"
[ "$(cat "$doca/applications/VERSION")" = "$ver" ] ||
	fail "applications/VERSION says $(cat "$doca/applications/VERSION"), doca-common.pc $ver"
ldconfig -p | grep -q "libdoca_dma.so.3 .*=> $libdir/libdoca_dma.so.3" ||
	fail "the linker cache has no libdoca_dma.so.3 in $libdir (the ldconfig trigger)"

say "$doca/tools/doca_caps --list-devs"
"$doca/tools/doca_caps" --list-devs >"$work/caps.out" 2>&1 || { cat "$work/caps.out"; fail "doca_caps --list-devs"; }
cat "$work/caps.out"
[ -s "$work/caps.out" ] || fail "doca_caps --list-devs printed nothing"

say "a DMA program built with pkg-config outside the tree"
mkdir "$work/prog"
cp "$src/tests/packaging/dma_check.c" "$work/prog/"
# shellcheck disable=SC2046
(cd "$work/prog" && cc -std=c11 -Wall -Wextra -Werror -DDOCA_ALLOW_EXPERIMENTAL_API -o dma_check dma_check.c \
	$($pc --cflags --libs doca-dma doca-common)) || fail "building dma_check.c against $libdir/pkgconfig"
! readelf -d "$work/prog/dma_check" | grep -qE 'RPATH|RUNPATH' || fail "dma_check was linked with an rpath"
"$work/prog/dma_check" || fail "dma_check"

say "apt-get remove --purge"
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -qq $pkgs >"$work/apt.out" 2>&1 ||
	{ cat "$work/apt.out"; fail "apt-get remove --purge of the packages"; }
installed=0
[ ! -e "$doca" ] || fail "$doca is left after the purge: $(find "$doca" | head -5 | tr '\n' ' ')"
[ "$had_mellanox" = 1 ] || [ ! -e /opt/mellanox ] || fail "/opt/mellanox is left after the purge"
[ ! -e /etc/ld.so.conf.d/softdoca.conf ] || fail "/etc/ld.so.conf.d/softdoca.conf is left after the purge"
! ldconfig -p | grep -q "$libdir" || fail "the linker cache still lists $libdir"
left=$(find "$work/run" "$work/tmp" -mindepth 1)
[ -z "$left" ] || fail "the programs left files: $left"
say "ok: built, lintian-clean, installed, used and purged"
