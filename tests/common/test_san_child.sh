#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A sanitizer report made by a child a test starts fails the run, though the test passes: run
# under test.sh's sanitizer settings (scripts/sanitizers.sh), a parent that ignores its exec'd
# child's status exits 0, and the child's report is found, naming the program and its pid. A
# child with nothing to report leaves no report.
# usage: test_san_child.sh <scripts/sanitizers.sh> <san_child>
set -u
lib=$1; prog=$2
fail() { echo "FAIL: $*"; exit 1; }
. "$lib"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

(san_env "$tmp/bad" && exec "$prog") >"$tmp/bad.out" 2>&1 ||
	fail "the parent itself must pass (only its child misbehaves): $(cat "$tmp/bad.out")"
san_check "$tmp/bad" >"$tmp/bad.check" && fail "the child's report was not seen: $(cat "$tmp/bad.out")"
cat "$tmp/bad.check"
grep -q "^   sanitizer report from san_child (pid [0-9][0-9]*), " "$tmp/bad.check" ||
	fail "the report does not name the program and its pid"
grep -q "Sanitizer" "$tmp/bad.check" || fail "the report's first lines are not printed"

(san_env "$tmp/clean" && exec "$prog" clean) >"$tmp/clean.out" 2>&1 || fail "clean run: $(cat "$tmp/clean.out")"
san_check "$tmp/clean" || fail "a child with nothing to report left a report"
echo "test_san_child: ok"
