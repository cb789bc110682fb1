#!/bin/sh
# softdoca's main job: installs build dependencies if needed, builds softdoca on this machine
# and runs the example DMA programs on the embedded default topology (no configuration, no
# root): a local copy that polls the progress engine and an event-driven copy that sleeps in
# epoll, each verified byte for byte, with every copy engine.
set -eu
cd "$(dirname "$0")"
sh scripts/deps.sh
dir=${SOFTDOCA_BUILD_DIR:-_build}
[ -f "$dir/build.ninja" ] || meson setup "$dir" -Dbuildtype=release >/dev/null
ninja -C "$dir" >/dev/null
echo "softdoca $(sed -n "s/^\tversion: '\(.*\)',/\1/p" meson.build | head -1), DOCA API $(PKG_CONFIG_PATH=$dir/pkgconfig/dpu pkg-config --modversion doca-dma 2>/dev/null || echo 3.3)"
for engine in auto inline cpu; do
	echo "== engine $engine"
	SOFTDOCA_ENGINE=$engine "$dir/examples/dma_local_copy" -n 4096
	SOFTDOCA_ENGINE=$engine "$dir/examples/dma_event" -n 4096
done
echo "all example copies verified"
