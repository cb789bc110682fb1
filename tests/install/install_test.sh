#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Installs the build into a temporary root and builds a consumer through pkg-config with each
# personality (dpu, host, and the default directory), then runs it against the installed libs.
# Then runs the installed programs with no LD_LIBRARY_PATH (they find the libraries through
# their install rpath): doca_caps --version and a doca_dma_copy host/DPU pair.
# usage: install_test.sh <build dir> <prefix> <libdir> <cc> <consumer.c> [<bindir> <libexecdir>]
set -eu
build=$1; prefix=$2; libdir=$3; cc=$4; src=$5; bindir=${6:-bin}; libexecdir=${7:-libexec}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
DESTDIR=$root meson install -C "$build" --no-rebuild --quiet >/dev/null
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
for p in dpu host default; do
	pcdir=$root$libdir/pkgconfig
	[ $p = default ] || pcdir=$pcdir/$p
	export PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$pcdir
	ver=$(pkg-config --modversion doca-dma)
	for m in doca-common doca-argp doca-comch doca-flow doca-eth doca-gpunetio doca-dpdk-bridge; do
		[ "$ver" = "$(pkg-config --modversion $m)" ] || { echo "FAIL: doca-dma $ver != $m"; exit 1; }
	done
	case $ver in 3.3.*) ;; *) echo "FAIL: doca-dma version $ver is not 3.3.x"; exit 1 ;; esac
	flags=$(pkg-config --cflags --libs doca-common doca-dma doca-argp doca-comch doca-flow doca-eth)
	$cc -std=c11 -DDOCA_ALLOW_EXPERIMENTAL_API -Wall -Wextra -Werror -o "$root/consumer-$p" "$src" $flags
	out=$(LD_LIBRARY_PATH=$root$libdir "$root/consumer-$p")
	echo "$p: $(echo "$out" | tr '\n' ' ')"
	want=$p; [ $p = default ] && want=dpu
	echo "$out" | grep -q "personality $want" || { echo "FAIL: $p built with the wrong personality"; exit 1; }
	echo "$out" | grep -q "copied: installed softdoca copies bytes" || { echo "FAIL: $p consumer did not copy"; exit 1; }
	# GPUNetIO links and loads without CUDA; its device headers are installed beside the host one.
	printf '%s\n' '#include <doca_gpunetio.h>' '#include <doca_gpunetio_dev_sem.cuh>' \
		'int main(void) { struct doca_gpu *g; return doca_gpu_create("not-a-pci", &g) == DOCA_ERROR_INVALID_VALUE ? 0 : 1; }' \
		> "$root/gpu.c"
	$cc -std=c11 -DDOCA_ALLOW_EXPERIMENTAL_API -Wall -Wextra -Werror -o "$root/gpu-$p" "$root/gpu.c" \
		$(pkg-config --cflags --libs doca-gpunetio)
	LD_LIBRARY_PATH=$root$libdir "$root/gpu-$p" 2>/dev/null || { echo "FAIL: $p doca-gpunetio consumer"; exit 1; }
done
unset LD_LIBRARY_PATH
case $bindir in /*) ;; *) bindir=$prefix/$bindir ;; esac
case $libexecdir in /*) ;; *) libexecdir=$prefix/$libexecdir ;; esac
if [ -x "$root$bindir/doca_caps" ]; then
	out=$("$root$bindir/doca_caps" --version) || { echo "FAIL: installed doca_caps does not run"; exit 1; }
	echo "installed doca_caps --version: $out"
fi
dpu=$root$libexecdir/softdoca/dpu/doca_dma_copy host=$root$libexecdir/softdoca/host/doca_dma_copy
if [ -x "$dpu" ] && [ -x "$host" ]; then
	mkdir -m 700 "$root/run" "$root/d" "$root/h"
	head -c 1000000 /dev/urandom > "$root/h/f.bin"
	XDG_RUNTIME_DIR=$root/run "$dpu" -f "$root/d/f.bin" -t 30 > "$root/dpu.log" 2>&1 &
	dpid=$!
	XDG_RUNTIME_DIR=$root/run "$host" -f "$root/h/f.bin" -t 30 > "$root/host.log" 2>&1 ||
		{ cat "$root/host.log"; kill $dpid 2>/dev/null || true; echo "FAIL: installed doca_dma_copy (host)"; exit 1; }
	wait $dpid || { cat "$root/dpu.log"; echo "FAIL: installed doca_dma_copy (DPU)"; exit 1; }
	cmp "$root/h/f.bin" "$root/d/f.bin" || { echo "FAIL: installed doca_dma_copy pair copied wrong bytes"; exit 1; }
	echo "installed doca_dma_copy pair: 1000000 bytes host -> DPU, verified"
fi
# The examples are programs: under libexec, never in the architecture-independent share/.
if [ -n "$(find "$root$prefix" -path '*/share/softdoca/examples*' 2>/dev/null | head -1)" ]; then
	echo "FAIL: programs installed under share/softdoca/examples"; exit 1
fi
ex=$root$libexecdir/softdoca/examples/dma_local_copy
if [ -x "$ex" ]; then
	"$ex" > "$root/ex.log" 2>&1 || { cat "$root/ex.log"; echo "FAIL: installed example dma_local_copy"; exit 1; }
	echo "installed example dma_local_copy: ran"
fi
# Man pages and bash completions land where man and bash-completion look (when python3 built them).
man1=$(find "$root$prefix" -path '*/man/man1/doca_caps.1' 2>/dev/null | head -1)
if [ -n "$man1" ]; then
	for p in doca_caps doca-env doca-capability-snapshot softdoca-trace softdoca-wire doca_dma_copy; do
		[ -f "$(dirname "$man1")/$p.1" ] || { echo "FAIL: no installed man page for $p"; exit 1; }
		[ -n "$(find "$root$prefix" -path "*/bash-completion/completions/$p" | head -1)" ] ||
			{ echo "FAIL: no installed bash completion for $p"; exit 1; }
	done
	echo "installed man pages and bash completions: 6 programs"
fi
echo "install test passed (pkg-config modversion $ver)"
