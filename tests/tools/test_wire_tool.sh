#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# softdoca-wire: one instance receives on 03:00.0 while another sends on 03:00.1 (the default
# topology cables them); every frame arrives, each protocol parses as what was sent, the
# counters add up in `stats` (which reads a cable nobody laid as zeros, without laying it), and
# bad usage is exit status 2, a missing device 3.
# usage: test_wire_tool.sh <softdoca-wire>
set -u
wire=$1
fail() { echo "FAIL: $*"; [ -f "$tmp/recv" ] && sed 's/^/    recv: /' "$tmp/recv" | tail -5; exit 1; }
tmp=$(mktemp -d)
trap 'kill $rpid 2>/dev/null; rm -rf "$tmp"' EXIT
rpid=
export XDG_RUNTIME_DIR="$tmp"
unset SOFTDOCA_CONFIG SOFTDOCA_PCAP

# Starts a receiver for $1 frames and waits until it owns the port.
start_recv() {
	: >"$tmp/recv"
	"$wire" recv -p 03:00.0 --count "$1" --timeout 20 >"$tmp/recv" 2>"$tmp/recv.err" &
	rpid=$!
	i=0
	until grep -q "^receiving on 03:00.0" "$tmp/recv"; do
		i=$((i + 1))
		[ $i -le 200 ] || fail "recv never started: $(cat "$tmp/recv.err")"
		kill -0 $rpid 2>/dev/null || fail "recv exited early: $(cat "$tmp/recv.err")"
		sleep 0.05
	done
}

# stats before any traffic: zero counters, and no cable laid just to read them
"$wire" stats >"$tmp/stats0" 2>&1 || fail "stats on fresh cables exits $?: $(cat "$tmp/stats0")"
grep -q "^03:00.0  medium wire  peer 03:00.1  no cable yet" "$tmp/stats0" || fail "fresh stats: $(cat "$tmp/stats0")"
grep -A1 "^03:00.0 " "$tmp/stats0" | grep -q "tx 0 frames 0 bytes" || fail "fresh stats counters: $(cat "$tmp/stats0")"
! ls "$tmp"/softdoca/*.cable >/dev/null 2>&1 || fail "stats laid cables: $(ls "$tmp"/softdoca)"

total=0
for proto in udp tcp icmp raw; do
	start_recv 25
	"$wire" send -p 03:00.1 --count 25 --size 128 --proto $proto --flows 5 >"$tmp/send" 2>&1 ||
		fail "send --proto $proto exits $?: $(cat "$tmp/send")"
	grep -q "^sent 25 frames of 128 bytes" "$tmp/send" || fail "send says: $(cat "$tmp/send")"
	wait $rpid || fail "recv of $proto exits $?: $(cat "$tmp/recv.err")"
	rpid=
	grep -q "^received 25 frames, 3200 bytes on 03:00.0" "$tmp/recv" || fail "recv summary for $proto"
	n=$(grep -c " len 128 " "$tmp/recv")
	[ "$n" = 25 ] || fail "$n frame lines for $proto, want 25"
	case $proto in
	udp) want=" udp 10.0.0.1:1000[0-4] > 10.0.0.2:5001 seq " ;;
	tcp) want=" tcp 10.0.0.1:1000[0-4] > 10.0.0.2:5001 syn payload 0 seq " ;; # a SYN carries no data
	icmp) want=" icmp 10.0.0.1 > 10.0.0.2 seq " ;;
	raw) want=" type 0x88b5 seq " ;;
	esac
	n=$(grep -c "$want" "$tmp/recv")
	[ "$n" = 25 ] || fail "$n of 25 $proto frames parse as '$want'"
	! grep -q "bad-" "$tmp/recv" || fail "$proto frames with a bad checksum"
	for s in 0 12 24; do grep -q "seq $s\$" "$tmp/recv" || fail "$proto frame seq $s missing"; done
	total=$((total + 25))
done

# a paced send arrives whole too
start_recv 20
"$wire" send -p 03:00.1 -n 20 --rate 2000 >/dev/null 2>&1 || fail "paced send"
wait $rpid || fail "recv of the paced send"
rpid=
total=$((total + 20))

"$wire" stats >"$tmp/stats" 2>&1 || fail "stats exits $?"
grep -A2 "^03:00.1  medium wire  peer 03:00.0" "$tmp/stats" | grep -q "tx $total frames" ||
	fail "stats: tx of 03:00.1 is not $total: $(cat "$tmp/stats")"
grep -A2 "^03:00.0  medium wire  peer 03:00.1" "$tmp/stats" | grep -q "rx $total frames" ||
	fail "stats: rx of 03:00.0 is not $total"
"$wire" stats -p 03:00.0 | grep -q "^03:00.0 " || fail "stats -p 03:00.0"

# nobody arrives: recv gives up after its timeout with status 1
"$wire" recv -p 03:00.0 --count 1 --timeout 0.2 >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "recv that times out exits $rc, not 1"

# usage
for args in "send" "recv" "send -p zz" "send -p 03:00.1 --size 59" "send -p 03:00.1 --size 9217" \
	"send -p 03:00.1 --proto sctp" "send -p 03:00.1 --flows 0" "send -p 03:00.1 --count x" \
	"recv -p 03:00.0 --timeout -1" "fly" "send -p 03:00.1 extra" "-V" "recv -qV" "send -p" \
	"recv --pci-addr" "recv --quiet=1"; do
	# shellcheck disable=SC2086
	"$wire" $args >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] || fail "softdoca-wire $args exits $rc, not 2"
	[ "$(wc -l < "$tmp/err")" = 1 ] || fail "softdoca-wire $args: $(wc -l < "$tmp/err") error lines"
	[ ! -s "$tmp/out" ] || fail "softdoca-wire $args prints to stdout"
done
# in softdoca-wire's words, with the hint on the same line (getopt's own start with the path)
for case in "-V|unknown option '-V'" "recv -qV|unknown option '-V'" "send -p|option '-p' needs a value" \
	"recv --pci-addr|option '--pci-addr' needs a value" "recv --quiet=1|option '--quiet' takes no value" \
	"--bogus|unknown option '--bogus'"; do
	args=${case%%|*}
	# shellcheck disable=SC2086
	"$wire" $args 2>&1 | grep -Fqx "softdoca-wire: ${case#*|}; see softdoca-wire --help" ||
		fail "softdoca-wire $args: $("$wire" $args 2>&1)"
done
"$wire" send -p 07:00.0 >/dev/null 2>&1; rc=$?
[ $rc = 3 ] || fail "send on a missing device exits $rc, not 3"
printf '[device 03:00.0]\nside = dpu\n' >"$tmp/topo.ini"
SOFTDOCA_CONFIG="$tmp/topo.ini" "$wire" send -p 03:00.0 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 3 ] || fail "send on a device without medium exits $rc, not 3"
grep -q "no port medium" "$tmp/err" || fail "no medium: $(cat "$tmp/err")"
echo "softdoca-wire: all checks passed"
