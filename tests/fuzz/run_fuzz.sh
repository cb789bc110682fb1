#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs a libFuzzer target for a bounded time over a scratch copy of its seed corpus, so the
# inputs it discovers never land in the source tree.
#   run_fuzz.sh FUZZER SECONDS CORPUS_DIR [libFuzzer options...]
set -eu
fuzzer=$1 secs=$2 corpus=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$corpus"/* "$work"/
# -seed fixed: a CI failure can be replayed with the same command.
"$fuzzer" -max_total_time="$secs" -seed=1 -print_final_stats=1 "$@" "$work"
