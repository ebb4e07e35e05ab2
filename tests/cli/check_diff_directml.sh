#!/usr/bin/env bash
# scripts/diff_directml.sh through its native test hook (DMLTOOL_DIFF_NATIVE: a native dmltool with --backend both
# instead of DirectML under Wine): bad options are one line and exit 2 (so is an --operators list that selects
# nothing); a run of the four seed operators (selected with --operators) ends with exactly the summary line,
# exits 1 exactly when it counts failures, and leaves one repro per shrunk FAILED case that validates and still
# fails. (Failures come only from real bugs, none known today; tests/cli/check_shrink_case.py plants one to shrink.)
#   check_diff_directml.sh DMLTOOL REPO WORKDIR
set -uo pipefail
dmltool=$1 repo=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$("$repo/scripts/diff_directml.sh" --count 0 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ "$out" == *"--count: expected 1 to 100000, found '0'"* ]] ||
  fail "--count 0: exit $rc: $out"
out=$("$repo/scripts/diff_directml.sh" --seed x 2>&1); rc=$?
[ "$rc" = 2 ] && [[ "$out" == *"--seed: expected a non-negative integer, found 'x'"* ]] || fail "--seed x: exit $rc: $out"
out=$("$repo/scripts/diff_directml.sh" --operators 'SPLIT;ls' 2>&1); rc=$?
[ "$rc" = 2 ] && [[ "$out" == *"--operators: expected comma-separated operator names or patterns"* ]] ||
  fail "--operators 'SPLIT;ls': exit $rc: $out"
rm -rf "$work"
out=$(DMLTOOL_DIFF_NATIVE="$dmltool" "$repo/scripts/diff_directml.sh" --count 1 --operators 'NO_SUCH_*' --out "$work" 2>&1)
rc=$?
[ "$rc" = 2 ] && [[ "$(printf '%s\n' "$out" | tail -n 1)" == *"--operators: no operator matches 'NO_SUCH_*'"* ]] ||
  fail "--operators NO_SUCH_*: exit $rc: $out"
rm -rf "$work"
# The seed operators only (patterns, any case, DML_OPERATOR_ prefix optional): 400 cases whatever else is registered.
out=$(DMLTOOL_DIFF_NATIVE="$dmltool" "$repo/scripts/diff_directml.sh" --count 100 --seed 5 --max-repros 2 --out "$work" \
      --operators 'split,DML_OPERATOR_RESAMPLE,depth_to_space?,QUANTIZED_LINEAR_CONV*' 2>&1)
rc=$?
printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -n 1)
[[ "$last" =~ ^diff_directml:\ 400\ cases:\ ([0-9]+)\ passed,\ ([0-9]+)\ deviates,\ ([0-9]+)\ unsupported,\ ([0-9]+)\ failed$ ]] ||
  fail "last line: $last"
passed=${BASH_REMATCH[1]} deviates=${BASH_REMATCH[2]} unsupported=${BASH_REMATCH[3]} failed=${BASH_REMATCH[4]}
[ $((passed + deviates + unsupported + failed)) = 400 ] || fail "the counts do not add up to 400: $last"
# The counts, independently from the report: a status counted in the wrong group fails here.
counted=$(python3 -c '
import collections, json, sys
s = collections.Counter(c["status"] for c in json.load(open(sys.argv[1]))["cases"])
print(s["PASSED"], s["DEVIATES"], s["UNSUPPORTED"], s["FAILED"] + s["MISTRUSTED"] + s["INVALID"] + s["SKIPPED"])' "$work/report.json")
[ "$counted" = "$passed $deviates $unsupported $failed" ] || fail "the report counts $counted, the line says $last"
if [ "$failed" -gt 0 ]; then [ "$rc" = 1 ] || fail "exit $rc with $failed failed"; else [ "$rc" = 0 ] || fail "exit $rc, none failed"; fi
repros=$(find "$work/repro" -name '*.json' 2>/dev/null | wc -l)
expected_repros=$(( failed < 2 ? failed : 2 ))
[ "$repros" = "$expected_repros" ] || fail "$repros repro files, expected $expected_repros"
for repro in "$work"/repro/*.json; do
  [ -e "$repro" ] || continue
  "$dmltool" validate "$repro" >/dev/null || fail "$repro does not validate"
  "$dmltool" run --backend both "$repro" >/dev/null; rc=$?
  [ "$rc" = 1 ] || fail "$repro: run exit $rc, expected 1 (still failing)"
done
echo "check_diff_directml: $last; $repros repros validate and still fail"
