#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu-check.sh - the GPUNetIO examples on a machine with a GPU: builds softdoca (release) with
# them, runs each for a few seconds on the `wire` medium of the default topology, fed or
# drained by softdoca-wire, and prints ONE JSON line:
#
#   {"gpu": NAME, "pci": ADDR, "mode": "gpu"|"fake", "examples": {NAME: {"packets": N, "bytes": N,
#    "errors": N, "pps": N, "ok": BOOL, ...}}, "ok": BOOL}
#
#   scripts/gpu-check.sh [--build-dir DIR | --prebuilt DIR] [--seconds S] [--rate PPS]
#   scripts/gpu-check.sh --bundle DIR
#
#   --build-dir DIR  use this configured and built tree as it is (nothing is built); default:
#                    configure and build _build-gpu-check in the checkout (release)
#   --bundle DIR     only build DIR for a machine that has a GPU and its driver but no compiler,
#                    meson or network: a release tree with the examples' kernels (sm_80, sm_90,
#                    the CUDA runtime linked in), their CPU builds and the fake CUDA runtime, and
#                    the toolkit's libcudart.so.* copied into DIR/cudart; one JSON line
#   --prebuilt DIR   run from a tree made by --bundle (or any built tree): nothing is built, no
#                    nvcc, meson or ninja is looked for; DIR/cudart/libcudart.so.* is the runtime
#                    libdoca_gpunetio loads unless SOFTDOCA_CUDART names one
#   --seconds S      how long each receive example is fed (default 3; fake mode 1)
#   --rate PPS       frames per second softdoca-wire sends (default 20000; fake mode 5000)
#
# SOFTDOCA_GPU_CHECK_FAKE=1 runs it without a GPU and without nvcc: the CUDA runtime is the
# tests' fake one (tests/gpunetio/fake_cudart.c, GPU 17:00.0) and each example's CPU-thread
# build stands in for its kernel; examples that exist only as kernels are left out. 0 or unset:
# the real GPU. Any other value is refused (exit 2). SOFTDOCA_CUDART is honoured as everywhere.
#
# Exit status: 0 every example ok; 1 one is not; 2 bad usage or a build that lacks a program;
# 77 no GPU, no CUDA runtime or driver, or no nvcc (the JSON line's "skipped" says which).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build= seconds= rate= bundle= prebuilt=
mode=gpu

# One JSON line for an early end: $1 exit status, $2 the key ("skipped" or "error"), $3 why.
finish_early() {
	python3 -c 'import json, sys; print(json.dumps({"gpu": None, "mode": sys.argv[1], "examples": {}, "ok": False, sys.argv[2]: sys.argv[3]}))' \
		"$mode" "$2" "$3" 2>/dev/null ||
		printf '{"gpu": null, "examples": {}, "ok": false, "%s": "%s"}\n' "$2" "$(printf %s "$3" | tr -d '"\\')"
	exit "$1"
}

while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) [ $# -ge 2 ] || finish_early 2 error "--build-dir needs a directory"; build=$2; shift 2 ;;
	--prebuilt) [ $# -ge 2 ] || finish_early 2 error "--prebuilt needs a directory"; build=$2; prebuilt=1; shift 2 ;;
	--bundle) [ $# -ge 2 ] || finish_early 2 error "--bundle needs a directory"; bundle=$2; shift 2 ;;
	--seconds) [ $# -ge 2 ] || finish_early 2 error "--seconds needs a number"; seconds=$2; shift 2 ;;
	--rate) [ $# -ge 2 ] || finish_early 2 error "--rate needs a number"; rate=$2; shift 2 ;;
	-h | --help) sed -n '3,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) finish_early 2 error "unknown argument '$1' (see --help)" ;;
	esac
done
case ${SOFTDOCA_GPU_CHECK_FAKE-} in
'' | 0) mode=gpu ;;
1) mode=fake ;;
*) finish_early 2 error "SOFTDOCA_GPU_CHECK_FAKE='$SOFTDOCA_GPU_CHECK_FAKE': use 1 (fake CUDA runtime) or 0" ;;
esac
command -v python3 >/dev/null || finish_early 77 skipped "python3 is missing"
if [ $mode = fake ]; then
	: "${seconds:=1}" "${rate:=5000}"
else
	: "${seconds:=3}" "${rate:=20000}"
fi
case $seconds in '' | *[!0-9]* | 0) finish_early 2 error "--seconds '$seconds': a whole number of seconds, 1 or more" ;; esac
case $rate in '' | *[!0-9]* | 0) finish_early 2 error "--rate '$rate': frames per second, 1 or more" ;; esac
[ "$seconds" -le 60 ] || finish_early 2 error "--seconds $seconds: at most 60 (the check must end within 4 minutes)"

# The examples, one line each:  NAME  KIND  PROGRAM  ARGUMENTS...
#   rx   receives on 03:00.0; softdoca-wire sends SECONDS x RATE UDP frames on 03:00.1, and
#        the program gets -g GPU -n 03:00.0 -c FRAMES -t LIMIT; ok = every frame counted, no error
#   tx   sends on 03:00.0 (-g GPU -n 03:00.0 -c FRAMES); softdoca-wire receives on 03:00.1;
#        ok = the program succeeded and every packet it reports arrived, none more, none
#        dropped by the wire; RATE in the arguments becomes the --rate value
#   run  runs alone with -g GPU -n 03:00.0; ok = exit status 0 (and, for a program that
#        prints "probe {json}", that JSON's ok, copied whole into the result as "probe")
# Every program prints "stats {json}" with packets, bytes, errors (rx and tx kinds).
examples_gpu='
gpunetio_simple_receive          rx  gpunetio_simple_receive  -m gpu -e 0
gpunetio_simple_receive_cpu_gpu  rx  gpunetio_simple_receive  -m cpu_gpu -e 2
gpunetio_simple_send             tx  gpunetio_simple_send  -m gpu -e 0 -s 512 -r RATE
gpunetio_simple_send_proxy       tx  gpunetio_simple_send  -m cpu_gpu -e 2 -p -s 512 -r RATE
gpunetio_simple_send_warp        tx  gpunetio_simple_send  -m gpu -e 1 -s 512 -r RATE
gpunetio_simple_send_low_level   tx  gpunetio_simple_send  -m gpu -e 2 -w -s 512 -r RATE
gpunetio_send_wait_time          tx  gpunetio_send_wait_time  -s 512 -b 32 -i 500
gpunetio_dma_memcpy              run gpunetio_dma_memcpy
gpunetio_probe                   run gpunetio_probe  -t 60
'
# On the fake runtime CPU threads play the kernels beside builds and tests: smaller bursts, so a
# receiver descheduled for tens of milliseconds still finds room on the wire (512 frames).
examples_fake='
gpunetio_simple_receive          rx  gpunetio_simple_receive_cpu  -m gpu -e 0
gpunetio_simple_receive_cpu_gpu  rx  gpunetio_simple_receive_cpu  -m cpu_gpu -e 2
gpunetio_simple_send             tx  gpunetio_simple_send_cpu  -m gpu -e 0 -s 512 -r RATE
gpunetio_simple_send_proxy       tx  gpunetio_simple_send_cpu  -m cpu_gpu -e 2 -p -s 512 -r RATE
gpunetio_simple_send_low_level   tx  gpunetio_simple_send_cpu  -m gpu -w -p -s 512 -r RATE
gpunetio_send_wait_time          tx  gpunetio_send_wait_time_cpu  -s 512 -b 4 -i 500
gpunetio_probe                   run gpunetio_probe_cpu  -t 60 -c 5000
'
if [ $mode = fake ]; then examples=$examples_fake; else examples=$examples_gpu; fi
programs=$(printf '%s\n' "$examples" | awk 'NF { print $3 }' | sort -u)

if [ -n "$bundle" ]; then
	[ -z "$build" ] || finish_early 2 error "--bundle builds its own tree: leave --build-dir and --prebuilt out"
	command -v meson >/dev/null && command -v ninja >/dev/null ||
		finish_early 2 error "--bundle needs meson and ninja (scripts/deps.sh installs them)"
	nvcc=${CUDACXX:-$(command -v nvcc || true)}
	[ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
	[ -n "$nvcc" ] && [ -x "$nvcc" ] || finish_early 2 error "--bundle needs nvcc (CUDACXX, PATH or /usr/local/cuda/bin)"
	export PATH="$(dirname "$nvcc"):$PATH"
	mkdir -p "$bundle" || finish_early 2 error "cannot create $bundle"
	if [ ! -f "$bundle/build.ninja" ]; then
		meson setup "$bundle" "$root" --buildtype=release -Dtests=true -Dbench=false -Dapps=false \
			>"$bundle/gpu-check-setup.log" 2>&1 || finish_early 2 error "meson setup failed: see $bundle/gpu-check-setup.log"
	fi
	targets="tools/doca-env tools/softdoca-wire tests/gpunetio/libfakecudart.so"
	for p in $(printf '%s\n%s\n' "$examples_gpu" "$examples_fake" | awk 'NF { print $3 }' | sort -u); do
		targets="$targets examples/$p"
	done
	# shellcheck disable=SC2086
	ninja -C "$bundle" $targets >"$bundle/gpu-check-build.log" 2>&1 ||
		finish_early 2 error "the build failed: see $bundle/gpu-check-build.log"
	# The runtime libdoca_gpunetio dlopens, beside the tree: a machine with only the driver has none.
	mkdir -p "$bundle/cudart"
	lib=$(cd "$(dirname "$nvcc")/.." && pwd)/lib64
	cp -P "$lib"/libcudart.so.[0-9]* "$bundle/cudart/" 2>/dev/null ||
		finish_early 2 error "no libcudart.so.* in $lib to carry"
	python3 -c 'import json, sys; print(json.dumps({"bundle": sys.argv[1], "cudart": sorted(sys.argv[2:]), "ok": True}))' \
		"$(cd "$bundle" && pwd)" $(cd "$bundle/cudart" && ls)
	exit 0
fi

# nvcc (real mode): what meson's CUDA support finds; a prebuilt tree needs none.
if [ $mode = gpu ] && [ -z "$prebuilt" ]; then
	nvcc=${CUDACXX:-$(command -v nvcc || true)}
	[ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
	[ -n "$nvcc" ] && [ -x "$nvcc" ] || finish_early 77 skipped "no nvcc (CUDACXX, PATH or /usr/local/cuda/bin): the examples' kernels cannot be built"
	export PATH="$(dirname "$nvcc"):$PATH"
fi
# A quick look before anything else: no driver, no GPU.
if [ $mode = gpu ]; then
	if command -v nvidia-smi >/dev/null; then
		nvidia-smi -L >/dev/null 2>&1 || finish_early 77 skipped "nvidia-smi -L fails: $(nvidia-smi -L 2>&1 | head -1)"
	elif [ ! -e /dev/nvidia0 ]; then
		finish_early 77 skipped "no NVIDIA driver here (no nvidia-smi, no /dev/nvidia0)"
	fi
fi

if [ -z "$build" ]; then
	build=$root/_build-gpu-check
	tests=false
	[ $mode = fake ] && tests=true # the fake CUDA runtime lives in tests/gpunetio
	if [ ! -f "$build/build.ninja" ]; then
		mkdir -p "$build" || finish_early 2 error "cannot create $build"
		meson setup "$build" "$root" --buildtype=release -Dtests=$tests -Dbench=false -Dapps=false \
			>"$build/gpu-check-setup.log" 2>&1 ||
			finish_early 2 error "meson setup failed: see $build/gpu-check-setup.log"
	elif [ $mode = fake ]; then
		meson configure "$build" -Dtests=true >"$build/gpu-check-setup.log" 2>&1 ||
			finish_early 2 error "meson configure -Dtests=true failed: see $build/gpu-check-setup.log"
	fi
	targets="tools/doca-env tools/softdoca-wire"
	for p in $programs; do targets="$targets examples/$p"; done
	[ $mode = fake ] && targets="$targets tests/gpunetio/libfakecudart.so"
	# shellcheck disable=SC2086
	ninja -C "$build" $targets >"$build/gpu-check-build.log" 2>&1 ||
		finish_early 2 error "the build failed: see $build/gpu-check-build.log"
fi
build=$(cd "$build" 2>/dev/null && pwd) || finish_early 2 error "--build-dir: no such directory"
for p in tools/doca-env tools/softdoca-wire; do
	[ -x "$build/$p" ] || finish_early 2 error "$build has no $p (a build with -Dtools=true)"
done
if [ $mode = fake ]; then
	export SOFTDOCA_CUDART=$build/tests/gpunetio/libfakecudart.so
	[ -f "$SOFTDOCA_CUDART" ] || finish_early 2 error "$build has no tests/gpunetio/libfakecudart.so (a build with -Dtests=true)"
elif [ -z "${SOFTDOCA_CUDART-}" ] && [ -d "$build/cudart" ]; then
	# The runtime carried beside a prebuilt tree: the newest major version there.
	carried=$(ls "$build"/cudart/libcudart.so.[0-9]* 2>/dev/null | sort -V | tail -1)
	[ -n "$carried" ] && export SOFTDOCA_CUDART=$carried
fi

# The GPU, as libdoca_gpunetio sees it (doca-env: the CUDA runtime's own answer, or why none).
tmp=$(mktemp -d)
trap 'for p in $(jobs -p); do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
"$build/tools/doca-env" --json >"$tmp/env.json" 2>"$tmp/env.err"
gpu_info=$(python3 - "$tmp/env.json" <<'PY'
import json, sys
try:
    g = json.load(open(sys.argv[1]))["gpus"]
except Exception as e:
    print("none\tdoca-env gave no JSON report: %s" % e)
    sys.exit()
if not g["devices"]:
    print("none\t" + (g.get("why_none") or "no GPU"))
else:
    d = g["devices"][0]
    print("%s\tsm_%s" % (d["pci_addr"], d["compute_capability"].replace(".", "")))
PY
)
gpu_pci=${gpu_info%%	*}
gpu_cc=${gpu_info#*	}
[ "$gpu_pci" != none ] || finish_early 77 skipped "no GPU: $gpu_cc"
if [ $mode = fake ]; then
	gpu_name="fake CUDA runtime (tests/gpunetio/fake_cudart.c)"
else
	# nvidia-smi writes bus ids with an 8-digit domain (00000000:17:00.0): match on the rest.
	gpu_name=$(nvidia-smi --query-gpu=pci.bus_id,name --format=csv,noheader 2>/dev/null |
		awk -F', *' -v want="${gpu_pci#*:}" 'tolower($1) ~ (tolower(want) "$") { print $2; exit }')
	[ -n "$gpu_name" ] || gpu_name="GPU $gpu_cc"
fi
for p in $programs; do
	[ -x "$build/examples/$p" ] ||
		finish_early 2 error "$build has no examples/$p (meson found no CUDA compiler, or -Dexamples=false)"
done
printf '[profile default]\neth.supported = yes\n' >"$tmp/eth.conf"
export SOFTDOCA_CONFIG=$tmp/eth.conf
unset SOFTDOCA_PCAP

frames=$((seconds * rate))
limit=$((seconds * 4 + 10))
n=0

# Writes $tmp/$name.json: $1 name, $2 program exit status, $3 its stdout, $4 sent (or -1), $5 the
# port's counters (rx: softdoca-wire stats; tx: softdoca-wire recv's summary) or "", $6 kind, $7 received
# by softdoca-wire (tx) or -1.
result() {
	python3 - "$@" >"$tmp/res-$1.json" <<'PY'
import json, re, sys
name, rc, out, sent, stats, kind, got = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6], int(sys.argv[7])
r = {"kind": kind, "packets": None, "bytes": None, "errors": 0 if rc == 0 else 1, "pps": None, "exit_status": rc}
line = [l for l in open(out).read().splitlines() if l.startswith("stats ")]
if line:
    s = json.loads(line[-1][6:])
    r.update(packets=s.get("packets"), bytes=s.get("bytes"), errors=s.get("errors", 0), pps=s.get("pps"))
    if "udp" in s:
        r["udp"] = s["udp"]
probe = [l for l in open(out).read().splitlines() if l.startswith("probe ")]
if probe:
    try:
        r["probe"] = json.loads(probe[-1][6:])
    except ValueError:
        r["probe"] = {"ok": False, "error": "unparsable probe line"}
ok = rc == 0 and r["errors"] == 0 and r.get("probe", {"ok": True}).get("ok") is True
if kind == "rx":
    r["sent"] = sent
    m = re.search(r"rx (\d+) frames (\d+) bytes, dropped (\d+) ring full", stats)
    if m:
        r["wire_dropped"] = int(m.group(3))
    ok = ok and r["packets"] == sent
elif kind == "tx":
    r["received"] = got
    m = re.search(r"port rx (\d+) frames, dropped (\d+) \(ring full\)", stats)
    if m:
        r["wire_dropped"] = int(m.group(2))
    ok = ok and r["packets"] is not None and got == r["packets"] and bool(m) and int(m.group(1)) == got and r["wire_dropped"] == 0
r["ok"] = bool(ok)
print(json.dumps({name: r}))
PY
}

# Waits until $2 (a file) has a line starting with $3 while process $1 runs; 1 if it never does.
wait_line() {
	i=0
	until grep -q "^$3" "$2" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 400 ] && kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
}

while read -r name kind prog args; do
	[ -n "$name" ] || continue
	n=$((n + 1))
	rt=$tmp/rt$n
	mkdir "$rt"
	out=$tmp/$name.out
	: >"$out"
	case $kind in
	rx)
		# shellcheck disable=SC2086
		XDG_RUNTIME_DIR=$rt timeout $((limit + 10)) "$build/examples/$prog" -g "$gpu_pci" -n 03:00.0 \
			-c $frames -t $limit $args >"$out" 2>"$tmp/$name.err" &
		pid=$!
		if wait_line $pid "$out" "receiving on"; then
			XDG_RUNTIME_DIR=$rt "$build/tools/softdoca-wire" send -p 03:00.1 --count $frames --size 512 \
				--proto udp --flows 4 --rate $rate >"$tmp/$name.send" 2>&1
		fi
		wait $pid
		rc=$?
		XDG_RUNTIME_DIR=$rt "$build/tools/softdoca-wire" stats -p 03:00.0 >"$tmp/$name.stats" 2>&1
		result "$name" $rc "$out" $frames "$(cat "$tmp/$name.stats")" rx -1
		;;
	tx)
		args=$(printf '%s' "$args" | sed "s/RATE/$rate/g")
		# Until the frames asked for are in: a program's CUDA start-up (seconds on a real GPU, longer
		# on a loaded machine) is no idle time that ends the count.
		XDG_RUNTIME_DIR=$rt "$build/tools/softdoca-wire" recv -p 03:00.1 --count $frames \
			--timeout $((limit + 10)) --quiet >"$tmp/$name.recv" 2>&1 &
		rpid=$!
		wait_line $rpid "$tmp/$name.recv" "receiving on"
		# shellcheck disable=SC2086
		XDG_RUNTIME_DIR=$rt timeout $((limit + 10)) "$build/examples/$prog" -g "$gpu_pci" -n 03:00.0 \
			-c $frames $args >"$out" 2>"$tmp/$name.err"
		rc=$?
		wait $rpid
		got=$(sed -n 's/^received \([0-9]*\) frames.*/\1/p' "$tmp/$name.recv")
		result "$name" $rc "$out" -1 "$(cat "$tmp/$name.recv")" tx "${got:--1}"
		;;
	run)
		# shellcheck disable=SC2086
		# A run program's own limit (gpunetio_probe -t 60) fits inside this one.
		XDG_RUNTIME_DIR=$rt timeout $((limit + 70)) "$build/examples/$prog" -g "$gpu_pci" -n 03:00.0 $args \
			>"$out" 2>"$tmp/$name.err"
		result "$name" $? "$out" -1 "" run -1
		;;
	*)
		finish_early 2 error "example $name: unknown kind '$kind' (rx, tx or run)"
		;;
	esac
	# What a failed example said goes to stderr (stdout holds the JSON line only).
	if ! grep -q '"ok": true}}$' "$tmp/res-$name.json"; then
		tail -n 5 "$out" "$tmp/$name.err" 2>/dev/null | sed "s/^/$name: /" >&2
	fi
done <<EOF
$examples
EOF

python3 - "$gpu_name" "$gpu_pci" "$mode" "$tmp"/res-*.json <<'PY'
import json, sys
name, pci, mode, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
ex = {}
for f in files:
    ex.update(json.load(open(f)))
ok = bool(ex) and all(r["ok"] for r in ex.values())
print(json.dumps({"gpu": name, "pci": pci, "mode": mode, "examples": ex, "ok": ok}))
sys.exit(0 if ok else 1)
PY
