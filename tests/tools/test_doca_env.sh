#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# doca-env: the JSON is parsed; the four-way version check agrees when the .pc files match the
# library and says mismatch when they do not; every engine is found working; a refused config
# file is reported; the text form has the same verdict; GPUs are listed from the CUDA runtime
# (a test runtime with one GPU), and without one the report says why there is none.
# usage: test_doca_env.sh <doca-env> <build dir> <fake CUDA runtime>
set -u
env_tool=$1; build=$2; fake_cudart=$3
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
assert d["engines"]["selected"] == "auto" and d["engines"]["unavailable"] == {}, d["engines"]
assert d["engines"]["selected_works"] is True and d["engines"]["selected_why_not"] is None, d["engines"]
g = d["gpus"]
assert g["dmabuf"] is False and "NOT_SUPPORTED" in g["dmabuf_why"], g
assert g["devices"] or (g["why_none"] and len(g["why_none"]) > 10), g
t = d["transports"]
if g["devices"]:  # a machine with a GPU: GPU memory is copied through it
    assert t["available"] == ["cma", "cuda"] and t["unavailable"] == {}, t
else:  # none: the cuda transport says why instead of claiming to work
    assert t["available"] == ["cma"] and t["unavailable"]["cuda"] == "no GPU: " + g["why_none"], t
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

# A refused SOFTDOCA_* value or an unknown engine: named, and the environment is not usable (1).
out=$(SOFTDOCA_CPU_WORKERS=0 PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool"); rc=$?
[ $rc = 1 ] || fail "a refused SOFTDOCA_CPU_WORKERS must exit 1, got $rc"
echo "$out" | grep -q "^engines (selected: auto, from default; it does not work here: .*SOFTDOCA_CPU_WORKERS='0': out of range" ||
	fail "refused knob not named: $out"
echo "$out" | grep -q "^  cpu     a test copy failed: .*SOFTDOCA_CPU_WORKERS='0'" || fail "engine row does not say why: $out"
out=$(SOFTDOCA_ENGINE=garbage PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool"); rc=$?
[ $rc = 1 ] || fail "an unknown SOFTDOCA_ENGINE must exit 1, got $rc"
echo "$out" | grep -q "selected: garbage, from SOFTDOCA_ENGINE; it does not work here: .*unknown engine 'garbage'" ||
	fail "unknown engine not named: $out"
SOFTDOCA_FAULT=error_prob=2 PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool" --json > "$tmp/fault.json"; rc=$?
[ $rc = 1 ] || fail "a refused SOFTDOCA_FAULT must exit 1, got $rc"
"$py" -c "import json,sys; e=json.load(open(sys.argv[1]))['engines']; assert e['selected_works'] is False and 'SOFTDOCA_FAULT' in e['selected_why_not'], e" "$tmp/fault.json" ||
	fail "refused SOFTDOCA_FAULT not in the JSON"
out=$(SOFTDOCA_ENGINE=inline PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool") || fail "text form exit status"
echo "$out" | grep -q "version check: consistent" || fail "text verdict"
echo "$out" | grep -q "^  0000:b1:00.0 .* medium wire peer 0000:b1:00.1$" || fail "text device line: medium and peer"
echo "$out" | grep -q "selected: inline, from SOFTDOCA_ENGINE" || fail "text engine selection: $out"
SOFTDOCA_CUDART=$fake_cudart PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool" --json > "$tmp/gpu.json" || fail "with a CUDA runtime"
"$py" - "$tmp/gpu.json" <<'PY' || fail "GPU report"
import json, sys
g = json.load(open(sys.argv[1]))["gpus"]
assert g["devices"] == [{"pci_addr": "0000:17:00.0", "compute_capability": "9.0"}], g
assert g["why_none"] is None and g["runtime_version"] == 13000 and g["driver_version"] == 13000, g
t = json.load(open(sys.argv[1]))["transports"]
assert t["available"] == ["cma", "cuda"] and t["unavailable"] == {}, t  # the probe's copy went through GPU memory
# GPU queues of every device with Ethernet (the default profile has it)
q = {x["pci_addr"]: x for x in g["queues"]}
assert sorted(q) == ["0000:03:00.0", "0000:03:00.1", "0000:b1:00.0", "0000:b1:00.1"], q
assert all(x["gpu_rxq_types"] == ["cyclic"] and x["max_rxqs_per_port"] == 64 and x["max_packet_size"] > 0 for x in q.values()), q
PY
out=$(SOFTDOCA_CUDART=$fake_cudart PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool") || fail "text form with a CUDA runtime"
echo "$out" | grep -q '^  0000:17:00.0  sm_90  doca_gpu_create("0000:17:00.0")$' || fail "text GPU line: $out"
echo "$out" | grep -q '^  queues on 0000:03:00.0  gpu rxq cyclic  gpu txq ' || fail "text GPU queue line: $out"
out=$(SOFTDOCA_CUDART=/nonexistent/libcudart.so PKG_CONFIG_PATH=$build/pkgconfig/dpu "$env_tool") || fail "text form with a missing runtime"
echo "$out" | grep -q '^gpus (DOCA GPUNetIO): none: SOFTDOCA_CUDART="/nonexistent/libcudart.so" refused' ||
	fail "no GPU must say why: $out"
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
