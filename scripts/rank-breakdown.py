#!/usr/bin/env python3
"""Where the CPU model names the wrong fastest format, from `sparseprof validate --json FILE`.

Usage: scripts/rank-breakdown.py VALIDATE.json GROUP-SUBSTRING [held-out|training]

For the measured groups whose name holds GROUP-SUBSTRING (e.g. family-26-model-2-256bit) and ends
in the half asked (default held-out), it takes each layer of each measurements file as validate's
"best format" does (the formats measured on that layer at that N and thread count) and prints:
  - every pair (predicted fastest -> measured fastest) that differs, grouped by file, with how much
    slower the predicted winner measured than the real one (x1.00-x1.05 is within the sets' IQR);
  - the mean time error per format, file (sparsity, N, threads), so a mis-rank reads as which
    format's time the model got wrong, which way.
Nothing here feeds the model; it reads what validate wrote.
"""
import collections
import json
import re
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        cases = json.load(f)["cases"]
    pattern, half = sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "held-out"
    layers = collections.defaultdict(dict)
    errors = collections.defaultdict(list)
    for c in cases:
        group = c["group"]
        if pattern not in group or not group.endswith(half):
            continue
        m = re.match(r"(.*)/([^/]+)/n(\d+)/t(\d+)$", c["name"])
        if not m:
            continue
        layer, fmt, n, threads = m.groups()
        source = c["source"].split("/")[-1].split(" ")[0].removesuffix(".json")
        layers[(source, layer)][fmt] = (c["predicted"], c["measured"])
        errors[(fmt, source)].append(c["errorPercent"])
    wrong = collections.defaultdict(list)
    total = 0
    for (source, layer), times in layers.items():
        if len(times) < 2:
            continue
        total += 1
        predicted = min(times, key=lambda f: times[f][0])
        measured = min(times, key=lambda f: times[f][1])
        if predicted != measured:
            wrong[(source, predicted, measured)].append(times[predicted][1] / times[measured][1])
    right = total - sum(len(v) for v in wrong.values())
    print(f"best format right {right}/{total}; the misses (predicted -> measured fastest):")
    for (source, predicted, measured), gaps in sorted(wrong.items()):
        print(f"  {source:<22} {predicted:>7} -> {measured:<7} {len(gaps):2d} layers, "
              f"the predicted one measured x{min(gaps):.2f}-x{max(gaps):.2f} slower")
    print("mean time error per format and file:")
    for (fmt, source), e in sorted(errors.items()):
        print(f"  {fmt:<7} {source:<22} {sum(e) / len(e):+6.1f}% ({len(e)} layers)")


if __name__ == "__main__":
    main()
