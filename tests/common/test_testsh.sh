#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test.sh's own checks, with meson and ninja replaced by stubs (nothing is built or run):
# - the run has a runtime directory and a TMPDIR of its own: a DOCA program of the user's that
#   lays a socket in the user's runtime directory meanwhile fails nothing;
# - a test that leaves a file in the run's runtime directory fails the run, which names the file;
# - under the sanitizer builds, a report written by any process the tests start fails the run,
#   which names the program and its pid;
# - whether the run passes, fails or is stopped by SIGTERM, it leaves nothing in the TMPDIR it
#   was given.
# usage: test_testsh.sh <source root>
set -u
src=$1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/repo/scripts" "$tmp/bin" "$tmp/user-run" "$tmp/user-tmp"
chmod 700 "$tmp/user-run"
cp "$src/test.sh" "$tmp/repo/" && cp "$src/scripts/sanitizers.sh" "$tmp/repo/scripts/" || fail "copy"
printf '#!/bin/sh\nexit 0\n' >"$tmp/repo/scripts/deps.sh"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/ninja"
cat >"$tmp/bin/meson" <<'STUB'
#!/bin/sh
# meson setup DIR ... | meson test -C DIR ...: a test run doing what STUB_CASE says.
case $1 in
setup) mkdir -p "$2" && : >"$2/build.ninja"; exit 0 ;;
test) name=${3##*/} ;;
*) exit 1 ;;
esac
case $STUB_CASE:$name in
foreign:gcc) # the user's own program, meanwhile, in the user's runtime directory
	mkdir -p -m 700 "$STUB_USER_RUN/softdoca" && : >"$STUB_USER_RUN/softdoca/comch-foreign.sock" ;;
leave:gcc) mkdir -p "$XDG_RUNTIME_DIR/softdoca" && : >"$XDG_RUNTIME_DIR/softdoca/wire-left.sock" ;;
san:asan | san:tsan) # a child process's report, where the options say reports go
	[ "$name" = asan ] && opts=$ASAN_OPTIONS || opts=$TSAN_OPTIONS
	log=$(echo "$opts" | tr ':' '\n' | sed -n 's/^log_path=//p' | tail -1)
	[ -n "$log" ] && printf '==4242==WARNING: stub sanitizer report\nSUMMARY: stub\n' >"$log.child_prog.4242"
	echo "==4242==WARNING: stub sanitizer report" >&2 ;;
stop:gcc) cut -d" " -f5 /proc/$$/stat >"$STUB_MARK.tmp" && mv "$STUB_MARK.tmp" "$STUB_MARK" && exec sleep 60 ;;
esac
echo "Ok:                 1"
echo "Fail:               0"
STUB
chmod +x "$tmp/repo/scripts/deps.sh" "$tmp/bin/ninja" "$tmp/bin/meson"

# run <case> <mode>: test.sh with the stubs, the user's runtime directory and TMPDIR; its output
# in $tmp/<case>.out, its status in $rc.
run() {
	STUB_CASE=$1 STUB_USER_RUN=$tmp/user-run PATH=$tmp/bin:$PATH XDG_RUNTIME_DIR=$tmp/user-run \
		TMPDIR=$tmp/user-tmp sh "$tmp/repo/test.sh" "$2" >"$tmp/$1.out" 2>&1
	rc=$?
	[ -z "$(ls -A "$tmp/user-tmp")" ] || fail "$1: test.sh left in TMPDIR: $(ls -A "$tmp/user-tmp")"
}

run foreign quick
[ $rc = 0 ] || fail "a socket of the user's own in the user's runtime directory failed the run: $(cat "$tmp/foreign.out")"
[ -e "$tmp/user-run/softdoca/comch-foreign.sock" ] || fail "the user's own socket was removed"

run leave quick
[ $rc != 0 ] || fail "a socket left in the run's runtime directory did not fail the run"
grep -q "the gcc tests left .*/softdoca .*wire-left.sock" "$tmp/leave.out" || fail "not named: $(cat "$tmp/leave.out")"

run san full
[ $rc != 0 ] || fail "a child's sanitizer report did not fail the run: $(cat "$tmp/san.out")"
for b in asan tsan; do
	grep -q "the $b tests' processes made sanitizer reports" "$tmp/san.out" &&
		grep -q "sanitizer report from child_prog (pid 4242)" "$tmp/san.out" ||
		fail "$b: the report is not named: $(cat "$tmp/san.out")"
done

# Stopped while the tests run (SIGTERM to the whole process group, as CI stops a job); the
# stub tells its process group once it runs.
if command -v setsid >/dev/null 2>&1; then
	STUB_MARK=$tmp/started STUB_CASE=stop STUB_USER_RUN=$tmp/user-run PATH=$tmp/bin:$PATH \
		XDG_RUNTIME_DIR=$tmp/user-run TMPDIR=$tmp/user-tmp setsid -w sh "$tmp/repo/test.sh" quick \
		>"$tmp/stop.out" 2>&1 &
	pid=$!
	i=0
	while [ ! -e "$tmp/started" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$tmp/started" ] || fail "the stopped case never started its tests"
	kill -TERM -"$(cat "$tmp/started")" # the stub's process group: test.sh's own
	wait "$pid"
	[ -z "$(ls -A "$tmp/user-tmp")" ] || fail "test.sh stopped by SIGTERM left: $(ls -A "$tmp/user-tmp")"
fi
echo "test_testsh: ok"
