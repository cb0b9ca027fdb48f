#!/usr/bin/env bash
# Timeline.evaluate(at:into:) allocates nothing: an app calls it every frame.
#
# Runs the benchmark's `profile-scene` (the splash evaluated 1,800 times) under
# callgrind, collecting only inside `evaluate(at:into:)`, and fails if any allocator
# (malloc, calloc, realloc, swift_allocObject, swift_slowAlloc) was called in there.
# The same run collecting inside `Timeline.init` must see allocations, or the check
# itself is broken. Needs valgrind and a release build of animc-bench.
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-.build/release/animc-bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
symbol() { nm "$bench" | awk -v pat="$1" '$0 ~ pat && !found { print $3; found = 1 }'; }
evaluate=$(symbol 'TimelineV8evaluate2at4intoySd_AA10SceneStateVztF$')
initialiser=$(symbol 'AnimcRuntime8TimelineVyAC0A2IR11CompositionVcfC$')
if [ -z "$evaluate" ] || [ -z "$initialiser" ]; then echo "symbols not found in $bench"; exit 1; fi
allocations() {  # the allocator calls callgrind saw inside function $1
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" "--toggle-collect=$1" "$bench" profile-scene >/dev/null 2>&1
  callgrind_annotate --inclusive=yes "$out/cg" 2>/dev/null \
    | grep -E '(^|[ :])(malloc|calloc|realloc|swift_allocObject|swift_slowAlloc)( |\[|$)' || true
}
if [ -z "$(allocations "$initialiser")" ]; then echo "the check saw no allocation in Timeline.init: it cannot see any"; exit 1; fi
found=$(allocations "$evaluate")
if [ -n "$found" ]; then echo "Timeline.evaluate(at:into:) allocates:"; echo "$found"; exit 1; fi
echo "Timeline.evaluate(at:into:) allocated nothing in 1,800 frames of the splash"
