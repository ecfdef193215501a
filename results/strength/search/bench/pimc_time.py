"""Mean wall time of a decision through `chesslab uci --agent AGENT` (`go` after each of four
positions, twenty times), for each binary given, twice in turn.
Usage: python3 pimc_time.py AGENT BINARY..."""
import subprocess, sys, time
fens = ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
"r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 11"]
def run(binary, agent, reps=20):
    p = subprocess.Popen([binary, "uci", "--agent", agent], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    p.stdin.write("uci\nisready\n"); p.stdin.flush()
    for line in p.stdout:
        if line.startswith("readyok"): break
    tot=0; n=0
    for r in range(reps):
        for f in fens:
            p.stdin.write(f"position fen {f}\n"); p.stdin.flush()
            t=time.perf_counter(); p.stdin.write("go\n"); p.stdin.flush()
            for line in p.stdout:
                if line.startswith("bestmove"): break
            tot+=time.perf_counter()-t; n+=1
    p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
    return tot/n*1000
agent=sys.argv[1]
for rep in range(2):
    for b in sys.argv[2:]:
        print(b, agent, "%.1f ms/decision" % run(b, agent))
