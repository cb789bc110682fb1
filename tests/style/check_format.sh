#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The formatter decides layout: every C source and header of src/, include/, tools/, apps/,
# bench/ and examples/ must be as clang-format (with the repository's .clang-format) leaves it.
# Fix with: clang-format -i <file>. Skipped (77) where clang-format is not installed.
# usage: check_format.sh <source root>
set -u
root=$1
fmt=$(command -v clang-format || command -v clang-format-14 || true)
[ -n "$fmt" ] || { echo "clang-format not installed: skipped"; exit 77; }
cd "$root" || exit 1
bad=0 n=0
files=$(find src include tools apps bench examples -type f \( -name '*.c' -o -name '*.h' \) | sort)
n=$(echo "$files" | wc -l)
# One clang-format for every file (one process per file took most of the test's time on a busy
# machine); only when it objects is each file asked again, to name the ones to fix.
# shellcheck disable=SC2086
if ! "$fmt" --dry-run -Werror $files >/dev/null 2>&1; then
	for f in $files; do
		if ! "$fmt" --dry-run -Werror "$f" >/dev/null 2>&1; then
			echo "not formatted: $f (clang-format -i $f)"
			bad=$((bad + 1))
		fi
	done
fi
echo "$n files checked with $("$fmt" --version | head -1), $bad not formatted"
[ $bad = 0 ]
