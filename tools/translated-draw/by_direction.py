#!/usr/bin/env python3
"""Recall of translated passages by direction, for a set made by make_set.py.

    by_direction.py SET_DIR REPORT.json

Reads SET_DIR/manifest.json (each inserted passage with its direction), SET_DIR/truth.json
and a Twinspot JSON report of the set (`twinspot compare -r reference -s suspect --json
REPORT.json`, run from SET_DIR). Prints, for English -> Chinese (simplified or
traditional) and Chinese -> English, the share of the translated passages' suspect
characters that a detection of the same document pair covers, where the detection also
overlaps the passage's reference side.
"""

import json
import os
import sys
from collections import defaultdict


def main(set_dir, report_path):
    manifest = json.load(open(os.path.join(set_dir, "manifest.json"), encoding="utf-8"))
    truth = json.load(open(os.path.join(set_dir, "truth.json"), encoding="utf-8"))
    report = json.load(open(report_path, encoding="utf-8"))
    truth_paths = {d["id"]: d["path"] for d in truth["documents"]}
    report_paths = {d["id"]: d["path"] for d in report["documents"]}
    detections = defaultdict(list)
    for pair in report["pairs"]:
        a, b = report_paths[pair["a"]], report_paths[pair["b"]]
        for p in pair["passages"]:
            if a.startswith("reference"):
                detections[(b, a)].append((p["b_start"], p["b_end"], p["a_start"], p["a_end"]))
            else:
                detections[(a, b)].append((p["a_start"], p["a_end"], p["b_start"], p["b_end"]))
    found = defaultdict(lambda: [0, 0])
    for passage in manifest["passages"]:
        if passage["obfuscation"] != "translated":
            continue
        a, b = truth_paths[passage["suspect"]], truth_paths[passage["reference"]]
        a0, a1 = passage["a_start"], passage["a_start"] + passage["a_chars"]
        b0, b1 = passage["b_start"], passage["b_start"] + passage["b_chars"]
        covered = set()
        for x0, x1, y0, y1 in detections.get((a, b), []):
            if y0 < b1 and b0 < y1:
                covered |= set(range(max(a0, x0), min(a1, x1)))
        direction = "en->zh" if passage["direction"].startswith("en") else "zh->en"
        found[direction][0] += len(covered)
        found[direction][1] += a1 - a0
    for direction in sorted(found):
        got, total = found[direction]
        print(f"{direction}: {got / total:.3f} of {total} characters")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
