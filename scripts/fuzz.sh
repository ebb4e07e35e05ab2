#!/usr/bin/env bash
# The case-file fuzzer (fuzz/, docs/testing.md: Sanitizers and fuzzing): clang + libFuzzer + ASan + UBSan.
#   scripts/fuzz.sh [SECONDS]        fuzz for SECONDS (default 60) from fuzz/corpus; exit 1 on any finding
#   scripts/fuzz.sh --merge [DIR...] minimise fuzz/corpus + seeds from the bundled cases + DIRs into fuzz/corpus
# New inputs of a session go to a scratch copy, never into fuzz/corpus: CI stays reproducible. A finding is
# saved under failures/fuzz/ and replayed with build-sanitize/fuzz/case_file_fuzzer FILE.
# DMLTOOL_SANITIZE_BUILD_DIR overrides the build tree (shared with scripts/test.sh's sanitized suite).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DMLTOOL_SANITIZE_BUILD_DIR:-$repo/build-sanitize}"
fuzzer="$build/fuzz/case_file_fuzzer"

"$repo/scripts/build_sanitized.sh" case_file_fuzzer
source "$repo/scripts/sanitizers/env.sh"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# -max_len: large enough for every bundled case; -timeout: an input running 10 s is a hang (the harness caps
# each case's memory and reference work far below that); -rss_limit_mb: a leak or a runaway allocation.
common=(-dict="$repo/fuzz/case_file.dict" -max_len=8192 -timeout=10 -rss_limit_mb=2048)

if [ "${1:-}" = "--merge" ]; then
  shift
  mkdir -p "$scratch/seeds" "$scratch/merged"
  /usr/bin/python3 "$repo/fuzz/make_seeds.py" "$scratch/seeds" "$repo"/cases/*.json "$repo"/tests/bad_inputs/*.json \
    "$repo"/tests/cli/cases/*.json
  # Edges only (-use_counters=0): hit-count buckets would triple the committed corpus for little gain.
  "$fuzzer" "${common[@]}" -use_counters=0 -merge=1 "$scratch/merged" "$repo/fuzz/corpus" "$scratch/seeds" "$@"
  rm -rf "$repo/fuzz/corpus"
  mv "$scratch/merged" "$repo/fuzz/corpus"
  echo "fuzz/corpus: $(ls "$repo/fuzz/corpus" | wc -l) inputs, $(du -sh "$repo/fuzz/corpus" | cut -f1)"
  exit 0
fi

seconds="${1:-60}"
artifacts="$repo/failures/fuzz"
mkdir -p "$artifacts" "$scratch/corpus"
echo "fuzzing case files for ${seconds}s (findings go to failures/fuzz/)"
if ! "$fuzzer" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/" \
     "$scratch/corpus" "$repo/fuzz/corpus" >"$scratch/log" 2>&1; then
  tail -n 80 "$scratch/log"
  echo "fuzz: finding saved in failures/fuzz/ (replay: $fuzzer FILE); add it to fuzz/regressions/ once fixed" >&2
  exit 1
fi
grep -E '^(Done|stat::)' "$scratch/log"
