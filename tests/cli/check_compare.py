#!/usr/bin/python3
"""`dmltool compare` on synthetic bench reports: each verdict, each exit code and each output format.

    check_compare.py DMLTOOL OUT_DIR

Synthetic runs have 30 samples around 100 us with a deterministic +-0.5% jitter (noise ~0.05%), or +-20% for the
noisy ones; the new run is shifted by a factor. Expected: identical -> SAME (0), +10% -> SLOWER (1), -10% ->
FASTER (0), wide noise -> NOISY (4, undecided; 0 with --allow-undecided), not converged -> NOISY (4), +2% (under the 5% threshold) -> SAME (0), other
adapter -> refused (2) unless --allow-different-adapters, malformed input -> one-line error naming file and
field (2).
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

FAILURES = []


def check(condition, message, detail=""):
    if not condition:
        FAILURES.append(f"FAIL: {message}\n{detail}")


def samples(factor, spread, count=30, phase=0):
    return [100e-6 * factor * (1 + spread * (((i * 7 + phase) % 11) - 5) / 5) for i in range(count)]


def report(cases, adapter="Test GPU (vendor 0x1, device 0x2)", device="gpu (Test GPU)", cache="hot", power="off",
           timer=None):
    # timer None: a report from before bench --timer (no "timer" section), read as wall.
    return {"sample_format": "dmltool-samples-1", "adapter": adapter, "device": device,
            "machine": {"cpu_model": "Test CPU"}, "cache": {"mode": cache},
            "options": {"stable_power_state": power}, **({"timer": {"clock": timer}} if timer else {}),
            "cases": [{"name": name, "backend": backend, "samples": s, "converged": conv}
                      for name, backend, s, conv in cases]}


def write(out_dir, name, content):
    path = os.path.join(out_dir, name)
    with open(path, "w") as f:
        f.write(content if isinstance(content, str) else json.dumps(content))
    return path


def run(dmltool, *args):
    r = subprocess.run([dmltool, "compare", *args], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def verdicts(dmltool, base, new, *extra):
    code, out, err = run(dmltool, base, new, "--format", "json", *extra)
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        return code, {}, out + err
    return code, {c["name"]: c["verdict"] for c in data["cases"]}, out + err


def main(dmltool, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    base = write(out_dir, "base.json", report([("c", "gpu", samples(1, 0.005), True)]))
    cases = {
        "same": ([("c", "gpu", samples(1, 0.005, phase=3), True)], "SAME", 0),
        "slower": ([("c", "gpu", samples(1.10, 0.005, phase=3), True)], "SLOWER", 1),
        "faster": ([("c", "gpu", samples(0.90, 0.005, phase=3), True)], "FASTER", 0),
        "small_shift": ([("c", "gpu", samples(1.02, 0.005, phase=3), True)], "SAME", 0),
        # Undecided: neither a pass nor a fail (exit 4; --allow-undecided below turns it into 0).
        "noisy": ([("c", "gpu", samples(1.10, 0.40, phase=3), True)], "NOISY", 4),
        "not_converged": ([("c", "gpu", samples(1.06, 0.10, phase=3), False)], "NOISY", 4),
        # Far beyond the threshold and the noise: judged even though noisy or not converged (never hidden).
        "noisy_but_clear": ([("c", "gpu", samples(2.0, 0.40, phase=3), True)], "SLOWER", 1),
        "not_converged_but_clear": ([("c", "gpu", samples(2.0, 0.10, phase=3), False)], "SLOWER", 1),
        "noisy_but_clearly_faster": ([("c", "gpu", samples(0.5, 0.40, phase=3), True)], "FASTER", 0),
    }
    for name, (new_cases, expected, expected_code) in cases.items():
        new = write(out_dir, f"new_{name}.json", report(new_cases))
        code, got, log = verdicts(dmltool, base, new)
        check(got.get("c") == expected and code == expected_code,
              f"{name}: expected {expected} with exit {expected_code}, got {got.get('c')} with exit {code}", log)
    code, got, log = verdicts(dmltool, base, os.path.join(out_dir, "new_noisy.json"), "--allow-undecided")
    check(got.get("c") == "NOISY" and code == 0, f"--allow-undecided: expected NOISY with exit 0, got exit {code}", log)
    identical_code, identical, log = verdicts(dmltool, base, base)
    check(identical.get("c") == "SAME" and identical_code == 0, "a run against itself must be SAME, exit 0", log)

    # Every format of a regression: table, markdown, JUnit (the regression as a failure), JSON to a file.
    slower = os.path.join(out_dir, "new_slower.json")
    code, out, err = run(dmltool, base, slower)
    check(code == 1 and "SLOWER" in out and "1 slower" in out, "table output of a regression", out + err)
    code, out, err = run(dmltool, base, slower, "--format", "markdown")
    check(code == 1 and "| **SLOWER** | gpu | `c` |" in out and out.startswith("### dmltool compare"),
          "markdown output of a regression", out + err)
    junit_path = os.path.join(out_dir, "compare.xml")
    code, out, err = run(dmltool, base, slower, "--format", "junit", "--output", junit_path)
    try:
        suite = ET.parse(junit_path).getroot().find("testsuite")
        check(code == 1 and suite.get("failures") == "1" and suite.find("testcase/failure") is not None,
              "JUnit output: the regression is a failure", open(junit_path).read())
    except (ET.ParseError, OSError, AttributeError) as e:
        check(False, f"JUnit output is not XML ({e})", out + err)

    # Cases present in one run only are listed, never judged; the shared one still is.
    extra = write(out_dir, "new_extra.json", report([("c", "gpu", samples(1, 0.005, phase=3), True),
                                                      ("d", "gpu", samples(1, 0.005), True)]))
    code, out, err = run(dmltool, base, extra)
    check(code == 0 and "only in new (not compared): d [gpu]" in out, "unmatched cases are listed", out + err)

    # Different adapter, driver, cache mode, stable power state or timer: refused (2) with the reason, unless
    # allowed (a report without a timer is wall-clocked).
    for field, value in (("adapter", "Other GPU"), ("device", "gpu (Test GPU, other driver)"), ("cache", "cold"),
                         ("power", "stable power states (base: 'off', new: 'on')"),
                         ("timer", "timers (base: 'wall', new: 'cpu')")):
        setting = {"power": "on", "timer": "cpu"}.get(field, value)
        other = write(out_dir, f"new_other_{field}.json", report([("c", "gpu", samples(1, 0.005), True)], **{field: setting}))
        code, out, err = run(dmltool, base, other)
        check(code == 2 and "refusing to compare" in err and "--allow-different-adapters" in err and value in err,
              f"different {field}: must be refused with exit 2 and say why", out + err)
        code, out, err = run(dmltool, base, other, "--allow-different-adapters")
        check(code == 0 and "SAME" in out and "note: compared despite different" in out,
              f"different {field} with --allow-different-adapters: compared, with a note", out + err)

    # Bad input: exit 2 and one line naming the file, the field, what was expected and what was found.
    bad = {
        "not_json.json": ("{ not json", r"not_json.json: expected a JSON bench report"),
        "no_format.json": ({"cases": []}, "no_format.json: /sample_format: expected \"dmltool-samples-1\""),
        "bad_sample.json": (report([("c", "gpu", [1e-4, "fast"], True)]),
                            'bad_sample.json: /cases/0/samples/1: expected a positive number of seconds, found "fast"'),
        "no_samples.json": (report([("c", "gpu", [], True)]),
                            "no_samples.json: /cases/0/samples: expected a non-empty array of seconds, found []"),
    }
    for name, (content, message) in bad.items():
        path = write(out_dir, name, content)
        code, out, err = run(dmltool, base, path)
        lines = err.strip().splitlines()
        check(code == 2 and len(lines) == 1 and message in lines[0] and lines[0].startswith("dmltool: error: "),
              f"{name}: expected exit 2 and one line containing '{message}'", f"exit {code}\n{err}")
    code, out, err = run(dmltool, base, os.path.join(out_dir, "missing.json"))
    check(code == 2 and "missing.json: cannot read" in err, "a missing file is bad input", err)

    for f in FAILURES:
        print(f, file=sys.stderr)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
