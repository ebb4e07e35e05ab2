#!/usr/bin/env bash
# Files a new measured GPU run: the files a device call brought back (run.sh bench's $OUT, plus nvidia_smi.txt)
# become results/NAME/ (default h200_<today>_full_run: results/ names say date and content), and summary.md
# (compare.py, with the CPU reference's rows from the newest results/cpu_2core_*/report.json when there is one) and
# bench.png (plot_bench.py; needs python3-matplotlib) are made here. Then, by hand: results/NAME/README.md (what was
# measured, what limits each missed target, what was tried) and the device's line in results/README.md (the
# latest full run per device); a run it supersedes leaves the tree (git rm; git history keeps it).
#
#   scripts/gpu_machine/new_run.sh DIR [NAME]   # DIR: run.txt junit.xml bench.json bench.txt report.json report.csv
#                                               #      pytorch.json [nvidia_smi.txt]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
from="${1:?usage: new_run.sh DIR [NAME] (DIR: the files the device call brought back)}"
name="${2:-h200_$(date -u +%F)_full_run}"
for f in run.txt bench.json report.json pytorch.json; do
  [ -f "$from/$f" ] || { echo "new_run.sh: $from/$f is missing" >&2; exit 2; }
done
cd "$repo"
out="results/$name"
[ -e "$out" ] && { echo "new_run.sh: $out exists already (give another NAME)" >&2; exit 2; }
mkdir -p "$out"
for f in run.txt junit.xml bench.json bench.txt report.json report.csv pytorch.json nvidia_smi.txt; do
  [ -f "$from/$f" ] && cp "$from/$f" "$out/"
done
cpu=()
cpu_report="$(ls -d results/cpu_2core_*/report.json 2>/dev/null | sort | tail -n 1)"
[ -n "$cpu_report" ] && cpu=(--cpu-report "$cpu_report")
python3 scripts/gpu_machine/compare.py "$out/bench.json" "$out/pytorch.json" \
  --report "$out/report.json" "${cpu[@]}" > "$out/summary.md"
/usr/bin/python3 scripts/plot_bench.py "$out/report.json" --pytorch "$out/pytorch.json" \
  --backend gpu --out "$out/bench.png" || echo "new_run.sh: no plot (apt-get install python3-matplotlib)" >&2
grep -E "targets:" "$out/summary.md"
echo "new_run.sh: filed in $out; now write $out/README.md and update results/README.md"
