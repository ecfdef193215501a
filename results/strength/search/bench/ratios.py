"""Medians per figure and version from the bench figure logs (`== OLD|MID|NEW run N`
headers), and each version's ratio to OLD."""
import re, sys, statistics
rows = {}
cur = None
for f in sys.argv[1:]:
    for line in open(f):
        m = re.match(r"== (\w+) run", line)
        if m:
            cur = m.group(1)
            continue
        m = re.match(r"(.*?): (\d+) \w+ in .* = (\d+) \S+ per core", line)
        if m and cur:
            rows.setdefault(m.group(1)[:60], {}).setdefault(cur, []).append(int(m.group(3)))
for k, v in rows.items():
    o = statistics.median(v["OLD"])
    parts = [f"OLD {o:>12,.0f} (n={len(v['OLD'])})"]
    for ver in ("MID", "NEW"):
        if ver in v:
            m = statistics.median(v[ver])
            parts.append(f"{ver} {m:>12,.0f} (n={len(v[ver])}) ratio {m / o:.2f}")
    print(f"{k:60s} " + "  ".join(parts))
