#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpunetio_send_wait_time end to end without a GPU: the build with a CPU thread in place of its
# kernel, on the tests' fake CUDA runtime, sends bursts behind wait-on-time values on 03:00.0;
# `softdoca-wire recv` on 03:00.1 prints each frame with the time the wire stamped on it
# (CLOCK_REALTIME when the NIC handed it over, the clock doca_eth_txq_calculate_timestamp
# takes). Every frame must arrive, numbered 0..N-1 in order; the stamps never go back; and no
# frame of burst k is stamped before the example's schedule says (first_ns + k x interval_ns,
# from its stats line) - so consecutive bursts are at least one interval apart on the wire
# unless the one before left late. Only the wire's stamps are compared, never this script's
# clock. Bad arguments are refused.
# usage: test_gpunetio_send_wait_time.sh <gpunetio_send_wait_time_cpu> <softdoca-wire> <fake CUDA runtime>
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
SOFTDOCA_CUDART=/nonexistent/libcudart.so "$tx" -g 17:00.0 >"$tmp/tx.out" 2>"$tmp/tx.err" && fail "ran without a CUDA runtime"
grep -q "cannot open the GPU 17:00.0" "$tmp/tx.err" || fail "no line naming the GPU"
bad() {
	want=$1
	shift
	SOFTDOCA_CUDART=$fake "$tx" -g 17:00.0 "$@" >"$tmp/tx.out" 2>"$tmp/tx.err" && fail "$* accepted"
	grep -q "$want" "$tmp/tx.err" || fail "$*: no line saying '$want'"
	grep -q "^sending on" "$tmp/tx.out" && fail "$*: it started sending"
	return 0
}
bad "interval (us) 0" -i 0
bad "burst 257" -b 257
bad "burst 0" -b 0
bad "frames 0" -c 0
bad "frame size 63" -s 63

# 2. $1 frames, $2 burst, $3 interval (us), $4 frame size.
run() {
	n=$1 burst=$2 us=$3 size=$4
	runs=$((runs + 1))
	mkdir "$tmp/rt$runs" || fail "mkdir"
	export XDG_RUNTIME_DIR="$tmp/rt$runs" # a fresh cable
	: >"$tmp/recv.out"
	"$wire" recv -p 03:00.1 --count "$n" --timeout 10 >"$tmp/recv.out" 2>&1 &
	rpid=$!
	i=0
	until grep -q "^receiving on 03:00.1" "$tmp/recv.out"; do
		i=$((i + 1))
		[ $i -le 300 ] || fail "the receiver never started"
		kill -0 $rpid 2>/dev/null || fail "the receiver exited early"
		sleep 0.05
	done
	SOFTDOCA_CUDART=$fake "$tx" -g 17:00.0 -n 03:00.0 -c "$n" -b "$burst" -i "$us" -s "$size" \
		>"$tmp/tx.out" 2>"$tmp/tx.err"
	rc=$?
	wait $rpid
	rrc=$?
	rpid=
	[ $rc = 0 ] || fail "-c $n -b $burst: exit $rc"
	[ $rrc = 0 ] || fail "-c $n -b $burst: softdoca-wire recv exit $rrc"
	"$py" - "$tmp/tx.out" "$tmp/recv.out" "$n" "$burst" "$us" "$size" <<'PY' || fail "-c $n -b $burst -i $us: schedule"
import json, re, sys
out, recv = open(sys.argv[1]).read(), open(sys.argv[2]).read()
n, burst, us, size = map(int, sys.argv[3:])
line = [l for l in out.splitlines() if l.startswith("stats ")]
assert len(line) == 1, out
s = json.loads(line[0][6:])
assert s["packets"] == n and s["bytes"] == n * size and s["errors"] == 0, s
assert s["burst"] == burst and s["interval_ns"] == us * 1000, s
frames = []
for l in recv.splitlines():
    m = re.match(r"(\d+)\.(\d{9}) len (\d+) .* seq (\d+)$", l)
    if m:
        frames.append((int(m.group(1)) * 10**9 + int(m.group(2)), int(m.group(3)), int(m.group(4))))
assert [f[2] for f in frames] == list(range(n)), [f[2] for f in frames][:10]
assert all(f[1] == size for f in frames)
first, step = s["first_ns"], s["interval_ns"]
for j, (ts, _, _) in enumerate(frames):
    due = first + (j // burst) * step
    assert ts >= due, f"frame {j} (burst {j // burst}) stamped {ts}, {due - ts} ns before its time {due}"
    assert j == 0 or ts >= frames[j - 1][0], f"frame {j} stamped before frame {j - 1}"
gaps = [frames[k * burst][0] - frames[k * burst - 1][0] for k in range(1, (n + burst - 1) // burst)]
span = frames[-1][0] - frames[0][0]
assert span >= ((n - 1) // burst) * step - (frames[0][0] - first), (span, s)
print(f"  -c {n} -b {burst} -i {us}: {len(frames)} frames, first {frames[0][0] - first} ns after slot 0, "
      f"burst gaps min {min(gaps) if gaps else 0} ns (interval {step} ns)")
PY
}
runs=0
run 256 32 500 1024
run 100 8 500 64
run 30 1 1000 1514
echo "gpunetio_send_wait_time: all checks passed"
