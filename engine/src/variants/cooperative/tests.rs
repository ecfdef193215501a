//! One `rule_*` test per rule of RULES.md "Cooperative Chess" and per seed example, plus
//! bad input, parameters, undo and seeded random games.

use super::*;
use crate::game::{conformance, replay};
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn params() -> CooperativeParams {
    CooperativeParams::default()
}

fn setup(fen: &str, hands: [&str; 2], stacks: [&str; 2]) -> Cooperative {
    Cooperative::setup(&params(), fen, hands, stacks, "").unwrap()
}

fn play(g: &mut Cooperative, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("'{text}' in {:?}: {e}", g.phase()));
    if let Turn::Seat(s) = g.turn() {
        let mut legal = Vec::new();
        g.legal_actions(s, &mut legal);
        assert!(legal.contains(&a), "'{text}' parsed but is not legal");
    }
    g.apply(a);
}

fn plays(g: &mut Cooperative, texts: &str) {
    for t in texts.split_whitespace() {
        play(g, t);
    }
}

/// The legal actions of the seat to move, in notation, sorted.
fn legal(g: &Cooperative) -> Vec<String> {
    let Turn::Seat(s) = g.turn() else {
        return Vec::new();
    };
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    let mut t: Vec<String> = v.iter().map(|&a| g.action_notation(a)).collect();
    t.sort();
    t
}

/// The captures on offer (legal actions but `pass`).
fn captures(g: &Cooperative) -> Vec<String> {
    assert_eq!(g.phase(), Phase::Capture, "not in the capture phase");
    legal(g).into_iter().filter(|a| a != "pass").collect()
}

fn letters_of(cards: &[Card]) -> String {
    cards.iter().map(|c| c.letter()).collect()
}

// ----- the seed's worked examples -------------------------------------------------------

/// The position of the seed's examples (a reconstruction: the seed's diagrams are
/// pictures): Black's bishop on c8 can reach e6, from where White's pawns on d5 and c4
/// are a diagonal chain; a white queen stands on f3 and a knight on e2 behind d5.
const EXAMPLE: &str = "rnb1k3/ppp2ppp/8/3P4/2P3R1/5Q2/4N3/4K3 b - - 0 1";

#[test]
fn rule_seed_example_bishop_knight_king_hand() {
    // White's stack shows two pawn cards; Black holds a knight, a bishop and a king.
    let g0 = setup(EXAMPLE, ["PPN", "nbk"], ["pp", "P"]);
    // Bishop to e6, the bishop card, then both pawns.
    let mut g = g0.clone();
    plays(&mut g, "c8e6 card:b");
    assert_eq!(captures(&g), ["e6d5"]);
    play(&mut g, "e6d5");
    assert_eq!(captures(&g), ["d5c4"]);
    play(&mut g, "d5c4");
    assert_eq!(g.captured().len(), 2);
    assert!(g.stack(0).is_empty());
    assert_eq!(
        g.phase(),
        Phase::Draw,
        "no card left to match: the turn draws"
    );
    // The king cannot get close enough: no capture after a king step and the king card.
    let mut g = g0.clone();
    plays(&mut g, "e8d7 card:k");
    assert_eq!(g.phase(), Phase::Draw);
    assert!(g.captured().is_empty());
    // The knight card instead: now White may only capture black knights (whatever
    // White's card), and Black's knights may capture with it next turn.
    let g0 = setup(EXAMPLE, ["PPQ", "nbk"], ["pp", "P"]);
    let mut g = g0.clone();
    plays(&mut g, "pass card:n");
    assert_eq!(
        *g.stack(1).last().unwrap(),
        Card::new(Color::Black, Role::Knight)
    );
    plays(&mut g, "draw:P pass card:Q");
    let e = g.capture_match(Role::Queen, Role::Pawn).unwrap_err();
    assert!(e.contains("must be a knight"), "{e}");
    assert!(g.capture_match(Role::Queen, Role::Knight).is_ok());
}

#[test]
fn rule_seed_example_double_colour_match() {
    // White's pawn card on top is red (it matches the white pawn's colour), with a black
    // rook card under it and a red knight card under that.
    let g0 = setup(EXAMPLE, ["PPQ", "nbk"], ["NrP", "P"]);
    let mut g = g0.clone();
    plays(&mut g, "c8e6 card:b e6d5");
    // A black card captured a white pawn with a red card: the rook card is wild, so the
    // bishop may take the queen ("something bigger than a pawn") as well as the pawn.
    assert!(g.next_capture_wild());
    assert_eq!(captures(&g), ["d5c4", "d5f3"]);
    play(&mut g, "d5f3");
    // The wild capture used the black rook card on a white queen: no double match, so
    // the red knight card below must match exactly: the knight on e2, not the rook on g4.
    assert!(!g.next_capture_wild());
    assert_eq!(captures(&g), ["f3e2"]);
    assert_eq!(letters_of(g.captured()), "Pr");
    // "You might think black can only capture one pawn": with a red bishop card (no
    // colour match) the rook card is not wild and the chain stops after d5.
    let g1 = setup(EXAMPLE, ["PPQ", "nBk"], ["NrP", "P"]);
    let mut g = g1.clone();
    plays(&mut g, "c8e6 card:B e6d5");
    assert!(!g.next_capture_wild());
    assert_eq!(
        g.phase(),
        Phase::Draw,
        "no rook in reach: the chain is over"
    );
}

// ----- the rules ------------------------------------------------------------------------

#[test]
fn rule_deal_and_draw_are_chance_over_the_pile() {
    let mut g = Cooperative::new(&params());
    let mut out = Vec::new();
    for dealt in 0..6 {
        assert_eq!(g.turn(), Turn::Chance);
        g.chance_outcomes(&mut out);
        let total_p: f64 = out.iter().map(|o| o.1).sum();
        assert!((total_p - 1.0).abs() < 1e-12);
        // Probabilities are the kinds' shares of the pile.
        for &(a, p) in &out {
            let CoopAction::Draw(c) = a else {
                panic!("{a:?}")
            };
            let expect = g.pile()[c.index()] as f64 / g.pile_len() as f64;
            assert!((p - expect).abs() < 1e-12);
        }
        assert_eq!(g.pile_len(), 32 - dealt);
        // Deal pawns: White's hand fills first.
        play(&mut g, if dealt < 3 { "draw:P" } else { "draw:p" });
    }
    assert_eq!(total(&g.hand(0)), 3);
    assert_eq!(total(&g.hand(1)), 3);
    assert_eq!(g.hand(0)[Card::new(Color::White, Role::Pawn).index()], 3);
    assert_eq!(g.pile_len(), 26);
    assert_eq!(g.turn(), Turn::Seat(0));
    // After White's turn the pile refills White's hand.
    plays(&mut g, "e2e4 card:P");
    assert_eq!(g.turn(), Turn::Chance);
    play(&mut g, "draw:Q");
    assert_eq!(total(&g.hand(0)), 3);
    assert_eq!(g.hand(0)[Card::new(Color::White, Role::Queen).index()], 1);
    assert_eq!(g.turn(), Turn::Seat(1));
    assert!(
        g.parse_action("draw:Q").is_err(),
        "no drawing on a seat's turn"
    );
}

#[test]
fn rule_turn_order_quiet_card_captures_draw() {
    let mut g = setup(
        "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1",
        ["NPP", "ppp"],
        ["-", "p"],
    );
    assert_eq!(g.phase(), Phase::Quiet);
    // The quiet step offers non-captures only (no e3xd5) and `pass`.
    let quiet = legal(&g);
    assert!(quiet.contains(&"pass".to_string()));
    assert!(quiet.contains(&"e3c4".to_string()));
    assert!(!quiet.contains(&"e3d5".to_string()));
    assert!(quiet.iter().all(|a| !a.starts_with("card:")));
    play(&mut g, "pass");
    // The card step: only cards.
    assert_eq!(legal(&g), ["card:N", "card:P"]);
    play(&mut g, "card:N");
    assert_eq!(legal(&g), ["e3d5", "pass"]);
    play(&mut g, "e3d5");
    // Black's stack is empty now: the chain is over and the draw is due.
    assert_eq!(g.phase(), Phase::Draw);
    play(&mut g, "draw:B");
    assert_eq!(g.turn(), Turn::Seat(1));
    assert_eq!(g.phase(), Phase::Quiet);
}

#[test]
fn rule_card_must_come_from_the_hand() {
    let mut g = setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ["NBb", "ppp"], ["-", "-"]);
    play(&mut g, "pass");
    assert_eq!(legal(&g), ["card:B", "card:N", "card:b"]);
    let e = g.parse_action("card:q").unwrap_err().to_string();
    assert!(e.contains("not in your hand"), "{e}");
    let e = g.parse_action("card:x").unwrap_err().to_string();
    assert!(e.contains("not a card"), "{e}");
    play(&mut g, "card:b");
    assert_eq!(letters_of(g.stack(0)), "b");
    assert_eq!(letters(&g.hand(0)), "NB");
}

#[test]
fn rule_capture_chain_follows_the_partners_stack() {
    // Black's stack, top first: pawn, knight, pawn. The white queen matches the queen
    // card and follows the stack down.
    let mut g = setup(
        "4k3/8/8/2n5/8/p7/8/Q3K3 w - - 0 1",
        ["QPP", "ppp"],
        ["-", "pnp"],
    );
    plays(&mut g, "pass card:Q");
    assert_eq!(
        captures(&g),
        ["a1a3"],
        "the top card is a pawn: the pawn only"
    );
    play(&mut g, "a1a3");
    assert_eq!(captures(&g), ["a3c5"], "next card down: the knight");
    play(&mut g, "a3c5");
    // The captured cards left Black's stack in order.
    assert_eq!(letters_of(g.captured()), "pn");
    assert_eq!(letters_of(g.stack(1)), "p");
    // `pass` stops a chain early; undo gives the cards back.
    g.undo();
    g.undo();
    assert_eq!(letters_of(g.stack(1)), "pnp");
    assert!(g.captured().is_empty());
    play(&mut g, "a1a3");
    play(&mut g, "pass");
    assert_eq!(g.phase(), Phase::Draw);
}

#[test]
fn rule_cards_match_by_type_either_colour() {
    // A black knight card moves a white knight; a red pawn card names a black pawn.
    let mut g = setup(
        "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1",
        ["nPP", "ppp"],
        ["-", "P"],
    );
    plays(&mut g, "pass card:n");
    assert_eq!(captures(&g), ["e3d5"]);
}

#[test]
fn rule_one_piece_per_turn() {
    let fen = "4k3/8/5p2/3p1p2/8/4N1N1/8/4K3 w - - 0 1";
    // No quiet move: either knight may start, then only the capturing one continues.
    let mut g = setup(fen, ["NNP", "ppp"], ["-", "ppp"]);
    plays(&mut g, "pass card:N");
    assert_eq!(captures(&g), ["e3d5", "e3f5", "g3f5"]);
    play(&mut g, "e3d5");
    // The g3 knight could take f5, but the turn belongs to the d5 knight (f6 is its).
    assert_eq!(captures(&g), ["d5f6"]);
    // A quiet move picks the piece for the whole turn.
    let mut g = setup(fen, ["NNP", "ppp"], ["-", "ppp"]);
    plays(&mut g, "g3h5 card:N");
    assert_eq!(captures(&g), ["h5f6"]);
    // A quiet move by another type leaves nothing for the knight card.
    let mut g = setup(fen, ["NNP", "ppp"], ["-", "ppp"]);
    plays(&mut g, "e1d2 card:N");
    assert_eq!(g.phase(), Phase::Draw);
}

#[test]
fn rule_missing_type_is_wild() {
    // White has no queen: the queen card lets any white piece capture.
    let mut g = setup(
        "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1",
        ["QPP", "ppp"],
        ["-", "p"],
    );
    plays(&mut g, "pass card:Q");
    assert_eq!(captures(&g), ["e3d5"]);
    // Black has no queen: a queen card on top of Black's stack lets White capture any
    // black piece (the knight here, with the knight card).
    let mut g = setup(
        "4k3/8/8/3b4/8/4N3/8/4K3 w - - 0 1",
        ["NPP", "ppp"],
        ["-", "q"],
    );
    plays(&mut g, "pass card:N");
    assert_eq!(captures(&g), ["e3d5"]);
    // With a black queen on the board the queen card is not wild.
    let mut g = setup(
        "3qk3/8/8/3b4/8/4N3/8/4K3 w - - 0 1",
        ["NPP", "ppp"],
        ["-", "q"],
    );
    plays(&mut g, "pass card:N");
    assert_eq!(g.phase(), Phase::Draw);
}

#[test]
fn rule_double_colour_match_makes_the_next_capture_wild() {
    // Red knight card (white knight's colour) and a black pawn card under a black pawn:
    // the next card, a red rook, becomes wild for one capture only.
    // (A black rook stays on h8, so the rook card is not wild for a missing type.)
    let fen = "4k2r/8/2b5/3p4/1q6/4N3/8/4K3 w - - 0 1";
    let mut g = setup(fen, ["NPP", "ppp"], ["-", "bRp"]);
    plays(&mut g, "pass card:N");
    play(&mut g, "e3d5");
    assert!(g.next_capture_wild());
    // Any black piece the knight reaches: bishop... the queen on b4 too.
    assert_eq!(captures(&g), ["d5b4"]);
    play(&mut g, "d5b4");
    // The rook card was red on a black queen: no new match; the bishop card is exact.
    assert!(!g.next_capture_wild());
    assert_eq!(captures(&g), ["b4c6"]);
    // A black knight card (wrong colour for the white capturer): nothing wild.
    let mut g = setup(fen, ["nPP", "ppp"], ["-", "bRp"]);
    plays(&mut g, "pass card:n e3d5");
    assert!(!g.next_capture_wild());
    assert_eq!(g.phase(), Phase::Draw);
    // A red pawn card on Black's stack (wrong colour for the black victim): nothing wild.
    let mut g = setup(fen, ["NPP", "ppp"], ["-", "bRP"]);
    plays(&mut g, "pass card:N e3d5");
    assert!(!g.next_capture_wild());
}

#[test]
fn rule_castling_ignores_attacks() {
    // The black rook on f8 attacks f1, which the king crosses; the king is then the
    // turn's piece and may capture with the king card.
    let mut g = setup(
        "5r1k/8/8/8/8/8/7r/4K2R w K - 0 1",
        ["KPP", "ppp"],
        ["-", "r"],
    );
    assert!(legal(&g).contains(&"e1g1".to_string()));
    plays(&mut g, "e1g1 card:K");
    assert_eq!(
        g.board_ref()
            .piece_at(Square::parse("f1").unwrap())
            .unwrap()
            .role,
        Role::Rook
    );
    assert_eq!(captures(&g), ["g1h2"]);
}

#[test]
fn rule_kings_may_move_into_check() {
    let g = setup("3rk3/8/8/8/8/8/8/4K3 w - - 0 1", ["KPP", "ppp"], ["-", "-"]);
    let l = legal(&g);
    assert!(l.contains(&"e1d1".to_string()), "into the rook's file");
    assert!(l.contains(&"e1d2".to_string()));
    // A king left in check may make any move.
    let g = setup(
        "4k3/8/8/8/8/8/8/r3K2N w - - 0 1",
        ["NPP", "ppp"],
        ["-", "-"],
    );
    assert!(legal(&g).contains(&"h1g3".to_string()));
}

#[test]
fn rule_en_passant_right_after_the_partners_double_step() {
    let fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let start = setup(fen, ["PPP", "ppp"], ["-", "p"]);
    let mut g = start.clone();
    // White double-steps and plays a pawn card (Black's top card is a pawn, but the
    // e-pawn attacks nothing).
    plays(&mut g, "e2e4 card:P draw:N");
    // Black at once: no quiet move, pawn card, d4xe3 en passant.
    plays(&mut g, "pass card:p");
    assert_eq!(captures(&g), ["d4e3"]);
    play(&mut g, "d4e3");
    assert!(g
        .board_ref()
        .piece_at(Square::parse("e4").unwrap())
        .is_none());
    // After a quiet move the chance is gone.
    let mut g = start.clone();
    plays(&mut g, "e2e4 card:P draw:N e8d8 card:p");
    assert_eq!(g.phase(), Phase::Draw);
    // And a turn later it is gone too.
    let mut g = start.clone();
    plays(&mut g, "e2e4 card:P draw:N pass card:p");
    play(&mut g, "pass");
    plays(&mut g, "draw:n pass card:P draw:N pass card:p");
    assert_eq!(g.phase(), Phase::Draw, "{:?}", legal(&g));
}

#[test]
fn rule_promoted_pawn_continues_as_its_new_type() {
    // b7xa8=Q takes the rook (red rook card), then the red knight card below names the
    // knight on a5. The queen continues the chain as a queen: she matches the pawn card
    // only because White has no pawn left (the pawn card is then wild).
    let mut g = setup(
        "r3k3/1P6/8/n7/8/8/8/4K3 w - - 0 1",
        ["PQN", "ppp"],
        ["-", "NR"],
    );
    plays(&mut g, "pass card:P");
    assert_eq!(captures(&g), ["b7a8b", "b7a8n", "b7a8q", "b7a8r"]);
    play(&mut g, "b7a8q");
    assert_eq!(captures(&g), ["a8a5"]);
    // With another white pawn on the board the pawn card is not wild: the chain stops.
    let mut g = setup(
        "r3k3/1P6/8/n7/8/8/7P/4K3 w - - 0 1",
        ["PQN", "ppp"],
        ["-", "NR"],
    );
    plays(&mut g, "pass card:P b7a8q");
    assert_eq!(g.phase(), Phase::Draw);
    // A quiet promotion is a quiet move.
    let g = setup(
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        ["PQN", "ppp"],
        ["-", "NR"],
    );
    assert!(legal(&g).contains(&"b7b8n".to_string()));
}

#[test]
fn rule_score_counts_types_gone_from_both_colours() {
    // Knights, bishops and rooks are gone from both sides; pawns (black), queens (white)
    // and a king stay: 3 points.
    let mut g = setup(
        "4k3/8/8/8/8/8/p7/4QK2 w - - 0 1",
        ["QPP", "ppp"],
        ["-", "k"],
    );
    plays(&mut g, "pass card:Q e1e8");
    assert_eq!(g.turn(), Turn::Terminal);
    let r = g.result().unwrap();
    assert_eq!(r.reason, "king-captured");
    assert_eq!(g.end(), Some(End::KingCaptured(3)));
    let v = 2.0 * 3.0 / 5.0 - 1.0;
    assert_eq!(r.returns[0], v);
    assert_eq!(r.returns[1], v, "both seats score the same");
    let tally = |n: &str| g.tallies().into_iter().find(|t| t.0 == n).unwrap().1;
    assert_eq!(tally("score"), 3.0);
    assert_eq!(tally("king_captured"), 1.0);
    // A black knight left on the board keeps the knight type alive: 2 points.
    let mut g = setup(
        "4k3/8/8/8/8/8/p6n/4QK2 w - - 0 1",
        ["QPP", "ppp"],
        ["-", "k"],
    );
    plays(&mut g, "pass card:Q e1e8");
    assert_eq!(g.end(), Some(End::KingCaptured(2)));
}

#[test]
fn rule_out_of_cards_is_a_loss() {
    // A two-card deck and one-card hands: each seat plays its one card, then White
    // holds none.
    let mut p = params();
    p.hand_size = 1;
    p.deck.red = TypeCounts {
        pawn: 1,
        knight: 0,
        bishop: 0,
        rook: 0,
        queen: 0,
        king: 0,
    };
    p.deck.black = p.deck.red;
    p.validate().unwrap();
    let mut g = Cooperative::new(&p);
    plays(&mut g, "draw:P draw:p pass card:P pass card:p");
    assert_eq!(g.turn(), Turn::Terminal);
    let r = g.result().unwrap();
    assert_eq!(r.reason, "out-of-cards");
    assert_eq!(r.returns[..2], [-1.0, -1.0]);
    assert_eq!(g.tallies()[0], ("score".to_string(), 0.0));
}

// ----- bad input, parameters, the API ----------------------------------------------------

#[test]
fn bad_input_gives_clear_errors() {
    let mut g = setup(EXAMPLE, ["PPN", "nbk"], ["pp", "P"]);
    let msg = |g: &Cooperative, t: &str| g.parse_action(t).unwrap_err().to_string();
    assert!(msg(&g, "card:b").contains("after the quiet move"));
    assert!(msg(&g, "c8a6").contains("not a legal non-capturing move"));
    assert!(msg(&g, "draw:P").contains("not a legal"));
    play(&mut g, "c8e6");
    assert!(msg(&g, "card:q").contains("not in your hand"));
    assert!(msg(&g, "e6d5").contains("card must be played"));
    play(&mut g, "card:b");
    // An illegal chain: another piece than the one that moved, a victim of the wrong
    // type, a square not attacked, garbage.
    let m = msg(&g, "b7b6");
    assert!(m.contains("one piece"), "{m}");
    let m = msg(&g, "e6g4");
    assert!(m.contains("must be a pawn"), "{m}");
    let m = msg(&g, "e6c4");
    assert!(m.contains("does not attack"), "{m}");
    let m = msg(&g, "zz");
    assert!(m.contains("UCI"), "{m}");
    assert!(msg(&g, "card:n").contains("one card a turn"));
    play(&mut g, "e6d5");
    play(&mut g, "d5c4");
    let m = msg(&g, "draw:k");
    assert!(m.contains("no black king card is left"), "{m}");
    let e = Cooperative::setup(&params(), EXAMPLE, ["QQQ", "-"], ["-", "-"], "").unwrap_err();
    assert!(format!("{e:?}").contains("more than 3") || format!("{e:?}").contains("deck"));
}

#[test]
fn parameters_are_validated() {
    let mut p = params();
    assert!(p.validate().is_ok());
    p.hand_size = 0;
    assert!(p.validate().unwrap_err().field == "hand_size");
    p.hand_size = 17;
    assert!(p.validate().is_err());
    p.hand_size = 3;
    p.deck.red.pawn = 17;
    assert!(p.validate().unwrap_err().field.starts_with("deck.red"));
    p.deck.red = TypeCounts {
        pawn: 1,
        knight: 0,
        bishop: 0,
        rook: 0,
        queen: 0,
        king: 0,
    };
    p.deck.black = p.deck.red;
    assert_eq!(p.validate().unwrap_err().field, "deck");
    let p: CooperativeParams = toml::from_str("hand_size = 4\n[deck.red]\npawn = 6\nknight = 2\nbishop = 2\nrook = 2\nqueen = 1\nking = 1\n").unwrap();
    assert_eq!(p.hand_size, 4);
    assert_eq!(total(&p.deck.counts()), 30);
    assert!(toml::from_str::<CooperativeParams>("hands = 4").is_err());
}

#[test]
fn hand_size_is_a_parameter() {
    for n in [2u8, 4] {
        let mut p = params();
        p.hand_size = n;
        let mut g = Cooperative::new(&p);
        let mut out = Vec::new();
        while g.turn() == Turn::Chance {
            g.chance_outcomes(&mut out);
            g.apply(out[0].0);
        }
        assert_eq!(total(&g.hand(0)), n as u32);
        assert_eq!(total(&g.hand(1)), n as u32);
        assert_eq!(g.pile_len(), 32 - 2 * n as u32);
    }
}

#[test]
fn conformance() {
    conformance::check(&Cooperative::new(&params()), 30, 5);
}

/// Plays a random game from `seed`, returning the record.
fn random_game(seed: u64) -> (Cooperative, Vec<String>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut g = Cooperative::new(&params());
    let mut record = Vec::new();
    let mut actions = Vec::new();
    let mut chance = Vec::new();
    loop {
        let a = match g.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                g.chance_outcomes(&mut chance);
                chance[crate::random::sample_index(&chance, &mut rng)].0
            }
            Turn::Seat(s) => {
                g.legal_actions(s, &mut actions);
                actions[rng.gen_range(0..actions.len())]
            }
            Turn::Simultaneous => unreachable!(),
        };
        record.push(g.action_notation(a));
        g.apply(a);
    }
    (g, record)
}

#[test]
fn seeded_random_games_replay_and_end_within_the_deck() {
    let mut captures = 0.0;
    for seed in 0..60 {
        let (g, record) = random_game(seed);
        let (again, record2) = random_game(seed);
        assert_eq!(record, record2, "same seed, same game");
        assert_eq!(again.state_key(), g.state_key());
        let refs: Vec<&str> = record.iter().map(String::as_str).collect();
        let r = replay(Cooperative::new(&params()), &refs).unwrap();
        assert_eq!(r.state_key(), g.state_key());
        let turns = g.tallies().iter().find(|t| t.0 == "turns").unwrap().1;
        assert!(turns <= 32.0, "one card a turn: {turns}");
        let reason = g.result().unwrap().reason;
        assert!(
            ["king-captured", "out-of-cards"].contains(&reason),
            "{reason}"
        );
        captures += g.tallies().iter().find(|t| t.0 == "captures").unwrap().1;
        if reason != "king-captured" {
            assert_eq!(turns, 32.0, "a loss only once all 32 cards are played");
        }
        assert_eq!(g.returns()[0], g.returns()[1]);
    }
    assert!(
        captures > 20.0,
        "random play captures now and then ({captures})"
    );
}

#[test]
fn undo_restores_everything() {
    let (mut g, record) = random_game(3);
    let mut keys = Vec::new();
    let mut h = Cooperative::new(&params());
    for t in &record {
        keys.push((h.state_key(), h.information_key(0), h.information_key(1)));
        play(&mut h, t);
    }
    for k in keys.iter().rev() {
        g.undo();
        assert_eq!(
            (g.state_key(), g.information_key(0), g.information_key(1)),
            *k
        );
    }
    assert_eq!(total(&g.pile()), 32);
}

#[test]
fn facts_declare_a_cooperative_hidden_information_game() {
    let g = Cooperative::new(&params());
    let f = g.facts();
    assert_eq!(f.utility, Utility::Identical);
    assert_eq!(f.information, crate::game::Information::Imperfect);
    assert_eq!(f.chance, crate::game::ChanceMode::Explicit);
    assert_eq!(g.team(0), g.team(1), "one team");
}
