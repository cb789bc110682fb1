#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# softdoca's main job: on a fresh machine, install what the build needs, build softdoca, and
# copy a generated file from the emulated host to the emulated DPU and back with the DMA Copy
# application (two processes talking over DOCA Comch, the DPU side moving the bytes with DOCA
# DMA across the process boundary) on the embedded default topology: no configuration, no root.
# Both copies are verified (end-to-end checksum, then cmp) and timed next to cp.
#
#   ./demo.sh [SIZE_MIB]     default 256
set -eu
cd "$(dirname "$0")"
size_mib=${1:-256}
sh scripts/deps.sh
dir=${SOFTDOCA_BUILD_DIR:-_build}
[ -f "$dir/build.ninja" ] || meson setup "$dir" -Dbuildtype=release >/dev/null
ninja -C "$dir" >/dev/null
dpu=$dir/apps/dma-copy/dpu/doca_dma_copy
host=$dir/apps/dma-copy/host/doca_dma_copy

work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-demo.XXXXXX")
mkdir -p "$work/host" "$work/dpu" "$work/run"
chmod 700 "$work/run"
export XDG_RUNTIME_DIR="$work/run" # the Comch rendezvous directory of this demo
dpid=
# Under dash with set -e a failing command in the EXIT trap (kill with no pid) would change the
# exit status and skip the clean-up, so every step of it is made to succeed.
cleanup() {
	[ -z "$dpid" ] || kill "$dpid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "softdoca $(sed -n "s/^\tversion: '\(.*\)',/\1/p" meson.build | head -1) (DOCA $(PKG_CONFIG_PATH=$dir/pkgconfig/dpu pkg-config --modversion doca-dma))"
echo "generating a ${size_mib} MiB test file"
head -c $((size_mib * 1048576)) /dev/urandom > "$work/host/data.bin"

copy() { # copy <label> <dpu file> <host file>
	echo "== $1"
	"$dpu" -f "$2" &
	dpid=$!
	"$host" -f "$3"
	wait $dpid
	dpid=
}
copy "host -> DPU" "$work/dpu/data.bin" "$work/host/data.bin"
cmp "$work/host/data.bin" "$work/dpu/data.bin"
mv "$work/dpu/data.bin" "$work/dpu/back.bin"
copy "DPU -> host" "$work/dpu/back.bin" "$work/host/back.bin"
cmp "$work/host/data.bin" "$work/host/back.bin"
echo "== cp of the same file, for comparison"
t0=$(date +%s%N); cp "$work/host/data.bin" "$work/host/cp.bin"; t1=$(date +%s%N)
awk -v n=$((size_mib * 1048576)) -v ns=$((t1 - t0)) 'BEGIN { printf "cp: %.3f s, %.2f GB/s\n", ns / 1e9, n / ns }'
echo "both copies verified byte for byte"
