#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The udp medium between two network namespaces joined by a veth pair, as between two machines:
#
#   IPv4, IPv6  the examples eth_rxq_regular_receive (03:00.0, namespace A) and
#               eth_txq_send_ethernet_frames (03:00.1, namespace B), run by test_example_pairs
#               through wrappers that put each in its namespace: every frame arrives in order,
#               byte for byte, both captures agree. Each port's section holds one udp.peer line
#               (the local address defaults to any, port 4789).
#   Linux vxlan a vxlan interface of the same VNI in namespace B in place of 03:00.1: frames the
#               send example sends on 03:00.0 show in its rx_packets, and datagrams the kernel
#               sends through it (UDP to a neighbour behind it) reach the receive example.
#
#   test_udp_netns.sh PAIRS_TEST RX_EXAMPLE TX_EXAMPLE
#
# Needs root and iproute2 (skipped, 77, otherwise); the namespaces (and with them the veth
# pair and the vxlan interface) are deleted at exit, whatever the outcome.
# UDP_SEED_DIR=DIR (python3): also writes datagrams the Linux vxlan interface sent, as fuzz seeds.
set -u
pairs=$1 rx=$2 tx=$3
[ "$(id -u)" = 0 ] || { echo "skip: needs root (network namespaces, a veth pair)"; exit 77; }
command -v ip >/dev/null || { echo "skip: no ip (iproute2)"; exit 77; }
A=sdua$$ B=sdub$$ VA=sduva$$ VB=sduvb$$ VNI=4242
tmp=$(mktemp -d)
cleanup() {
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() {
	echo "test_udp_netns: $*" >&2
	exit 1
}
ip netns add "$A" || { echo "skip: cannot make a network namespace"; exit 77; }
ip netns add "$B" || { echo "skip: cannot make a network namespace"; exit 77; }
ip link add "$VA" type veth peer name "$VB" || { echo "skip: cannot make a veth pair"; exit 77; }
ip link set "$VA" netns "$A" && ip link set "$VB" netns "$B" || fail "cannot move the veth ends"
ip -n "$A" addr add 10.231.0.1/24 dev "$VA" && ip -n "$B" addr add 10.231.0.2/24 dev "$VB" &&
	ip -n "$A" addr add fd00:231::1/64 dev "$VA" nodad && ip -n "$B" addr add fd00:231::2/64 dev "$VB" nodad &&
	ip -n "$A" link set lo up && ip -n "$B" link set lo up &&
	ip -n "$A" link set "$VA" up && ip -n "$B" link set "$VB" up || fail "cannot address the veth pair"

# each example in its namespace, under the name test_example_pairs knows it by
mkdir "$tmp/bin"
printf '#!/bin/sh\nexec ip netns exec %s %s "$@"\n' "$A" "$rx" >"$tmp/bin/$(basename "$rx")"
printf '#!/bin/sh\nexec ip netns exec %s %s "$@"\n' "$B" "$tx" >"$tmp/bin/$(basename "$tx")"
chmod +x "$tmp/bin/"*

config() { # PEER_OF_A PEER_OF_B
	printf '[profile default]\neth.supported = yes\n'
	printf '[device 03:00.0]\nside = dpu\nudp.peer = %s\nudp.vni = %s\n' "$1" $VNI
	printf '[device 03:00.1]\nside = dpu\nudp.peer = %s\nudp.vni = %s\n' "$2" $VNI
}
config 10.231.0.2 10.231.0.1 >"$tmp/v4.conf"
config '[fd00:231::2]' '[fd00:231::1]' >"$tmp/v6.conf"
export SOFTDOCA_SIDE=all
for fam in v4 v6; do
	SOFTDOCA_CONFIG=$tmp/$fam.conf "$pairs" "$tmp/bin/$(basename "$rx")" "$tmp/bin/$(basename "$tx")" ||
		fail "the examples over udp ($fam) between namespaces $A and $B failed"
	echo "udp $fam between namespaces: ok"
done

# a Linux vxlan interface at B's end
export SOFTDOCA_CONFIG=$tmp/v4.conf
ip -n "$B" link add vx0 type vxlan id $VNI local 10.231.0.2 remote 10.231.0.1 dstport 4789 nolearning &&
	ip netns exec "$B" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/vx0/disable_ipv6' &&
	ip -n "$B" link set vx0 address 02:00:00:00:e7:02 up && ip -n "$B" addr add 192.168.231.2/24 dev vx0 &&
	ip -n "$B" neigh add 192.168.231.1 lladdr 02:00:00:00:e7:01 dev vx0 nud permanent ||
	{ echo "skip: no vxlan interface here (the rest passed)"; exit 77; }
rx_packets() { ip netns exec "$B" cat /sys/class/net/vx0/statistics/rx_packets; }
before=$(rx_packets)
ip netns exec "$A" "$tx" -p 03:00.0 -n 20 -s 200 -q >"$tmp/tx.out" 2>&1 || fail "send example: $(cat "$tmp/tx.out")"
for _ in $(seq 50); do [ $(($(rx_packets) - before)) -ge 20 ] && break; sleep 0.1; done
[ $(($(rx_packets) - before)) -eq 20 ] || fail "vx0 received $(($(rx_packets) - before)) frames, not 20"
echo "softdoca -> Linux vxlan: 20 frames: ok"

if [ -n "${UDP_SEED_DIR:-}" ]; then
	ip netns exec "$A" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("10.231.0.1", 4789)); s.settimeout(3)
for i in range(3):
    open("%s/linux-%d" % (sys.argv[1], i), "wb").write(s.recv(65536))
' "$UDP_SEED_DIR" &
	seeder=$!
	sleep 0.5
	for n in 1 200 1400; do
		ip netns exec "$B" bash -c "head -c $n /dev/zero > /dev/udp/192.168.231.1/9"
	done
	wait $seeder
fi

ip netns exec "$A" "$rx" -p 03:00.0 -n 3 -w 5000 >"$tmp/rx.out" 2>&1 &
rxpid=$!
for _ in $(seq 100); do grep -q "receiving on" "$tmp/rx.out" && break; sleep 0.1; done
grep -q "receiving on" "$tmp/rx.out" || { kill $rxpid; fail "receive example not ready: $(cat "$tmp/rx.out")"; }
for i in 1 2 3; do
	ip netns exec "$B" bash -c "echo frame $i > /dev/udp/192.168.231.1/9" || fail "cannot send through vx0"
done
wait $rxpid || fail "receive example: $(cat "$tmp/rx.out")"
grep -q "received 3 of 3 frames" "$tmp/rx.out" || fail "receive example: $(cat "$tmp/rx.out")"
echo "Linux vxlan -> softdoca: 3 frames: ok"
