#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Installs what softdoca needs to build and test, on Debian/Ubuntu, when something is missing.
# Runs apt-get directly as root, through sudo otherwise; prints the command when neither works.
set -eu
pkgs="meson ninja-build pkg-config gcc g++ clang clang-format libjson-c-dev libclang-rt-14-dev iproute2"
# The Debian packages (scripts/build-debs.sh, tests/packaging/check_debs.sh).
pkgs="$pkgs dpkg-dev debhelper lintian python3"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "softdoca: installing$missing"
if [ "$(id -u)" = 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "softdoca: please install:$missing (apt-get install -y$missing)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing >/dev/null
