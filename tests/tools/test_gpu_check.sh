#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# scripts/gpu-check.sh on the build being tested (--build-dir: nothing is rebuilt).
#   no-gpu  with a CUDA runtime that cannot be loaded it exits 77 with one JSON line saying why
#           (on a machine without nvcc or a driver it says that instead); bad knobs are exit 2
#           with a JSON line naming them
#   fake    SOFTDOCA_GPU_CHECK_FAKE=1 --prebuilt: every example of its fake list runs over the
#           wire on the fake CUDA runtime and counts every frame sent (receive examples) or every
#           frame softdoca-wire took (send examples); gpunetio_probe's checks all pass; exit 0 and
#           "ok": true. PATH has meson, ninja, nvcc and the C compilers only as stubs that say
#           they were called: a prebuilt tree needs none of them
# usage: test_gpu_check.sh <gpu-check.sh> <build dir> no-gpu|fake
set -u
script=$1; build=$2; what=$3
fail() { echo "FAIL: $*"; [ -f "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | tail -10; exit 1; }
py=$(command -v python3) || { echo "python3 missing: skip"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset SOFTDOCA_GPU_CHECK_FAKE SOFTDOCA_CONFIG

# $1 want exit status, $2 python condition on d (the JSON), then the command.
check() {
	want=$1 cond=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, want $want; stdout: $(cat "$tmp/out")"
	[ "$(wc -l <"$tmp/out")" = 1 ] || fail "$*: not one line: $(cat "$tmp/out")"
	"$py" -c "import json, sys; d = json.load(open(sys.argv[1])); assert $cond, d" "$tmp/out" ||
		fail "$*: JSON: $(cat "$tmp/out")"
}

case $what in
no-gpu)
	check 77 'd["ok"] is False and d["gpu"] is None and d["examples"] == {} and len(d["skipped"]) > 10' \
		env SOFTDOCA_CUDART=/nonexistent/libcudart.so "$script" --build-dir "$build"
	check 2 'd["ok"] is False and "SOFTDOCA_GPU_CHECK_FAKE" in d["error"]' \
		env SOFTDOCA_GPU_CHECK_FAKE=yes "$script" --build-dir "$build"
	check 2 '"--seconds" in d["error"]' "$script" --build-dir "$build" --seconds 0
	check 2 '"--rate" in d["error"]' "$script" --build-dir "$build" --rate 1k
	check 2 '"unknown argument" in d["error"]' "$script" --frobnicate
	check 2 '"no such directory" in d["error"]' env SOFTDOCA_GPU_CHECK_FAKE=1 "$script" --build-dir "$tmp/none"
	check 2 '"--bundle" in d["error"]' "$script" --bundle "$tmp/b" --build-dir "$build"
	check 2 '"--prebuilt needs" in d["error"]' "$script" --prebuilt
	;;
fake)
	# Compilers and build tools answer only with a mark: a prebuilt run calls none of them.
	mkdir "$tmp/stubs"
	for t in meson ninja nvcc cc gcc clang c++ g++ clang++; do
		printf '#!/bin/sh\necho "%s called" >>"%s"\nexit 127\n' "$t" "$tmp/called" >"$tmp/stubs/$t"
		chmod +x "$tmp/stubs/$t"
	done
	check 0 'd["ok"] is True and d["mode"] == "fake" and d["pci"].endswith("17:00.0") and sum(r["kind"] == "rx" for r in d["examples"].values()) >= 2 and sum(r["kind"] == "tx" for r in d["examples"].values()) >= 4 and all(r["ok"] and r["packets"] == r.get("sent", r.get("received")) == 1000 and r["bytes"] == 512 * 1000 and r.get("udp", 1000) == 1000 and r["errors"] == 0 for r in d["examples"].values() if r["kind"] != "run") and d["examples"]["gpunetio_probe"]["ok"] and d["examples"]["gpunetio_probe"]["probe"]["stale_bytes"]["received"] == 5000' \
		env SOFTDOCA_GPU_CHECK_FAKE=1 PATH="$tmp/stubs:$PATH" CUDACXX="$tmp/stubs/nvcc" "$script" --prebuilt "$build" \
		--seconds 1 --rate 1000
	[ ! -e "$tmp/called" ] || fail "a prebuilt run called: $(cat "$tmp/called")"
	;;
*)
	fail "usage: test_gpu_check.sh <gpu-check.sh> <build dir> no-gpu|fake"
	;;
esac
echo "gpu-check.sh ($what): all checks passed"
