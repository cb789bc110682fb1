#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpunetio_probe without a GPU: the build with CPU threads in place of its kernels, on the tests'
# fake CUDA runtime, runs every check over the default topology's wire (it receives on 03:00.0
# what it sends itself on 03:00.1). Its stdout must be exactly one line "probe {json}" that
# parses, with every check present and ok (stale_bytes: every frame, every byte; warp_block:
# both runs; send_ceiling: a rate for each step), and exit 0. Without a CUDA runtime it says so
# in that line and exits 77; bad arguments exit 2.
# usage: test_gpunetio_probe.sh <gpunetio_probe_cpu> <fake CUDA runtime>
set -u
probe=$1; fake=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; for f in out err; do [ -f "$tmp/$f" ] && sed "s/^/    $f: /" "$tmp/$f" | tail -8; done; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
printf '[profile default]\neth.supported = yes\n' >"$tmp/eth.conf"
export SOFTDOCA_CONFIG="$tmp/eth.conf"
unset SOFTDOCA_PCAP DOCA_LOG_LEVEL
mkdir "$tmp/rt" || fail "mkdir"
export XDG_RUNTIME_DIR="$tmp/rt" # a cable of its own

# 1. No CUDA runtime: exit 77, the line says why.
SOFTDOCA_CUDART=/nonexistent/libcudart.so "$probe" -g 17:00.0 -t 20 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 77 ] || fail "without a CUDA runtime: exit $rc, not 77"
grep -q '^probe {.*"skipped": "no GPU 17:00.0' "$tmp/out" || fail "without a CUDA runtime: no skipped line"
# Bad arguments: exit 2, nothing probed.
for args in "-t 5" "-c 0" "-x"; do
	# shellcheck disable=SC2086
	SOFTDOCA_CUDART=$fake "$probe" -g 17:00.0 $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$args: exit $rc, not 2"
	grep -q '^probe' "$tmp/out" && fail "$args: it probed"
done

# 2. Every check on the fake runtime.
SOFTDOCA_CUDART=$fake "$probe" -g 17:00.0 -n 03:00.0 -p 03:00.1 -c 5000 -t 90 >"$tmp/out" 2>"$tmp/err"
rc=$?
"$py" - "$tmp/out" "$rc" <<'PY' || fail "the probe's line"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
rc = int(sys.argv[2])
assert len(lines) == 1 and lines[0].startswith("probe {"), lines
p = json.loads(lines[0][6:])
checks = ["device", "stale_bytes", "d2d_early", "blocking_stream", "warp_block", "send_ceiling"]
for c in checks:
    assert c in p and p[c]["ok"] is True, (c, p.get(c))
s = p["stale_bytes"]
assert s["received"] == s["frames"] == 5000 and s["mismatched_bytes"] == 0 and s["bad_frames"] == 0, s
assert p["d2d_early"]["completed"] == p["d2d_early"]["tasks"] and p["d2d_early"]["early"] == 0, p["d2d_early"]
b = p["blocking_stream"]
assert b["received"] == b["expected"] and b["host_watchdog"] is False, b
for run in ("warp20", "block128"):
    w = p["warp_block"][run]
    assert w["ok"] and w["sent"] == w["received"] > 0 and w["duplicate_or_missing_tickets"] == 0, w
steps = p["send_ceiling"]["steps"]
assert len(steps) == 6 and all(st["frames"] > 0 and st["achieved_pps"] > 0 for st in steps), steps
assert "skipped" in p["device"], p["device"]
assert p["ok"] is True and rc == 0, (p["ok"], rc)
PY
echo "gpunetio_probe: all checks passed"
