#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# softdoca's test command: installs build dependencies if needed, then builds and runs the
# test suite with gcc (warnings are errors), with clang, under ASan+UBSan and under TSan (every
# suite that starts threads or processes).
# Ends with one line: "N passed, N failed".
#   ./test.sh            everything (what CI runs)
#   ./test.sh quick      gcc build and the fast suite only
# The full run ends with the Debian packages' check (tests/packaging/check_debs.sh: build, lintian,
# install, use, purge), which installs system packages: it runs only with CI=true or
# SOFTDOCA_TEST_PACKAGES=1 (and as root), and counts as skipped otherwise.
set -u
cd "$(dirname "$0")"
sh scripts/deps.sh || exit 1
mode=${1:-full}
out=${SOFTDOCA_TEST_DIR:-_build-test}
mkdir -p "$out"
passed=0 failed=0 skipped=0
. scripts/sanitizers.sh
# The run has a runtime directory (src/common/rundir.c: $XDG_RUNTIME_DIR/softdoca, where Comch
# sockets and wire cables go) and a TMPDIR of its own, made fresh and removed at the end: what the
# user's own DOCA programs keep in theirs meanwhile is none of the tests' business, and what a test
# leaves in the run's is found.
# Each build's tests get a TMPDIR of their own next to it (not inside: the Comch sockets and
# cables of tests with runtime directories under their TMPDIR must fit a socket path).
tmproot=${TMPDIR:-/tmp}
base=$(mktemp -d "$tmproot/sdt.XXXXXX") || exit 1
tmp=""
trap 'rm -rf "$base" ${tmp:+"$tmp"}' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -m 0700 "$base/run" || exit 1
XDG_RUNTIME_DIR=$base/run TMPDIR=$base
export XDG_RUNTIME_DIR TMPDIR
rundir=$XDG_RUNTIME_DIR/softdoca

# Counts one meson test run from its summary lines.
count() {
	ok=$(awk '/^Ok:/ {print $2}' "$1"); ok=${ok:-0}
	xf=$(awk '/^Expected Fail:/ {print $3}' "$1"); xf=${xf:-0}
	f=$(awk '/^Fail:/ {print $2}' "$1"); f=${f:-0}
	up=$(awk '/^Unexpected Pass:/ {print $3}' "$1"); up=${up:-0}
	to=$(awk '/^Timeout:/ {print $2}' "$1"); to=${to:-0}
	sk=$(awk '/^Skipped:/ {print $2}' "$1"); sk=${sk:-0}
	passed=$((passed + ok + xf)); failed=$((failed + f + up + to)); skipped=$((skipped + sk))
}

# run <name> <compiler> <suites> <meson options...>
run() {
	name=$1 compiler=$2 suites=$3; shift 3
	dir=$out/$name
	echo "== $name: building with $compiler $*"
	if [ ! -f "$dir/build.ninja" ]; then
		CC=$compiler meson setup "$dir" -Dwerror=true "$@" >"$out/$name.setup.log" 2>&1 ||
			{ echo "setup failed, see $out/$name.setup.log"; tail -20 "$out/$name.setup.log"; failed=$((failed + 1)); return; }
	fi
	if ! ninja -C "$dir" >"$out/$name.build.log" 2>&1; then
		echo "build failed, see $out/$name.build.log"; grep -E "error|FAILED" "$out/$name.build.log" | head -20
		failed=$((failed + 1)); return
	fi
	args=""
	for s in $suites; do args="$args --suite $s"; done
	# Under a sanitizer, every process a test starts writes its reports to $san, which must
	# stay empty: a child's report fails the run even where the test never looks at the child.
	san=""
	case "$*" in *-Db_sanitize=*) san=$out/$name.san ;; esac
	# The tests' temporary files go to a directory of this run's own, which must be empty after.
	tmp=$(mktemp -d "$tmproot/sd.XXXXXX") || { failed=$((failed + 1)); return; }
	# shellcheck disable=SC2086
	(
		if [ -n "$san" ]; then san_env "$san" || exit 1; fi
		TMPDIR=$tmp exec meson test -C "$dir" --no-rebuild --print-errorlogs $args
	) >"$out/$name.test.log" 2>&1
	left=$(cd "$tmp" && ls -A)
	rm -rf "$tmp"
	tmp=""
	if [ -n "$left" ]; then
		echo "   the $name tests left in TMPDIR:" $left
		failed=$((failed + 1))
	fi
	# Each test that meets another process or lays a cable has a runtime directory of its own.
	if [ -e "$rundir" ]; then
		echo "   the $name tests left $rundir (a test without XDG_RUNTIME_DIR of its own):" \
			"$(ls -A "$rundir" | tr '\n' ' ')"
		rm -rf "$rundir"
		failed=$((failed + 1))
	fi
	if [ -n "$san" ] && ! reports=$(san_check "$san"); then
		echo "   the $name tests' processes made sanitizer reports (all of them in $san):"
		echo "$reports" | head -80
		failed=$((failed + 1))
	fi
	bad='^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS) '
	if grep -aqE "$bad" "$out/$name.test.log"; then
		grep -aE "$bad" "$out/$name.test.log" | head -20
		# The first failure's own output, so a CI log alone says what broke.
		rule=$(printf '\342\200\225') # the box line meson draws around a test's output
		awk '/^Summary of Failures/ {exit} $0 ~ bad {on = 1} on' bad="$bad" \
			"$out/$name.test.log" | grep -av -e '^$' -e '^>>> ' -e "^$rule" | uniq | head -60 | sed 's/^/   | /'
	fi
	count "$out/$name.test.log"
	echo "   $(grep -aE '^(Ok|Fail|Skipped|Timeout):' "$out/$name.test.log" | tr -s ' ' | tr '\n' ' ')"
}

# The Debian packages built, installed, used and purged: one test, counted like a meson test.
packages() {
	echo "== packages: tests/packaging/check_debs.sh"
	tmp=$(mktemp -d "$tmproot/sd.XXXXXX") || { failed=$((failed + 1)); return; }
	TMPDIR=$tmp sh tests/packaging/check_debs.sh >"$out/packages.log" 2>&1
	rc=$?
	left=$(cd "$tmp" && ls -A)
	rm -rf "$tmp"
	tmp=""
	case $rc in
	0) passed=$((passed + 1)); echo "   $(tail -1 "$out/packages.log")" ;;
	77) skipped=$((skipped + 1)); echo "   $(tail -1 "$out/packages.log")" ;;
	*) failed=$((failed + 1)); echo "   failed (exit $rc), see $out/packages.log:"; tail -20 "$out/packages.log" | sed 's/^/   | /' ;;
	esac
	if [ -n "$left" ]; then
		echo "   the packages check left in TMPDIR:" $left
		failed=$((failed + 1))
	fi
}

run gcc gcc "fast multi-process" -Dbuildtype=debugoptimized
if [ "$mode" != quick ]; then
	run clang clang "fast" -Dbuildtype=debugoptimized
	run asan clang "fast multi-process" -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fno-sanitize-recover=all -Dc_link_args=-fno-sanitize-recover=all
	run tsan clang "fast multi-process stress" -Dbuildtype=debug -Db_sanitize=thread -Db_lundef=false
	run stress gcc "stress build" -Dbuildtype=release
	packages
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
