#!/bin/sh
# The fog twins of issue 67: each hidden game's verdict-row player in self-play in the
# game's full-information twin, with the hidden run's seed, opening plies and threads,
# so a twin's row sits beside its hidden run's (results/fog-twins/README.md).
#
#   sh results/fog-twins/run.sh                  # the four twins, 1000 games each (hours)
#   sh results/fog-twins/run.sh time time-hidden # Time's twin and its hidden game
#   GAMES=4 OUT=/tmp/fog sh results/fog-twins/run.sh zombie   # a smoke test of one
#
# Environment: CHESSLAB (the binary; default target/quick/chesslab, built with
# `cargo build --profile quick -p experiments --bin chesslab`), GAMES (default 1000), OUT
# (the folder the run folders go in; default results/fog-twins, or results/fog-twins/member
# with PLAYER=member), PLAYER (`row`, the default: each hidden verdict row's player;
# `member`: the strong member's search on sampled worlds in every game (ten worlds; two in
# Tar Pit, where they play stronger), a node budget, so
# the runs play the same games at any load and thread count). Arguments: the games to
# play (chess: the orthodox baseline of the D2 player; zombie, time, masquerade, tar-pit,
# cassandra (open; its hidden game is secret Cassandra), clairvoyant (open; hidden: blind),
# clairvoyant-strict (the same with the strict-shape tables);
# default the four twins, Time last), and
# `<game>-hidden` for the hidden game itself with the same command and build, into
# `<game>-hidden/`. A run that stops resumes where it stopped when started again
# (`--resume`).
set -eu

BIN=${CHESSLAB:-target/quick/chesslab}
GAMES=${GAMES:-1000}
PLAYER=${PLAYER:-row}
HERE=results/fog-twins
case $PLAYER in
row) OUT=${OUT:-$HERE} ;;
member) OUT=${OUT:-$HERE/member} ;;
*)
    echo "unknown PLAYER '$PLAYER' (row or member)" >&2
    exit 2
    ;;
esac

# The hidden runs' players (their run.json files), with `ties=random`: equal best actions
# drawn at random in the open twin as in the hidden game (where it is the default, so the
# hidden runs named without it play the same moves). Without it the twin's player kept the
# first of equal actions and both games of a pair were one game (README.md, Zombie).
D2=pimc:search=alphabeta,depth=2,quiescence=true,worlds=6,ties=random
T25=pimc:search=alphabeta,worlds=10,time_ms=25,ties=random
TP=$T25
# The strong member (results/strength/member: `alphabeta:depth=64,nodes=100000`) searching
# sampled worlds: 100,000 nodes a decision shared over ten worlds.
if [ "$PLAYER" = member ]; then
    D2=pimc:search=alphabeta,depth=64,nodes=100000,quiescence=true,worlds=10,ties=random
    T25=$D2
    # In Tar Pit the same budget over two worlds is the stronger player: +151 against the
    # depth-2 row player where ten worlds are level with it (results/strength/member,
    # hidden-vs-row/tar-pit-w2 and tar-pit).
    TP=pimc:search=alphabeta,depth=64,nodes=100000,quiescence=true,worlds=2,ties=random
fi

run() {
    name=$1
    shift
    mkdir -p "$OUT"
    resume=
    if [ -e "$OUT/$name/games.csv" ]; then
        resume=--resume
    fi
    echo "== $name: $*" >&2
    # shellcheck disable=SC2086
    "$BIN" balance "$@" --games "$GAMES" --out "$OUT/$name" $resume
}

# The run's title word: the twin's name, or `hidden`.
label() {
    if [ -n "$2" ]; then echo hidden; else echo "$1"; fi
}

# play NAME [hidden]: the twin of NAME, or with `hidden` the hidden game itself with the
# same command and build (the hidden runs under results/ were played by earlier builds of
# the agents; run.json's agents_epoch says which).
play() {
    game=$1
    fog=${2:-}
    case $game in
    chess)
        # Orthodox chess by the same player and build, the baseline the rules are measured
        # from (Zombie's and Time's hidden runs were set beside generation 3's orthodox
        # run; today's build plays orthodox chess differently from generation 3).
        params=
        set -- --variant chess --agents "$D2,$D2" --random-opening-plies 8 --seed 40 \
            --threads 1 --title "Orthodox chess, the fog twins' player"
        ;;
    zombie)
        # As results/zombie/pimc-d2 (seed 40, 8 random opening plies, one thread).
        params=$HERE/zombie-open-burials.toml
        [ -n "$fog" ] && params=
        set -- --variant zombie --agents "$D2,$D2" --random-opening-plies 8 --seed 40 \
            --threads 1 --title "Zombie, $(label "open burials" "$fog") (fog twins)"
        ;;
    time)
        # As results/time/pimc-d2 (seed 40, 8 random opening plies, one thread; that run
        # played 400 games, with the seeds of this run's first 400).
        params=$HERE/time-sighted.toml
        [ -n "$fog" ] && params=
        set -- --variant time --agents "$D2,$D2" --random-opening-plies 8 --seed 40 \
            --threads 1 --title "Time Chess, $(label "sighted" "$fog") (fog twins)"
        ;;
    masquerade)
        # As results/masquerade/pimc (random assignments, seed 1, two threads, the same
        # splits by the king's and queen's patterns).
        params=$HERE/masquerade-open-assignments.toml
        [ -n "$fog" ] && params=results/masquerade/random-assignment.toml
        set -- --variant masquerade --agents "$T25,$T25" --seed 1 --threads 2 \
            --split white_gave_queen@0+black_gave_queen@1 \
            --split white_gave_king@0+black_gave_king@1 \
            --title "Masquerade, $(label "open assignments" "$fog") (fog twins)"
        ;;
    tar-pit)
        # As the rated runs of results/tar-pit/handicaps/pimc at the seed's setting
        # (pimc/checkers/a: seed 1, two threads, no random opening plies).
        params=$HERE/tar-pit-open-hands.toml
        [ -n "$fog" ] && params=
        set -- --variant tar-pit --agents "$TP,$TP" --seed 1 --threads 2 \
            --title "Tar Pit, $(label "open hands" "$fog") (fog twins)"
        ;;
    cassandra)
        # Open Cassandra is the twin of secret Cassandra (`secret = true`: the opponent's
        # pending prophecy square hidden), as results/cassandra/secret-pimc-d2 (seed 40,
        # 8 random opening plies, one thread).
        params=
        [ -n "$fog" ] && params=results/strength/hidden/cassandra-secret.toml
        set -- --variant cassandra --agents "$D2,$D2" --random-opening-plies 8 --seed 40 \
            --threads 1 --title "Cassandra, $(label "open" "$fog") (fog twins)"
        ;;
    clairvoyant)
        # Open Clairvoyant (the seed's default: every sheet revealed at the end of its
        # turn) is the twin of blind mode (`mode = "blind"`: nothing revealed), both with
        # the seed's tables, as results/clairvoyant/balance (the `clairvoyant` agent: the
        # searches that read an evaluation take minutes a game here, so both PLAYERs play
        # it; seed 29, 12 random opening plies).
        params=
        [ -n "$fog" ] && params=$HERE/clairvoyant-blind.toml
        set -- --variant clairvoyant --agents clairvoyant,clairvoyant --random-opening-plies 12 \
            --seed 29 --threads 2 --title "Clairvoyant, $(label "open" "$fog") (fog twins)"
        ;;
    clairvoyant-strict)
        # The same with the lab's strict-shape tables (results/clairvoyant/strict: a
        # purchase every 5.4 moves in open mode), since the seed's tables buy at nearly
        # every move and draw almost every open game.
        params=results/clairvoyant/strict/strict.toml
        [ -n "$fog" ] && params=$HERE/clairvoyant-strict-blind.toml
        set -- --variant clairvoyant --agents clairvoyant,clairvoyant --random-opening-plies 12 \
            --seed 29 --threads 2 --title "Clairvoyant, strict tables, $(label "open" "$fog") (fog twins)"
        ;;
    *)
        echo "unknown game '$game' (chess, or zombie, time, masquerade, tar-pit, cassandra, clairvoyant, clairvoyant-strict, each with -hidden)" >&2
        exit 2
        ;;
    esac
    if [ -n "$params" ]; then
        set -- "$@" --params "$params"
    fi
    run "$game${fog:+-hidden}" "$@"
}

if [ $# -eq 0 ]; then
    # Time last: its parameter is not in the build yet (README.md).
    set -- zombie masquerade tar-pit time
fi
for name in "$@"; do
    case $name in
    *-hidden) play "${name%-hidden}" hidden ;;
    *) play "$name" ;;
    esac
done
