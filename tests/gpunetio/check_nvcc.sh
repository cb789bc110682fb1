#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The GPUNetIO device headers compile with nvcc (no GPU needed): each header alone, and a
# kernel using every device function (nvcc_check.cu) for sm_80 and sm_90; in the sm_90 PTX the
# semaphore status must be read with ld.acquire.sys and written with st.release.sys, the DMA
# ring must reserve with a device-scope CAS (atom.cas.acq_rel.gpu.b64), publish descriptors and
# the doorbell with st.release.sys.b64 and read the consumer index with ld.acquire.sys.b64, and
# receive timeouts must run on %globaltimer.
# Skips (77) without nvcc: $NVCC, then PATH, then /usr/local/cuda/bin/nvcc.
# usage: check_nvcc.sh <include dir>...
set -u
nvcc=${NVCC:-}
[ -n "$nvcc" ] || nvcc=$(command -v nvcc 2>/dev/null || true)
[ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
if [ -z "$nvcc" ]; then
	echo "SKIP: no nvcc (set NVCC or install the CUDA toolkit)"
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../include" && pwd)
incs=""
for d in "$@"; do incs="$incs -I$d"; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="-std=c++17 -DDOCA_ALLOW_EXPERIMENTAL_API -Werror all-warnings $incs"

# Every job in the background, then collect: nvcc is slow to start and the jobs are independent.
pids=""
for h in $(cd "$src" && ls doca_gpunetio_dev_*.cuh); do
	printf '#include <%s>\n#include <%s>\n__global__ void k(void) {}\n' "$h" "$h" > "$tmp/$h.cu"
	( $nvcc $flags -arch=sm_90 -c "$tmp/$h.cu" -o "$tmp/$h.o" > "$tmp/$h.log" 2>&1 || echo "FAIL: $h alone" >> "$tmp/$h.log"; ) &
	pids="$pids $!"
done
( $nvcc $flags -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
	-c "$here/nvcc_check.cu" -o "$tmp/all.o" > "$tmp/all.log" 2>&1 || echo "FAIL: nvcc_check.cu for sm_80+sm_90" >> "$tmp/all.log"; ) &
pids="$pids $!"
( $nvcc $flags -arch=sm_90 -ptx "$here/nvcc_check.cu" -o "$tmp/all.ptx" > "$tmp/ptx.log" 2>&1 || echo "FAIL: nvcc_check.cu to PTX" >> "$tmp/ptx.log"; ) &
pids="$pids $!"
for p in $pids; do wait "$p"; done

fail=0
for log in "$tmp"/*.log; do
	if grep -q '^FAIL' "$log"; then cat "$log"; fail=1; fi
done
if [ $fail = 0 ]; then
	for op in ld.acquire.sys.b32 st.release.sys.b32 ld.acquire.sys.b64 st.release.sys.b64 atom.cas.acq_rel.gpu.b64 globaltimer; do
		if ! grep -q "$op" "$tmp/all.ptx"; then
			echo "FAIL: no $op in the sm_90 PTX: a word crossing the bus (or the GPU-side reservation) lost its ordering"
			fail=1
		fi
	done
fi
[ $fail = 0 ] && echo "ok: $(ls "$src"/doca_gpunetio_dev_*.cuh | wc -l) device headers alone and nvcc_check.cu (sm_80, sm_90) with $nvcc"
exit $fail
