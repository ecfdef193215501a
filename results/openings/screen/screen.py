import chess, chess.engine, sys
path = sys.argv[1]
eng = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
eng.configure({"Threads": 1, "Hash": 16})
out = []
for n, line in enumerate(l for l in open(path) if l.startswith("actions:")):
    b = chess.Board()
    for m in line.split()[1:]:
        b.push_uci(m)
    info = eng.analyse(b, chess.engine.Limit(depth=14))
    s = info["score"].white()
    if s.is_mate() or abs(s.score()) >= 300:
        out.append((n + 1, line.strip(), str(s)))
        print(n + 1, line.strip(), s, flush=True)
eng.quit()
print("flagged", len(out))
