#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# dma_bench refuses a SOFTDOCA_BENCH_ARENA it cannot use whole (not a decimal number of bytes,
# or outside 1 byte..1 TiB): one line naming the variable, the value and what is accepted, exit
# status 2, before anything is measured (the timeout catches a bench that ran on regardless).
# usage: bench_arena_refused.sh <dma_bench>
set -u
bench=$1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for v in abc -1 +1 0 " 1" "1 " 1x 0x100000 1.5 1099511627777 99999999999999999999999; do
	SOFTDOCA_BENCH_ARENA=$v timeout 20 "$bench" --quick >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] || fail "SOFTDOCA_BENCH_ARENA='$v': exit status $rc, not 2 (124: the bench ran)"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "SOFTDOCA_BENCH_ARENA='$v': $(wc -l <"$tmp/err") lines: $(cat "$tmp/err")"
	grep -Fqx "dma_bench: SOFTDOCA_BENCH_ARENA='$v': not a number of bytes in 1..1099511627776; fix the value or unset the variable" \
		"$tmp/err" || fail "SOFTDOCA_BENCH_ARENA='$v': $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] || fail "SOFTDOCA_BENCH_ARENA='$v': the bench printed: $(head -3 "$tmp/out")"
done
echo "SOFTDOCA_BENCH_ARENA: every bad value refused"
