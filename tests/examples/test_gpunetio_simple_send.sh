#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpunetio_simple_send end to end without a GPU: the build with a CPU thread in place of its
# kernel, on the tests' fake CUDA runtime, sends on 03:00.0 and `softdoca-wire recv` takes the
# frames on 03:00.1 (the default topology's wire). Both packet memories, with and without the
# CPU proxy, high-level sends and (-w) low-level ones (prepare + submit): the receiver must see
# exactly the frames the example says it sent, numbered 0..N-1 in order, of the asked size, with
# valid IPv4/UDP checksums (the queue's offloads), nothing dropped by the wire (sending is paced
# with -r so its 512-slot ring does not fill). With -t instead of -c the counts must match the
# same way. Bad arguments are refused.
# usage: test_gpunetio_simple_send.sh <gpunetio_simple_send_cpu> <softdoca-wire> <fake CUDA runtime>
set -u
tx=$1; wire=$2; fake=$3
tmp=$(mktemp -d)
rpid=
trap '[ -n "$rpid" ] && kill $rpid 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; for f in tx.out tx.err recv.out; do [ -f "$tmp/$f" ] && sed "s/^/    $f: /" "$tmp/$f" | tail -8; done; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
printf '[profile default]\neth.supported = yes\n' >"$tmp/eth.conf"
export SOFTDOCA_CONFIG="$tmp/eth.conf"
unset SOFTDOCA_PCAP DOCA_LOG_LEVEL

# 1. No CUDA runtime: one line says the GPU could not be opened, exit 1.
SOFTDOCA_CUDART=/nonexistent/libcudart.so "$tx" -g 17:00.0 -c 10 >"$tmp/tx.out" 2>"$tmp/tx.err" && fail "ran without a CUDA runtime"
grep -q "cannot open the GPU 17:00.0" "$tmp/tx.err" || fail "no line naming the GPU"
# Bad arguments are refused before anything is opened, each with its reason.
bad() {
	want=$1
	shift
	SOFTDOCA_CUDART=$fake "$tx" -g 17:00.0 "$@" >"$tmp/tx.out" 2>"$tmp/tx.err" && fail "$* accepted"
	grep -q "$want" "$tmp/tx.err" || fail "$*: no line saying '$want'"
	grep -q "^sending on" "$tmp/tx.out" && fail "$*: it started sending"
	return 0
}
bad "packet memory 'host'" -m host -c 10
bad "exec scope 3" -e 3 -c 10
bad "frame size 40" -s 40 -c 10
bad "frame size 2000" -s 2000 -c 10
bad "rate -5" -r -5 -c 10
bad "frames -1" -c -1

# 2. Frames over the wire: $1 memory, $2 proxy (0/1), $3 scope, $4 count (or "t" for -t 1),
# $5 frame size, $6 rate, $7 low-level sends (-w: prepare + submit; 0/1).
run() {
	mem=$1 proxy=$2 scope=$3 n=$4 size=$5 rate=$6 ll=$7
	runs=$((runs + 1))
	mkdir "$tmp/rt$runs" || fail "mkdir"
	export XDG_RUNTIME_DIR="$tmp/rt$runs" # a fresh cable
	: >"$tmp/recv.out"
	if [ "$n" = t ]; then
		"$wire" recv -p 03:00.1 --timeout 2 >"$tmp/recv.out" 2>&1 &
		lim="-t 1"
	else
		"$wire" recv -p 03:00.1 --count "$n" --timeout 10 >"$tmp/recv.out" 2>&1 &
		lim="-c $n -t 30" # -t: a stuck sender ends the run instead of hanging it
	fi
	rpid=$!
	i=0
	until grep -q "^receiving on 03:00.1" "$tmp/recv.out"; do
		i=$((i + 1))
		[ $i -le 300 ] || fail "the receiver never started"
		kill -0 $rpid 2>/dev/null || fail "the receiver exited early"
		sleep 0.05
	done
	p=
	[ "$proxy" = 1 ] && p=-p
	[ "$ll" = 1 ] && p="$p -w"
	# shellcheck disable=SC2086
	SOFTDOCA_CUDART=$fake "$tx" -g 17:00.0 -n 03:00.0 -m "$mem" -e "$scope" $p $lim -s "$size" -r "$rate" \
		>"$tmp/tx.out" 2>"$tmp/tx.err"
	rc=$?
	wait $rpid
	rrc=$?
	rpid=
	[ $rc = 0 ] || fail "$mem proxy=$proxy ll=$ll: exit $rc"
	[ "$n" = t ] || [ $rrc = 0 ] || fail "$mem proxy=$proxy ll=$ll: softdoca-wire recv exit $rrc"
	"$py" - "$tmp/tx.out" "$tmp/recv.out" "$n" "$size" "$proxy" "$ll" <<'PY' || fail "$mem proxy=$proxy ll=$ll: counts"
import json, re, sys
out, recv, n, size, proxy, ll = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1", sys.argv[6] == "1"
line = [l for l in out.splitlines() if l.startswith("stats ")]
assert len(line) == 1, out
s = json.loads(line[0][6:])
assert s["errors"] == 0 and s["proxy"] == proxy and s["low_level"] == ll, s
if n != "t":
    assert s["packets"] == int(n), s
assert s["packets"] > 0 and s["bytes"] == s["packets"] * size, s
frames = [l for l in recv.splitlines() if " len " in l]
seqs = [int(re.search(r" seq (\d+)", l).group(1)) for l in frames]
assert seqs == list(range(s["packets"])), (len(seqs), seqs[:5], s)
assert all(f" len {size} type 0x0800 udp 10.0.0.1:4000 > 10.0.0.2:" in l for l in frames), frames[:3]
assert not any("bad-" in l for l in frames), [l for l in frames if "bad-" in l][:3]
m = re.search(r"received (\d+) frames, (\d+) bytes on 03:00.1; port rx (\d+) frames, dropped (\d+) \(ring full\)", recv)
got, got_bytes, port_rx, dropped = map(int, m.groups())
assert got == port_rx == s["packets"] and got_bytes == s["bytes"] and dropped == 0, (m.group(0), s)
PY
}
# 2500 frames/s: the cable's 512 slots then hold 200 ms of frames, so a receiver the machine
# leaves unscheduled that long (loaded CI runners) drops none; every run still needs every frame.
runs=0
run gpu 0 0 1000 512 2500 0
run cpu_gpu 0 2 700 1514 2500 0
run gpu 1 1 1000 64 2500 0
run cpu_gpu 1 0 600 300 2500 0
run gpu 0 0 900 256 2500 1
run cpu_gpu 1 0 900 128 2500 1
run gpu 1 0 t 128 2000 0
echo "gpunetio_simple_send: all checks passed"
