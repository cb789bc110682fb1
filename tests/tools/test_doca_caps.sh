#!/bin/sh
# doca_caps output is parsed, not just run: versions agree with the .pc files, the default
# topology is listed, capabilities follow the config file's profiles, exit codes fit scripts.
# usage: test_doca_caps.sh <doca_caps> <build dir>
set -u
caps=$1; build=$2
fail() { echo "FAIL: $*"; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ver=$("$caps" --version) || fail "--version exit status"
pcver=$(PKG_CONFIG_PATH=$build/pkgconfig/dpu pkg-config --modversion doca-common 2>/dev/null)
case $ver in "$pcver "*) ;; *) fail "--version '$ver' does not start with the pkg-config version '$pcver'" ;; esac

"$caps" --json > "$tmp/all.json" 2>"$tmp/err" || fail "--json exit status"
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

"$caps" --list-devs | grep -q "^0000:03:00.0  ibdev mlx5_0  iface p0  side dpu  medium wire  peer 0000:03:00.1$" ||
	fail "--list-devs text"
"$caps" -p 03:00.1 | grep -q "port medium  *wire, peer 0000:03:00.0$" || fail "medium in the capabilities text"
"$caps" -p 99:00.0 >/dev/null 2>&1; [ $? = 3 ] || fail "unknown device must exit 3"
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
[device 03:00.0]
side = dpu
profile = small
[device 03:00.1]
side = dpu
profile = nodma
CFG
SOFTDOCA_CONFIG=$tmp/cfg "$caps" --json > "$tmp/cfg.json" || fail "--json with a config"
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
assert s["eth"]["supported"] is True and s["eth"]["max_packet_size"] == 1514 and s["eth"]["max_burst_size"] == 256, s
n = devs["0000:03:00.1"]["caps"]
assert n["profile"] == "nodma" and n["comch"]["server"] is False and n["comch"]["consumer"] is False, n
assert n["eth"]["supported"] is False, n
PY
SOFTDOCA_CONFIG=$tmp/cfg "$caps" -p 03:00.0 > "$tmp/cfg.txt" || fail "text with a config"
grep -q "^    comch max msg size          256$" "$tmp/cfg.txt" || fail "comch max msg size not in the text output"
grep -q "^    eth max packet size         1514$" "$tmp/cfg.txt" || fail "eth max packet size not in the text output"
printf '[device 03:00.0]\nside = sideways\n' > "$tmp/bad"
SOFTDOCA_CONFIG=$tmp/bad "$caps" > /dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "bad config must exit 1, got $rc"
grep -q "line 2" "$tmp/err" || fail "bad config error does not name the line: $(cat "$tmp/err")"
echo "doca_caps: all checks passed"
