import subprocess, sys
fens = ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
"8/2k5/3p4/p2P1p2/P2P1P2/8/3K4/8 w - - 0 1",
"r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 11",
"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
"r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 w - - 0 12"]
def run(binary, depth):
    tn=tt=0; out=[]
    for f in fens:
        p = subprocess.Popen([binary, "uci", "--agent", "alphabeta"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdin.write(f"uci\nisready\nposition fen {f}\ngo depth {depth}\n"); p.stdin.flush()
        last=None
        for line in p.stdout:
            if line.startswith("info depth"): last=line.split()
            if line.startswith("bestmove"): break
        p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
        n=int(last[last.index("nodes")+1]); t=int(last[last.index("time")+1])
        tn+=n; tt+=t; out.append((n,t,last[last.index("score")+2]))
    return tn, tt, out
d=int(sys.argv[1]); bins=sys.argv[2:]
for rep in range(2):
    for b in bins:
        tn,tt,out=run(b,d)
        print(b, tn, tt, round(tn/tt), [o[0] for o in out])
