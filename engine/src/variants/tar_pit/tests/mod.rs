use super::*;
use crate::game::{conformance, replay};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn squares(list: &str) -> Bitboard {
    list.split_whitespace().map(sq).collect()
}

fn hand(letters: &str) -> Counts {
    let mut c = [0; KINDS];
    for ch in letters.chars() {
        c[Card::from_letter(ch).unwrap().index()] += 1;
    }
    c
}

/// A position set up by hand: FEN, white and black checkers (squares), fronts, hands.
fn pos(fen: &str, white: &str, black: &str, front: [u8; 2], hands: [&str; 2]) -> TarPit {
    pos_with(TarPitParams::default(), fen, white, black, front, hands, "")
}

fn pos_with(
    params: TarPitParams,
    fen: &str,
    white: &str,
    black: &str,
    front: [u8; 2],
    hands: [&str; 2],
    discard: &str,
) -> TarPit {
    TarPit::from_parts(
        Board::from_fen(fen).unwrap(),
        params,
        [squares(white), squares(black)],
        front,
        [hand(hands[0]), hand(hands[1])],
        hand(discard),
    )
}

/// Plays `text` (drawing through any pending chance node first, the pile's first card).
fn play(g: &mut TarPit, text: &str) {
    draw_through(g);
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(a);
}

fn actions(g: &TarPit) -> Vec<String> {
    let mut out = Vec::new();
    if let Turn::Seat(s) = g.turn() {
        g.legal_actions(s, &mut out);
    }
    out.into_iter().map(|a| g.action_notation(a)).collect()
}

fn moves_from(g: &TarPit, from: &str) -> Vec<String> {
    let mut v: Vec<String> = actions(g)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect();
    v.sort();
    v
}

/// Draws the first card the pile offers until a seat is to act.
fn draw_through(g: &mut TarPit) -> usize {
    let mut n = 0;
    let mut out = Vec::new();
    while g.turn() == Turn::Chance {
        g.chance_outcomes(&mut out);
        g.apply(out[0].0);
        n += 1;
    }
    n
}

#[test]
fn tar_pit_conforms_to_the_game_api() {
    conformance::check(&TarPit::new(&TarPitParams::default()), 6, 3);
}

#[test]
fn rule_setup_deals_one_card_per_checker() {
    let mut g = TarPit::new(&TarPitParams::default());
    assert_eq!(cards::total(g.pile()), 36);
    assert_eq!(g.turn(), Turn::Chance);
    assert_eq!(draw_through(&mut g), 12);
    assert_eq!(g.turn(), Turn::Seat(0));
    assert_eq!(g.phase(), Phase::Move);
    for c in Color::BOTH {
        assert_eq!(g.front(c), 6);
        assert_eq!(cards::total(g.hand(c)), 6);
        assert_eq!(g.extra(c), 6);
    }
    assert_eq!(cards::total(g.pile()), 24);
    // A handicap: fewer checkers, fewer cards.
    let mut g = TarPit::new(&TarPitParams {
        white_checkers: 4,
        ..Default::default()
    });
    assert_eq!(draw_through(&mut g), 10);
    assert_eq!(cards::total(g.hand(Color::White)), 4);
    assert_eq!(cards::total(g.hand(Color::Black)), 6);
}

#[test]
fn rule_deck_has_36_cards_by_appendix_a() {
    let d = DeckParams::SEED.counts();
    assert_eq!(cards::total(&d), 36);
    assert_eq!(d[Card::piece(Color::White, Role::Pawn).index()], 8);
    assert_eq!(d[Card::piece(Color::Black, Role::Knight).index()], 2);
    assert_eq!(d[Card::piece(Color::White, Role::Queen).index()], 1);
    assert_eq!(d[Card::checker(Color::Black).index()], 2);
    for c in Card::all() {
        assert_eq!(Card::from_letter(c.letter()), Some(c));
    }
}

#[test]
fn rule_tarred_pawn_cannot_move() {
    let g = pos(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "",
        "e2",
        [5, 6],
        ["", ""],
    );
    assert!(moves_from(&g, "e2").is_empty());
    let free = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "", "", [6, 6], ["", ""]);
    assert_eq!(moves_from(&free, "e2"), ["e2e3", "e2e4"]);
}

#[test]
fn rule_tarred_piece_moves_like_a_pawn() {
    let g = pos(
        "4k3/8/8/2p1p3/3N4/8/R7/4K3 w - - 0 1",
        "",
        "d4 a2",
        [6, 4],
        ["", ""],
    );
    assert_eq!(moves_from(&g, "d4"), ["d4c5", "d4d5", "d4e5"]);
    // No double step, even from the second rank.
    assert_eq!(moves_from(&g, "a2"), ["a2a3"]);
    // A tarred black piece moves down the board.
    let g = pos(
        "4k3/8/8/3q4/8/8/8/4K3 b - - 0 1",
        "d5",
        "",
        [5, 6],
        ["", ""],
    );
    assert_eq!(moves_from(&g, "d5"), ["d5d4"]);
}

#[test]
fn rule_tarred_piece_may_capture_en_passant() {
    let mut g = pos(
        "4k3/3p4/8/4N3/8/8/8/4K3 b - - 0 1",
        "",
        "e5",
        [0, 0],
        ["", ""],
    );
    play(&mut g, "d7d5");
    assert_eq!(g.turn(), Turn::Seat(0));
    assert!(moves_from(&g, "e5").contains(&"e5d6".to_string()));
    play(&mut g, "e5d6");
    let b = g.board_ref();
    assert!(
        b.piece_at(sq("d5")).is_none(),
        "the pawn is taken en passant"
    );
    assert_eq!(b.piece_at(sq("d6")).map(|p| p.role), Some(Role::Knight));
    assert_eq!(g.checker_at(sq("d6")), Some(Color::Black), "still tarred");
}

#[test]
fn rule_checker_travels_with_its_piece() {
    let mut g = pos(
        "4k3/p7/8/8/8/8/P7/1N2K3 w - - 0 1",
        "b1",
        "",
        [5, 6],
        ["", ""],
    );
    play(&mut g, "b1c3");
    assert_eq!(g.checker_at(sq("c3")), Some(Color::White));
    assert_eq!(g.checker_at(sq("b1")), None);
}

#[test]
fn rule_throw_only_with_own_checker_one_king_step() {
    let fen = "4k3/8/8/3p4/8/1P6/8/1N2K3 w - - 0 1";
    let mut g = pos(fen, "b1", "", [5, 6], ["", ""]);
    play(&mut g, "b1c3");
    assert_eq!(g.phase(), Phase::Throw { at: sq("c3") });
    let mut opts = actions(&g);
    opts.sort();
    assert_eq!(
        opts,
        ["pass", "throw:b3"],
        "only occupied king-step squares"
    );
    play(&mut g, "throw:b3");
    assert_eq!(g.checker_at(sq("b3")), Some(Color::White));
    assert_eq!(g.checker_at(sq("c3")), None);
    // Throwing at an enemy piece tars it.
    let mut g = pos(fen, "b1", "", [5, 6], ["", ""]);
    play(&mut g, "b1c3");
    play(&mut g, "pass");
    play(&mut g, "d5d4");
    play(&mut g, "c3e4");
    play(&mut g, "throw:d4");
    assert_eq!(g.checker_at(sq("d4")), Some(Color::White));
    assert_eq!(g.tarred(Color::Black), squares("d4"));
    // A tarred piece carries no bucket: no throw after its move.
    let mut g = pos(fen, "", "b1", [0, 0], ["", ""]);
    play(&mut g, "b1b2");
    assert_eq!(g.phase(), Phase::Move, "straight on to Black's turn");
    assert_eq!(g.turn(), Turn::Seat(1));
}

#[test]
fn rule_opposite_colours_cancel() {
    // White's pawn card on White's tarred pawn.
    let mut g = pos(
        "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1",
        "",
        "e4",
        [4, 5],
        ["PN", ""],
    );
    play(&mut g, "e1d1");
    play(&mut g, "card:P@e4");
    assert_eq!(g.checker_at(sq("e4")), None);
    assert_eq!(g.front(Color::White), 4, "one out, one back");
    assert_eq!(g.front(Color::Black), 6, "the tar goes home");
    assert_eq!(g.tally().cleansings[0], 1);
    // A capture that takes over the tar of the capturer's colour cancels too.
    let mut g = pos(
        "4k3/8/8/3n4/4B3/8/8/4K3 w - - 0 1",
        "d5",
        "e4",
        [5, 5],
        ["", ""],
    );
    play(&mut g, "e4d5");
    assert_eq!(g.checker_at(sq("d5")), None);
    assert_eq!((g.front(Color::White), g.front(Color::Black)), (6, 6));
}

#[test]
fn rule_same_colours_repel() {
    let mut g = pos(
        "4k3/p7/8/8/8/8/P7/1N2K3 w - - 0 1",
        "b1",
        "",
        [2, 0],
        ["NQ", ""],
    );
    play(&mut g, "e1d1");
    play(&mut g, "card:N@b1");
    assert_eq!(g.checker_at(sq("b1")), Some(Color::White), "one stays");
    assert_eq!(g.front(Color::White), 2, "the other comes straight back");
    assert_eq!(g.phase(), Phase::Draw, "one card short: cycling the hand");
    draw_through(&mut g);
    assert_eq!(cards::total(g.hand(Color::White)), 2);
}

#[test]
fn rule_capturing_a_carrier_leaves_you_tarred() {
    let mut g = pos(
        "4k3/8/8/3n4/4B3/8/8/4K3 w - - 0 1",
        "",
        "d5",
        [6, 5],
        ["", ""],
    );
    play(&mut g, "e4d5");
    assert_eq!(g.checker_at(sq("d5")), Some(Color::Black));
    assert_eq!(g.tarred(Color::White), squares("d5"));
}

#[test]
fn rule_capturing_a_tarred_piece_leaves_you_carrying() {
    let mut g = pos(
        "4k3/8/2p5/3n4/4B3/8/8/4K3 w - - 0 1",
        "d5",
        "",
        [5, 6],
        ["", ""],
    );
    play(&mut g, "e4d5");
    assert_eq!(g.carrying(Color::White), squares("d5"));
    assert_eq!(g.phase(), Phase::Throw { at: sq("d5") });
}

#[test]
fn rule_tarred_piece_reaching_back_rank_is_cleansed() {
    let mut g = pos("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "", "a7", [6, 5], ["", ""]);
    assert_eq!(moves_from(&g, "a7"), ["a7a8"]);
    play(&mut g, "a7a8");
    assert_eq!(g.checker_at(sq("a8")), None);
    assert_eq!(
        g.front(Color::Black),
        6,
        "the checker goes back to its owner"
    );
    assert_eq!(g.tally().cleansings[0], 1);
}

#[test]
fn rule_card_on_a_piece_on_its_back_rank_is_removed() {
    // White's rook on a8 stands on White's back rank: Black's checker comes straight off.
    let mut g = pos("R3k3/8/8/8/8/8/8/4K3 b - - 0 1", "", "", [6, 6], ["", "Rp"]);
    play(&mut g, "e8d7");
    play(&mut g, "card:R@a8");
    assert_eq!(g.checker_at(sq("a8")), None);
    assert_eq!(g.front(Color::Black), 6, "back in front of Black");
    assert_eq!(g.phase(), Phase::Draw);
    // With White's own checker there, both come off.
    let mut g = pos(
        "R3k3/8/8/8/8/8/8/4K3 b - - 0 1",
        "a8",
        "",
        [5, 6],
        ["", "Rp"],
    );
    play(&mut g, "e8d7");
    play(&mut g, "card:R@a8");
    assert_eq!(g.checker_at(sq("a8")), None, "both checkers come off");
    assert_eq!(g.front(Color::Black), 6);
    assert_eq!(g.front(Color::White), 6);
    assert_eq!(g.phase(), Phase::Draw);
}

#[test]
fn rule_own_checker_card_adds_a_checker() {
    let mut g = pos(
        "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1",
        "",
        "",
        [2, 2],
        ["CP", "pp"],
    );
    play(&mut g, "e1d1");
    play(&mut g, "card:C");
    assert_eq!(g.front(Color::White), 3);
    assert_eq!(g.extra(Color::White), 9);
    assert_eq!(draw_through(&mut g), 2, "one card played, one more checker");
    assert_eq!(cards::total(g.hand(Color::White)), 3);
}

#[test]
fn rule_own_checker_card_with_empty_box_adds_nothing() {
    let params = TarPitParams {
        checkers_per_colour: 2,
        ..Default::default()
    };
    let mut g = pos_with(
        params,
        "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1",
        "",
        "",
        [2, 2],
        ["CP", "pp"],
        "",
    );
    play(&mut g, "e1d1");
    play(&mut g, "card:C");
    assert_eq!(g.front(Color::White), 2);
    assert_eq!(draw_through(&mut g), 1);
}

#[test]
fn rule_enemy_checker_card_forces_return_and_discard() {
    let mut g = pos(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "",
        "e2",
        [2, 3],
        ["cP", "pnb"],
    );
    play(&mut g, "e1d1");
    play(&mut g, "card:c");
    assert_eq!(g.turn(), Turn::Seat(1), "Black decides");
    let mut opts = actions(&g);
    opts.sort();
    assert_eq!(opts, ["return:e2", "return:front"]);
    play(&mut g, "return:front");
    assert_eq!(g.front(Color::Black), 2);
    assert_eq!(g.phase(), Phase::Discard);
    play(&mut g, "discard:n");
    assert_eq!(cards::total(g.hand(Color::Black)), 2);
    assert_eq!(
        g.discard_pile()[Card::piece(Color::Black, Role::Knight).index()],
        1
    );
    assert_eq!(draw_through(&mut g), 1, "White refills");
    // Returning from the board frees White's pawn; no discard then.
    let mut g = pos(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "",
        "e2",
        [2, 3],
        ["cP", "pnb"],
    );
    play(&mut g, "e1d1");
    play(&mut g, "card:c");
    play(&mut g, "return:e2");
    assert_eq!(g.checker_at(sq("e2")), None);
    assert_eq!(g.front(Color::Black), 3);
    assert_eq!(g.extra(Color::Black), 9);
    assert_eq!(g.phase(), Phase::Draw);
}

#[test]
fn rule_forced_return_is_automatic() {
    let mut g = pos(
        "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1",
        "",
        "",
        [2, 2],
        ["cP", "pp"],
    );
    play(&mut g, "e1d1");
    play(&mut g, "card:c");
    assert_eq!(g.front(Color::Black), 1);
    assert_eq!(
        cards::total(g.hand(Color::Black)),
        1,
        "one kind: discarded for it"
    );
    assert_eq!(g.phase(), Phase::Draw);
}

#[test]
fn rule_card_without_a_matching_piece_matches_any_own_piece() {
    let mut g = pos(
        "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1",
        "",
        "",
        [2, 2],
        ["qP", "pp"],
    );
    play(&mut g, "e1f1");
    let mut cards: Vec<String> = actions(&g)
        .into_iter()
        .filter(|a| a.starts_with("card:q"))
        .collect();
    cards.sort();
    assert_eq!(cards, ["card:q@d2", "card:q@f1"]);
    // With a matching piece on the board, only it.
    let mut g = pos(
        "3qk3/8/8/8/8/8/3P4/4K3 w - - 0 1",
        "",
        "",
        [2, 2],
        ["qP", "pp"],
    );
    play(&mut g, "e1f1");
    let cards: Vec<String> = actions(&g)
        .into_iter()
        .filter(|a| a.starts_with("card:q"))
        .collect();
    assert_eq!(cards, ["card:q@d8"]);
}

#[test]
fn rule_empty_draw_pile_is_reshuffled() {
    // Everything not in a hand is in the discard pile.
    let mut discard = DeckParams::SEED.counts();
    let hands = [hand("CP"), hand("pp")];
    for k in 0..KINDS {
        discard[k] -= hands[0][k] + hands[1][k];
    }
    let text = cards::describe(&discard);
    let mut g = pos_with(
        TarPitParams::default(),
        "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1",
        "",
        "",
        [2, 2],
        ["CP", "pp"],
        &text,
    );
    assert_eq!(cards::total(g.pile()), 0);
    play(&mut g, "e1d1");
    play(&mut g, "card:C");
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out, [(TarPitAction::Shuffle, 1.0)]);
    let shuffle = g.parse_action("shuffle").unwrap();
    g.apply(shuffle);
    assert_eq!(cards::total(g.discard_pile()), 0);
    assert_eq!(cards::total(g.pile()), 33);
    g.chance_outcomes(&mut out);
    assert!(out.iter().all(|(a, _)| matches!(a, TarPitAction::Draw(_))));
    assert_eq!(draw_through(&mut g), 2);
}

#[test]
fn rule_no_castling_with_a_checker_on_king_or_rook() {
    let fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    let castles = |g: &TarPit| {
        let mut v: Vec<String> = actions(g)
            .into_iter()
            .filter(|m| m == "e1g1" || m == "e1c1")
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        castles(&pos(fen, "", "", [6, 6], ["", ""])),
        ["e1c1", "e1g1"]
    );
    assert_eq!(castles(&pos(fen, "h1", "", [5, 6], ["", ""])), ["e1c1"]);
    assert_eq!(castles(&pos(fen, "", "a1", [6, 5], ["", ""])), ["e1g1"]);
    assert!(castles(&pos(fen, "e1", "", [5, 6], ["", ""])).is_empty());
}

#[test]
fn rule_tarred_pieces_attack_like_pawns() {
    // A tarred rook on e3 attacks only d2 and f2.
    let g = pos(
        "4k3/8/8/8/8/4r3/8/4K3 w - - 0 1",
        "e3",
        "",
        [5, 6],
        ["", ""],
    );
    assert!(!g.in_check_color(Color::White));
    let mut king = moves_from(&g, "e1");
    king.sort();
    assert_eq!(king, ["e1d1", "e1e2", "e1f1"]);
    // A tarred pawn attacks nothing; it still blocks.
    let g = pos(
        "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
        "d2",
        "",
        [5, 6],
        ["", ""],
    );
    assert!(!g.in_check_color(Color::White));
    let g = pos("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "", "", [6, 6], ["", ""]);
    assert!(g.in_check_color(Color::White));
}

#[test]
fn rule_checkmate_wins() {
    let fen = "6k1/8/8/8/8/8/5PPP/r5K1 w - - 0 1";
    let g = pos(fen, "", "", [6, 6], ["", ""]);
    let r = g.result().expect("mate");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(&r.returns[..2], &[-1.0, 1.0]);
    assert_eq!(g.turn(), Turn::Terminal);
    // The same rook tarred gives no check: the game goes on.
    let g = pos(fen, "a1", "", [5, 6], ["", ""]);
    assert!(g.result().is_none());
    assert!(moves_from(&g, "g1").contains(&"g1f1".to_string()));
}

/// RULES.md (common rules): only K v K and K+minor v K are drawn by material; Tar Pit
/// plays on with two bishops on one colour of square (tar can still help them mate).
#[test]
fn rule_insufficient_material_is_only_bare_kings_or_one_minor() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        "1n2k3/8/8/8/8/8/8/4K3 b - - 0 1",
    ] {
        let g = pos(fen, "", "", [6, 6], ["", ""]);
        let r = g
            .result()
            .unwrap_or_else(|| panic!("{fen}: bare material is a draw"));
        assert_eq!(r.reason, "insufficient-material", "{fen}");
        assert_eq!(&r.returns[..2], &[0.0, 0.0], "{fen}");
    }
    // Two bishops on dark squares (c1, d2): dead in orthodox chess, alive here.
    for fen in [
        "4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/3B4/2B1K3 b - - 0 1",
        // Bishop and knight, and one minor each: more than one minor on the board.
        "4k3/8/8/8/8/8/3N4/2B1K3 w - - 0 1",
        "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ] {
        let g = pos(fen, "", "", [6, 6], ["", ""]);
        assert!(g.result().is_none(), "{fen}: plays on");
    }
    assert!(
        Board::from_fen("4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1")
            .unwrap()
            .is_insufficient_material(),
        "the orthodox rule would have drawn it"
    );
    // A capture that leaves K+B v K ends the game at once.
    let mut g = pos(
        "4k3/8/8/8/8/8/3b4/2B1K3 w - - 0 1",
        "",
        "",
        [0, 0],
        ["", ""],
    );
    play(&mut g, "c1d2");
    assert_eq!(g.result().map(|r| r.reason), Some("insufficient-material"));
}

/// RULES.md: "repetition ignores hands but counts the checkers in front of each player".
/// The same board and checkers three times at the start of White's turn is a repetition
/// only if both fronts are the same each time: an own checker card (`card:C`) raises
/// White's front without touching the board.
#[test]
fn rule_repetition_counts_checkers_in_front_of_each_player() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    // White's rook carries a white checker: checkers on the board repeat too.
    let start = || pos(fen, "a1", "", [2, 0], ["CC", ""]);
    let shuffle = ["e1d1", "e8d8", "d1e1", "d8e8"];
    // Passing on the card: the position (fronts [2, 0]) comes back twice, a draw.
    let mut g = start();
    for _ in 0..2 {
        for m in shuffle {
            assert!(g.result().is_none());
            play(&mut g, m);
            if g.phase() == Phase::Card {
                play(&mut g, "pass");
            }
        }
    }
    draw_through(&mut g);
    assert_eq!(g.result().map(|r| r.reason), Some("repetition"));
    // Playing `card:C` on each of White's first moves: the board and checkers repeat the
    // same way, but White's front is 2, 3, then 4 at those turn starts: no repetition.
    let mut g = start();
    for round in 0..2 {
        for (i, m) in shuffle.iter().enumerate() {
            assert!(g.result().is_none(), "round {round} ply {i}");
            play(&mut g, m);
            if g.phase() == Phase::Card {
                play(&mut g, if i == 0 { "card:C" } else { "pass" });
            }
        }
        draw_through(&mut g);
        assert_eq!(g.front(Color::White), 3 + round);
    }
    assert_eq!(g.board_ref().fen().split(' ').next(), fen.split(' ').next());
    assert_eq!(g.checkers(Color::White), squares("a1"));
    assert!(g.result().is_none(), "fronts differ: not a repetition");
    // From here on the fronts stay at [4, 0] (as they were from White's card in the
    // second round on): the second shuffle with them is still only two occurrences, the
    // third ends the game.
    for m in shuffle {
        assert!(g.result().is_none());
        play(&mut g, m);
        if g.phase() == Phase::Card {
            play(&mut g, "pass");
        }
    }
    draw_through(&mut g);
    assert!(g.result().is_none());
    play(&mut g, "e1d1");
    play(&mut g, "pass");
    draw_through(&mut g);
    assert_eq!(g.result().map(|r| r.reason), Some("repetition"));
}

/// The seed's worked example: Black's knight takes the tarred pawn on e4 (and its black
/// checker), throws the tar onto f3, plays the black knight card on e4 and draws one.
fn seed_example() -> TarPit {
    pos(
        "6k1/8/3n4/5p2/4P1P1/5P2/8/6K1 b - - 0 1",
        "f5",
        "e4",
        [6, 5],
        ["PPNBRQ", "npbr"],
    )
}

#[test]
fn rule_seed_example_black_knight_e4_turn() {
    let mut g = seed_example();
    play(&mut g, "d6e4");
    assert_eq!(
        g.carrying(Color::Black),
        squares("e4"),
        "the knight carries tar"
    );
    let mut throws = actions(&g);
    throws.sort();
    assert_eq!(throws, ["pass", "throw:f3", "throw:f5"]);
    play(&mut g, "throw:f3");
    assert_eq!(g.tarred(Color::White), squares("f3"));
    play(&mut g, "card:n@e4");
    assert_eq!(g.carrying(Color::Black), squares("e4"));
    assert_eq!(cards::total(g.hand(Color::Black)), 3);
    assert_eq!(g.front(Color::Black), 4, "three cards, four checkers");
    assert_eq!(draw_through(&mut g), 1, "so Black draws one");
    // "Now the pawn can't capture the knight."
    assert!(moves_from(&g, "f3").is_empty());
    assert!(moves_from(&g, "g4").contains(&"g4f5".to_string()));
}

#[test]
fn rule_seed_example_pawn_card_cancels_tar_at_f5() {
    let mut g = seed_example();
    play(&mut g, "d6e4");
    play(&mut g, "throw:f3");
    play(&mut g, "card:p@f5");
    assert_eq!(g.checker_at(sq("f5")), None);
    assert_eq!(g.front(Color::Black), 5);
    assert_eq!(g.front(Color::White), 7, "the white checker goes home");
    assert_eq!(draw_through(&mut g), 2);
    // White can still take on f5, but gets no tar to throw at the knight.
    play(&mut g, "g4f5");
    assert_eq!(g.phase(), Phase::Card);
}

#[test]
fn rule_draw_up_to_hand_size_after_returns() {
    let mut g = pos(
        "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1",
        "",
        "e4",
        [5, 5],
        ["PN", "pp"],
    );
    play(&mut g, "e1d1");
    play(&mut g, "card:P@e4");
    // Hand 1, front 5: four draws, then Black is to move; Black does not refill now.
    assert_eq!(draw_through(&mut g), 4);
    assert_eq!(cards::total(g.hand(Color::White)), 5);
    assert_eq!(g.front(Color::Black), 6);
    assert_eq!(cards::total(g.hand(Color::Black)), 2);
    assert_eq!(g.turn(), Turn::Seat(1));
}

mod api;
mod twin;
