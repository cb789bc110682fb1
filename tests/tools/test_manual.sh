#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_manual.sh BUILD_DIR - every program's man page and bash completion come from its --help:
# each option --help lists is in the page and completes in bash, an option's value as its kind
# (a path, a device, the words a synopsis lists, or nothing) and a subcommand as the first word;
# the page has NAME, SYNOPSIS, DESCRIPTION and EXIT STATUS and renders without warnings (man or
# groff, when installed); the completion registers for the program's name.
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
	for h in NAME SYNOPSIS DESCRIPTION "EXIT STATUS"; do
		grep -q "^\.SH $h\$" "$page" || fail "$name: its man page has no $h section"
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

# An option's value completes as what --help says it is: a path, a device, or nothing to guess.
abs=$(cd "$build" && pwd)
after() { # after COMPLETION NAME PREV: what <TAB> offers after PREV, in a directory holding pick.me
	[ -f "$abs/$1" ] || fail "no completion $1"
	(cd "$tmp" && bash -c ". '$abs/$1'; COMP_WORDS=('$2' '$3' ''); COMP_CWORD=2; \
		\$(complete -p '$2' | sed -n 's/.*-F \([^ ]*\).*/\1/p'); echo \"\${COMPREPLY[*]}\"")
}
if command -v bash >/dev/null 2>&1; then
	: >"$tmp/pick.me"
	got=$(after apps/dma-copy/completions/doca_dma_copy doca_dma_copy -f)
	echo "$got" | grep -q pick.me || fail "doca_dma_copy -f <TAB> offers no file (got '$got')"
	for c in "tools softdoca-wire -f" "tools softdoca-wire --rate" "tools doca_caps -l" \
		"apps/dma-copy doca_dma_copy -t"; do
		set -- $c
		got=$(after "$1/completions/$2" "$2" "$3")
		[ -z "$got" ] || fail "$2 $3 <TAB> takes a number or a word, but offers '$got'"
	done
	got=$(after tools/completions/doca-capability-snapshot doca-capability-snapshot --diff)
	echo "$got" | grep -q pick.me || fail "doca-capability-snapshot --diff <TAB> offers no file (got '$got')"
	for o in -P --proto; do
		got=$(after tools/completions/softdoca-wire softdoca-wire $o)
		[ "$got" = "icmp raw tcp udp" ] || [ "$got" = "udp tcp icmp raw" ] ||
			fail "softdoca-wire $o <TAB> should offer udp tcp icmp raw (got '$got')"
	done
	got=$(cd "$tmp" && bash -c ". '$abs/tools/completions/softdoca-wire'; COMP_WORDS=(softdoca-wire ''); \
		COMP_CWORD=1; _softdoca_softdoca_wire; echo \"\${COMPREPLY[*]}\"")
	[ "$got" = "recv send stats" ] || fail "softdoca-wire <TAB> should offer its subcommands (got '$got')"
	echo "option values complete as their kind: files, devices, listed words or nothing; subcommands first"
fi
echo "$n programs: man pages and completions agree with --help"
