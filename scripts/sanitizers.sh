# SPDX-License-Identifier: BSD-3-Clause
# Sourced by test.sh (and tests/common/test_san_child.sh): sanitizer reports of every process a
# test starts, the test's children and the programs they exec included, go to files of their own,
# so that a report is seen even where a parent ignores how its child ended.
#
#   san_env DIR     exports ASAN_OPTIONS, UBSAN_OPTIONS and TSAN_OPTIONS that write every report
#                   to DIR/san.<program>.<pid> (DIR is emptied first); run it in a subshell
#   san_check DIR   prints the start of each report there, naming the program and its pid;
#                   fails if there is one
#
# Where a variable is unset, the options are those meson's test runner sets (the first report
# stops the process, with a summary and a stack); the log options always come last, so that they
# win over whatever the variable held.

san_env() {
	rm -rf "$1" && mkdir -p "$1" || return 1
	san_log="log_path=$1/san:log_exe_name=1"
	ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_summary=1}:$san_log
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_summary=1:print_stacktrace=1}:$san_log
	TSAN_OPTIONS=${TSAN_OPTIONS:+$TSAN_OPTIONS:}$san_log
	export ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS
}

san_check() {
	san_found=0
	for f in "$1"/san.*; do
		[ -f "$f" ] || continue
		# san.<program>.<pid>: the program's name may itself hold dots.
		san_base=${f##*/san.}
		echo "   sanitizer report from ${san_base%.*} (pid ${san_base##*.}), $f:"
		grep -v -e '^ *$' -e '^==[0-9]*==$' "$f" | head -12 | sed 's/^/   | /'
		san_found=$((san_found + 1))
	done
	[ "$san_found" = 0 ]
}
