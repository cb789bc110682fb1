#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# doca-capability-snapshot: valid JSON with the documented keys, a clean self-diff, and a
# diff that names exactly what a capability profile changed.
# usage: test_snapshot.sh <doca-capability-snapshot>
set -u
snap=$1
fail() { echo "FAIL: $*"; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$snap" > "$tmp/base.json" || fail "snapshot exit status"
"$py" - "$tmp/base.json" <<'PY' || fail "snapshot JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == 1
devs = d["devices"]
assert list(devs) == ["0000:03:00.0", "0000:03:00.1", "0000:b1:00.0", "0000:b1:00.1"], list(devs)
keys = ["side", "ibdev", "iface", "representors", "dma.memcpy.supported", "dma.memcpy.max_buf_size",
        "dma.memcpy.max_buf_list_len", "dma.max_num_tasks", "mmap.export_pci", "mmap.create_from_export_pci"]
for pci, caps in devs.items():
    assert list(caps)[:len(keys)] == keys, (pci, list(caps))
assert devs["0000:03:00.0"]["dma.memcpy.max_buf_size"] == 1 << 30
PY
out=$("$snap" --diff "$tmp/base.json"); rc=$?
[ $rc = 0 ] || fail "self-diff exit $rc: $out"
printf '[profile default]\nmax_buf_list_len = 4\n' > "$tmp/cfg"
out=$(SOFTDOCA_CONFIG=$tmp/cfg "$snap" --diff "$tmp/base.json"); rc=$?
[ $rc = 1 ] || fail "diff against a changed profile must exit 1, got $rc"
[ "$(echo "$out" | wc -l)" = 4 ] || fail "expected 4 differences, got: $out"
echo "$out" | grep -q "^0000:03:00.0 dma.memcpy.max_buf_list_len: 32 -> 4$" || fail "difference line: $out"
"$snap" --diff "$tmp/missing.json" >/dev/null 2>&1; [ $? = 2 ] || fail "missing baseline must exit 2"
# Bad usage: one line naming the real cause, the hint, exit status 2, nothing on stdout.
for case in "extra|unexpected argument 'extra'" "--diff|--diff needs a snapshot file" \
	"--diff=|--diff needs a snapshot file" "--diff $tmp/base.json extra|unexpected argument 'extra'" \
	"--diff=$tmp/base.json extra|unexpected argument 'extra'" "extra --diff $tmp/base.json|unexpected argument 'extra'" \
	"--help extra|unexpected argument 'extra'" "-x|unknown option '-x'" "-x extra|unknown option '-x'"; do
	args=${case%%|*}
	# shellcheck disable=SC2086
	"$snap" $args >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
		grep -Fqx "doca-capability-snapshot: ${case#*|}; see doca-capability-snapshot --help" "$tmp/err" ||
		fail "doca-capability-snapshot $args: exit $rc: $(cat "$tmp/err")"
done
echo "doca-capability-snapshot: all checks passed"
