#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpunetio_simple_receive end to end without a GPU: the build with a CPU thread in place of its
# kernel, on the tests' fake CUDA runtime, receives on 03:00.0 what softdoca-wire sends on
# 03:00.1 (the default topology's wire). Its final counts must equal what the port took off the
# wire (softdoca-wire stats), with every byte and every UDP packet counted; paced sending keeps
# the wire's 512-slot ring from overflowing, and a frame it still drops is the wire's (counted
# there), never the example's. Without a CUDA runtime it stops at doca_gpu_create, saying so.
# usage: test_gpunetio_simple_receive.sh <gpunetio_simple_receive_cpu> <softdoca-wire> <fake CUDA runtime>
set -u
rx=$1; wire=$2; fake=$3
tmp=$(mktemp -d)
rpid=
trap '[ -n "$rpid" ] && kill $rpid 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; for f in rx.out rx.err; do [ -f "$tmp/$f" ] && sed "s/^/    $f: /" "$tmp/$f" | tail -8; done; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
printf '[profile default]\neth.supported = yes\n' >"$tmp/eth.conf"
export SOFTDOCA_CONFIG="$tmp/eth.conf"
unset SOFTDOCA_PCAP DOCA_LOG_LEVEL

# 1. No CUDA runtime: one line says the GPU could not be opened, exit 1.
SOFTDOCA_CUDART=/nonexistent/libcudart.so "$rx" -g 17:00.0 -t 1 >"$tmp/rx.out" 2>"$tmp/rx.err" && fail "ran without a CUDA runtime"
grep -q "cannot open the GPU 17:00.0" "$tmp/rx.err" || fail "no line naming the GPU"
grep -q "SOFTDOCA_CUDART" "$tmp/rx.err" || fail "no line naming the runtime's failure"
# Bad arguments are refused before anything is opened.
SOFTDOCA_CUDART=$fake "$rx" -g 17:00.0 -m host >"$tmp/rx.out" 2>"$tmp/rx.err" && fail "-m host accepted"
grep -q "packet memory 'host'" "$tmp/rx.err" || fail "-m host: no reason given"
SOFTDOCA_CUDART=$fake "$rx" -g 17:00.0 -e 3 >"$tmp/rx.out" 2>"$tmp/rx.err" && fail "-e 3 accepted"

# 2. Frames over the wire: $1 memory, $2 scope, $3 protocol, $4 frames, $5 frame size.
run() {
	mem=$1 scope=$2 proto=$3 n=$4 size=$5
	runs=$((runs + 1))
	mkdir "$tmp/rt$runs" || fail "mkdir"
	export XDG_RUNTIME_DIR="$tmp/rt$runs" # a fresh cable
	: >"$tmp/rx.out"
	SOFTDOCA_CUDART=$fake "$rx" -g 17:00.0 -n 03:00.0 -m "$mem" -e "$scope" -c "$n" -t 20 \
		>"$tmp/rx.out" 2>"$tmp/rx.err" &
	rpid=$!
	i=0
	until grep -q "^receiving on 03:00.0 into GPU 17:00.0" "$tmp/rx.out"; do
		i=$((i + 1))
		[ $i -le 300 ] || fail "the receiver never started"
		kill -0 $rpid 2>/dev/null || fail "the receiver exited early"
		sleep 0.05
	done
	"$wire" send -p 03:00.1 --count "$n" --size "$size" --proto "$proto" --rate 5000 >"$tmp/send" 2>&1 ||
		fail "send: $(cat "$tmp/send")"
	wait $rpid
	rc=$?
	rpid=
	"$wire" stats -p 03:00.0 >"$tmp/stats" || fail "stats"
	"$py" - "$tmp/rx.out" "$tmp/stats" "$n" "$size" "$proto" "$rc" <<'PY' || fail "$mem $proto: counts"
import json, re, sys
out, stats, n, size, proto, rc = open(sys.argv[1]).read(), open(sys.argv[2]).read(), *map(str, sys.argv[3:])
n, size, rc = int(n), int(size), int(rc)
line = [l for l in out.splitlines() if l.startswith("stats ")]
assert len(line) == 1, out
s = json.loads(line[0][6:])
m = re.search(r"rx (\d+) frames (\d+) bytes, dropped (\d+) ring full", stats)
rx_frames, rx_bytes, dropped = map(int, m.groups())
assert rx_frames + dropped == n, (rx_frames, dropped, n)
assert s["packets"] == rx_frames and s["bytes"] == rx_bytes == rx_frames * size, (s, stats)
assert s["udp"] == (s["packets"] if proto == "udp" else 0), s
assert s["errors"] == 0, s
assert s["packets"] > 0
# every frame arrived: success; some dropped by the wire: the count fell short, exit 1
assert rc == (0 if dropped == 0 else 1), (rc, dropped)
if dropped:
    print(f"note: the wire dropped {dropped} of {n} frames (its ring was full); the counts still match")
PY
}
runs=0
run gpu 2 udp 1000 100
run cpu_gpu 0 raw 600 1514
run gpu 1 udp 300 60
echo "gpunetio_simple_receive: all checks passed"
