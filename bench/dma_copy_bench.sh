#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# doca_dma_copy against cp, same file, same run: median (min-max) of RUNS copies each.
# The source is read once first so the page cache is warm for both.
#   bench/dma_copy_bench.sh <build dir> [SIZE_MIB] [RUNS]
set -eu
build=$1; size_mib=${2:-256}; runs=${3:-5}
dpu=$build/apps/dma-copy/dpu/doca_dma_copy
host=$build/apps/dma-copy/host/doca_dma_copy
work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/run" "$work/h" "$work/d"; chmod 700 "$work/run"
export XDG_RUNTIME_DIR=$work/run
bytes=$((size_mib * 1048576))
head -c $bytes /dev/urandom > "$work/h/src"
cat "$work/h/src" > /dev/null

now() { date +%s%N; }
stats() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'; }

: > "$work/cp"; : > "$work/h2d"; : > "$work/d2h"
for i in $(seq "$runs"); do
	rm -f "$work/h/cp"; t0=$(now); cp "$work/h/src" "$work/h/cp"; t1=$(now)
	echo "$bytes $t0 $t1" | awk '{ print $1 / ($3 - $2) }' >> "$work/cp"

	rm -f "$work/d/dst"
	"$dpu" -f "$work/d/dst" >/dev/null 2>&1 & dp=$!
	t0=$(now); "$host" -f "$work/h/src" >/dev/null 2>&1; wait $dp; t1=$(now)
	cmp -s "$work/h/src" "$work/d/dst" || { echo "host -> DPU copy differs"; exit 1; }
	echo "$bytes $t0 $t1" | awk '{ print $1 / ($3 - $2) }' >> "$work/h2d"

	rm -f "$work/h/back"
	"$dpu" -f "$work/d/dst" >/dev/null 2>&1 & dp=$!
	t0=$(now); "$host" -f "$work/h/back" >/dev/null 2>&1; wait $dp; t1=$(now)
	cmp -s "$work/h/src" "$work/h/back" || { echo "DPU -> host copy differs"; exit 1; }
	echo "$bytes $t0 $t1" | awk '{ print $1 / ($3 - $2) }' >> "$work/d2h"
done
echo "file copy, ${size_mib} MiB, $runs runs each, GB/s median (min-max), whole command wall time:"
echo "| copy | GB/s | x cp |"
echo "|---|---|---|"
cpm=$(stats < "$work/cp" | cut -d' ' -f1)
printf "| cp | %s | 1.00 |\n" "$(stats < "$work/cp")"
for d in h2d d2h; do
	m=$(stats < "$work/$d" | cut -d' ' -f1)
	printf "| doca_dma_copy %s | %s | %.2f |\n" "$( [ $d = h2d ] && echo 'host -> DPU' || echo 'DPU -> host')" \
		"$(stats < "$work/$d")" "$(echo "$m $cpm" | awk '{ print $1 / $2 }')"
done
