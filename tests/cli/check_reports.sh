#!/bin/sh
# Runs a passing and a failing case with --junit and --json and checks both reports are well-formed and say
# what happened; then does the same for an invalid case whose message holds non-ASCII text cut short (which once
# made the JSON report throw, exit 3, and the JUnit XML malformed).
#   check_reports.sh DMLTOOL CASES_DIR OUT_DIR NON_ASCII_CASE
set -u
dmltool=$1
cases=$2
out=$3
non_ascii_case=$4
mkdir -p "$out"
rm -f "$out/report.xml" "$out/report.json"
"$dmltool" run --backend cpu "$cases/pass.json" "$cases/fail.json" --junit "$out/report.xml" --json "$out/report.json" \
  >"$out/console.txt" 2>&1
rc=$?
if [ "$rc" != 1 ]; then
  echo "FAIL: expected exit code 1 (a case failed), got $rc" >&2
  cat "$out/console.txt" >&2
  exit 1
fi
grep -q '<testsuites' "$out/report.xml" || { echo "FAIL: no <testsuites in the JUnit report" >&2; exit 1; }
/usr/bin/python3 - "$out/report.xml" "$out/report.json" <<'PY'
import json
import re
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()  # raises on malformed XML
assert root.tag == "testsuites", root.tag
assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "1", "0"), root.attrib
cases = {c.get("name"): c for c in root.iter("testcase")}
assert set(cases) == {"d2s/pass", "d2s/fail"}, cases
assert cases["d2s/pass"].find("failure") is None
failure = cases["d2s/fail"].find("failure")
assert failure is not None and failure.get("type") == "FAILED", ET.tostring(cases["d2s/fail"])
assert re.search(r"repro: [^ ]*dmltool(\.exe)?'? run", failure.text), failure.text

with open(sys.argv[2]) as f:
    report = json.load(f)  # raises on malformed JSON
summary = report["summary"]
assert (summary["total"], summary["passed"], summary["failed"], summary["exit_code"]) == (2, 1, 1, 1), summary
by_name = {c["name"]: c for c in report["cases"]}
assert by_name["d2s/pass"]["status"] == "PASSED", by_name["d2s/pass"]
failed = by_name["d2s/fail"]
assert failed["status"] == "FAILED" and failed["feature_level"] == "2_1", failed
output = failed["outputs"][0]
assert output["verdict"] == "failed" and output["mismatches"] == 1, output
assert output["first_mismatches"][0]["coordinates"] == [0, 0, 1, 2], output
assert output["first_mismatches"][0]["expected"] == "99" and output["first_mismatches"][0]["got"] == "15", output
print("reports OK")
PY
[ $? = 0 ] || exit 1

rm -f "$out/non_ascii.xml" "$out/non_ascii.json"
"$dmltool" run --backend cpu "$non_ascii_case" --junit "$out/non_ascii.xml" --json "$out/non_ascii.json" \
  >"$out/non_ascii.txt" 2>&1
rc=$?
if [ "$rc" != 2 ]; then
  echo "FAIL: expected exit code 2 (invalid case) for $non_ascii_case, got $rc" >&2
  cat "$out/non_ascii.txt" >&2
  exit 1
fi
/usr/bin/python3 - "$out/non_ascii.xml" "$out/non_ascii.json" <<'PY'
import json
import re
import sys
import xml.etree.ElementTree as ET

error = ET.parse(sys.argv[1]).getroot().find("testsuite/testcase/error")
assert error is not None and "/operator/desc/Order" in error.get("message"), error
with open(sys.argv[2], encoding="utf-8") as f:  # strict UTF-8 decoding
    case = json.load(f)["cases"][0]
assert case["status"] == "INVALID" and case["reason"].endswith('..."'), case
print("non-ASCII reports OK")
PY
