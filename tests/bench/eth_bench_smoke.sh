#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# eth_bench runs and its rows say what it measured: over the default wire, over udp on the
# loopback against raw sendmmsg/recvmmsg, and (as root) over a veth pair against raw AF_PACKET,
# where the pair must be gone afterwards. No rate is checked: only that frames went through and
# every row is there.
set -u
bench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
export XDG_RUNTIME_DIR="$tmp" # the default wire's cable is this test's own, not left behind
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }

"$bench" --duration 0.2 --sizes 64,1500 --rows batch:batch,task:single --json >"$out" 2>&1 ||
	fail "eth_bench over the wire exited $?"
[ "$(grep -c '"rx": "batch", "tx": "batch"' "$out")" = 2 ] || fail "not two batch rows"
[ "$(grep -c '"rx": "task", "tx": "single"' "$out")" = 2 ] || fail "not two task rows"
grep -q '"received": 0,' "$out" && fail "a row received nothing"

"$bench" --duration 0.2 --sizes 64 --rows task:single --udp >"$out" 2>&1 || fail "eth_bench --udp exited $?"
[ "$(grep -c 'raw recvmmsg' "$out")" = 2 ] || fail "--udp: not two raw rows"
grep -Eq '^\| 64 B \| task \| single \| .* [0-9.]+x \|$' "$out" || fail "--udp: no task row with a ratio"
grep -Eq '\| 64 B \| task \| single \| [0-9.]+ \| [0-9.]+ \| [0-9]+ \| 0 \|' "$out" && fail "--udp: the task row received nothing"

"$bench" --duration 0.2 --sizes 64 --rows task:single --veth >"$out" 2>&1
rc=$?
if [ "$rc" = 77 ]; then
	echo "wire and udp rows checked; --veth skipped (not root)"
	exit 0
fi
if [ "$rc" != 0 ]; then
	# a machine without veth or namespaces (a container without CAP_NET_ADMIN) cannot run it
	if grep -q "cannot make" "$out"; then
		echo "wire rows checked; --veth skipped: $(grep 'cannot make' "$out" | head -1)"
		exit 0
	fi
	fail "eth_bench --veth exited $rc"
fi
[ "$(grep -c 'raw AF_PACKET' "$out")" = 2 ] || fail "not two raw rows"
grep -Eq '^\| 64 B \| task \| single \| .* [0-9.]+x \|$' "$out" || fail "no task row with a ratio"
grep -Eq '\| 64 B \| task \| single \| [0-9.]+ \| [0-9.]+ \| [0-9]+ \| 0 \|' "$out" && fail "the task row received nothing"
if ip -o link show 2>/dev/null | grep -q ' sdb[0-9]*a[@:]'; then
	fail "a veth end sdb*a is left behind"
fi
echo "wire, udp and veth rows checked"
