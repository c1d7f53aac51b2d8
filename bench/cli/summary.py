"""Medians and ratios from scripts/bench-cli's hyperfine JSON files.

Each ratio is the median time of a command divided by the median time of
the first command of the same file (hashlanes), measured in one run.
"""
import json
import pathlib
import sys

out = pathlib.Path(sys.argv[1])
print("| workload | command | median | ratio (its time / hashlanes') |")
print("|---|---|---|---|")
for f in sorted(out.glob("cli-*.json")):
    results = json.loads(f.read_text())["results"]
    base = results[0]["median"]
    for r in results:
        cmd = r["command"].replace(str(out), "")
        print(f"| {f.stem[4:]} | `{cmd}` | {r['median']*1000:.1f} ms | {r['median']/base:.2f}× |")
