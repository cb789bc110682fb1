#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Task tracing and fault injection, driven through our own example programs:
# - SOFTDOCA_TRACE writes valid Chrome trace-event JSON with every task's events, and
#   softdoca-trace summarises it;
# - SOFTDOCA_FAULT drives the AGAIN path (the example retries and still verifies) and the
#   error-completion path (the example reports the injected status and fails).
# usage: test_trace_fault.sh <dma_local_copy> <dma_event> <softdoca-trace>
set -u
copy=$1; event=$2; summ=$3
fail() { echo "FAIL: $*"; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for engine in inline cpu; do
	SOFTDOCA_ENGINE=$engine SOFTDOCA_TRACE=$tmp/t-$engine.json "$copy" -n 100 -t traced >/dev/null 2>&1 ||
		fail "traced run ($engine)"
	"$py" - "$tmp/t-$engine.json" <<'PY' || fail "trace content ($engine)"
import json, sys, collections
d = json.load(open(sys.argv[1]))
c = collections.Counter((e["ph"], e["name"]) for e in d["traceEvents"])
for key in [("n", "alloc"), ("b", "task"), ("e", "task"), ("b", "engine"), ("e", "engine"),
            ("b", "callback"), ("e", "callback"), ("n", "free")]:
    assert c[key] == 100, (key, c[key])
assert sum(v for (ph, name), v in c.items() if ph == "C" and name.startswith("inflight ctx")) == 200
# engine-thread spans: each copy on the engine's own track
assert c[("b", "copy")] == 100 and c[("e", "copy")] == 100, (c[("b", "copy")], c[("e", "copy")])
names = [e["args"]["name"] for e in d["traceEvents"] if e["ph"] == "M"]
assert any("engine" in n for n in names) and any(n.startswith("context") for n in names), names
ids = [e["id"] for e in d["traceEvents"] if e["ph"] == "b" and e["name"] == "task"]
assert len(set(ids)) == 100
# every task span ends after it starts, and its callback status is reported
start = {e["id"]: e["ts"] for e in d["traceEvents"] if e["ph"] == "b" and e["name"] == "task"}
for e in d["traceEvents"]:
    if e["ph"] == "e" and e["name"] == "task":
        assert e["ts"] >= start[e["id"]]
    if e["ph"] == "b" and e["name"] == "callback":
        assert e["args"]["status"] == "DOCA_SUCCESS"
PY
	out=$("$summ" "$tmp/t-$engine.json") || fail "softdoca-trace exit status"
	echo "$out" | grep -q "100 task(s) submitted, 100 completed, 700 bytes" || fail "summary: $out"
	echo "$out" | grep -q "DOCA_SUCCESS  *100" || fail "summary status: $out"
done
"$summ" /dev/null >/dev/null 2>&1; [ $? = 1 ] || fail "softdoca-trace must refuse a non-trace"
# A file that is not JSON at all: one line (json-c's own message ends with a newline).
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$tmp/notjson"
"$summ" "$tmp/notjson" >/dev/null 2>"$tmp/notjson.err"; rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$tmp/notjson.err")" = 1 ] &&
	grep -q "^softdoca-trace: $tmp/notjson is not a trace written by SOFTDOCA_TRACE (.*)$" "$tmp/notjson.err" ||
	fail "softdoca-trace on a non-JSON file: exit $rc: $(cat "$tmp/notjson.err")"
# FIFOs named by mistake neither hang the program nor are written or read as files: a trace
# that could not be written is refused when the program starts its context, not after its work.
mkfifo "$tmp/fifo"
SOFTDOCA_TRACE=$tmp/fifo timeout 20 "$copy" -n 1 >/dev/null 2>"$tmp/fifo.err"; rc=$?
[ $rc = 1 ] || fail "SOFTDOCA_TRACE naming a FIFO: exit status $rc (124 is a hang)"
grep -q "SOFTDOCA_TRACE='$tmp/fifo': $tmp/fifo is not a regular file" "$tmp/fifo.err" ||
	fail "SOFTDOCA_TRACE naming a FIFO: $(cat "$tmp/fifo.err")"
SOFTDOCA_TRACE=$tmp/no-dir/t.json "$copy" -n 1 >/dev/null 2>"$tmp/nodir.err"; rc=$?
[ $rc = 1 ] && grep -q "$tmp/no-dir does not exist" "$tmp/nodir.err" ||
	fail "SOFTDOCA_TRACE in a missing directory: exit $rc: $(cat "$tmp/nodir.err")"
# One line per refusal: the variable, the value and what is accepted, said by the context.
for v in SOFTDOCA_ENGINE=garbage SOFTDOCA_TRACE_EVENTS=3 SOFTDOCA_FAULT=again=1e-2; do
	env "$v" "$copy" -n 1 >/dev/null 2>"$tmp/one.err"; rc=$?
	[ $rc = 1 ] && [ "$(grep -c "softdoca:" "$tmp/one.err")" = 1 ] && grep -q "softdoca:ctx.*${v%%=*}" "$tmp/one.err" ||
		fail "$v: exit $rc, not one line naming it: $(cat "$tmp/one.err")"
done
# Every %p is the pid.
SOFTDOCA_TRACE=$tmp/p%p-%p.json "$copy" -n 1 >/dev/null 2>&1 || fail "SOFTDOCA_TRACE with %p"
ls "$tmp"/p*-*.json | grep -Eq "/p([0-9]+)-\1\.json$" || fail "every %p must be the pid: $(ls "$tmp")"
timeout 20 "$summ" "$tmp/fifo" >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "softdoca-trace reading a FIFO: exit status $rc (124 is a hang)"
# Hostile traces: refused or summarised, never a crash or (under LeakSanitizer) a leak.
echo '{}' > "$tmp/empty.json"
"$summ" "$tmp/empty.json" >/dev/null 2>&1; [ $? = 1 ] || fail "softdoca-trace on {} (exit status $?)"
printf '%s' '{"traceEvents":[{"ph":null,"name":"task"},{"ph":"b","name":"task","id":null,"tid":-5},' \
	'{"ph":"b","name":"task","tid":99999,"ts":"x"},{"ph":"e","name":"task","id":null},5,"x",[1],null]}' \
	> "$tmp/hostile.json"
"$summ" "$tmp/hostile.json" >/dev/null 2>&1 || fail "softdoca-trace on a hostile trace (exit status $?)"

# AGAIN on half the submits: the example retries after progress and still verifies.
out=$(SOFTDOCA_FAULT=again=0.5,seed=3 "$copy" -n 500 2>&1) || fail "AGAIN injection: the example must still succeed: $out"
echo "$out" | grep -q "fault injection on" || fail "no start-up line saying what is injected"
# The 3rd completion fails with DRIVER: the example sees the error and fails.
out=$(SOFTDOCA_FAULT=nth=3,error=DRIVER "$copy" -n 10 2>&1); rc=$?
[ $rc != 0 ] || fail "an injected DRIVER error must fail the example"
echo "$out" | grep -q "Driver" || fail "the example did not report the injected status: $out"
# Event-driven example under an injected stall still completes and verifies.
SOFTDOCA_FAULT=stall=2:100 "$event" -n 8 >/dev/null 2>&1 || fail "stall injection"
# A malformed setting is refused as a whole, with the reason.
# A setting that cannot be used is refused: the program fails, with the variable and the reason.
out=$(SOFTDOCA_FAULT=again=2 "$copy" -n 1 2>&1) && fail "a bad SOFTDOCA_FAULT must be refused, not ignored"
echo "$out" | grep -q "SOFTDOCA_FAULT='again=2': 'again=2': not a probability in 0..1" ||
	fail "bad SOFTDOCA_FAULT not explained: $out"
echo "$out" | grep -q "DOCA_ERROR_BAD_CONFIG\|BAD_CONFIG\|fix the value or unset" || fail "refusal without the fix: $out"
# An unknown key is refused with the keys there are, a bad number with the range it must be in.
SOFTDOCA_FAULT=bogus=1 "$copy" -n 1 >/dev/null 2>"$tmp/key.err" && fail "an unknown SOFTDOCA_FAULT key must be refused"
keys="again, error, error_prob, nth, delay_us, stall and seed"
grep -q "SOFTDOCA_FAULT='bogus=1': unknown key 'bogus' (the keys are $keys); fix the value or unset the variable$" \
	"$tmp/key.err" ||
	fail "unknown SOFTDOCA_FAULT key: $(cat "$tmp/key.err")"
SOFTDOCA_FAULT=seed=-1 "$copy" -n 1 >/dev/null 2>"$tmp/seed.err" && fail "SOFTDOCA_FAULT=seed=-1 must be refused"
grep -q "SOFTDOCA_FAULT='seed=-1': 'seed=-1': not a seed in 0..18446744073709551615; fix the value" "$tmp/seed.err" ||
	fail "SOFTDOCA_FAULT=seed=-1: $(cat "$tmp/seed.err")"
# The banner names only what was asked for.
out=$(SOFTDOCA_FAULT=delay_us=10 "$copy" -n 1 2>&1) || fail "delay injection"
echo "$out" | grep -q "fault injection on (SOFTDOCA_FAULT); every completion at least 10 us late" ||
	fail "banner: $out"
echo "$out" | grep -q "AGAIN\|seed" && fail "banner lists knobs that were not asked for: $out"
echo "tracing and fault injection: all checks passed"
