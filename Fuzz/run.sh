#!/usr/bin/env bash
# Runs one fuzz target for a while and turns every finding into a minimized
# regression fixture. See Fuzz/README.md.
#
#   Fuzz/run.sh TARGET [SECONDS] [JOBS]    TARGET: parse | pipeline | loops | edit | timeline | png | jpeg | respell
#   Fuzz/run.sh build                      only the instrumented build (CI starts it early)
#
# Exit status: 0 when the campaign found nothing, 1 when it found (and saved) crashes,
# hangs or memory blow-ups, 2 when it could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-}
seconds=${2:-60}
jobs=${3:-1}
scratch=.build-fuzz
# libFuzzer and AddressSanitizer; lld because gold fails on libFuzzer's debug info here,
# and --export-dynamic so the program finds LLVMFuzzerRunDriver (see main.swift).
build() {
  swift build -c release --product animc-fuzz --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld -Xlinker --export-dynamic >&2
}
if [ "$target" = build ]; then
  build
  exit 0
fi
case "$target" in
  parse) dict=Fuzz/anim.dict; ext=anim; maxlen=4096; fixtures=Tests/AnimcDriverTests/Fixtures/regressions ;;
  pipeline) dict=Fuzz/anim.dict; ext=anim; maxlen=8192; fixtures=Tests/AnimcDriverTests/Fixtures/regressions ;;
  loops) dict=""; ext=anim; maxlen=64; fixtures=Tests/AnimcDriverTests/Fixtures/regressions ;;
  edit) dict=Fuzz/anim.dict; ext=anim; maxlen=8192; fixtures=Tests/AnimcDriverTests/Fixtures/regressions ;;
  respell) dict=Fuzz/anim.dict; ext=anim; maxlen=8192; fixtures=Tests/AnimcDriverTests/Fixtures/regressions ;;
  timeline) dict=Fuzz/timeline.dict; ext=json; maxlen=65536; fixtures=Tests/AnimcBackendTests/Fixtures/loader-regressions ;;
  png) dict=""; ext=png; maxlen=65536; fixtures=Tests/AnimcRenderTests/Fixtures/png-regressions ;;
  jpeg) dict=""; ext=jpg; maxlen=65536; fixtures=Tests/AnimcRenderTests/Fixtures/jpeg-regressions ;;
  *) echo "usage: Fuzz/run.sh parse|pipeline|loops|edit|timeline|png|jpeg|respell [SECONDS] [JOBS], or Fuzz/run.sh build" >&2; exit 2 ;;
esac

# FUZZ_SKIP_BUILD=1 reuses the last build, for long campaigns while the sources change.
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then build; fi
fuzzer="$scratch/release/animc-fuzz"

work="$scratch/work/$target"
corpus="$work/corpus"
findings="$work/findings"
seeds="$work/seeds"
mkdir -p "$corpus" "$findings" "$seeds"
rm -f "$findings"/*

# Seeds: every example and fixture, and past findings; for the timeline loader, the
# examples compiled to timelines by a plain build of animc.
if [ "$target" = timeline ]; then
  [ "${FUZZ_SKIP_BUILD:-0}" = 1 ] || swift build --product animc >&2
  for f in examples/*.anim; do
    .build/debug/animc build "$f" -o "$seeds/$(basename "$f" .anim).json" 2>/dev/null || true
  done
  cp "$fixtures"/*.json "$seeds"/ 2>/dev/null || true
elif [ "$target" = png ] || [ "$target" = jpeg ]; then
  # The decoding corpus (every colour type, depth, filter and interlacing; every chroma
  # sampling, restart markers), and past findings.
  cp Tests/AnimcRenderTests/Fixtures/"$target"/*."$ext" "$seeds"/
  cp "$fixtures"/*."$ext" "$seeds"/ 2>/dev/null || true
elif [ "$target" = loops ]; then
  # Recipes, not sources: a few bytes each choose the loops and what their bodies hold.
  for i in $(seq 0 15); do printf "\\x$(printf %02x $i)\\x05\\x0$((i % 7))\\x01\\x02\\x03" > "$seeds/recipe-$i"; done
else
  # Small seeds only: the long regression inputs are replayed by CI, and mutating
  # 60 KB inputs would spend the campaign copying bytes.
  find examples Tests -name '*.anim' -size -16k -exec cp {} "$seeds"/ \; 2>/dev/null || true
fi

export SWIFT_BACKTRACE=enable=no            # Swift's backtracer trips ASan and hangs
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:symbolize=1
log="$work/fuzz.log"
set +e
# Long campaigns keep going after a finding (fork mode), so one early crash does not
# end an hour's run; every finding is still saved and reported below.
parallel=()
if [ "$seconds" -gt 300 ]; then
  parallel=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
elif [ "$jobs" -gt 1 ]; then
  parallel=(-jobs="$jobs" -workers="$jobs")
fi
# A hang is an input past 2 s for the targets that check (5 s for parse, 30 s for
# edit, which checks each input up to twelve times). The fuzz targets check with the
# work limits divided by 100 (see main.swift), so that reaching one takes a few
# hundredths of a second even under AddressSanitizer (ten to twenty times slower than a
# release build): an input that takes longer does work no limit counts, which is what a
# hang in a user's hands is. libFuzzer also saves a "slow unit" past the same time,
# which the loop below counts as a finding: one definition holds.
timeout=2
case "$target" in
  parse) timeout=5 ;;
  edit|respell) timeout=30 ;;
esac
dictionary=()
[ -n "$dict" ] && dictionary=(-dict="$dict")
# FUZZ_SEED=N repeats a campaign's mutations (CI uses one); unset, libFuzzer picks one.
seeding=()
[ -n "${FUZZ_SEED:-}" ] && seeding=(-seed="$FUZZ_SEED")
"$fuzzer" "$target" "$corpus" "$seeds" "${dictionary[@]}" "${seeding[@]}" -max_total_time="$seconds" -timeout="$timeout" \
  -report_slow_units="$timeout" \
  -rss_limit_mb=2048 -max_len="$maxlen" "${parallel[@]}" -print_final_stats=1 \
  -artifact_prefix="$findings/" >"$log" 2>&1
status=$?
set -e
if [ "$jobs" -gt 1 ]; then cat fuzz-*.log >>"$log" 2>/dev/null || true; rm -f fuzz-*.log; fi

executions=$( (grep -h 'stat::number_of_executed_units' "$log" || true) | awk '{s += $2} END {print s + 0}')
# Fork mode (-fork) prints no per-run stats: its progress lines carry the running total.
if [ "$executions" = 0 ]; then
  executions=$( (grep -ho '^#[0-9]*' "$log" || true) | tr -d '#' | sort -n | tail -1)
fi
coverage=$( (grep -ho 'cov: [0-9]*' "$log" || true) | awk '{print $2}' | sort -n | tail -1)
echo "fuzz $target: $executions executions in ${seconds}s, coverage ${coverage:-?} edges, libFuzzer exit $status"

found=0
for artifact in "$findings"/crash-* "$findings"/timeout-* "$findings"/oom-* "$findings"/slow-unit-*; do
  [ -e "$artifact" ] || continue
  found=$((found + 1))
  minimized="$artifact.min"
  "$fuzzer" "$target" "$artifact" -minimize_crash=1 -runs=20000 -exact_artifact_path="$minimized" >/dev/null 2>&1 || true
  [ -s "$minimized" ] || cp "$artifact" "$minimized"
  name="fuzz-$target-$(sha1sum "$minimized" | cut -c1-12).$ext"
  mkdir -p "$fixtures"
  if [ "$target" = loops ]; then
    # The fixture is the program the recipe stands for.
    "$fuzzer" loops --emit "$minimized" > "$fixtures/$name"
  else
    cp "$minimized" "$fixtures/$name"
  fi
  echo "finding: $(basename "$artifact") -> $fixtures/$name"
done
if [ "$found" -gt 0 ]; then
  echo "fuzz $target: $found finding(s), saved as regression fixtures; fix them and run ANIMC_UPDATE_GOLDENS=1 swift test"
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "fuzz $target: libFuzzer failed without a finding; see $log" >&2
  tail -20 "$log" >&2
  exit 2
fi
