#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The exported symbols of each library must equal the checked-in list, so the ABI never
# changes by accident. After an intended change, regenerate with: check_abi.sh --update ...
# usage: check_abi.sh [--update] <list dir> <library.so>...
set -u
update=0
[ "$1" = "--update" ] && { update=1; shift; }
dir=$1; shift
fail=0
for lib in "$@"; do
	name=$(basename "$lib" | sed 's/\.so.*//')
	want="$dir/$name.syms"
	got=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u)
	if [ $update = 1 ]; then
		printf '%s\n' "$got" > "$want"; echo "updated $want"; continue
	fi
	if ! printf '%s\n' "$got" | diff -u "$want" - ; then
		echo "FAIL: exported symbols of $name differ from $want (see diff above)"; fail=1
	else
		echo "ok: $name exports $(printf '%s\n' "$got" | wc -l) symbols as listed"
	fi
done
exit $fail
