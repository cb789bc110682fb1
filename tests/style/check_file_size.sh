#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Room sizes: no source file under src/ or apps/ grows past 1,000 lines (a file that does is two
# concerns; split it by concern, see docs/architecture.md).
# Usage: check_file_size.sh SOURCE_ROOT [LIMIT]
set -u
root=${1:?source root}
limit=${2:-1000}
cd "$root" || exit 1
bad=0 n=0
for f in $(find src apps -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) | sort); do
	n=$((n + 1))
	lines=$(wc -l <"$f")
	if [ "$lines" -gt "$limit" ]; then
		echo "FAIL: $f has $lines lines (limit $limit); split it by concern"
		bad=$((bad + 1))
	fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no sources found under $root/src or $root/apps"; exit 1; }
[ "$bad" = 0 ] || exit 1
echo "ok: $n files under src/ and apps/, none over $limit lines"
