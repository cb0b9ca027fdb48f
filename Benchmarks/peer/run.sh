#!/usr/bin/env bash
# The peer benchmark in one command: animc against rlottie and a plain C floor on the
# grid scene at 9, 135, 1,000 and 2,000 tiles, in one process, interleaved.
#
#   Benchmarks/peer/run.sh                 # all sizes
#   Benchmarks/peer/run.sh --tiles 135     # some sizes (comma-separated)
#   Benchmarks/peer/run.sh --quick         # fewer runs
#
# rlottie comes from Debian's librlottie-dev (`apt-get install librlottie-dev`); without
# it the rlottie column is left out and the floor still runs. The generated scenes
# (.anim and exported .json) stay in .build/peer for a look or a profiler.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build/peer
mkdir -p "$out"
cc=${CC:-cc}
flags=(-O2 -shared -fPIC -o "$out/libanimcpeer.so" Benchmarks/peer/peer.c -lm)
if pkg-config --exists rlottie 2>/dev/null; then
  # shellcheck disable=SC2046
  "$cc" -DPEER_RLOTTIE $(pkg-config --cflags rlottie) "${flags[@]}" $(pkg-config --libs rlottie)
else
  echo "(rlottie not found by pkg-config: measuring the floor only)"
  "$cc" "${flags[@]}"
fi
swift build -c release --product animc-bench >/dev/null
.build/release/animc-bench peer --peer-lib "$out/libanimcpeer.so" --peer-dir "$out" "$@"
