"""What the planted-expectation tests share (check_planted_expectations.py, check_planted_join_gemm_qlmm.py): a
bundled case copied twice, once with the oracle's expected output ("right/NAME") and once with a plausible wrong
implementation's ("planted/NAME"), its inputs and expectations in one HDF5 file; then one `dmltool run` over all
of them, which must PASS every right/ case and FAIL every planted/ one."""
import json
import os
import subprocess

import h5py


def add_pair(case, inputs, want, wrong, out_cases, datasets):
    """Appends right/ and planted/ copies of `case` (inputs: member -> array, or a list of arrays for an array
    member such as JOIN's InputTensors) to out_cases, their data to datasets (HDF5 key -> array)."""
    for label, arr in (("right", want), ("planted", wrong)):
        c = json.loads(json.dumps(case))
        c["name"] = f"{label}/{case['name']}"
        for m, src in c["inputs"].items():
            for i, s in enumerate(src if isinstance(src, list) else [src]):
                key = f"/{c['name']}/{m}" + (f"/{i}" if isinstance(src, list) else "")
                datasets[key] = inputs[m][i] if isinstance(src, list) else inputs[m]
                s.update({"hdf5": "data/planted.h5", "dataset": key})
        key = f"/{c['name']}/expected"
        datasets[key] = arr
        c["expected"]["OutputTensor"] = {"hdf5": "data/planted.h5", "dataset": key}
        out_cases.append(c)


def run_pairs(dmltool, work, out_cases, datasets, planted_count, test_name):
    """Writes the cases and runs them; prints the verdict and returns the exit code (0 when every right/ case
    PASSED and every planted/ one FAILED)."""
    if len(out_cases) != 2 * planted_count:
        print(f"FAIL: found {len(out_cases) // 2} of the {planted_count} cases to plant mistakes in")
        return 1
    os.makedirs(os.path.join(work, "data"), exist_ok=True)
    with h5py.File(os.path.join(work, "data", "planted.h5"), "w") as h5:
        for key, arr in datasets.items():
            h5.create_dataset(key, data=arr)
    with open(os.path.join(work, "planted.json"), "w", encoding="utf-8") as f:
        json.dump({"cases": out_cases}, f)
    report = os.path.join(work, "planted_report.json")
    result = subprocess.run([dmltool, "run", "--backend", "cpu", "--json", report, "planted.json"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    with open(report, encoding="utf-8") as f:
        status = {c["name"]: c["status"] for c in json.load(f)["cases"]}
    bad = [f"{n}: {s}" for n, s in sorted(status.items())
           if (n.startswith("right/") and s != "PASSED") or (n.startswith("planted/") and s != "FAILED")]
    if bad or len(status) != len(out_cases):
        print("FAIL: expected right/* PASSED and planted/* FAILED:\n  " + "\n  ".join(bad) + "\n" + result.stdout[-3000:])
        return 1
    print(f"{test_name}: {planted_count} planted mistakes FAILED, the oracle's expectations PASSED")
    return 0
