#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/dma_copy_bench.sh runs and prints all eight rows of a small file (8 MiB, one copy each
# way, warm and cold; the bench itself compares every copy byte for byte) and leaves nothing
# behind in its TMPDIR; each copy's row has both ratios to cp. No rate is checked.
set -u
script=$1
build=$2
tmp=$(mktemp -d)
out=$tmp.out
trap 'rm -rf "$tmp" "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }

TMPDIR=$tmp sh "$script" "$build" 8 1 "warm cold" >"$out" 2>&1 || fail "dma_copy_bench.sh exited $?"
for c in warm cold; do
	for r in "cp of the host's file" 'doca_dma_copy host -> DPU' "cp of the DPU side's file" \
		'doca_dma_copy DPU -> host'; do
		grep -Fq "| 8 MiB | $c | $r | " "$out" || fail "no $c row for $r"
	done
done
[ "$(grep -c '^| 8 MiB |' "$out")" = 8 ] || fail "not eight rows"
grep -Fq '| x cp | x cp, paired | CPU s |' "$out" || fail "no paired ratio column"
# each copy's row: rate, ratio of the medians, median (min-max) of the paired ratios, CPU
[ "$(grep -cE '^\| 8 MiB \| (warm|cold) \| doca_dma_copy [^|]+\| [0-9.]+ \([0-9.]+-[0-9.]+\) \| [0-9.]+ \| [0-9.]+ \([0-9.]+-[0-9.]+\) \| ' "$out")" = 4 ] ||
	fail "a copy's row lacks its ratios"
[ -z "$(ls -A "$tmp")" ] || fail "left behind in TMPDIR: $(ls -A "$tmp")"
echo "eight rows, nothing left behind"
