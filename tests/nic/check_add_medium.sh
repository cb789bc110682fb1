#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check_add_medium.sh SRCDIR - a medium is its file src/nic/NAME.c and one line in the media
# list of src/nic/meson.build (nic_media), nothing less.
#
# The tree's media agree three ways: every listed NAME has src/nic/NAME.c defining
# nic_NAME_backend; every src/nic/*.c defining a nic_*_backend is listed; every listed NAME has
# its row in tests/nic/test_conformance.c (what its full ring does). Then, in a scratch copy of
# src/nic built as a project of its own (meson setup only: it generates media_list.h), a medium
# listed without its file must fail the setup and this check, a medium file without its line
# must fail this check, and a medium with both must reach the generated list.
# Exit 0 pass, 1 fail, 77 skip (no meson).
set -eu
src=$(cd "$1" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

# The media of the list in TREE/src/nic/meson.build, one a line.
listed() {
	sed -n "s/^nic_media = \[\(.*\)\]$/\1/p" "$1/src/nic/meson.build" | tr -d "' " | tr ',' '\n' | sed '/^$/d'
}

# Prints what disagrees in TREE; exit 1 if anything does.
check_tree() {
	t=$1
	bad=0
	names=$(listed "$t")
	[ -n "$names" ] || { echo "no nic_media = [...] line in src/nic/meson.build"; return 1; }
	for m in $names; do
		if [ ! -f "$t/src/nic/$m.c" ]; then
			echo "medium $m is listed in src/nic/meson.build but src/nic/$m.c does not exist"
			bad=1
		elif ! grep -q "^const struct dev_backend_ops nic_${m}_backend\b" "$t/src/nic/$m.c"; then
			echo "medium $m: src/nic/$m.c does not define nic_${m}_backend"
			bad=1
		fi
		if [ -f "$t/tests/nic/test_conformance.c" ] && ! grep -q "{\"$m\", FULL_" "$t/tests/nic/test_conformance.c"; then
			echo "medium $m has no row in tests/nic/test_conformance.c's expectations"
			bad=1
		fi
	done
	for f in "$t"/src/nic/*.c; do
		m=$(sed -n 's/^const struct dev_backend_ops nic_\([a-z0-9_]*\)_backend .*/\1/p' "$f")
		[ -n "$m" ] || continue
		echo "$names" | grep -qx "$m" ||
			{ echo "$(basename "$f") defines nic_${m}_backend but medium $m is not in the list of src/nic/meson.build"; bad=1; }
	done
	return $bad
}

out=$(check_tree "$src") || fail "$out"
echo "the tree's media agree: $(listed "$src" | tr '\n' ' ')"

command -v meson >/dev/null && command -v ninja >/dev/null || exit 77
work=$(mktemp -d "${TMPDIR:-/tmp}/sd-add-medium.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# A scratch tree: src/nic and the conformance test, and a project that is only src/nic's list.
fresh() {
	rm -rf "$work/tree"
	mkdir -p "$work/tree/src/nic" "$work/tree/tests/nic"
	cp "$src"/src/nic/meson.build "$src"/src/nic/media_list.h.in "$src"/src/nic/*.c "$work/tree/src/nic/"
	cp "$src/tests/nic/test_conformance.c" "$work/tree/tests/nic/"
	printf "project('media', 'c')\nsubdir('src/nic')\n" >"$work/tree/meson.build"
}
setup() { meson setup "$work/tree/build" "$work/tree" >"$work/setup.log" 2>&1; }
add_line() { sed -i "s/^nic_media = \[\(.*\)\]$/nic_media = [\1, '$1']/" "$work/tree/src/nic/meson.build"; }
add_row() { sed -i "s/^\(    {\"wire\", FULL_.*\)$/\1\n    {\"$1\", FULL_BOUNDED, 1, 0},/" "$work/tree/tests/nic/test_conformance.c"; }

# 1. listed without its file
fresh
add_line ghost
add_row ghost
check_tree "$work/tree" >"$work/out" && fail "a listed medium without its file passed the check"
grep -q "medium ghost is listed in src/nic/meson.build but src/nic/ghost.c does not exist" "$work/out" ||
	fail "check: $(cat "$work/out")"
setup && fail "meson setup accepted a listed medium without its file"
grep -q "ghost.c" "$work/setup.log" || fail "meson setup failed, but not on ghost.c: $(tail -5 "$work/setup.log")"

# 2. a file without its line
fresh
sed 's/nic_udp_backend/nic_udp2_backend/' "$src/src/nic/udp.c" >"$work/tree/src/nic/udp2.c"
add_row udp2
check_tree "$work/tree" >"$work/out" && fail "a medium file without its list line passed the check"
grep -q "udp2.c defines nic_udp2_backend but medium udp2 is not in the list" "$work/out" ||
	fail "check: $(cat "$work/out")"

# 3. a line without a conformance row
fresh
sed 's/nic_udp_backend/nic_udp2_backend/' "$src/src/nic/udp.c" >"$work/tree/src/nic/udp2.c"
add_line udp2
check_tree "$work/tree" >"$work/out" && fail "a medium without its conformance row passed the check"
grep -q "medium udp2 has no row" "$work/out" || fail "check: $(cat "$work/out")"

# 4. file, line and row: the check passes and the generated list has it
add_row udp2
out=$(check_tree "$work/tree") || fail "file, line and row: $out"
setup || { tail -20 "$work/setup.log"; fail "meson setup with the new medium"; }
grep -qx "NIC_MEDIUM(udp2, TOPO_MEDIUM_UDP2, nic_udp2_backend)" "$work/tree/build/src/nic/media_list.h" ||
	fail "media_list.h: $(cat "$work/tree/build/src/nic/media_list.h")"
echo "a medium listed without its file, or a file without its line or row, is refused; with all three it is in media_list.h"
