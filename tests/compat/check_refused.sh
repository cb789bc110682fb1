#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# DOCA 3.2 spellings softdoca refuses (docs/versions.md) must stop the build with the message
# that names the 3.3 form: each refused/*.c must fail to compile (C11, gcc's and clang's default
# warnings, no -Werror), its error output must contain the text of its "expect:" line, and the
# same file with -DDOCA_3_3_ORDER (the 3.3 spelling) must compile.
# usage: check_refused.sh <cc> <include dir>...
set -u
cc=$1; shift
incs=""
for d in "$@"; do incs="$incs -I$d"; done
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
flags="-std=c11 -DDOCA_ALLOW_EXPERIMENTAL_API -c -o /dev/null $incs"
fail=0; n=0
for f in "$here"/refused/*.c; do
	n=$((n + 1))
	name=$(basename "$f")
	expect=$(sed -n 's/^ \* expect: //p' "$f")
	if [ -z "$expect" ]; then
		echo "FAIL: $name has no 'expect:' line"; fail=1; continue
	fi
	if $cc $flags "$f" >"$tmp" 2>&1; then
		echo "FAIL: $name (3.2 spelling) compiled; it must stop with \"$expect\""; cat "$tmp"; fail=1
	elif ! grep -qF "$expect" "$tmp"; then
		echo "FAIL: $name failed to compile without \"$expect\":"; cat "$tmp"; fail=1
	else
		echo "ok: $name refused: $(grep -F "$expect" "$tmp" | head -1)"
	fi
	if ! $cc $flags -Wall -Wextra -Werror -DDOCA_3_3_ORDER "$f" >"$tmp" 2>&1; then
		echo "FAIL: $name with -DDOCA_3_3_ORDER (3.3 spelling) does not compile:"; cat "$tmp"; fail=1
	fi
done
echo "$n refused spellings checked"
exit $fail
