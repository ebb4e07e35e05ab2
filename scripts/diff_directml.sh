#!/usr/bin/env bash
# Random differential testing against Microsoft's DirectML.dll: `dmltool generate` writes random valid cases of
# every operator (no expected outputs), `dmltool.exe run --backend all` runs each on the CPU reference, dmltool's
# own kernels and DirectML under Wine (set up as scripts/test_directml_wine.sh does: scripts/fetch_directml.sh,
# scripts/build_windows.sh, scripts/wine_session.sh; each installs what it needs), and every FAILED case is
# shrunk by scripts/shrink_case.py to a small repro beside the report.
#   scripts/diff_directml.sh [--count N] [--seed S] [--out DIR] [--max-repros R]
# --count: cases per operator (default 100: 400 in all); --seed: default today's date (YYYYMMDD), so a day's runs
# agree and reruns reproduce; --out: default build-windows/diff_directml; --max-repros: failures shrunk (default 3,
# each at most 40 runs of dmltool.exe and 150 s).
# Measured (2-core machine, Wine 8.0 + Mesa 25 lavapipe, Windows build up to date): 200 cases run in 6-30 s,
# 600 in 30 s; one shrink takes 40-120 s (about 3 s per dmltool.exe run). A cold machine first spends minutes
# on scripts/build_windows.sh (MinGW dependencies once, then the build; ~35 min on a busy 2-core machine).
# Output in OUT: cases/*.json, report.json (`run --json`), run.txt (console), repro/<case>.json. The last line is
#   diff_directml: N cases: P passed, D deviates, U unsupported, F failed
# counted from the report's per-case status: PASSED; DEVIATES (DirectML matches a registered deviation model of
# its version: not a failure); UNSUPPORTED; FAILED, MISTRUSTED, INVALID (a generated case must be valid) and
# SKIPPED (nothing was compared) count as failed. Exit 1 when F > 0, 2 on bad options, 3 when the run itself failed.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
count=100
seed="$(date +%Y%m%d)"
out=build-windows/diff_directml
max_repros=3
usage() { echo "diff_directml.sh: $1 (usage: scripts/diff_directml.sh [--count N] [--seed S] [--out DIR] [--max-repros R])" >&2; exit 2; }
number() { [[ "$2" =~ ^[0-9]+$ ]] && [ "${#2}" -le 20 ] || usage "$1: expected a non-negative integer, found '$2'"; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage "$1: expected a value"
  case "$1" in
    --count) number --count "$2"; count="$2" ;;
    --seed) number --seed "$2"; seed="$2" ;;
    --out) out="$2" ;;
    --max-repros) number --max-repros "$2"; max_repros="$2" ;;
    *) usage "unknown option '$1'" ;;
  esac
  shift 2
done
{ [ "$count" -ge 1 ] && [ "$count" -le 100000 ]; } || usage "--count: expected 1 to 100000, found '$count'"

if [ -n "${DMLTOOL_DIFF_NATIVE:-}" ]; then
  # Test hook (tests/cli/check_diff_directml.sh): a native dmltool with --backend both instead of DirectML under
  # Wine, so that generating, counting and shrinking are tested on a machine without the Windows build.
  dmltool=("$DMLTOOL_DIFF_NATIVE")
  backend=both
else
  dll="$(scripts/fetch_directml.sh | tail -n 1)"
  scripts/build_windows.sh
  exe=build-windows/app/dmltool.exe
  cp -f "$dll" "$(dirname "$exe")/DirectML.dll"  # the default look-up: next to dmltool.exe
  source scripts/wine_session.sh  # an Xvfb for Wine's DXGI, Mesa 25's lavapipe
  dmltool=(scripts/wine.sh "$exe")
  backend=all
fi
rm -rf "$out"
mkdir -p "$out"
start=$(date +%s)
# dmltool.exe generates too: the Windows build alone is enough (no Linux build needed).
"${dmltool[@]}" generate --operator all --count "$count" --seed "$seed" "$out/cases" > "$out/generate.txt" 2>&1 ||
  { cat "$out/generate.txt" >&2; echo "diff_directml.sh: dmltool generate failed" >&2; exit 3; }
generated=$(date +%s)
set +e
"${dmltool[@]}" run --backend "$backend" --allow-unsupported "$out"/cases/*.json --json "$out/report.json" > "$out/run.txt" 2>&1
rc=$?
set -e
ran=$(date +%s)
echo "diff_directml.sh: seed $seed, $((4 * count)) cases: generate $((generated - start)) s, run --backend $backend $((ran - generated)) s (exit $rc; $out/run.txt)"
if [ "$rc" -ge 3 ] || [ ! -s "$out/report.json" ]; then
  tail -n 20 "$out/run.txt" >&2
  echo "diff_directml.sh: dmltool run --backend $backend did not complete (exit $rc)" >&2
  exit 3
fi
python3 - "$out" "$max_repros" "$backend" "${dmltool[@]}" <<'PY'
import json, os, re, shlex, subprocess, sys, time
out, max_repros, backend, dmltool = sys.argv[1], int(sys.argv[2]), sys.argv[3], shlex.join(sys.argv[4:])
with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
    cases = json.load(f)["cases"]
counts = {"passed": 0, "deviates": 0, "unsupported": 0, "failed": 0}
group = {"PASSED": "passed", "DEVIATES": "deviates", "UNSUPPORTED": "unsupported"}
failed = []
for case in cases:
    kind = group.get(case.get("status"), "failed")
    counts[kind] += 1
    if kind == "failed":
        failed.append(case)
        print(f"  [{case.get('status')}] {case.get('name')}: {case.get('reason', '')[:300]}")
shrinkable = [c for c in failed if c.get("status") == "FAILED"]
for case in shrinkable[:max_repros]:
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", case["name"])
    started = time.monotonic()
    result = subprocess.run([sys.executable, "scripts/shrink_case.py", "--dmltool", dmltool, "--backend", backend,
                             "--case", case["name"], "--max-runs", "40", "--time-limit", "150", "-q",
                             "--out", os.path.join(out, "repro", name + ".json"), case["file"]],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    print(f"  {result.stdout.strip()} ({time.monotonic() - started:.0f} s)")
if len(shrinkable) > max_repros:
    print(f"  {len(shrinkable) - max_repros} more FAILED cases not shrunk (--max-repros {max_repros})")
print(f"diff_directml: {len(cases)} cases: {counts['passed']} passed, {counts['deviates']} deviates, "
      f"{counts['unsupported']} unsupported, {counts['failed']} failed")
sys.exit(1 if counts["failed"] else 0)
PY
