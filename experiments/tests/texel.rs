//! `chesslab texel` (issue 36): evaluation weights tuned by Texel's method from recorded
//! games, end to end, and its refusals of bad input; plus the class it exposed: studies
//! that replay recorded games start each from its recorded opening.

use std::path::{Path, PathBuf};

use engine::game::Game;
use experiments::studies::texel::{self, TexelArgs, MIN_GAMES};
use experiments::studies::texel_tables::{self, TexelTablesArgs};
use experiments::studies::values::{self, ValuesArgs};

fn results(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results")
        .join(p)
}

fn args(from: Vec<PathBuf>, out: &Path) -> TexelArgs {
    TexelArgs {
        from,
        variant: "chess".into(),
        start: None,
        out: out.to_path_buf(),
        force: false,
        min_ply: 8,
        lambda: 1e-4,
    }
}

/// The first `n` games of `from` in `dir/name`.
fn head(from: &Path, n: usize, dir: &Path, name: &str) -> PathBuf {
    let text = std::fs::read_to_string(from).unwrap();
    let lines: Vec<&str> = text.lines().take(n + 1).collect();
    let p = dir.join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

/// Depth-2 self-play from the chess opening suite (every game starts from an action-list
/// opening): the fit lowers the training loss, and the file it writes is weights that
/// `alphabeta:eval=FILE` builds and plays with, equal to the fit's to the written digits.
#[test]
fn texel_fits_recorded_games_and_writes_weights_alphabeta_plays() {
    let dir = tempfile::tempdir().unwrap();
    let from = head(
        &results("chess/panel/ab-d2/games.csv"),
        300,
        dir.path(),
        "a.csv",
    );
    let out = dir.path().join("tuned.toml");
    let a = args(vec![from], &out);
    let t = texel::tune(&a).unwrap();
    assert_eq!(t.games, 300);
    assert!(t.train > 1000 && t.held_out > 200, "{t:?}");
    assert!(t.train_loss.1 < t.train_loss.0, "{t:?}");
    assert!(t.k > 0.0);
    texel::run(&a).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let w: agents::eval::EvalWeights = toml::from_str(&text).unwrap();
    for f in agents::eval::texel::FIELDS {
        let (got, fit) = (w.get(f).unwrap(), t.weights.get(f).unwrap());
        assert!((got - fit).abs() < 1e-3, "{f}: {got} vs {fit}");
    }
    let spec = format!("alphabeta:depth=1,eval={}", out.display());
    let mut agent =
        agents::registry::build::<engine::variants::chess::Chess>(&spec).expect("builds");
    let game = engine::variants::chess::Chess::new(&Default::default());
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(1);
    let a = agent.act(&game, 0, &mut rng);
    let mut legal = Vec::new();
    game.legal_actions(0, &mut legal);
    assert!(legal.contains(&a));
}

/// Positions come from every file given, in order, and only quiet ones are kept: two
/// files give the positions of each, added.
#[test]
fn texel_reads_every_file_given() {
    let dir = tempfile::tempdir().unwrap();
    let src = results("chess/panel/ab-d2/games.csv");
    let a = head(&src, 150, dir.path(), "a.csv");
    let one = texel::tune(&args(vec![a.clone()], &dir.path().join("o"))).unwrap();
    // The same file twice would count its games twice; a second file of other games adds.
    let both = texel::tune(&args(vec![a.clone(), a], &dir.path().join("o"))).unwrap_err();
    assert!(format!("{both:#}").contains("given twice"), "{both:#}");
    let b = {
        let text = std::fs::read_to_string(&src).unwrap();
        let mut lines: Vec<&str> = text.lines().take(1).collect();
        lines.extend(text.lines().skip(151).take(150));
        let p = dir.path().join("b.csv");
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
        p
    };
    let two = texel::tune(&args(
        vec![head(&src, 150, dir.path(), "a2.csv"), b],
        &dir.path().join("o"),
    ))
    .unwrap();
    assert_eq!(two.games, 300);
    assert!(two.train + two.held_out > one.train + one.held_out);
}

#[test]
fn texel_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tuned.toml");
    let refuse = |a: TexelArgs, says: &str| {
        let e = texel::run(&a).unwrap_err();
        assert!(format!("{e:#}").contains(says), "{e:#} should say {says}");
        assert!(!out.exists(), "nothing is written on an error");
    };
    // A file that is not there.
    refuse(
        args(vec![dir.path().join("missing.csv")], &out),
        "missing.csv",
    );
    // Games of another variant.
    refuse(
        args(vec![results("adrenaline/balance/games.csv")], &out),
        "is adrenaline, not chess",
    );
    // Too few games.
    let few = head(
        &results("chess/panel/ab-d2/games.csv"),
        MIN_GAMES - 1,
        dir.path(),
        "few.csv",
    );
    refuse(
        args(vec![few], &out),
        &format!("at least {MIN_GAMES} games"),
    );
    // A starting-weights file that is not weights.
    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, "knight = \"three\"\n").unwrap();
    refuse(
        TexelArgs {
            start: Some(broken),
            ..args(vec![results("chess/panel/ab-d2/games.csv")], &out)
        },
        "broken.toml: not eval weights",
    );
    // Not a games.csv at all.
    let junk = dir.path().join("junk.csv");
    std::fs::write(&junk, "hello,world\n").unwrap();
    refuse(args(vec![junk], &out), "not a chesslab games.csv header");
}

/// The class the Texel reader exposed: `values --from` replayed every game from the
/// variant's start, so games played from an opening suite did not replay. Both studies
/// now start each game from its recorded opening.
#[test]
fn values_reads_games_that_start_from_an_opening() {
    let dir = tempfile::tempdir().unwrap();
    let from = head(
        &results("chess/panel/ab-d2/games.csv"),
        150,
        dir.path(),
        "games.csv",
    );
    assert!(std::fs::read_to_string(&from)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .contains(",actions: "));
    let out = dir.path().join("out");
    values::run(&ValuesArgs {
        out: Some(out.clone()),
        bootstrap: 5,
        ..ValuesArgs::from_games("chess", from)
    })
    .unwrap();
    assert!(out.join("values.csv").exists());
}

fn tables_args(positions: &Path, out: &Path) -> TexelTablesArgs {
    TexelTablesArgs {
        positions: positions.to_path_buf(),
        start: None,
        out: out.to_path_buf(),
        force: false,
        mix: 0.0,
        lambda: 1e-4,
        steps: 4,
    }
}

/// The piece-square tables fitted to Stockfish's scores of the kept positions: the fit
/// brings the evaluation closer to the teacher on positions it did not see, and the file
/// it writes is weights whose `[tables]` `alphabeta:eval=FILE` plays with.
#[test]
fn texel_tables_fit_teacher_scores_and_write_tables_alphabeta_plays() {
    let dir = tempfile::tempdir().unwrap();
    // Every tenth position of the kept file: games of every source, not one player's.
    let text = std::fs::read_to_string(results("strength/texel/positions.csv")).unwrap();
    let mut lines = text.lines();
    let mut kept = vec![lines.next().unwrap()];
    kept.extend(lines.step_by(10));
    let positions = dir.path().join("p.csv");
    std::fs::write(&positions, kept.join("\n") + "\n").unwrap();
    let out = dir.path().join("tables.toml");
    let a = tables_args(&positions, &out);
    let f = texel_tables::fit(&a).unwrap();
    assert_eq!(f.train + f.held_out, kept.len() - 1);
    assert!(f.held_out > 400, "a fifth of the games is held out");
    assert!(f.train_loss.1 < f.train_loss.0);
    assert!(f.held_out_rms.1 < f.held_out_rms.0, "{:?}", f.held_out_rms);
    texel_tables::run(&a).unwrap();
    let w: agents::eval::EvalWeights =
        toml::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(w.tables, f.weights.tables);
    assert_ne!(
        w.tables.as_deref(),
        Some(&agents::eval::shape_fit::effective_shapes(
            agents::eval::search_weights()
        )),
        "the tables moved"
    );
    let spec = format!("alphabeta:depth=2,eval={}", out.display());
    let mut agent =
        agents::registry::build::<engine::variants::chess::Chess>(&spec).expect("builds");
    let game = engine::variants::chess::Chess::new(&Default::default());
    let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(1);
    let act = agent.act(&game, 0, &mut rng);
    let mut legal = Vec::new();
    game.legal_actions(0, &mut legal);
    assert!(legal.contains(&act));
}

#[test]
fn texel_tables_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tables.toml");
    let good = std::fs::read_to_string(results("strength/texel/positions.csv")).unwrap();
    let lines: Vec<&str> = good.lines().take(1500).collect();
    let refuse = |body: String, says: &str| {
        let p = dir.path().join("bad.csv");
        std::fs::write(&p, body).unwrap();
        let e = texel_tables::run(&tables_args(&p, &out)).unwrap_err();
        assert!(format!("{e:#}").contains(says), "{e:#} should say {says}");
        assert!(!out.exists(), "nothing is written on an error");
    };
    let with_line = |n: usize, replacement: &str| {
        let mut l = lines.clone();
        l[n] = replacement;
        l.join("\n") + "\n"
    };
    refuse(
        with_line(7, "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1,10,0.5,g"),
        "line 8: bad FEN",
    );
    refuse(
        with_line(9, "8/8/8/8/8/8/8/K6k w - - 0 1,ten,0.5,g"),
        "line 10: teacher_cp 'ten' is not a number",
    );
    refuse(
        with_line(9, "8/8/8/8/8/8/8/K6k w - - 0 1,10,2,g"),
        "line 10: result 2 is not White's score",
    );
    refuse(
        with_line(0, "fen,score,result,game"),
        "expected fen,teacher_cp,result,game",
    );
    refuse(lines[..100].join("\n") + "\n", "99 positions is too few");
    let e = texel_tables::run(&tables_args(&dir.path().join("missing.csv"), &out)).unwrap_err();
    assert!(format!("{e:#}").contains("missing.csv"), "{e:#}");
}
