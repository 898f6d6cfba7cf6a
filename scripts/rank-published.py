#!/usr/bin/env python3
"""Ranks every published figure by the size of its error, worst first.

Reads validation/published/NAME-predicted.json (written by scripts/validate-published.sh from the
shipped specs and runtimes) and prints one line per figure: error (predicted vs published, signed),
fit or check half, group, case, figure kind, published and predicted. Standard library only.

    scripts/rank-published.py [--top N] [--figure 'speedup'|'time'|...] [DIR]
"""
import argparse
import glob
import json
import os


def figures(folder):
    """Every published figure of every NAME-predicted.json in folder, as dicts."""
    for path in sorted(glob.glob(os.path.join(folder, "*-predicted.json"))):
        with open(path) as f:
            for case in json.load(f)["cases"]:
                yield case


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=os.path.join(here, "..", "validation", "published"))
    parser.add_argument("--top", type=int, default=0, help="print only the N worst (0: all)")
    parser.add_argument("--figure", default="", help="only figures whose kind contains this text")
    args = parser.parse_args()
    ranked = sorted((c for c in figures(args.folder) if args.figure in c["figure"]),
                    key=lambda c: -abs(c["error"]))
    if args.top:
        ranked = ranked[:args.top]
    for c in ranked:
        print(f"{100 * c['error']:+7.1f}%  {c.get('half', '-'):5s}  {c['group'][:42]:42s}  "
              f"{c['case'][:44]:44s}  {c['figure'][:26]:26s}  {c['published']:>18s}  {c['predicted']:>10s}")


if __name__ == "__main__":
    main()
