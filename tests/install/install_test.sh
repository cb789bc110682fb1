#!/bin/sh
# Installs the build into a temporary root and builds a consumer through pkg-config with each
# personality (dpu, host, and the default directory), then runs it against the installed libs.
# usage: install_test.sh <build dir> <prefix> <libdir> <cc> <consumer.c>
set -eu
build=$1; prefix=$2; libdir=$3; cc=$4; src=$5
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
DESTDIR=$root meson install -C "$build" --no-rebuild --quiet >/dev/null
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
for p in dpu host default; do
	pcdir=$root$libdir/pkgconfig
	[ $p = default ] || pcdir=$pcdir/$p
	export PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$pcdir
	ver=$(pkg-config --modversion doca-dma)
	for m in doca-common doca-argp doca-comch; do
		[ "$ver" = "$(pkg-config --modversion $m)" ] || { echo "FAIL: doca-dma $ver != $m"; exit 1; }
	done
	case $ver in 3.3.*) ;; *) echo "FAIL: doca-dma version $ver is not 3.3.x"; exit 1 ;; esac
	flags=$(pkg-config --cflags --libs doca-common doca-dma doca-argp doca-comch)
	$cc -std=c11 -DDOCA_ALLOW_EXPERIMENTAL_API -Wall -Wextra -Werror -o "$root/consumer-$p" "$src" $flags
	out=$(LD_LIBRARY_PATH=$root$libdir "$root/consumer-$p")
	echo "$p: $(echo "$out" | tr '\n' ' ')"
	want=$p; [ $p = default ] && want=dpu
	echo "$out" | grep -q "personality $want" || { echo "FAIL: $p built with the wrong personality"; exit 1; }
	echo "$out" | grep -q "copied: installed softdoca copies bytes" || { echo "FAIL: $p consumer did not copy"; exit 1; }
done
echo "install test passed (pkg-config modversion $ver)"
