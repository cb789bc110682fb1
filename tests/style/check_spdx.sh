#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check_spdx.sh SRCDIR - every source, header, script, linker version script and build file of
# the tree names its licence in an SPDX line near its top (the project is BSD-3-Clause, LICENSE).
set -u
cd "$1" || exit 1
command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git tree: skip"; exit 77; }
missing=0
for f in $(git ls-files -co --exclude-standard -- '*.c' '*.h' '*.cu' '*.cuh' '*.in' '*.sh' '*.py' '*.dict' '*.map' \
	'meson.build' 'meson_options.txt' 'meson.options' '.ci/*'); do
	case $f in */corpus/*) continue ;; esac
	[ -f "$f" ] || continue
	head -c 400 "$f" | grep -q "SPDX-License-Identifier: BSD-3-Clause" && continue
	echo "no SPDX line: $f"
	missing=$((missing + 1))
done
[ $missing -eq 0 ] || { echo "$missing file(s) without 'SPDX-License-Identifier: BSD-3-Clause' in their first lines"; exit 1; }
echo "every source file names its licence (SPDX)"
