#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every tool behaves like the command-line tools DOCA users know: --version prints one line
# with softdoca's and DOCA's versions and exits 0; an unknown option or a malformed argument is
# one short line on stderr and exit status 2 (not the whole manual); --help goes to stdout.
# usage: test_cli.sh <doca_caps> <doca-env> <doca-capability-snapshot> <softdoca-trace> <doca version> [tool...]
# (further tools get the same --version, --help and unknown-option checks)
set -u
caps=$1; env=$2; snap=$3; trace=$4; doca=$5
shift 5
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for t in "$caps" "$env" "$snap" "$trace" "$@"; do
	name=$(basename "$t")
	out=$("$t" --version) || fail "$name --version exits $?"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "$name --version prints more than one line: $out"
	echo "$out" | grep -q "$doca" || fail "$name --version does not name DOCA $doca: $out"
	"$t" --help >"$tmp/help" 2>"$tmp/err" || fail "$name --help exits $?"
	[ -s "$tmp/help" ] && [ ! -s "$tmp/err" ] || fail "$name --help must print to stdout only"
	# one line in the tool's own words (not getopt's, which start with the path it was run by)
	# and the hint, for an unknown long option and an unknown short one
	for opt in --no-such-option -V; do
		"$t" $opt >"$tmp/out" 2>"$tmp/err"; rc=$?
		[ $rc = 2 ] || fail "$name $opt exits $rc, not 2"
		[ "$(wc -l < "$tmp/err")" = 1 ] || fail "$name $opt: $(wc -l < "$tmp/err") lines: $(cat "$tmp/err")"
		[ ! -s "$tmp/out" ] || fail "$name prints to stdout on bad usage"
		grep -q -- "^$name: unknown [a-z]* '$opt'; see $name --help\$" "$tmp/err" ||
			fail "$name $opt: $(cat "$tmp/err")"
	done
done
"$caps" -p zz >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] || fail "doca_caps -p zz exits $rc, not 2 (bad usage)"
[ "$(wc -l < "$tmp/err")" = 1 ] || fail "doca_caps -p zz: $(wc -l < "$tmp/err") error lines, want one"
# doca_caps's own words (not getopt's, which start with the path it was run by).
"$caps" --bogus 2>&1 | grep -q "^doca_caps: unknown option '--bogus'; see doca_caps --help$" ||
	fail "doca_caps --bogus: $("$caps" --bogus 2>&1)"
"$caps" --pci-addr 2>&1 | grep -q "^doca_caps: option '--pci-addr' needs a value" ||
	fail "doca_caps --pci-addr: $("$caps" --pci-addr 2>&1)"
# A short option refused inside a group is named as itself, not as the word before it.
"$caps" --list-devs -Vq 2>&1 | grep -q "^doca_caps: unknown option '-V'; see doca_caps --help$" ||
	fail "doca_caps --list-devs -Vq: $("$caps" --list-devs -Vq 2>&1)"
"$caps" --list-devs=yes 2>&1 | grep -q "^doca_caps: option '--list-devs' takes no value; see doca_caps --help$" ||
	fail "doca_caps --list-devs=yes: $("$caps" --list-devs=yes 2>&1)"
"$caps" -p 07:00.0 >/dev/null 2>&1; rc=$?
[ $rc = 3 ] || fail "doca_caps -p 07:00.0 (no such device) exits $rc, not 3"
"$trace" a b >/dev/null 2>&1; [ $? = 2 ] || fail "softdoca-trace with two files must be bad usage"
"$snap" --diff >/dev/null 2>&1; [ $? = 2 ] || fail "doca-capability-snapshot --diff without a file must be bad usage"
"$snap" > "$tmp/snap.txt" || fail "doca-capability-snapshot"
"$snap" --diff="$tmp/snap.txt" >/dev/null || fail "doca-capability-snapshot --diff=FILE (exit $?)"
echo "command-line conventions: all checks passed"
