#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# doca_dma_copy end to end: a DPU-side and a host-side process on this machine copy files both
# ways through Comch and cross-process DMA, and every failure ends cleanly.
# usage: test_dma_copy.sh <dpu doca_dma_copy> <host doca_dma_copy> <shrink_shim.so>
set -u
dpu=$1; host=$2
shim=$(cd "$(dirname "$3")" && pwd)/$(basename "$3") # LD_PRELOAD needs it absolute
tmp=$(mktemp -d)
export XDG_RUNTIME_DIR=$tmp/run   # a private Comch rendezvous directory for this test
mkdir -p "$tmp/run" "$tmp/h" "$tmp/d"
chmod 700 "$tmp/run"
pids=""
cleanup() { for p in $pids; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -5 "$f"; }; done; exit 1; }
n=0

# run_pair <name> <dpu args...> -- <host args...>: both sides; sets rc_dpu rc_host
run_pair() {
	name=$1; shift
	dargs=""; while [ "$1" != "--" ]; do dargs="$dargs $1"; shift; done; shift
	# shellcheck disable=SC2086
	"$dpu" -t 30 $dargs >"$tmp/$name.dpu.log" 2>&1 &
	dp=$!; pids="$pids $dp"
	# shellcheck disable=SC2086
	"$host" -t 30 "$@" >"$tmp/$name.host.log" 2>&1
	rc_host=$?
	wait $dp; rc_dpu=$?
	n=$((n + 1))
}

make_file() { head -c "$2" /dev/urandom > "$1"; }

# start_slow_pair <name> <delay us> <dpu -f> <host -f>: both sides in the background, each DMA
# task held back by the delay (SOFTDOCA_FAULT on the DPU side); returns once the DPU side has
# imported the host's memory, that is once the copy runs. Sets dp and hp.
start_slow_pair() {
	SOFTDOCA_FAULT=delay_us=$2 DOCA_LOG_LEVEL=debug "$dpu" -t 30 -f "$3" >"$tmp/$1.dpu.log" 2>&1 &
	dp=$!; pids="$pids $dp"
	"$host" -t 30 -f "$4" >"$tmp/$1.host.log" 2>&1 &
	hp=$!; pids="$pids $hp"
	for i in $(seq 200); do grep -q "imported from" "$tmp/$1.dpu.log" 2>/dev/null && break; sleep 0.05; done
	grep -q "imported from" "$tmp/$1.dpu.log" || fail "$1: the copy did not start"
}

# Both directions, sizes around every boundary.
for size in 0 1 4095 4097 1048576 3000001; do
	make_file "$tmp/h/src" $size
	rm -f "$tmp/d/dst"
	run_pair "h2d-$size" -f "$tmp/d/dst" -- -f "$tmp/h/src"
	[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "host->DPU $size bytes: host $rc_host, dpu $rc_dpu"
	cmp -s "$tmp/h/src" "$tmp/d/dst" || fail "host->DPU $size bytes: files differ"

	make_file "$tmp/d/src" $size
	rm -f "$tmp/h/dst"
	run_pair "d2h-$size" -f "$tmp/d/src" -- -f "$tmp/h/dst"
	[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "DPU->host $size bytes: host $rc_host, dpu $rc_dpu"
	cmp -s "$tmp/d/src" "$tmp/h/dst" || fail "DPU->host $size bytes: files differ"
done
grep -q "verified" "$tmp/h2d-1048576.host.log" || fail "no summary line"
# Not a terminal: each side prints its summary line and nothing else (the DPU side says it waits
# for the host only on a terminal); --quiet keeps it that way.
for side in dpu host; do
	[ "$(wc -l < "$tmp/h2d-1048576.$side.log")" = 1 ] ||
		fail "$side: more than the summary: $(cat "$tmp/h2d-1048576.$side.log")"
done
# The summary fits in 120 columns for a file of 1 GiB (a sparse one: no disk reads).
truncate -s 1G "$tmp/h/sparse"
run_pair wide -f "$tmp/d/sparse" -- -f "$tmp/h/sparse"
[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "1 GiB host->DPU: host $rc_host, dpu $rc_dpu"
for side in dpu host; do
	grep -q "verified" "$tmp/wide.$side.log" && awk 'length > 120 { exit 1 }' "$tmp/wide.$side.log" ||
		fail "$side: the summary of 1 GiB is wider than 120 columns: $(cat "$tmp/wide.$side.log")"
done
rm -f "$tmp/h/sparse" "$tmp/d/sparse"
# A -p that is no PCI address is bad usage: one line that says so, exit 2 (not one line per device).
rc=0; "$host" -f "$tmp/h/src" -p zz >"$tmp/badpci.host.log" 2>&1 || rc=$?
[ $rc = 2 ] || fail "-p zz: exit $rc, not 2"
[ "$(grep -c "not a PCI address" "$tmp/badpci.host.log")" = 1 ] || fail "-p zz: $(cat "$tmp/badpci.host.log")"
# (the SDK's widths: a short form it refuses is refused here too, not once per device)
rc=0; "$host" -f "$tmp/h/src" -p 3:0.0 >"$tmp/badpci2.host.log" 2>&1 || rc=$?
[ $rc = 2 ] && [ "$(grep -c "not a PCI address" "$tmp/badpci2.host.log")" = 1 ] ||
	fail "-p 3:0.0: exit $rc: $(cat "$tmp/badpci2.host.log")"
rc=0; "$dpu" -f "$tmp/d/x" -r 1:2:3 >"$tmp/badrep.dpu.log" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q "rep-pci '1:2:3' is not a PCI address" "$tmp/badrep.dpu.log" || fail "-r 1:2:3: exit $rc"
n=$((n + 3))
make_file "$tmp/h/src" 4096
rm -f "$tmp/d/dst"
run_pair quiet -f "$tmp/d/dst" -q -- -f "$tmp/h/src" --quiet
[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "--quiet copy: host $rc_host, dpu $rc_dpu"
for side in dpu host; do
	[ "$(wc -l < "$tmp/quiet.$side.log")" = 1 ] && grep -q "verified" "$tmp/quiet.$side.log" ||
		fail "--quiet, $side: not just the summary: $(cat "$tmp/quiet.$side.log")"
done

# Destination exists: refused without --force, replaced with it.
make_file "$tmp/h/src" 5000
echo old > "$tmp/d/dst"
run_pair exists -f "$tmp/d/dst" -- -f "$tmp/h/src"
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "existing destination must be refused"
grep -q -- "--force" "$tmp/exists.dpu.log" || fail "refusal does not mention --force"
[ "$(cat "$tmp/d/dst")" = old ] || fail "refused copy changed the destination"
run_pair force -f "$tmp/d/dst" --force -- -f "$tmp/h/src"
[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "--force copy"
cmp -s "$tmp/h/src" "$tmp/d/dst" || fail "--force copy differs"

# Success means the file landed: a destination the DPU side cannot put in place (a directory)
# fails on both sides, and --force never replaces anything but a regular file.
make_file "$tmp/h/src" 5000
mkdir "$tmp/d/adir"
run_pair dest-dir -f "$tmp/d/adir" --force -- -f "$tmp/h/src"
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "a directory as destination: host $rc_host, dpu $rc_dpu (both must fail)"
[ -d "$tmp/d/adir" ] || fail "the directory was replaced"
grep -q "adir exists and is a directory (name a file in it)" "$tmp/dest-dir.dpu.log" ||
	fail "refusal of a directory: $(grep ERR "$tmp/dest-dir.dpu.log")"
echo target > "$tmp/d/target"
ln -s "$tmp/d/target" "$tmp/d/alink"
run_pair dest-link -f "$tmp/d/alink" --force -- -f "$tmp/h/src"
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "a symbolic link as destination: host $rc_host, dpu $rc_dpu"
[ -L "$tmp/d/alink" ] && [ "$(cat "$tmp/d/target")" = target ] || fail "--force replaced a symbolic link or its target"
grep -q "alink exists and is a symbolic link (name the file it points to)" "$tmp/dest-link.dpu.log" ||
	fail "refusal of a symbolic link: $(grep ERR "$tmp/dest-link.dpu.log")"
mkfifo "$tmp/d/fifo"
run_pair dest-fifo -f "$tmp/d/fifo" --force -- -f "$tmp/h/src"
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "a FIFO as destination: host $rc_host, dpu $rc_dpu (both must fail)"
[ -p "$tmp/d/fifo" ] || fail "--force replaced a FIFO"
grep -q "not a regular file" "$tmp/dest-fifo.dpu.log" || fail "refusal of a FIFO does not say why"
mkfifo "$tmp/h/fifo"
make_file "$tmp/d/src" 5000
run_pair dest-fifo-host -f "$tmp/d/src" -- -f "$tmp/h/fifo" --force
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "a FIFO as host destination: host $rc_host, dpu $rc_dpu"
[ -p "$tmp/h/fifo" ] || fail "--force replaced a FIFO on the host"
# A host source that is no regular file: the DPU side names the host's cause.
rm -f "$tmp/d/devcopy"
run_pair src-dev-host -f "$tmp/d/devcopy" -- -f /dev/null
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "/dev/null as host source: host $rc_host, dpu $rc_dpu"
grep -q "the host cannot read /dev/null: not a regular file" "$tmp/src-dev-host.dpu.log" ||
	fail "a host source that is no file: $(grep ERR "$tmp/src-dev-host.dpu.log")"

# A destination name taken during the copy is not replaced (no --force), and the sending host
# is told the DPU side's own words, not to look at its log.
make_file "$tmp/h/slow2" 2000000
rm -f "$tmp/d/late"
start_slow_pair late 100000 "$tmp/d/late" "$tmp/h/slow2"
echo other > "$tmp/d/late"
wait $hp; rc_host=$?; wait $dp; rc_dpu=$?
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "a destination taken during the copy: host $rc_host, dpu $rc_dpu"
[ "$(cat "$tmp/d/late")" = other ] || fail "the file that appeared during the copy was replaced"
grep -q "the DPU side reports: $tmp/d/late appeared during the copy; not replaced" "$tmp/late.host.log" ||
	fail "the host is not told why: $(grep ERR "$tmp/late.host.log")"
[ -z "$(ls "$tmp/d"/late.partial.* 2>/dev/null)" ] || fail "a refused placement left its partial file"

# The file exists on neither side.
run_pair missing -f "$tmp/d/nothing" -- -f "$tmp/h/nothing"
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "missing file must fail on both sides"
[ ! -e "$tmp/d/nothing" ] && [ ! -e "$tmp/h/nothing" ] || fail "missing-file run created a file"

# A small max_buf_size forces many chunks.
printf '[profile default]\nmax_buf_size = 4K\n' > "$tmp/small.cfg"
make_file "$tmp/h/src" 1000003
rm -f "$tmp/d/dst"
SOFTDOCA_CONFIG=$tmp/small.cfg run_pair chunks -f "$tmp/d/dst" -- -f "$tmp/h/src"
[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "4 KiB chunks: host $rc_host, dpu $rc_dpu"
cmp -s "$tmp/h/src" "$tmp/d/dst" || fail "4 KiB chunks: files differ"

# Both directions through the host's 8 MiB ring: a file that laps it five times and a bit, with
# the default chunks and with chunks of a max_buf_size that is no power of two (2 KiB chunks).
printf '[profile default]\nmax_buf_size = 3000\n' > "$tmp/odd.cfg"
make_file "$tmp/d/src" 41943045
cp "$tmp/d/src" "$tmp/h/laps"
for cfg in "" "$tmp/odd.cfg"; do
	rm -f "$tmp/h/dst" "$tmp/d/laps"
	if [ -z "$cfg" ]; then run_pair ring -f "$tmp/d/src" -- -f "$tmp/h/dst"
	else SOFTDOCA_CONFIG=$cfg run_pair ring-odd -f "$tmp/d/src" -- -f "$tmp/h/dst"; fi
	[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "DPU->host ring laps ${cfg:+(odd chunks)}: host $rc_host, dpu $rc_dpu"
	cmp -s "$tmp/d/src" "$tmp/h/dst" || fail "DPU->host ring laps ${cfg:+(odd chunks)}: files differ"
	if [ -z "$cfg" ]; then run_pair ring-h2d -f "$tmp/d/laps" -- -f "$tmp/h/laps"
	else SOFTDOCA_CONFIG=$cfg run_pair ring-h2d-odd -f "$tmp/d/laps" -- -f "$tmp/h/laps"; fi
	[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "host->DPU ring laps ${cfg:+(odd chunks)}: host $rc_host, dpu $rc_dpu"
	cmp -s "$tmp/h/laps" "$tmp/d/laps" || fail "host->DPU ring laps ${cfg:+(odd chunks)}: files differ"
done
rm -f "$tmp/h/laps" "$tmp/d/laps"

# A destination whose disk fills during the copy (pwrite fails with ENOSPC past 8 MiB, the
# shim): both sides fail at once (no hang on a host that stopped handing its ring back), the
# destination side names the cause, the other side repeats it, and nothing is left behind.
for dir in h2d d2h; do
	if [ $dir = h2d ]; then src=$tmp/h/big; dpath=$tmp/d/dst; hpath=$src; dst=$tmp/d/dst; dpre=$shim; hpre=; side=dpu; peer=host
	else src=$tmp/d/big; dpath=$src; hpath=$tmp/h/dst; dst=$tmp/h/dst; dpre=; hpre=$shim; side=host; peer=dpu; fi
	make_file "$src" 33554432
	rm -f "$tmp/d/dst" "$tmp/h/dst"
	SHIM_ENOSPC_AT=8388608 LD_PRELOAD=$dpre "$dpu" -t 30 -f "$dpath" >"$tmp/full-$dir.dpu.log" 2>&1 &
	dp=$!; pids="$pids $dp"
	SHIM_ENOSPC_AT=8388608 LD_PRELOAD=$hpre "$host" -t 30 -f "$hpath" >"$tmp/full-$dir.host.log" 2>&1
	rc_host=$?; wait $dp; rc_dpu=$?
	[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "$dir, disk full: host $rc_host, dpu $rc_dpu (both must fail)"
	grep -q "cannot write .*No space left on device" "$tmp/full-$dir.$side.log" ||
		fail "$dir, disk full: the $side side does not name the cause"
	grep -q "No space left on device" "$tmp/full-$dir.$peer.log" || fail "$dir, disk full: the $peer side does not say why"
	[ ! -e "$dst" ] || fail "$dir, disk full: a destination was put in place"
	[ -z "$(ls "$dst".partial.* 2>/dev/null)" ] || fail "$dir, disk full: a partial file was left behind"
	rm -f "$src"
	n=$((n + 1))
done

# The destination's blocks are reserved before the bytes come (fallocate()). A file system that
# cannot reserve (EOPNOTSUPP, the shim) still gets the file; one that has no room for it
# (ENOSPC) fails both sides before any byte moves, with the cause named and nothing left behind.
for dir in h2d d2h; do
	if [ $dir = h2d ]; then src=$tmp/h/big; dpath=$tmp/d/dst; hpath=$src; dst=$tmp/d/dst; dpre=$shim; hpre=; side=dpu; peer=host
	else src=$tmp/d/big; dpath=$src; hpath=$tmp/h/dst; dst=$tmp/h/dst; dpre=; hpre=$shim; side=host; peer=dpu; fi
	make_file "$src" 5000003
	for fault in EOPNOTSUPP ENOSPC; do
		# tmpfs is never asked to reserve (it would allocate the memory itself): no fault to meet.
		[ $fault = ENOSPC ] && [ "$(stat -f -c %T "$tmp")" = tmpfs ] && continue
		rm -f "$tmp/d/dst" "$tmp/h/dst"
		SHIM_FALLOCATE=$fault LD_PRELOAD=$dpre "$dpu" -t 30 -f "$dpath" >"$tmp/falloc-$dir.dpu.log" 2>&1 &
		dp=$!; pids="$pids $dp"
		SHIM_FALLOCATE=$fault LD_PRELOAD=$hpre "$host" -t 30 -f "$hpath" >"$tmp/falloc-$dir.host.log" 2>&1
		rc_host=$?; wait $dp; rc_dpu=$?
		if [ $fault = EOPNOTSUPP ]; then
			[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "$dir, no fallocate: host $rc_host, dpu $rc_dpu"
			cmp -s "$src" "$dst" || fail "$dir, no fallocate: files differ"
			continue
		fi
		[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "$dir, no room to reserve: host $rc_host, dpu $rc_dpu (both must fail)"
		grep -q "cannot reserve 5000003 bytes for .*No space left on device" "$tmp/falloc-$dir.$side.log" ||
			fail "$dir, no room to reserve: the $side side does not name the cause"
		grep -q "No space left on device" "$tmp/falloc-$dir.$peer.log" ||
			fail "$dir, no room to reserve: the $peer side does not say why"
		! grep -q "shrank" "$tmp/falloc-$dir.$side.log" "$tmp/falloc-$dir.$peer.log" ||
			fail "$dir, no room to reserve: a side blames a truncation"
		[ ! -e "$dst" ] || fail "$dir, no room to reserve: a destination was put in place"
	done
	[ -z "$(ls "$dst".partial.* 2>/dev/null)" ] || fail "$dir, fallocate faults: a partial file was left behind"
	rm -f "$src" "$dst"
	n=$((n + 1))
done

# A source reads with preadv2(RWF_NOWAIT) first and, when that would wait, tells the other
# side how far it got before a blocking read. Every read refused that way (EAGAIN: as if the
# file were never in the page cache) or a file system without RWF_NOWAIT (EOPNOTSUPP): the
# copy is whole both ways.
for dir in h2d d2h; do
	if [ $dir = h2d ]; then src=$tmp/h/big; dpath=$tmp/d/dst; hpath=$src; dst=$tmp/d/dst; dpre=; hpre=$shim
	else src=$tmp/d/big; dpath=$src; hpath=$tmp/h/dst; dst=$tmp/h/dst; dpre=$shim; hpre=; fi
	make_file "$src" 7340033 # below the 8 MiB where the shim cuts a file
	for fault in EAGAIN EOPNOTSUPP; do
		rm -f "$tmp/d/dst" "$tmp/h/dst"
		SHIM_NOWAIT=$fault LD_PRELOAD=$dpre "$dpu" -t 30 -f "$dpath" >"$tmp/nowait-$dir.dpu.log" 2>&1 &
		dp=$!; pids="$pids $dp"
		SHIM_NOWAIT=$fault LD_PRELOAD=$hpre "$host" -t 30 -f "$hpath" >"$tmp/nowait-$dir.host.log" 2>&1
		rc_host=$?; wait $dp; rc_dpu=$?
		[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "$dir, preadv2 $fault: host $rc_host, dpu $rc_dpu"
		cmp -s "$src" "$dst" || fail "$dir, preadv2 $fault: files differ"
	done
	rm -f "$src" "$dst"
	n=$((n + 1))
done

# Killing either side mid-transfer: the other side fails, no complete-looking file remains.
# 64-byte chunks (half a million tasks), each completing at least 50 us after its submit
# (SOFTDOCA_FAULT), make the copy last seconds however fast the machine: it is caught in the
# middle.
printf '[profile default]\nmax_buf_size = 64\n' > "$tmp/slow.cfg"
make_file "$tmp/h/big" 33554432
for victim in host dpu; do
	rm -f "$tmp/d/dst" "$tmp/d"/dst.partial.*
	SOFTDOCA_FAULT=delay_us=50 SOFTDOCA_CONFIG=$tmp/slow.cfg "$dpu" -t 30 -f "$tmp/d/dst" \
		>"$tmp/kill-$victim.dpu.log" 2>&1 &
	dp=$!; pids="$pids $dp"
	SOFTDOCA_FAULT=delay_us=50 SOFTDOCA_CONFIG=$tmp/slow.cfg "$host" -t 30 -f "$tmp/h/big" \
		>"$tmp/kill-$victim.host.log" 2>&1 &
	hp=$!; pids="$pids $hp"
	# Wait until the DMA is under way (the partial file exists), at most 20 s.
	i=0; while [ $i -lt 200 ] && ! ls "$tmp/d"/dst.partial.* >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
	sleep 0.2
	if [ $victim = host ]; then kill -9 $hp; wait $hp; wait $dp; rc=$?; else kill -9 $dp; wait $dp; wait $hp; rc=$?; fi
	[ $rc != 0 ] || fail "killing the $victim: the other side reported success"
	[ ! -e "$tmp/d/dst" ] || fail "killing the $victim left a complete-looking destination"
	if [ $victim = host ]; then
		ls "$tmp/d"/dst.partial.* >/dev/null 2>&1 && fail "the DPU side left its partial file"
	fi
	n=$((n + 1))
done

# The DPU killed last left dst.partial.<its pid>: the next copy to the same name removes it,
# and leaves alone a partial file whose process is alive (pid 1).
ls "$tmp/d"/dst.partial.* >/dev/null 2>&1 || fail "the killed DPU side left no partial file to clean up"
echo live > "$tmp/d/dst.partial.1"
make_file "$tmp/h/src" 70000
run_pair stale -f "$tmp/d/dst" -- -f "$tmp/h/src"
[ $rc_host = 0 ] && [ $rc_dpu = 0 ] || fail "copy after a killed one: host $rc_host, dpu $rc_dpu"
cmp -s "$tmp/h/src" "$tmp/d/dst" || fail "copy after a killed one differs"
[ "$(ls "$tmp/d"/dst.partial.* 2>/dev/null)" = "$tmp/d/dst.partial.1" ] ||
	fail "stale partial files: $(ls "$tmp/d"/dst.partial.* 2>/dev/null | tr '\n' ' ') (want only dst.partial.1)"
grep -q "removed .*dst.partial" "$tmp/stale.dpu.log" || fail "the clean-up is not reported"
# A source truncated by another program during the copy: both sides fail (neither dies of a
# signal), the side that owns the file names the cause, no complete-looking destination remains.
# The source side's read of its file into its ring ends early (the host's or the DPU's).
for dir in h2d d2h; do
	if [ $dir = h2d ]; then src=$tmp/h/big; dpath=$tmp/d/dst; hpath=$src; part=$tmp/d; owner=host
	else src=$tmp/d/big; dpath=$src; hpath=$tmp/h/dst; part=$tmp/h; owner=dpu; fi
	make_file "$src" 33554432
	rm -f "$tmp/d/dst" "$tmp/h/dst" "$tmp/d"/dst.partial.* "$tmp/h"/dst.partial.*
	SOFTDOCA_FAULT=delay_us=50 SOFTDOCA_CONFIG=$tmp/slow.cfg "$dpu" -t 30 -f "$dpath" \
		>"$tmp/shrink-$dir.dpu.log" 2>&1 &
	dp=$!; pids="$pids $dp"
	SOFTDOCA_FAULT=delay_us=50 SOFTDOCA_CONFIG=$tmp/slow.cfg "$host" -t 30 -f "$hpath" \
		>"$tmp/shrink-$dir.host.log" 2>&1 &
	hp=$!; pids="$pids $hp"
	i=0; while [ $i -lt 200 ] && ! ls "$part"/dst.partial.* >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
	sleep 0.3
	truncate -s 1000000 "$src"
	wait $hp; rc_host=$?; wait $dp; rc_dpu=$?
	[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "$dir, source truncated: host $rc_host, dpu $rc_dpu"
	[ $rc_host -lt 128 ] && [ $rc_dpu -lt 128 ] || fail "$dir, source truncated: killed by a signal (host $rc_host, dpu $rc_dpu)"
	grep -q "shrank during the copy" "$tmp/shrink-$dir.$owner.log" || fail "$dir: the $owner side did not say its file shrank"
	[ ! -e "$tmp/d/dst" ] && [ ! -e "$tmp/h/dst" ] || fail "$dir, source truncated: a destination was put in place"
	rm -f "$src"
	n=$((n + 1))
done
# The same at a chosen point: the shim cuts the file just before a piece is read, on each side.
for owner in host dpu; do
	if [ $owner = host ]; then src=$tmp/h/big; dpath=$tmp/d/dst; hpath=$src; hpre=$shim; dpre=
	else src=$tmp/d/big; dpath=$src; hpath=$tmp/h/dst; hpre=; dpre=$shim; fi
	make_file "$src" 33554432
	rm -f "$tmp/d/dst" "$tmp/h/dst"
	LD_PRELOAD=$dpre "$dpu" -t 30 -f "$dpath" >"$tmp/cut-$owner.dpu.log" 2>&1 &
	dp=$!; pids="$pids $dp"
	LD_PRELOAD=$hpre "$host" -t 30 -f "$hpath" >"$tmp/cut-$owner.host.log" 2>&1
	rc_host=$?; wait $dp; rc_dpu=$?
	[ "$(stat -c %s "$src")" = 1000000 ] || fail "the shim did not cut $src"
	[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "$owner file cut under its checksum: host $rc_host, dpu $rc_dpu"
	[ $rc_host -lt 128 ] && [ $rc_dpu -lt 128 ] ||
		fail "$owner file cut under its checksum: killed by a signal (host $rc_host, dpu $rc_dpu)"
	grep -q "shrank during the copy" "$tmp/cut-$owner.$owner.log" || fail "cut-$owner: no line naming the cause"
	[ ! -e "$tmp/d/dst" ] && [ ! -e "$tmp/h/dst" ] || fail "cut-$owner: a destination was put in place"
	rm -f "$src"
	n=$((n + 1))
done
if [ -n "$(ls "$tmp/d"/dst.partial.* "$tmp/h"/dst.partial.* 2>/dev/null)" ]; then
	fail "a truncated copy left a partial file behind"
fi

# Messages name the real cause.
# A file on neither side says which side looked for what; one the DPU side cannot read says so.
echo x > "$tmp/d/plain"
run_pair unreadable -f "$tmp/d/plain/f" -- -f "$tmp/h/plain/f"
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "a path nobody can read must fail"
grep -q "the DPU side cannot read $tmp/d/plain/f" "$tmp/unreadable.dpu.log" ||
	fail "unreadable: $(tail -2 "$tmp/unreadable.dpu.log")"
run_pair neither -f "$tmp/d/none" -- -f "$tmp/h/none"
for side in dpu host; do
	grep -q "the host's -f names no file, and $tmp/d/none does not exist on the DPU side" \
		"$tmp/neither.$side.log" || fail "absent file message ($side): $(tail -2 "$tmp/neither.$side.log")"
done
# Bad usage exits 2 (an empty path included), before any connection.
for args in "--bogus" "-f" "-t abc -f $tmp/x" "-t 0 -f $tmp/x"; do
	# shellcheck disable=SC2086
	"$host" $args >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || fail "host $args: exit $rc, not 2"
done
"$dpu" -f "" >"$tmp/empty.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "is empty" "$tmp/empty.log" || fail "-f '': exit $rc: $(head -2 "$tmp/empty.log")"
# An interrupted side stops both, says why once, and the other side names it; nothing lands.
make_file "$tmp/h/slow" 4000000
for who in dpu host; do
	rm -f "$tmp/d/slow"
	start_slow_pair "int-$who" 200000 "$tmp/d/slow" "$tmp/h/slow"
	if [ $who = dpu ]; then kill -INT $dp; else kill -TERM $hp; fi
	wait $dp; rc_dpu=$?; wait $hp; rc_host=$?
	if [ $who = dpu ]; then
		[ $rc_dpu = 130 ] && [ $rc_host = 1 ] || fail "DPU side interrupted: dpu $rc_dpu, host $rc_host"
		grep -q "the DPU side was interrupted (SIGINT): the copy stopped" "$tmp/int-dpu.dpu.log" || fail "int dpu"
		grep -q "stopped the copy: the DPU side was interrupted (SIGINT)" "$tmp/int-dpu.host.log" || fail "int dpu: host"
	else
		[ $rc_host = 143 ] && [ $rc_dpu = 1 ] || fail "host stopped: dpu $rc_dpu, host $rc_host"
		grep -q "stopped the copy: the host was stopped (SIGTERM)" "$tmp/int-host.dpu.log" || fail "int host: dpu"
	fi
	for f in "$tmp/int-$who.dpu.log" "$tmp/int-$who.host.log"; do
		! grep -q "Shut down in process\|refused: context is STOPPING\|DMA of the file failed" "$f" ||
			fail "$f: $(grep ERR "$f")"
	done
	[ ! -e "$tmp/d/slow" ] && [ -z "$(ls "$tmp/d"/slow.partial.* 2>/dev/null)" ] || fail "an interrupted copy left a file"
done
# Tasks slower than a second keep an interrupted side waiting: it says so, then exits.
rm -f "$tmp/d/slow"
start_slow_pair int-wait 2500000 "$tmp/d/slow" "$tmp/h/slow"
kill -INT $dp
wait $dp; rc_dpu=$?; wait $hp; rc_host=$?
[ $rc_dpu = 130 ] && [ $rc_host = 1 ] || fail "interrupted with slow tasks: dpu $rc_dpu, host $rc_host"
grep -q "waiting for the DMA tasks in flight to finish before exiting" "$tmp/int-wait.dpu.log" ||
	fail "an interrupted side waits for slow tasks without a word: $(grep -c . "$tmp/int-wait.dpu.log") lines"
# A host that cannot read its file tells the DPU side so; the DPU side does not report it "gone".
mkdir -p "$tmp/h/adir"
run_pair hostread -f "$tmp/d/x" -- -f "$tmp/h/adir"
[ $rc_host != 0 ] && [ $rc_dpu != 0 ] || fail "a host file that cannot be read must fail both sides"
grep -q "the host cannot read" "$tmp/hostread.dpu.log" || fail "DPU side: $(tail -2 "$tmp/hostread.dpu.log")"
! grep -q "went away" "$tmp/hostread.dpu.log" || fail "the DPU side blames a vanished host"
# A second host while the DPU side serves a first one (slowed by an injected delay) is told the
# DPU side is busy; the first copy completes.
make_file "$tmp/h/big" 8000000
rm -f "$tmp/d/big"
# Once the DPU side imported the first host's memory, its copy runs (each task held 2 s).
start_slow_pair busy 2000000 "$tmp/d/big" "$tmp/h/big"
h1=$hp
rc2=0; "$host" -t 10 -f "$tmp/h/src" >"$tmp/busy.host2.log" 2>&1 || rc2=$?
wait $h1 || fail "the first host's copy failed while a second host knocked: $(tail -3 "$tmp/busy.host.log")"
wait $dp || fail "the DPU side failed while a second host knocked"
[ $rc2 != 0 ] || fail "a second host must not succeed while the DPU side is busy"
grep -q "busy with another host" "$tmp/busy.host2.log" || fail "second host: $(tail -2 "$tmp/busy.host2.log")"
# (a second DPU side for the same host function cannot be started: no advice to do so)
! grep -q "start another" "$tmp/busy.host2.log" || fail "second host: told to start another DPU side"
cmp -s "$tmp/h/big" "$tmp/d/big" || fail "the first copy differs"
! grep -q "\\[ERR\\]" "$tmp/busy.dpu.log" || fail "the DPU side logged errors: $(grep '\[ERR\]' "$tmp/busy.dpu.log" | head -2)"
n=$((n + 4))

# A peer whose messages break the session's order (the shim makes one side lie): the other side
# stops with one line naming the rule, exit 1; the liar hears why; nothing lands.
for lie in progress_past filled_past credit_for_filled; do
	if [ $lie = progress_past ]; then src=$tmp/d/src; dpath=$src; hpath=$tmp/h/dst; dst=$hpath; dpre=$shim; hpre=; victim=host; liar=dpu
	else src=$tmp/h/src; dpath=$tmp/d/dst; hpath=$src; dst=$dpath; dpre=; hpre=$shim; victim=dpu; liar=host; fi
	make_file "$src" 3000001
	rm -f "$tmp/d/dst" "$tmp/h/dst"
	SHIM_LIE=$lie LD_PRELOAD=$dpre "$dpu" -t 30 -f "$dpath" >"$tmp/lie-$lie.dpu.log" 2>&1 &
	dp=$!; pids="$pids $dp"
	SHIM_LIE=$lie LD_PRELOAD=$hpre "$host" -t 30 -f "$hpath" >"$tmp/lie-$lie.host.log" 2>&1
	rc_host=$?; wait $dp; rc_dpu=$?
	[ $rc_host = 1 ] && [ $rc_dpu = 1 ] || fail "$lie: host $rc_host, dpu $rc_dpu (both must exit 1)"
	[ "$(grep -c "the other side broke the protocol" "$tmp/lie-$lie.$victim.log")" = 1 ] &&
		[ "$(grep -c "ERR" "$tmp/lie-$lie.$victim.log")" = 1 ] ||
		fail "$lie: the $victim side does not say once, and only, which rule broke: $(cat "$tmp/lie-$lie.$victim.log")"
	grep -q "the protocol was broken" "$tmp/lie-$lie.$liar.log" || fail "$lie: the $liar side does not hear why"
	[ ! -e "$dst" ] || fail "$lie: a destination was put in place"
	n=$((n + 1))
done
rm -f "$tmp/d/src" "$tmp/h/src"
# Progress on a terminal, both sides (util-linux script gives each side a pty): frames cleared
# before each redraw and a final 100% frame; with --quiet, or without a terminal, none.
if command -v script >/dev/null 2>&1; then
	make_file "$tmp/h/src" 3000001
	rm -f "$tmp/d/dst"
	script -qfec "\"$dpu\" -t 30 -f \"$tmp/d/dst\"" "$tmp/tty.dpu.log" >/dev/null 2>&1 &
	dp=$!; pids="$pids $dp"
	script -qfec "\"$host\" -t 30 -f \"$tmp/h/src\"" "$tmp/tty.host.log" >/dev/null 2>&1 ||
		fail "copy on a terminal (host)"
	wait $dp || fail "copy on a terminal (DPU)"
	for side in dpu host; do
		grep -q "$(printf '\r\033\\[K')" "$tmp/tty.$side.log" || fail "$side: no cleared progress line on a terminal"
		grep -q "100.0%" "$tmp/tty.$side.log" || fail "$side: no final 100% frame"
	done
	rm -f "$tmp/d/dst"
	script -qfec "\"$dpu\" -t 30 -q -f \"$tmp/d/dst\"" "$tmp/quiet.dpu.log" >/dev/null 2>&1 &
	dp=$!; pids="$pids $dp"
	script -qfec "\"$host\" -t 30 --quiet -f \"$tmp/h/src\"" "$tmp/quiet.host.log" >/dev/null 2>&1 ||
		fail "--quiet copy (host)"
	wait $dp || fail "--quiet copy (DPU)"
	! grep -q "%" "$tmp/quiet.dpu.log" "$tmp/quiet.host.log" || fail "--quiet still draws a progress bar"
	grep -q "verified" "$tmp/quiet.host.log" || fail "--quiet drops the summary"
	# A copy that fails while its bar is drawn: the error starts a line of its own, not the
	# bar's end (the host killed while the copy runs, each DMA task of the DPU side held 0.2 s:
	# 123 chunks, 16 in flight, at least 1.6 s).
	make_file "$tmp/h/big" 64000000
	rm -f "$tmp/d/big"
	SOFTDOCA_FAULT=delay_us=200000 script -qfec "\"$dpu\" -t 30 -f \"$tmp/d/big\"" "$tmp/ttyfail.dpu.log" \
		>/dev/null 2>&1 &
	dp=$!; pids="$pids $dp"
	"$host" -t 30 -f "$tmp/h/big" >"$tmp/ttyfail.host.log" 2>&1 &
	hp=$!; pids="$pids $hp"
	for i in $(seq 200); do grep -q "ETA" "$tmp/ttyfail.dpu.log" 2>/dev/null && break; sleep 0.05; done
	grep -q "ETA" "$tmp/ttyfail.dpu.log" || fail "no progress bar before the failure"
	sleep 0.3
	kill -9 $hp; wait $hp 2>/dev/null
	wait $dp && fail "the DPU side succeeded without its host"
	grep -q "\[ERR\]" "$tmp/ttyfail.dpu.log" || fail "the DPU side did not say why it failed"
	! grep "ETA" "$tmp/ttyfail.dpu.log" | grep -q "\[ERR\]" ||
		fail "an error written onto the end of the progress bar: $(grep ETA "$tmp/ttyfail.dpu.log" | tail -1)"
	n=$((n + 3))
fi
! grep -q "%" "$tmp/h2d-3000001.host.log" "$tmp/h2d-3000001.dpu.log" || fail "a bar without a terminal"
echo "doca_dma_copy: $n scenarios passed"
