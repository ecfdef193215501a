//! alphabeta on a game of two teams (Crowded House: four seats, partners by colour): it
//! searches the teams as the two sides, finds team mates and beats random as a team.

use agents::alphabeta::{two_teams, AlphaBeta, AlphaBetaConfig, MATE};
use agents::registry::build;
use agents::Agent;
use engine::game::{Game, Turn};
use engine::variants::crowded_house::{CrowdedHouse, CrowdedHouseParams};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Instant;

fn pos(opening: &str) -> CrowdedHouse {
    CrowdedHouse::from_opening(&CrowdedHouseParams::default(), opening).unwrap()
}

/// Plays one game with one agent per seat; returns the final state.
fn play(
    mut g: CrowdedHouse,
    agents: &mut [Box<dyn Agent<CrowdedHouse>>],
    rng: &mut Pcg64,
) -> CrowdedHouse {
    for a in agents.iter_mut() {
        a.reset();
    }
    loop {
        match g.turn() {
            Turn::Terminal => return g,
            Turn::Seat(s) => {
                let a = agents[s].act(&g, s, rng);
                g.apply(a);
            }
            t => panic!("unexpected {t:?} in Crowded House"),
        }
    }
}

#[test]
fn crowded_house_seats_form_two_teams() {
    let g = CrowdedHouse::new(&CrowdedHouseParams::default());
    assert_eq!(two_teams(&g), Some([0, 1, 0, 1]));
}

#[test]
fn alphabeta_finds_a_team_mate_in_one() {
    // Fool's mate for the black queen-side seat (3): the queen leaves d8 (its half) for
    // h4, and the next seat, black king-side, could then take the white king: the white
    // king-side seat to move has no answer.
    let g = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2 | 3");
    let mut ab = AlphaBeta::<CrowdedHouse>::new(AlphaBetaConfig {
        depth: 3,
        ..Default::default()
    });
    let a = ab.search(&g).expect("a move");
    assert_eq!(g.action_notation(a), "d8h4");
    assert_eq!(ab.info.score, MATE - 1);
    let mut after = g.clone();
    after.apply(a);
    let r = after.result().expect("checkmate");
    assert_eq!(r.reason, "checkmate");
    assert_eq!(r.returns[..4], [-1.0, 1.0, -1.0, 1.0]);
}

#[test]
fn alphabeta_sees_the_mate_from_the_losing_team() {
    // The same mate one ply earlier: white queen-side (seat 2) to move. Whatever it
    // plays, black can mate unless it covers the e1-h4 diagonal or gives the king air;
    // the search must score the position as lost or find the defence, never as won.
    let g = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR w KQkq - 0 2 | 2");
    let mut ab = AlphaBeta::<CrowdedHouse>::new(AlphaBetaConfig {
        depth: 3,
        ..Default::default()
    });
    let a = ab.search(&g).expect("a move");
    let mut after = g.clone();
    after.apply(a);
    // Black queen-side to move: the mate must be gone.
    let mut ab2 = AlphaBeta::<CrowdedHouse>::new(AlphaBetaConfig {
        depth: 1,
        ..Default::default()
    });
    ab2.search(&after).expect("a move");
    assert!(
        ab2.info.score < MATE - 10,
        "white left the mate on after {}",
        g.action_notation(a)
    );
}

#[test]
fn alphabeta_plays_a_full_crowded_house_game() {
    let t = Instant::now();
    let params = CrowdedHouseParams {
        ply_cap: 200,
        ..Default::default()
    };
    let mut agents: Vec<Box<dyn Agent<CrowdedHouse>>> = (0..4)
        .map(|_| build("alphabeta:depth=2,tt_bits=14").unwrap())
        .collect();
    let mut rng = Pcg64::seed_from_u64(7);
    let g = play(CrowdedHouse::new(&params), &mut agents, &mut rng);
    let r = g.result().expect("the game ended");
    eprintln!(
        "alphabeta x4: {} after {} plies in {:.1}s",
        r.reason,
        g.history_len(),
        t.elapsed().as_secs_f64()
    );
    // Partners share the result.
    assert_eq!(r.returns[0], r.returns[2]);
    assert_eq!(r.returns[1], r.returns[3]);
}

#[test]
fn alphabeta_team_beats_random_team() {
    let t = Instant::now();
    let games = 16;
    let params = CrowdedHouseParams {
        ply_cap: 200,
        ..Default::default()
    };
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|th| {
                let params = params.clone();
                scope.spawn(move || {
                    let mut sum = 0.0;
                    for i in (th..games).step_by(2) {
                        let mut rng = Pcg64::seed_from_u64(100 + i as u64);
                        // Alternate which colour (team) alphabeta plays.
                        let ours = i % 2;
                        let mut agents: Vec<Box<dyn Agent<CrowdedHouse>>> = (0..4)
                            .map(|s| {
                                let spec = if s % 2 == ours {
                                    "alphabeta:depth=2,tt_bits=14"
                                } else {
                                    "random"
                                };
                                build(spec).unwrap()
                            })
                            .collect();
                        let g = play(CrowdedHouse::new(&params), &mut agents, &mut rng);
                        sum += (g.returns()[ours] + 1.0) / 2.0;
                    }
                    sum
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let score = total / games as f64;
    eprintln!(
        "alphabeta team vs random team: {:.1}% over {games} games in {:.1}s",
        score * 100.0,
        t.elapsed().as_secs_f64()
    );
    assert!(score >= 0.75, "score {score}");
}
