#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Each public header must make available, on its own, what DOCA's version of it makes available
# (the libc headers and DOCA headers it includes, see docs/headers.md): available/<header>.c uses
# them after including only that header; a header without such a file gets available/default.c
# (what every header that includes doca_compat.h provides). regress/*.c reproduce reported
# programs. Each file is compiled as C11, with implicit declarations as errors, and as C++17.
# usage: check_available.sh <cc> <c++> <include dir>...
set -u
cc=$1; cxx=$2; shift 2
incs=""
for d in "$@"; do incs="$incs -I$d"; done
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../include" && pwd)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
common="-DDOCA_ALLOW_EXPERIMENTAL_API -Wall -Wextra -Werror -I$here/available $incs -fsyntax-only"
cflags="-std=c11 -Werror=implicit-function-declaration -Wpedantic -Wno-variadic-macros -Wno-gnu-zero-variadic-macro-arguments -Wno-unknown-warning-option"
fail=0; n=0; generic=""

# compile <label> <file> [extra flags...]
compile() {
	label=$1; file=$2; shift 2
	n=$((n + 1))
	if ! $cc $cflags $common "$@" -x c "$file" 2>"$tmp"; then
		echo "FAIL (C): $label"; cat "$tmp"; fail=1
	fi
	if ! $cxx -std=c++17 $common "$@" -x c++ "$file" 2>"$tmp"; then
		echo "FAIL (C++): $label"; cat "$tmp"; fail=1
	fi
}

for name in $(cd "$src" && ls doca_*.h) doca_version.h doca_build_config.h; do
	base=${name%.h}
	if [ -f "$here/available/$base.c" ]; then
		compile "$name" "$here/available/$base.c"
	else
		generic="$generic $name"
		compile "$name (generic check)" "$here/available/default.c" "-DHEADER_UNDER_TEST=<$name>"
	fi
done
for f in "$here"/regress/*.c; do
	compile "regress/$(basename "$f")" "$f"
done
echo "$n files checked as C11 and C++17"
[ -z "$generic" ] || echo "no available/<header>.c yet, generic check only:$generic"
exit $fail
