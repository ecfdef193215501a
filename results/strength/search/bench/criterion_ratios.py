"""Paired NEW/OLD ratios of criterion's throughputs from a log of rounds (`== OLD|NEW run N`
headers, then the bench's output): per bench, the ratio in each round and their median; and
the same for the print-out's alphabeta line (nodes/s per core of one search, whatever its depth).
Usage: python3 criterion_ratios.py LOG"""
import re, statistics, sys

UNITS = {"elem/s": 1.0, "Kelem/s": 1e3, "Melem/s": 1e6, "Gelem/s": 1e9}
runs = {}  # (version, round) -> {bench: throughput}
cur = bench = None
for line in open(sys.argv[1]):
    m = re.match(r"== (OLD|NEW) run (\d+)", line)
    if m:
        cur = runs.setdefault((m.group(1), int(m.group(2))), {})
        continue
    m = re.match(r"alphabeta depth \d+ on Kiwipete: .* = (\d+) nodes/s per core", line)
    if m and cur is not None:
        cur["print-out: alphabeta nodes/s"] = float(m.group(1))
        continue
    m = re.match(r"(agents/\S+)", line)
    if m:
        bench = m.group(1)
        continue
    # The first thrpt line of a bench is the estimate; a later one with % is the change.
    m = re.match(r"\s+thrpt:\s+\[\S+ \S+ ([\d.]+) (\S+)", line)
    if m and cur is not None and bench and bench not in cur:
        cur[bench] = float(m.group(1)) * UNITS[m.group(2)]
rounds = sorted({r for (_, r) in runs})
benches = list(runs[("OLD", rounds[0])])
for b in benches:
    ratios = [runs[("NEW", r)][b] / runs[("OLD", r)][b] for r in rounds]
    shown = ", ".join(f"{x:.2f}" for x in ratios)
    print(f"{b:42s} NEW/OLD {shown}  median {statistics.median(ratios):.2f}")
