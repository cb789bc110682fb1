#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_manual.sh BUILD_DIR - every program's man page and bash completion come from its --help:
# each option --help lists is in the page and completes in bash; the page renders without
# warnings (man or groff, when installed); the completion registers for the program's name.
set -u
build=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sd-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
for entry in tools/doca_caps:tools/doca_caps.1:tools/completions/doca_caps \
	tools/doca-env:tools/doca-env.1:tools/completions/doca-env \
	tools/doca-capability-snapshot:tools/doca-capability-snapshot.1:tools/completions/doca-capability-snapshot \
	tools/softdoca-trace:tools/softdoca-trace.1:tools/completions/softdoca-trace \
	tools/softdoca-wire:tools/softdoca-wire.1:tools/completions/softdoca-wire \
	apps/dma-copy/dpu/doca_dma_copy:apps/dma-copy/doca_dma_copy.1:apps/dma-copy/completions/doca_dma_copy; do
	exe=$build/${entry%%:*}; rest=${entry#*:}; page=$build/${rest%%:*}; comp=$build/${rest#*:}
	name=$(basename "$exe")
	[ -f "$page" ] || fail "$name: no man page $page"
	[ -f "$comp" ] || fail "$name: no completion $comp"
	DOCA_LOG_LEVEL=disable "$exe" --help >"$tmp/help" 2>&1 || true
	opts=$(grep -oE '(^|[ ,])--[a-z][-a-z]*' "$tmp/help" | tr -d ' ,' | sort -u)
	[ -n "$opts" ] || fail "$name: --help lists no option"
	for o in $opts; do
		grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$page" || fail "$name: $o is in --help but not in its man page"
		grep -q -- " $o\\b\\| $o\"\\|\"$o " "$comp" || grep -qw -- "$o" "$comp" || fail "$name: $o does not complete"
	done
	if command -v groff >/dev/null 2>&1; then
		groff -man -Tutf8 -ww "$page" >/dev/null 2>"$tmp/warn"
		[ ! -s "$tmp/warn" ] || fail "$name: groff warns: $(head -3 "$tmp/warn")"
	fi
	if command -v bash >/dev/null 2>&1; then
		first=$(echo "$opts" | head -1)
		got=$(bash -c ". '$comp'; complete -p '$name' >/dev/null || exit 3; \
			COMP_WORDS=('$name' '${first%?}'); COMP_CWORD=1; \
			\$(complete -p '$name' | sed -n 's/.*-F \([^ ]*\).*/\1/p'); echo \"\${COMPREPLY[*]}\"") ||
			fail "$name: the completion does not register"
		echo "$got" | grep -q -- "$first" || fail "$name: '${first%?}<TAB>' does not offer $first (got '$got')"
	fi
	n=$((n + 1))
done
echo "$n programs: man pages and completions agree with --help"
