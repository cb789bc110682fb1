#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# doca_caps output is parsed, not just run: versions agree with the .pc files, the default
# topology is listed, capabilities follow the config file's profiles, exit codes fit scripts;
# GPUs come from the CUDA runtime (a test runtime with one GPU), or a block says why none.
# usage: test_doca_caps.sh <doca_caps> <build dir> <fake CUDA runtime>
set -u
caps=$1; build=$2; fake_cudart=$3
fail() { echo "FAIL: $*"; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ver=$("$caps" --version) || fail "--version exit status"
pcver=$(PKG_CONFIG_PATH=$build/pkgconfig/dpu pkg-config --modversion doca-common 2>/dev/null)
case $ver in "$pcver "*) ;; *) fail "--version '$ver' does not start with the pkg-config version '$pcver'" ;; esac

"$caps" --json-output > "$tmp/all.json" 2>"$tmp/err" || fail "--json-output exit status"
[ -s "$tmp/err" ] && fail "unexpected stderr: $(cat "$tmp/err")"
"$py" - "$tmp/all.json" <<'PY' || fail "default topology JSON"
import json, sys
d = json.load(open(sys.argv[1]))
devs = {x["pci_addr"]: x for x in d["devices"]}
assert set(devs) == {"0000:03:00.0", "0000:03:00.1", "0000:b1:00.0", "0000:b1:00.1"}, devs.keys()
assert devs["0000:03:00.0"]["side"] == "dpu" and devs["0000:b1:00.0"]["side"] == "host"
assert devs["0000:03:00.0"]["representors"][0]["pci_addr"] == "0000:b1:00.0"
c = devs["0000:03:00.0"]["caps"]
assert c["dma_memcpy"] is True and c["dma_max_buf_size"] == 1 << 30 and c["dma_max_buf_list_len"] == 32
assert c["dma_max_num_tasks"] == 65536
assert c["comch_server"] is True and c["comch_client"] is False and c["comch_max_msg_size"] > 0
h = devs["0000:b1:00.0"]["caps"]
assert h["comch_server"] is False and h["comch_client"] is True
assert len({x["ibdev"] for x in d["devices"]}) == 4
# the default wires: DPU ports to each other, host PFs to each other
assert [(devs[p]["medium"], devs[p]["wire_peer"]) for p in sorted(devs)] == [
    ("wire", "0000:03:00.1"), ("wire", "0000:03:00.0"), ("wire", "0000:b1:00.1"), ("wire", "0000:b1:00.0")]
PY

# DOCA's formats: "PCI: <address>" blocks of "key value" lines, softdoca's keys after DOCA's.
"$caps" --list-devs > "$tmp/devs" || fail "--list-devs exit status"
[ "$(grep -c '^PCI: ' "$tmp/devs")" = 4 ] || fail "--list-devs: $(grep -c '^PCI: ' "$tmp/devs") PCI blocks, want 4"
awk '/^PCI: 0000:03:00.0$/ { b = 1; next } /^PCI:/ { b = 0 } b' "$tmp/devs" > "$tmp/blk"
for kv in "ibdev_name mlx5_0" "iface_name p0" "pci_func_type PF" "softdoca_side dpu"; do
	set -- $kv
	grep -Eq "^[[:space:]]+$1[[:space:]]+$2\$" "$tmp/blk" || fail "--list-devs: no '$1 $2' in 03:00.0's block"
done
head -2 "$tmp/blk" | grep -q "ibdev_name" || fail "--list-devs: DOCA's keys must come first"
"$caps" --list-rep-devs > "$tmp/reps" || fail "--list-rep-devs exit status"
awk '/^PCI: 0000:03:00.0$/ { b = 1; next } /^PCI:/ { b = 0 } b' "$tmp/reps" | grep -Eq "representor PCI +0000:b1:00.0" ||
	fail "--list-rep-devs: 03:00.0's representor"
# The lists in JSON hold what their text holds: --list-devs DOCA's keys too, --list-rep-devs
# only each device's representors.
"$caps" --list-devs --json-output > "$tmp/devs.json" || fail "--list-devs --json-output exit status"
"$caps" --list-rep-devs --json-output > "$tmp/reps.json" || fail "--list-rep-devs --json-output exit status"
"$py" - "$tmp/devs.json" "$tmp/reps.json" <<'PY' || fail "the lists in JSON"
import json, sys
devs = {x["pci_addr"]: x for x in json.load(open(sys.argv[1]))["devices"]}
d = devs["0000:03:00.0"]
assert d["pci_func_type"] == "PF" and d["mac_addr"] == "02:5d:0c:03:00:00", d
assert "caps" not in d, "--list-devs lists devices, not their capabilities"
reps = json.load(open(sys.argv[2]))["devices"]
assert [sorted(x) for x in reps] == [["pci_addr", "representors"]] * 4, reps
assert reps[0]["representors"] == [{"pci_addr": "0000:b1:00.0", "vuid": "SDOCA0000B1000pf0hpf"}], reps[0]
PY
"$caps" --list-libs | grep -Eq "^doca_dma +supported" || fail "--list-libs"
for lib in doca_eth doca_flow; do
	"$caps" --list-libs | grep -Eq "^$lib +supported" || fail "--list-libs: $lib"
done
"$caps" --list-libs | grep -Eq "^doca_dpdk_bridge +not supported .*no DPDK ports" || fail "--list-libs: doca_dpdk_bridge"
"$caps" --list-devs --list-libs >/dev/null 2>"$tmp/two.err"; rc=$?
[ $rc = 2 ] || fail "two list flags must be bad usage, exit $rc"
grep -Fqx "doca_caps: give one of --list-devs, --list-rep-devs and --list-libs; see doca_caps --help" "$tmp/two.err" &&
	[ "$(wc -l < "$tmp/two.err")" = 1 ] || fail "two list flags: $(cat "$tmp/two.err")"
# DOCA's program flags: -l/--log-level, --sdk-log-level, -j/--json FILE.
"$caps" -l debug --list-libs >/dev/null || fail "-l debug"
"$caps" --sdk-log-level 20 --list-libs >/dev/null || fail "--sdk-log-level 20"
"$caps" -l loud >/dev/null 2>&1; [ $? = 2 ] || fail "a bad log level must be bad usage"
echo '{"list-devs": true, "pci-addr": "b1:00.1"}' > "$tmp/flags.json"
"$caps" -j "$tmp/flags.json" > "$tmp/j" || fail "-j flag file"
[ "$(grep -c '^PCI: ' "$tmp/j")" = 1 ] && grep -q "^PCI: 0000:b1:00.1$" "$tmp/j" || fail "-j: $(cat "$tmp/j")"
"$caps" -j "$tmp/flags.json" -p 03:00.0 >/dev/null 2>&1; [ $? = 2 ] || fail "-j with another flag must be bad usage"
echo '{"list-everything": true}' > "$tmp/bad.json"
"$caps" -j "$tmp/bad.json" >/dev/null 2>&1; [ $? = 2 ] || fail "-j with an unknown flag must be bad usage"
for kv in "softdoca_medium wire" "softdoca_wire_peer 0000:03:00.1"; do
	set -- $kv
	grep -Eq "^[[:space:]]+$1[[:space:]]+$2\$" "$tmp/blk" || fail "--list-devs: no '$1 $2' in 03:00.0's block"
done
"$caps" -p 03:00.1 | grep -q "port medium  *wire, peer 0000:03:00.0$" || fail "medium in the capabilities text"
"$caps" -p 99:00.0 >/dev/null 2>&1; [ $? = 3 ] || fail "unknown device must exit 3"
# A malformed address is bad usage, said once (the library would refuse it once per device).
for bad in zz 3:0.0 0000:3:00.0 03:20.0 03:00.8 03:00.0x; do
	"$caps" -p "$bad" >/dev/null 2>"$tmp/bad.err"; rc=$?
	[ $rc = 2 ] && [ "$(wc -l < "$tmp/bad.err")" = 1 ] || fail "-p $bad: exit $rc, $(wc -l < "$tmp/bad.err") lines"
done
"$caps" -p B1:00.1 >/dev/null || fail "-p with upper-case hex"
"$caps" --bogus >/dev/null 2>&1; [ $? = 2 ] || fail "bad option must exit 2"

cat > "$tmp/cfg" <<'CFG'
[profile small]
dma = yes
max_buf_size = 4K
max_buf_list_len = 1
max_tasks = 128
comch.max_msg_size = 256
comch.max_clients = 2
eth.supported = yes
eth.max_packet_size = 1514
[profile nodma]
dma = no
comch.supported = no
eth.supported = no
[device 03:00.0]
side = dpu
profile = small
[device 03:00.1]
side = dpu
profile = nodma
CFG
SOFTDOCA_CONFIG=$tmp/cfg "$caps" --json-output > "$tmp/cfg.json" || fail "--json-output with a config"
"$py" - "$tmp/cfg.json" <<'PY' || fail "profile capabilities"
import json, sys
devs = {x["pci_addr"]: x for x in json.load(open(sys.argv[1]))["devices"]}
assert set(devs) == {"0000:03:00.0", "0000:03:00.1"}
s = devs["0000:03:00.0"]["caps"]
assert s["dma_max_buf_size"] == 4096 and s["dma_max_buf_list_len"] == 1 and s["dma_max_num_tasks"] == 128, s
assert devs["0000:03:00.1"]["caps"]["dma_memcpy"] is False
assert s["profile"] == "small" and s["dma"]["max_buf_size"] == 4096 and s["dma"]["max_tasks"] == 128, s
assert s["comch_max_msg_size"] == 256 and s["comch"]["max_msg_size"] == 256 and s["comch"]["max_clients"] == 2, s
assert s["comch"]["server"] is True and s["comch"]["max_name_len"] == 120, s
assert s["eth"]["supported"] is True and s["eth"]["max_packet_size"] == 1514 and s["eth"]["max_burst_size"] == 65536, s
n = devs["0000:03:00.1"]["caps"]
assert n["profile"] == "nodma" and n["comch"]["server"] is False and n["comch"]["consumer"] is False, n
assert n["eth"]["supported"] is False, n
# GPU queues: CYCLIC receive queues where there is Ethernet, none where there is not
assert s["eth"]["gpu_rxq_types"] == ["cyclic"] and s["eth"]["max_rxqs_per_port"] == 64, s
assert n["eth"]["gpu_rxq_types"] == [] and n["eth"]["gpu_txq_types"] == [] and n["eth"]["max_rxqs_per_port"] == 0, n
PY
SOFTDOCA_CONFIG=$tmp/cfg "$caps" -p 03:00.0 > "$tmp/cfg.txt" || fail "text with a config"
grep -q "^    comch max msg size          256$" "$tmp/cfg.txt" || fail "comch max msg size not in the text output"
grep -q "^    eth max packet size         1514$" "$tmp/cfg.txt" || fail "eth max packet size not in the text output"
grep -q "^    eth gpu rxq types           cyclic$" "$tmp/cfg.txt" || fail "eth gpu rxq types not in the text output"
SOFTDOCA_CONFIG=$tmp/cfg "$caps" -p 03:00.1 | grep -q "^    eth gpu rxq types           none$" ||
	fail "a device without eth must have no GPU receive queues"

# GPUs after the devices: a runtime with one GPU, then none (and why), in both forms.
SOFTDOCA_CUDART=$fake_cudart "$caps" > "$tmp/gpu.txt" || fail "text with a CUDA runtime"
awk '/^GPU: 0000:17:00.0$/ { b = 1; next } /^(PCI|GPU):/ { b = 0 } b' "$tmp/gpu.txt" > "$tmp/gblk"
for kv in "compute_capability 9.0" "cuda_runtime 13.0" "cuda_driver 13.0" "dmabuf not supported:"; do
	set -- $kv
	grep -Eq "^[[:space:]]+$1[[:space:]]+$2" "$tmp/gblk" || fail "no '$1 $2' in the GPU block: $(cat "$tmp/gpu.txt")"
done
SOFTDOCA_CUDART=$fake_cudart "$caps" --json-output > "$tmp/gpu.json" || fail "JSON with a CUDA runtime"
"$py" - "$tmp/gpu.json" <<'PY' || fail "GPUs in the JSON"
import json, sys
g = json.load(open(sys.argv[1]))["gpus"]
assert g["devices"] == [{"pci_addr": "0000:17:00.0", "compute_capability": "9.0"}] and g["why_none"] is None, g
assert g["dmabuf"] is False and g["dmabuf_why"], g
PY
SOFTDOCA_CUDART=/nonexistent/libcudart.so "$caps" > "$tmp/nogpu.txt" || fail "text without a CUDA runtime"
grep -q "^GPU: none$" "$tmp/nogpu.txt" || fail "no 'GPU: none' block"
grep -Eq "^[[:space:]]+why[[:space:]]+SOFTDOCA_CUDART=\"/nonexistent/libcudart.so\" refused" "$tmp/nogpu.txt" ||
	fail "no reason for no GPU: $(tail -3 "$tmp/nogpu.txt")"
SOFTDOCA_CUDART=$fake_cudart "$caps" -p 03:00.0 | grep -q "^GPU:" && fail "-p lists one device, not the GPUs"
SOFTDOCA_CUDART=$fake_cudart "$caps" --list-libs | grep -Eq "^doca_gpunetio +supported" || fail "--list-libs: doca_gpunetio"
SOFTDOCA_CUDART=/nonexistent/libcudart.so "$caps" --list-libs | grep -Eq "^doca_gpunetio +not supported .*no GPU: " ||
	fail "--list-libs: doca_gpunetio without a GPU"
SOFTDOCA_CUDART=/nonexistent/libcudart.so "$caps" --list-libs --json-output > "$tmp/libs.json" || fail "--list-libs JSON"
"$py" -c 'import json, sys; l = {x["name"]: x for x in json.load(open(sys.argv[1]))["libraries"]}; g = l["doca_gpunetio"]; assert g["supported"] is False and "SOFTDOCA_CUDART" in g["why_not"], g' \
	"$tmp/libs.json" || fail "--list-libs JSON: doca_gpunetio"
# afpacket ports show their interface and namespace; nothing is opened for listing them
printf '[device 03:00.0]\nside = dpu\nifname = veth0\n[device 03:00.1]\nside = dpu\nifname = veth1\nnetns = ns1\n' > "$tmp/afp"
SOFTDOCA_CONFIG=$tmp/afp "$caps" --list-devs > "$tmp/afp.txt" || fail "--list-devs with afpacket ports"
awk '/^PCI: 0000:03:00.1$/ { b = 1; next } /^PCI:/ { b = 0 } b' "$tmp/afp.txt" |
	grep -Eq "^[[:space:]]+softdoca_medium[[:space:]]+afpacket veth1@ns1$" || fail "--list-devs: afpacket veth1@ns1"
awk '/^PCI: 0000:03:00.0$/ { b = 1; next } /^PCI:/ { b = 0 } b' "$tmp/afp.txt" |
	grep -Eq "^[[:space:]]+softdoca_medium[[:space:]]+afpacket veth0$" || fail "--list-devs: afpacket veth0"
SOFTDOCA_CONFIG=$tmp/afp "$caps" -p 03:00.1 | grep -q "port medium  *afpacket veth1@ns1$" ||
	fail "afpacket medium in the capabilities text"
SOFTDOCA_CONFIG=$tmp/afp "$caps" --json-output > "$tmp/afp.json" || fail "--json-output with afpacket ports"
"$py" - "$tmp/afp.json" <<'PY' || fail "afpacket JSON"
import json, sys
devs = {x["pci_addr"]: x for x in json.load(open(sys.argv[1]))["devices"]}
assert [(devs[p]["medium"], devs[p]["ifname"], devs[p]["netns"], devs[p]["wire_peer"]) for p in sorted(devs)] == [
    ("afpacket", "veth0", None, None), ("afpacket", "veth1", "ns1", None)], devs
PY
printf '[device 03:00.0]\nside = sideways\n' > "$tmp/bad"
SOFTDOCA_CONFIG=$tmp/bad "$caps" > /dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "bad config must exit 1, got $rc"
grep -q "line 2" "$tmp/err" || fail "bad config error does not name the line: $(cat "$tmp/err")"
echo "doca_caps: all checks passed"
