//! Chess Golf rules against the published cases in `tests/data/golf/designer-movegen-cases.txt`
//! (designer's program semantics: `king_step = no-borrowed-move`, set-up from a8), plus one
//! named test per Chess Golf rule of RULES.md.

use engine::variants::golf::{
    FillOrder, GolfMove, GolfParams, GolfPosition, KindCounts, KingStep, SetupGaps,
};
use engine::{Piece, Role, Square};
use std::collections::BTreeSet;

const CASES: &str = include_str!("data/golf/designer-movegen-cases.txt");

/// One block of the data file.
#[derive(Default, Debug)]
struct Case {
    name: String,
    board: Vec<String>,
    fields: Vec<(String, String)>,
    after: Vec<String>,
}

impl Case {
    fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for block in text.split("\n\n") {
        let mut case = Case::default();
        let mut lines = block.lines().peekable();
        let mut any = false;
        while let Some(line) = lines.next() {
            let line = line.trim();
            if let Some(name) = line.strip_prefix("# name:") {
                case.name = name.trim().to_string();
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("bad line {line:?} in case {}", case.name));
            any = true;
            match key {
                "board" | "after" => {
                    let rows: Vec<String> = (0..8)
                        .map(|_| lines.next().expect("8 rows").trim().to_string())
                        .collect();
                    if key == "board" {
                        case.board = rows;
                    } else {
                        case.after = rows;
                    }
                }
                _ => case
                    .fields
                    .push((key.to_string(), value.trim().to_string())),
            }
        }
        if any {
            cases.push(case);
        }
    }
    cases
}

/// The position of a case, built through the engine's own text parser.
fn position(case: &Case) -> GolfPosition {
    let mut text = case.board.join("\n");
    for key in ["chosen", "taking", "taken"] {
        if let Some(v) = case.get(key) {
            text.push_str(&format!("\n{key}: {v}"));
        }
    }
    GolfPosition::parse_text(&text).unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

fn board_of(rows: &[String]) -> GolfPosition {
    GolfPosition::parse_text(&rows.join("\n")).expect("board parses")
}

fn designer() -> GolfParams {
    GolfParams::designer()
}

fn yes_no(v: &str) -> bool {
    match v {
        "yes" => true,
        "no" => false,
        _ => panic!("expected yes/no, got {v:?}"),
    }
}

fn multiset(v: &str) -> KindCounts {
    KindCounts::parse(v).expect("kinds parse")
}

fn move_set(v: &str) -> BTreeSet<String> {
    v.split_whitespace().map(str::to_string).collect()
}

fn sq(s: &str) -> Square {
    Square::parse(s).expect("square")
}

fn mv(s: &str) -> GolfMove {
    GolfMove::parse(s).expect("move")
}

fn pos(text: &str) -> GolfPosition {
    GolfPosition::parse_text(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn moves_of(p: &GolfPosition, params: &GolfParams) -> BTreeSet<String> {
    p.legal_moves(params)
        .iter()
        .map(|m| m.to_string())
        .collect()
}

fn moves_from(p: &GolfPosition, params: &GolfParams, from: &str) -> BTreeSet<String> {
    moves_of(p, params)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn every_published_case() {
    let cases = parse_cases(CASES);
    assert!(cases.len() >= 48, "only {} cases parsed", cases.len());
    let params = designer();
    let mut checked = BTreeSet::new();
    let mut counts = std::collections::BTreeMap::new();
    for case in &cases {
        let name = &case.name;
        if let Some(deck) = case.get("deck") {
            let deck: Vec<Piece> = deck
                .chars()
                .map(|c| Piece::from_char(c).expect("deck letter"))
                .collect();
            let laid =
                GolfPosition::setup(&deck, &SetupGaps::default(), FillOrder::FromA8).unwrap();
            assert_eq!(laid, board_of(&case.board), "{name}: set-up");
            // The printed rules' order is the vertical mirror of the designer's.
            let seed =
                GolfPosition::setup(&deck, &SetupGaps::default(), FillOrder::FromA1).expect("fits");
            for (s, p) in laid.pieces() {
                assert_eq!(seed.piece_at(s.flip_rank()), Some(p), "{name}: mirror");
            }
            checked.insert("deck");
            *counts.entry("deck").or_insert(0) += 1;
            continue;
        }
        let p = position(case);
        // The text format round-trips.
        assert_eq!(GolfPosition::parse_text(&p.to_text()).unwrap(), p, "{name}");
        assert_eq!(GolfPosition::parse_fen(&p.to_fen()).unwrap(), p, "{name}");
        if let Some(v) = case.get("solved") {
            assert_eq!(p.is_solved(), yes_no(v), "{name}: solved");
            checked.insert("solved");
            *counts.entry("solved").or_insert(0) += 1;
        }
        if let Some(v) = case.get("moves") {
            let got = moves_of(&p, &params);
            let want = move_set(v);
            assert_eq!(
                got,
                want,
                "{name}: moves\nmissing {:?}\nextra {:?}",
                want.difference(&got).collect::<Vec<_>>(),
                got.difference(&want).collect::<Vec<_>>()
            );
            checked.insert("moves");
            *counts.entry("moves").or_insert(0) += 1;
        }
        if let Some(v) = case.get("apply") {
            let after = p.try_apply(mv(v)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(after.board_only(), board_of(&case.after), "{name}: after");
            let want_taking = case.get("after_taking").expect("after_taking");
            let want_taking = (want_taking != "-").then(|| sq(want_taking));
            assert_eq!(after.taking(), want_taking, "{name}: after_taking");
            let want_taken = case.get("after_taken").expect("after_taken");
            assert_eq!(after.taken(), multiset(want_taken), "{name}: after_taken");
            let want_solved = yes_no(case.get("after_solved").expect("after_solved"));
            assert_eq!(after.is_solved(), want_solved, "{name}: after_solved");
            checked.insert("apply");
            *counts.entry("apply").or_insert(0) += 1;
        }
        if let Some(of) = case.get("neighbours_of") {
            let want: BTreeSet<Role> = case
                .get("neighbour_types")
                .expect("neighbour_types")
                .split_whitespace()
                .map(|t| Role::from_char(t.chars().next().unwrap()).unwrap())
                .collect();
            let got: BTreeSet<Role> = p.neighbour_types(sq(of)).into_iter().collect();
            assert_eq!(got, want, "{name}: neighbour types");
            checked.insert("neighbours");
            *counts.entry("neighbours").or_insert(0) += 1;
        }
    }
    assert_eq!(
        checked,
        ["deck", "solved", "moves", "apply", "neighbours"]
            .into_iter()
            .collect(),
        "every kind of check ran"
    );
    // As many checks as the file has keys.
    let keys = |k: &str| CASES.lines().filter(|l| l.starts_with(k)).count();
    assert_eq!(counts["deck"], keys("deck:"));
    assert_eq!(counts["solved"], keys("solved:"));
    assert_eq!(counts["moves"], keys("moves:"));
    assert_eq!(counts["apply"], keys("apply:"));
    assert_eq!(counts["neighbours"], keys("neighbours_of:"));
}

// ---------------------------------------------------------------------------------------
// One test per rule (RULES.md, "Chess Golf").
// ---------------------------------------------------------------------------------------

fn both() -> [GolfParams; 2] {
    [
        GolfParams::default(),
        GolfParams {
            king_step: KingStep::NoBorrowedMove,
            ..GolfParams::default()
        },
    ]
}

/// A piece moves with the movement of each distinct kind among its same-colour neighbours;
/// neighbours of the other colour lend nothing.
#[test]
fn rule_borrowing_from_same_colour_neighbours() {
    // White bishop d4 with a white knight on e5 and a black rook on c4.
    let p = pos("........\n........\n........\n....N...\n..rB....\n........\n........\nK.......");
    for params in both() {
        let got = moves_from(&p, &params, "d4");
        let want = set(&[
            "d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5",
        ]);
        assert_eq!(got, want, "{:?}", params.king_step);
    }
    // The intro example: the bishop on e5 moves only like a knight (its only black
    // neighbour is the knight d6), the white king h2 and the black bishop a2 cannot move.
    let intro = pos(". . B . . . R .\n. . . . . k . .\n. r . n . N . .\n. r . . b . . .\nR . . . . . q .\n. B . n . N . .\nb . . . . . . K\n. . . . . Q . .\nchosen: Kb");
    assert_eq!(
        moves_from(&intro, &designer(), "e5"),
        set(&["e5c4", "e5c6", "e5d7", "e5g6"])
    );
    assert!(moves_from(&intro, &designer(), "h2").is_empty());
    assert!(moves_from(&intro, &designer(), "a2").is_empty());
}

/// A piece never moves like its own kind unless a neighbour is of that kind too.
#[test]
fn rule_no_own_type_unless_a_neighbour_has_it() {
    // Lone white rook pair: a rook next to a knight moves only like a knight.
    let p = pos("........\n........\n........\n........\n...RN...\n........\n........\n.......k");
    let params = GolfParams::default();
    let rook = moves_from(&p, &params, "d4");
    assert!(rook.iter().all(|m| {
        let m = mv(m);
        let df = (m.from.file() as i8 - m.to.file() as i8).abs();
        let dr = (m.from.rank() as i8 - m.to.rank() as i8).abs();
        df * dr == 2
    }));
    assert_eq!(rook.len(), 8);
    // With a second rook adjacent it also slides.
    let p2 = pos("........\n........\n........\n...R....\n...RN...\n........\n........\n.......k");
    assert!(moves_from(&p2, &params, "d4").contains("d4a4"));
    assert!(moves_from(&p2, &params, "d4").contains("d4d1"));
}

/// A borrowed king move is a single step.
#[test]
fn rule_borrowed_king_move_is_one_step() {
    let p = pos("........\n........\n........\n........\n...QK...\n........\n........\n.......k");
    let params = GolfParams::default();
    let queen = moves_from(&p, &params, "d4");
    assert_eq!(
        queen,
        set(&["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e5"])
    );
}

/// Sliding moves stop at the first occupied square, of either colour.
#[test]
fn rule_sliding_stops_at_first_occupied_square() {
    // The white bishop c1 borrows the queen d1: it slides up the c-file until the black
    // knight c4 (which it may not capture) and along the first rank until its own queen.
    let p = pos("........\n........\n........\n........\n..n.....\n........\n........\n..BQ..K.\nchosen: Bb");
    let params = GolfParams::default();
    let got = moves_from(&p, &params, "c1");
    // Along c-file: c2, c3 (c4 blocked by a black knight which is not capturable).
    assert!(got.contains("c1c2") && got.contains("c1c3"));
    assert!(!got.contains("c1c4") && !got.contains("c1c5"));
    // Along the first rank to the left: b1, a1; to the right d1 is occupied (own queen).
    assert!(got.contains("c1b1") && got.contains("c1a1"));
    assert!(!got.contains("c1e1") && !got.contains("c1f1"));
    // The queen d1 borrows only the bishop c1 (the king g1 is not adjacent): diagonals.
    let q = moves_from(&p, &params, "d1");
    assert!(q.contains("d1h5") && q.contains("d1a4"));
    assert!(!q.contains("d1e1"));
}

/// King steps: seed rule (no adjacent pair) and designer rule (no borrowed move); they
/// differ when a colour has adjacent pairs but every one of their moves is blocked.
#[test]
fn rule_king_step_both_parameter_values() {
    // Black has no adjacent pair: every black piece steps like a king under both rules.
    let lone =
        pos("n.......\n........\n........\n...b....\n........\n........\n........\nNR......");
    for params in both() {
        let got = moves_from(&lone, &params, "d5");
        assert_eq!(got.len(), 8, "{:?}", params.king_step);
        assert_eq!(moves_from(&lone, &params, "a8").len(), 3);
    }
    // White's only pair, the knights a1 and b1, is blocked: their knight destinations
    // (b3, c2, a3, c3, d2) hold black pieces that may not be captured.
    let blocked =
        pos("........\n........\n........\n........\n........\nnbr.....\n..qr....\nNN......");
    let seed = GolfParams::default();
    let designer = GolfParams {
        king_step: KingStep::NoBorrowedMove,
        ..GolfParams::default()
    };
    // Seed: white has an adjacent pair, so no king steps, and no borrowed move: no moves.
    assert!(moves_from(&blocked, &seed, "a1").is_empty());
    assert!(moves_from(&blocked, &seed, "b1").is_empty());
    // Designer: no borrowed move, so king steps: a1-a2 and b1-b2.
    assert_eq!(
        moves_from(&blocked, &designer, "a1"),
        set(&["a1a2", "a1b2"])
    );
    assert_eq!(
        moves_from(&blocked, &designer, "b1"),
        set(&["b1a2", "b1b2", "b1c1"])
    );
    assert!(blocked.has_king_steps(KingStep::NoBorrowedMove, engine::Color::White));
    assert!(!blocked.has_king_steps(KingStep::NoAdjacentPair, engine::Color::White));
    // The published special-move example: after b6c6 white has no pair, and the knight
    // f6 captures the queen g5 with a king step (both rules).
    let special = pos(". . . . . Q . .\nb . . . . . . K\n. . B n . N . .\nR . . . . . q .\n. r . . b . . .\n. r . n . N . .\n. . . . . k . .\n. . B . . . R .\nchosen: Nq");
    for params in both() {
        assert!(special.is_legal(mv("f6g5"), &params));
    }
}

/// Two cards: only chosen kinds capture, only an owed kind, never the mover's own kind
/// unless it was chosen twice; colour otherwise irrelevant.
#[test]
fn rule_capture_with_two_cards() {
    // White bishop d4 borrows a white queen (e4); black bishop on d6, black knight d2,
    // white bishop on f6 (adjacent diagonal line d4-e5-f6).
    let base = "........\n........\n...b.B..\n........\n...BQ...\n........\n...n....\n.......k";
    let params = GolfParams::default();
    let bb = pos(&format!("{base}\nchosen: Bb"));
    let m = moves_from(&bb, &params, "d4");
    assert!(m.contains("d4d6"), "B takes b");
    assert!(
        !m.contains("d4f6"),
        "B may not take B with only one B chosen"
    );
    assert!(!m.contains("d4d2"), "n is not chosen");
    let two_white = pos(&format!("{base}\nchosen: BB"));
    let m = moves_from(&two_white, &params, "d4");
    assert!(m.contains("d4f6"), "B takes B when B is chosen twice");
    assert!(!m.contains("d4d6"), "b not chosen");
    let other = pos(&format!("{base}\nchosen: nb"));
    let m = moves_from(&other, &params, "d4");
    assert!(
        !m.contains("d4d6") && !m.contains("d4d2"),
        "a non-chosen piece never captures"
    );
    // Same-colour capture: with bb one black bishop takes the other.
    let same = pos("........\n........\n..q.....\n...b....\n........\n.b......\n........\nK.......\nchosen: bb");
    assert!(moves_from(&same, &params, "d5").contains("d5b3"));
}

/// Three or more cards: any chosen piece may make the first capture; after it only the
/// capturing piece (`taking`) may capture, and only kinds still owed.
#[test]
fn rule_capture_with_three_cards() {
    let base = "........\n..K.....\n...B....\n..N.N...\n...R....\n........\n........\nk......n";
    let params = GolfParams::default();
    let p = pos(&format!("{base}\nchosen: BNN"));
    // Before the first capture any chosen piece may take any other owed kind: the knight
    // c5 takes the bishop d6 (a diagonal step borrowed from it), the bishop d6 takes the
    // knight c5 (a king step borrowed from c7), the knight e5 takes the knight c5 (the
    // rook move borrowed from d4); the bishop never takes a bishop (only one chosen).
    assert!(p.is_legal(mv("c5d6"), &params));
    assert!(p.is_legal(mv("d6c5"), &params));
    assert!(p.is_legal(mv("e5c5"), &params));
    let after = p.play(mv("e5c5"), &params).unwrap();
    assert_eq!(after.taking(), Some(sq("c5")));
    assert_eq!(after.taken(), multiset("N"));
    assert!(!after.is_solved(), "B still owed");
    // Now only the knight on c5 may capture: it takes the bishop d6 (a diagonal step
    // borrowed from the bishop itself); the bishop may no longer take it.
    assert!(after.is_legal(mv("c5d6"), &params));
    assert!(!after.is_legal(mv("d6c5"), &params));
    for m in after.legal_moves(&params) {
        if after.piece_at(m.to).is_some() {
            assert_eq!(m.from, sq("c5"), "{m}");
        }
    }
    let done = after.play(mv("c5d6"), &params).unwrap();
    assert!(done.is_solved());
    assert_eq!(done.taken(), multiset("NB"));
}

/// `taking` follows the capturing piece when it moves.
#[test]
fn rule_taking_follows_the_piece() {
    let p = pos("........\n........\n........\n........\n........\nR.......\nB.......\nb......k\nchosen: Bbq\ntaken: q\ntaking: a2");
    let params = GolfParams::default();
    let moved = p.play(mv("a2b2"), &params).unwrap();
    assert_eq!(moved.taking(), Some(sq("b2")));
    // Another piece moving leaves the mark where it is.
    let q = pos("........\n........\n........\n........\n........\nR.......\nB.......\nb......k\nchosen: Bbq\ntaken: q\ntaking: a2");
    let moved = q.play(mv("a3b4"), &params).unwrap();
    assert_eq!(moved.taking(), Some(sq("a2")));
}

/// Solved when (chosen minus taken) sums to at most one.
#[test]
fn rule_solved_condition() {
    let board = "........\n........\n........\n........\n........\n........\nB.......\nb......k";
    assert!(pos(board).is_solved(), "nothing chosen");
    assert!(!pos(&format!("{board}\nchosen: Bb")).is_solved());
    assert!(pos(&format!("{board}\nchosen: Bb\ntaken: b\ntaking: a2")).is_solved());
    assert!(!pos(&format!("{board}\nchosen: Bbq\ntaken: b\ntaking: a2")).is_solved());
    assert!(pos(&format!("{board}\nchosen: Bbq\ntaken: bq\ntaking: a2")).is_solved());
    // Taking something not owed does not help (taken clamps per kind).
    assert!(!pos(&format!("{board}\nchosen: Bbq\ntaken: bb\ntaking: a2")).is_solved());
}

/// Set-up: pieces laid out from a1 (seed) or a8 (designer), gaps N 1, B 2, R 3, Q 5, K 6.
#[test]
fn rule_setup_gaps() {
    let deck: Vec<Piece> = "NBRQKnbrqkNBRnbr"
        .chars()
        .map(|c| Piece::from_char(c).unwrap())
        .collect();
    let p = GolfPosition::setup(&deck, &SetupGaps::default(), FillOrder::FromA1).unwrap();
    // Linear squares: N at 1, B at 4, R at 8, Q at 14, K at 21, n at 23, ...
    let expect = [
        (1, 'N'),
        (4, 'B'),
        (8, 'R'),
        (14, 'Q'),
        (21, 'K'),
        (23, 'n'),
        (26, 'b'),
        (30, 'r'),
        (36, 'q'),
        (43, 'k'),
    ];
    for (i, c) in expect {
        assert_eq!(
            p.piece_at(Square::new(i)).map(|p| p.char()),
            Some(c),
            "square {i}"
        );
    }
    assert_eq!(p.piece_count(), 16);
    let top = GolfPosition::setup(&deck, &SetupGaps::default(), FillOrder::FromA8).unwrap();
    assert_eq!(top.piece_at(sq("b8")).map(|p| p.char()), Some('N'));
    assert_eq!(top.piece_at(sq("e8")).map(|p| p.char()), Some('B'));
    assert_eq!(top.piece_at(sq("a7")).map(|p| p.char()), Some('R'));
    // Custom gaps are parameters; too large gaps are an error, not a panic.
    let huge = SetupGaps {
        king: 40,
        ..SetupGaps::default()
    };
    assert!(GolfPosition::setup(&deck, &huge, FillOrder::FromA1).is_err());
    // The random set-up always places all 16 pieces.
    let mut rng = rand_pcg::Pcg64::new(3, 5);
    for _ in 0..50 {
        let p = GolfPosition::random_setup(&mut rng, &GolfParams::default());
        assert_eq!(p.piece_count(), 16);
    }
}

#[test]
fn apply_errors_are_values_not_panics() {
    let p = pos("........\n........\n........\n........\n........\n........\n........\n....K...");
    assert!(p.try_apply(mv("a1a2")).is_err());
    assert!(p.try_apply(mv("e1e1")).is_err());
    assert!(p.play(mv("e1c1"), &GolfParams::default()).is_err());
    // No castling: e1c1 just relocates the king when applied unchecked.
    let moved = p.try_apply(mv("e1c1")).unwrap();
    assert_eq!(moved.piece_at(sq("c1")).map(|p| p.char()), Some('K'));
}

/// Parameters out of range are refused, not replaced by the seed's values: gaps that do
/// not let 16 pieces fit 64 squares, a card count `deal` cannot deal, a round of no holes.
#[test]
fn rule_golf_params_ranges() {
    use engine::game::VariantParams;
    assert!(GolfParams::default().validate().is_ok());
    let p = |t: &str| GolfParams::from_toml_str(t).unwrap().validate();
    let e = p("[setup_gaps]\nknight = 255\n").unwrap_err();
    assert_eq!(e.field, "setup_gaps");
    // The seed's gaps take 62 squares: two more still fit, three do not.
    assert!(p("[setup_gaps]\nking = 7\n").is_ok());
    assert!(p("[setup_gaps]\nking = 8\n").is_err());
    assert_eq!(p("cards = 1\n").unwrap_err().field, "cards");
    assert_eq!(p("cards = 17\n").unwrap_err().field, "cards");
    assert!(p("cards = 16\n").is_ok());
    assert_eq!(p("holes = 0\n").unwrap_err().field, "holes");
}
