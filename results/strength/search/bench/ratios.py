import re,sys,statistics
rows={}  # (figure) -> {'OLD':[...],'NEW':[...]}
cur=None
for f in sys.argv[1:]:
    for line in open(f):
        m=re.match(r"== (OLD|NEW) run",line)
        if m: cur=m.group(1); continue
        m=re.match(r"(.*?): (\d+) \w+ in .* = (\d+) \S+ per core",line)
        if m and cur:
            rows.setdefault(m.group(1)[:60],{'OLD':[],'NEW':[]})[cur].append(int(m.group(3)))
for k,v in rows.items():
    o=statistics.median(v['OLD']); n=statistics.median(v['NEW'])
    print(f"{k:60s} n={len(v['OLD'])}/{len(v['NEW'])} old {o:>12,.0f} new {n:>12,.0f} ratio {n/o:.2f}")
