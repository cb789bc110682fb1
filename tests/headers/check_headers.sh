#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every public header must compile on its own, as C11 and as C++, warning-free.
# usage: check_headers.sh <cc> <c++> <include dir>...
set -u
cc=$1; cxx=$2; shift 2
incs=""
for d in "$@"; do incs="$incs -I$d"; done
src=$(cd "$(dirname "$0")/../../include" && pwd)
fail=0; n=0
err=$(mktemp "${TMPDIR:-/tmp}/sd-hdr.XXXXXX")
trap 'rm -f "$err"' EXIT
for name in $(cd "$src" && ls doca_*.h) doca_version.h doca_build_config.h; do
	n=$((n + 1))
	if ! printf '#include <%s>\n#include <%s>\nint softdoca_header_check;\n' "$name" "$name" |
		$cc -std=c11 -Wall -Wextra -Werror -Wpedantic -Wno-variadic-macros -Wno-gnu-zero-variadic-macro-arguments -Wno-unknown-warning-option $incs -fsyntax-only -x c - 2>"$err"; then
		echo "FAIL (C): $name"; cat "$err"; fail=1
	fi
	if ! printf '#include <%s>\nint softdoca_header_check;\n' "$name" |
		$cxx -std=c++11 -Wall -Wextra -Werror $incs -fsyntax-only -x c++ - 2>"$err"; then
		echo "FAIL (C++): $name"; cat "$err"; fail=1
	fi
done
# Device headers (.cuh) are also plain C++ and C11 outside nvcc (CPU threads play the GPU in tests).
for name in $(cd "$src" && ls doca_*.cuh 2>/dev/null); do
	n=$((n + 1))
	if ! printf '#include <%s>\n#include <%s>\nint softdoca_header_check;\n' "$name" "$name" |
		$cc -std=c11 -Wall -Wextra -Werror -Wpedantic -Wno-variadic-macros -Wno-gnu-zero-variadic-macro-arguments -Wno-unknown-warning-option $incs -fsyntax-only -x c - 2>"$err"; then
		echo "FAIL (C): $name"; cat "$err"; fail=1
	fi
	if ! printf '#include <%s>\nint softdoca_header_check;\n' "$name" |
		$cxx -std=c++11 -Wall -Wextra -Werror $incs -fsyntax-only -x c++ - 2>"$err"; then
		echo "FAIL (C++): $name"; cat "$err"; fail=1
	fi
done
rm -f "$err"
echo "$n headers checked as C11 and C++"
exit $fail
