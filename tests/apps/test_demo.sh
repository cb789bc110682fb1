#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_demo.sh SRCDIR BUILDDIR - the README's main command, small: `demo.sh 16` under sh (dash on
# Debian) and under bash exits 0 after verifying both copies, and leaves nothing behind in its
# TMPDIR. It reuses the test build (SOFTDOCA_BUILD_DIR) instead of building a release of its own.
set -u
src=$1 build=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
for shell in sh bash; do
	command -v $shell >/dev/null 2>&1 || continue
	t=$(mktemp -d "${TMPDIR:-/tmp}/sdd.XXXXXX") # short: socket paths hold 107 bytes
	rc=0
	TMPDIR=$t SOFTDOCA_BUILD_DIR=$build $shell "$src/demo.sh" 16 >"$t.log" 2>&1 || rc=$?
	left=$(ls -A "$t")
	rmdir "$t" 2>/dev/null
	[ $rc -eq 0 ] || { cat "$t.log"; rm -f "$t.log"; fail "$shell demo.sh 16 exited $rc"; }
	grep -q "both copies verified byte for byte" "$t.log" || { cat "$t.log"; rm -f "$t.log"; fail "$shell: no verification line"; }
	rm -f "$t.log"
	[ -z "$left" ] || { rm -rf "$t"; fail "$shell demo.sh left in TMPDIR: $left"; }
	echo "$shell demo.sh 16: exit 0, both copies verified, TMPDIR clean"
done
