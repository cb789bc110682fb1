#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check_add_backend.sh SRCDIR - adding a backend is one directory and one meson line.
#
# In a scratch copy of the tree (git ls-files), copies tests/engines/null to src/engines/null
# and adds one line to the list in src/engines/meson.build, then checks that the change is
# exactly that (git diff --stat), that the tree builds with -Werror, and that everything that
# iterates the list knows the new backend: the registry and SOFTDOCA_ENGINE (a DMA copy
# completes through it, without moving bytes, as the null backend does), the config validator,
# doca-env and the per-executor test lists. Exit 0 pass, 1 fail, 77 skip (no git or meson).
set -eu
src=$(cd "$1" && pwd)
command -v git >/dev/null && command -v meson >/dev/null && command -v ninja >/dev/null || exit 77
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || exit 77
work=$(mktemp -d "${TMPDIR:-/tmp}/sd-add-backend.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir "$work/tree"
(cd "$src" && git ls-files -z -co --exclude-standard | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$work/tree"
cd "$work/tree"
git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm base
grep -q "^	\['cma', 'transport'\],$" src/engines/meson.build || fail "the backend list in src/engines/meson.build changed shape"

# The whole change: one directory, one line.
mkdir src/engines/null
cp "$src/tests/engines/null/null.c" src/engines/null/null.c
sed -i "s/^	\['cma', 'transport'\],$/&\n	['null', 'executor'],/" src/engines/meson.build
git add -A
stat=$(git diff --cached --numstat)
echo "$stat"
[ "$(echo "$stat" | wc -l)" -eq 2 ] || fail "expected two files changed: $stat"
echo "$stat" | grep -q "^1	0	src/engines/meson.build$" || fail "meson.build: more than one added line"
echo "$stat" | grep -q "	src/engines/null/null.c$" || fail "the backend's directory"

meson setup -Dwerror=true build >"$work/setup.log" 2>&1 || { cat "$work/setup.log"; fail "meson setup"; }
ninja -C build tools/doca-env >"$work/build.log" 2>&1 ||
	{ tail -30 "$work/build.log"; fail "build"; }

# doca-env probes it with a real, verified copy: the copy completes, its bytes do not arrive
# (exit 4 of the probe), so doca-env lists null as not working, and why.
PKG_CONFIG_PATH=$PWD/build/pkgconfig/dpu build/tools/doca-env --json >"$work/env.json" || fail "doca-env"
python3 - "$work/env.json" <<'PY' || fail "doca-env does not list the null executor"
import json, sys
d = json.load(open(sys.argv[1]))
assert "exit 4" in d["engines"]["unavailable"]["null"], d["engines"]
PY
# The config validator accepts it; SOFTDOCA_ENGINE picks it (the probe's copy then moves no
# byte, which the probe notices: its exit code says the bytes did not arrive).
printf '[engine]\nname = null\n' >"$work/null.conf"
# doca-env says so, and exits 1: the selected engine does not work here.
rc=0
SOFTDOCA_CONFIG="$work/null.conf" PKG_CONFIG_PATH=$PWD/build/pkgconfig/dpu build/tools/doca-env >"$work/env.txt" || rc=$?
[ "$rc" -eq 1 ] || fail "doca-env with name = null: exit $rc, not 1"
grep -q "selected: null, from config file; it does not work here: a test copy failed (exit 4)" "$work/env.txt" ||
	fail "config selection: $(cat "$work/env.txt")"
rc=0
SOFTDOCA_ENGINE=null DOCA_LOG_LEVEL=disable build/tools/doca-env --probe-engine null || rc=$?
[ "$rc" -eq 4 ] || fail "a copy through the null backend should complete without its bytes (exit 4), got $rc"
printf '[engine]\nname = nul\n' >"$work/bad.conf"
SOFTDOCA_CONFIG="$work/bad.conf" build/tools/doca-env 2>"$work/bad.err" >/dev/null || true
grep -q "expected inline, cpu, auto or null" "$work/bad.err" || fail "validator message: $(cat "$work/bad.err")"
# The per-executor tests iterate the same list.
meson test -C build --list 2>/dev/null | grep -q "dma-conformance-null" || fail "per-executor tests do not include null"
echo "a backend added with one directory and one meson line is built, listed, selectable and tested"
