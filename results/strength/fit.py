"""Joint Bradley-Terry fit of the three strength gauntlets, anchored at Stockfish's
UCI_Elo=1350 setting; 95% intervals from 200 bootstrap resamples of the games.
Run from this folder: python3 fit.py (standard library only)."""
import csv, math, random

rows = []
for r in ["gauntlet-1", "gauntlet-2", "gauntlet-3", "gauntlet-4", "gauntlet-5", "gauntlet-6"]:
    for row in csv.DictReader(open(f"{r}/games.csv")):
        ag = row["agents"].split(";")
        ret = [float(x) for x in row["returns"].split()]
        rows.append((ag[0], ag[1], (ret[0] + 1) / 2))
names = sorted({a for r in rows for a in r[:2]})
short = {n: ("SF" + n.split("UCI_Elo=")[1]) if "UCI_Elo" in n else n for n in names}
anchor = [n for n in names if n.endswith("UCI_Elo=1350")][0]


def fit(rs):
    rating = {n: 0.0 for n in names}
    k = math.log(10) / 400
    for _ in range(3000):
        grad = {n: 0.0 for n in names}
        hess = {n: 1e-9 for n in names}
        for a, b, s in rs:
            p = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            grad[a] += (s - p) * k
            grad[b] -= (s - p) * k
            hess[a] += p * (1 - p) * k * k
            hess[b] += p * (1 - p) * k * k
        step = 0.0
        for n in names:
            if n != anchor:
                d = min(50, max(-50, grad[n] / hess[n]))
                rating[n] += d
                step = max(step, abs(d))
        if step < 1e-4:
            break
    return {n: rating[n] + 1350 for n in names}


est = fit(rows)
random.seed(1)
boots = {n: [] for n in names}
for _ in range(200):
    rb = fit([random.choice(rows) for _ in rows])
    for n in names:
        boots[n].append(rb[n])
print("games", len(rows))
for n in sorted(names, key=lambda n: -est[n]):
    v = sorted(boots[n])
    print(f"{short[n]:45s} {est[n]:7.0f}  95% [{v[5]:.0f}, {v[194]:.0f}]")
