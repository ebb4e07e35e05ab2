#!/usr/bin/env bash
# Files a new measured H200 run: the files a device call brought back (run.sh bench's $OUT, plus nvidia_smi.txt)
# become results/h200/, the previous run moves to results/h200_<its date> (the date in its README's first line),
# and summary.md (compare.py, with the CPU reference's rows from results/cpu_2core/report.json when present) and
# bench.png (plot_bench.py; needs python3-matplotlib) are made here. results/h200/README.md is then written by hand
# (what was measured, what limits each missed target, what was tried).
#
#   scripts/gpu_machine/new_run.sh DIR      # DIR: run.txt junit.xml bench.json bench.txt report.json report.csv
#                                           #      pytorch.json [nvidia_smi.txt]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
from="${1:?usage: new_run.sh DIR (the files the device call brought back)}"
for f in run.txt bench.json report.json pytorch.json; do
  [ -f "$from/$f" ] || { echo "new_run.sh: $from/$f is missing" >&2; exit 2; }
done
cd "$repo"
if [ -d results/h200 ]; then
  date="$(grep -om1 '20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]' results/h200/README.md 2>/dev/null || true)"
  [ -n "$date" ] || date="$(date -u +%F)-previous"
  [ -e "results/h200_$date" ] && { echo "new_run.sh: results/h200_$date exists already" >&2; exit 2; }
  git mv results/h200 "results/h200_$date" 2>/dev/null || mv results/h200 "results/h200_$date"
  echo "previous run moved to results/h200_$date"
fi
mkdir -p results/h200
for f in run.txt junit.xml bench.json bench.txt report.json report.csv pytorch.json nvidia_smi.txt; do
  [ -f "$from/$f" ] && cp "$from/$f" results/h200/
done
cpu=()
[ -f results/cpu_2core/report.json ] && cpu=(--cpu-report results/cpu_2core/report.json)
python3 scripts/gpu_machine/compare.py results/h200/bench.json results/h200/pytorch.json \
  --report results/h200/report.json "${cpu[@]}" > results/h200/summary.md
/usr/bin/python3 scripts/plot_bench.py results/h200/report.json --pytorch results/h200/pytorch.json \
  --backend gpu --out results/h200/bench.png || echo "new_run.sh: no plot (apt-get install python3-matplotlib)" >&2
grep -E "targets:" results/h200/summary.md
