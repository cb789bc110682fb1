#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# doca-env: the JSON is parsed; the four-way version check agrees when the .pc files match the
# library and says mismatch when they do not; every engine is found working; a refused config
# file is reported; the text form has the same verdict.
# usage: test_doca_env.sh <doca-env> <build dir>
set -u
env_tool=$1; build=$2
fail() { echo "FAIL: $*"; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool" --json > "$tmp/ok.json"; rc=$?
[ $rc = 0 ] || fail "consistent environment must exit 0, got $rc"
"$py" - "$tmp/ok.json" <<'PY' || fail "JSON content"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["version_check"]
assert v["verdict"] == "consistent" and v["doca_common_pc"] == v["headers"] == v["library"] == d["doca_version"], v
assert sorted(d["engines"]["available"]) == ["auto", "cpu", "inline"], d["engines"]
assert d["engines"]["selected"] == "auto" and "gpu" in d["engines"]["unavailable"]
assert d["transports"]["available"] == ["cma"] and d["transports"]["unavailable"] == {}, d["transports"]
assert [x["pci_addr"] for x in d["devices"]] == ["0000:03:00.0", "0000:03:00.1", "0000:b1:00.0", "0000:b1:00.1"]
assert d["config"] == {"path": None, "ok": True}
assert [(x["medium"], x["wire_peer"]) for x in d["devices"]] == [
    ("wire", "0000:03:00.1"), ("wire", "0000:03:00.0"), ("wire", "0000:b1:00.1"), ("wire", "0000:b1:00.0")]
assert "meaning" in d["ptrace"]
PY

mkdir -p "$tmp/pc"
sed 's/^Version: .*/Version: 2.9.0/' "$build/pkgconfig/dpu/doca-dma.pc" > "$tmp/pc/doca-dma.pc"
cp "$build/pkgconfig/dpu/doca-common.pc" "$tmp/pc/"
PKG_CONFIG_PATH=$tmp/pc "$env_tool" --json > "$tmp/bad.json"; rc=$?
[ $rc = 1 ] || fail "version mismatch must exit 1, got $rc"
"$py" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['version_check']['verdict']=='mismatch' and d['version_check']['doca_dma_pc']=='2.9.0'" "$tmp/bad.json" || fail "mismatch not reported"

printf '[device 03:00.0]\n' > "$tmp/cfg"
SOFTDOCA_CONFIG=$tmp/cfg PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool" --json > "$tmp/cfg.json" 2>/dev/null; rc=$?
[ $rc = 1 ] || fail "a refused config must exit 1"
"$py" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['config']['ok'] is False and d['config']['path'].endswith('/cfg')" "$tmp/cfg.json" || fail "refused config not reported"

out=$(SOFTDOCA_ENGINE=inline PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool") || fail "text form exit status"
echo "$out" | grep -q "version check: consistent" || fail "text verdict"
echo "$out" | grep -q "^  0000:b1:00.0 .* medium wire peer 0000:b1:00.1$" || fail "text device line: medium and peer"
echo "$out" | grep -q "selected: inline, from SOFTDOCA_ENGINE" || fail "text engine selection: $out"
printf '[device 03:00.0]\nside = dpu\nifname = veth0\n[device 03:00.1]\nside = dpu\nifname = veth1\nnetns = /run/netns/n1\n' > "$tmp/afp"
out=$(SOFTDOCA_CONFIG=$tmp/afp PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool") || fail "text form with afpacket ports"
echo "$out" | grep -q "^  0000:03:00.1 .* medium afpacket veth1@/run/netns/n1$" || fail "text device line: afpacket: $out"
SOFTDOCA_CONFIG=$tmp/afp PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool" --json > "$tmp/afp.json" || fail "afpacket JSON exit status"
"$py" - "$tmp/afp.json" <<'PY' || fail "afpacket JSON content"
import json, sys
d = json.load(open(sys.argv[1]))
assert [(x["medium"], x["ifname"], x["netns"]) for x in d["devices"]] == [
    ("afpacket", "veth0", None), ("afpacket", "veth1", "/run/netns/n1")], d["devices"]
PY
echo "doca-env: all checks passed"
