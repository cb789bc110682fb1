#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# doca_dma_copy against cp, same file, same run: median (min-max) of RUNS copies each, host -> DPU
# and DPU -> host, each against cp of its own source (the host's file, the DPU side's file: the
# same bytes, but files written differently read at different speeds, cold above all), warm
# (source in the page cache) and cold (source dropped from it first with
# posix_fadvise(POSIX_FADV_DONTNEED), through dd iflag=nocache; no root needed). Before every
# timed copy the previous copies' dirty pages are written back (sync), so that no copy pays
# for another's writeback, and fresh memory is written and freed (<build>/bench/mem_touch),
# so that no copy's new pages are ones a VM had handed back to its hypervisor. Times are
# whole-command wall times: two processes, the Comch meeting and the copy for doca_dma_copy.
# Beside each rate, the CPU time (user + system) the command's processes used, summed: it
# varies less than wall time on a shared machine. Two ratios to cp: of the medians, and the
# median (min-max) of each copy's ratio to the cp timed just before it (paired: the two seconds
# apart, where a VM's slow and fast phases last longer than that).
#   bench/dma_copy_bench.sh <build dir> [SIZES_MIB] [RUNS] [CACHES]
#   e.g. bench/dma_copy_bench.sh build 256,2048 3 "warm cold"     (defaults: 256, 3, "warm cold")
set -eu
build=$1; sizes=${2:-256}; runs=${3:-3}; caches=${4:-warm cold}
dpu=$build/apps/dma-copy/dpu/doca_dma_copy
host=$build/apps/dma-copy/host/doca_dma_copy
memtouch=$build/bench/mem_touch
for p in "$dpu" "$host" "$memtouch"; do [ -x "$p" ] || { echo "no $p: build first (ninja -C $build)" >&2; exit 1; }; done
for c in $caches; do [ "$c" = warm ] || [ "$c" = cold ] || { echo "cache mode $c: warm or cold" >&2; exit 1; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/run" "$work/h" "$work/d"; chmod 700 "$work/run"
export XDG_RUNTIME_DIR=$work/run

now() { date +%s%N; }
stats() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'; }
# prepare <cache> <source>: written back, then dropped from the page cache (cold) or read into
# it (warm); then twice its size and 64 MiB of fresh memory (a source and a destination in the
# page cache, rings) written and freed
prepare() {
	sync
	if [ "$1" = cold ]; then dd if="$2" iflag=nocache count=0 status=none; else cat "$2" > /dev/null; fi
	"$memtouch" $((2 * size_mib + 64))
}
rate() { echo "$1 $2 $3" | awk '{ print $1 / ($3 - $2) }'; }
# mark <name>: the CPU time (user + system) of all the children this shell has waited for so
# far, kept in a file (times must run in this shell, not in a command substitution's)
mark() { times > "$work/$1"; }
# cpu: the children's CPU seconds between mark c0 and mark c1
cpu() {
	for m in c0 c1; do
		awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%.3f ", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$work/$m"
	done | awk '{ print $2 - $1 }'
}

echo "file copy, $runs runs each, GB/s median (min-max), whole command wall time:"
echo "| size | source | copy | GB/s | x cp | x cp, paired | CPU s |"
echo "|---|---|---|---|---|---|---|"
for size_mib in $(echo "$sizes" | tr ',' ' '); do
	bytes=$((size_mib * 1048576))
	rm -f "$work/h/src" "$work/d/src"
	head -c $bytes /dev/urandom > "$work/h/src"
	cp "$work/h/src" "$work/d/src"
	for cache in $caches; do
		for f in cph h2d cpd d2h; do : > "$work/$f"; : > "$work/$f.cpu"; done
		for i in $(seq "$runs"); do
			# Each direction against cp of its own source: the same bytes, the same file.
			rm -f "$work/h/cp"; prepare $cache "$work/h/src"
			mark c0; t0=$(now); cp "$work/h/src" "$work/h/cp"; t1=$(now); mark c1
			rate $bytes $t0 $t1 >> "$work/cph"; cpu >> "$work/cph.cpu"
			rm -f "$work/h/cp"

			rm -f "$work/d/dst"; prepare $cache "$work/h/src"
			mark c0; "$dpu" -q -f "$work/d/dst" >"$work/dpu.log" 2>&1 & dp=$!
			t0=$(now); "$host" -q -f "$work/h/src" >"$work/host.log" 2>&1; wait $dp; t1=$(now); mark c1
			cmp -s "$work/h/src" "$work/d/dst" || { echo "host -> DPU copy differs"; exit 1; }
			rate $bytes $t0 $t1 >> "$work/h2d"; cpu >> "$work/h2d.cpu"
			rm -f "$work/d/dst"

			rm -f "$work/d/cp"; prepare $cache "$work/d/src"
			mark c0; t0=$(now); cp "$work/d/src" "$work/d/cp"; t1=$(now); mark c1
			rate $bytes $t0 $t1 >> "$work/cpd"; cpu >> "$work/cpd.cpu"
			rm -f "$work/d/cp"

			rm -f "$work/h/dst"; prepare $cache "$work/d/src"
			mark c0; "$dpu" -q -f "$work/d/src" >"$work/dpu.log" 2>&1 & dp=$!
			t0=$(now); "$host" -q -f "$work/h/dst" >"$work/host.log" 2>&1; wait $dp; t1=$(now); mark c1
			cmp -s "$work/d/src" "$work/h/dst" || { echo "DPU -> host copy differs"; exit 1; }
			rate $bytes $t0 $t1 >> "$work/d2h"; cpu >> "$work/d2h.cpu"
			rm -f "$work/h/dst"
		done
		for d in h2d d2h; do
			if [ $d = h2d ]; then c=cph; cpname="cp of the host's file"; name="doca_dma_copy host -> DPU"
			else c=cpd; cpname="cp of the DPU side's file"; name="doca_dma_copy DPU -> host"; fi
			cpm=$(stats < "$work/$c" | cut -d' ' -f1)
			m=$(stats < "$work/$d" | cut -d' ' -f1)
			printf "| %s MiB | %s | %s | %s | 1.00 | 1.00 | %s |\n" "$size_mib" "$cache" "$cpname" \
				"$(stats < "$work/$c")" "$(stats < "$work/$c.cpu")"
			printf "| %s MiB | %s | %s | %s | %.2f | %s | %s |\n" "$size_mib" "$cache" "$name" \
				"$(stats < "$work/$d")" "$(echo "$m $cpm" | awk '{ print $1 / $2 }')" \
				"$(paste "$work/$d" "$work/$c" | awk '{ print $1 / $2 }' | stats)" "$(stats < "$work/$d.cpu")"
		done
	done
done
