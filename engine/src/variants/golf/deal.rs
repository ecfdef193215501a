//! Set-up, dealing and the next hole: laying out a deck with the Appendix A gaps, the
//! card deck, random problems.

use super::*;

impl GolfPosition {
    /// Lays out `deck` in order leaving `gaps` empty squares before each piece, starting
    /// at a1 or a8 according to `order`. Nothing is chosen.
    pub fn setup(
        deck: &[Piece],
        gaps: &SetupGaps,
        order: FillOrder,
    ) -> Result<GolfPosition, GolfSetupError> {
        if deck.len() > MAX_PIECES {
            return Err(GolfSetupError::TooMany(deck.len()));
        }
        let mut pos = GolfPosition::empty();
        let mut next = 0usize; // linear index of the next free square in fill order
        for (i, &p) in deck.iter().enumerate() {
            if p.role == Role::Pawn {
                return Err(GolfSetupError::Pawn { card: i + 1 });
            }
            let idx = next + gaps.gap(p.role) as usize;
            if idx >= 64 {
                return Err(GolfSetupError::OffBoard {
                    card: i + 1,
                    piece: p.char(),
                });
            }
            let (file, row) = ((idx % 8) as u8, (idx / 8) as u8);
            let rank = match order {
                FillOrder::FromA1 => row,
                FillOrder::FromA8 => 7 - row,
            };
            pos.put(Square::from_coords(file, rank), p);
            next = idx + 1;
        }
        Ok(pos)
    }

    /// A shuffled standard deck laid out with `params`' gaps and fill order.
    pub fn random_setup<R: Rng + ?Sized>(rng: &mut R, params: &GolfParams) -> GolfPosition {
        let mut deck = standard_deck().to_vec();
        deck.shuffle(rng);
        // The standard gaps always fit (16 pieces + 46 gaps = 62 squares); large custom
        // gaps fall back to the seed's.
        GolfPosition::setup(&deck, &params.setup_gaps, params.fill_order).unwrap_or_else(|_| {
            GolfPosition::setup(&deck, &SetupGaps::default(), params.fill_order)
                .expect("the seed's gaps fit the board")
        })
    }

    /// The start of the next hole: the same pieces, captured pieces put back on empty
    /// squares chosen uniformly at random, nothing chosen, taken or taking.
    pub fn next_hole<R: Rng + ?Sized>(&self, rng: &mut R) -> GolfPosition {
        let mut pos = self.board_only();
        for p in self.taken.pieces() {
            let empties: Vec<Square> = (!pos.occupied).collect();
            if let Some(&sq) = empties.choose(rng) {
                pos.put(sq, p);
            }
        }
        pos
    }

    /// This position with `chosen` as the dealt cards (taken and taking cleared).
    pub fn with_chosen(&self, chosen: KindCounts) -> GolfPosition {
        let mut p = self.board_only();
        p.set_chosen(chosen);
        p
    }
}

/// The 16 non-pawn pieces in the designer's order `NNBBRRQKnnbbrrqk`.
pub fn standard_deck() -> [Piece; 16] {
    let mut out = [Piece::new(Color::White, Role::Knight); 16];
    for (i, c) in "NNBBRRQKnnbbrrqk".chars().enumerate() {
        out[i] = Piece::from_char(c).expect("valid letter");
    }
    out
}

/// The card deck that deals chosen kinds: one card per non-pawn piece.
#[derive(Clone, Debug)]
pub struct CardDeck {
    draw: Vec<Piece>,
    discard: Vec<Piece>,
}

impl CardDeck {
    /// A freshly shuffled 16-card deck.
    pub fn shuffled<R: Rng + ?Sized>(rng: &mut R) -> CardDeck {
        let mut draw = standard_deck().to_vec();
        draw.shuffle(rng);
        CardDeck {
            draw,
            discard: Vec::new(),
        }
    }

    /// Cards left to draw.
    pub fn remaining(&self) -> usize {
        self.draw.len()
    }

    /// Deals `k` cards (at most 16). When fewer than `k` remain, the discard pile is
    /// shuffled back in with the remaining cards first. Dealt cards go to the discard
    /// pile once dealt (they are face up for the hole).
    pub fn deal<R: Rng + ?Sized>(&mut self, k: usize, rng: &mut R) -> Vec<Piece> {
        let k = k.min(16);
        if self.draw.len() < k {
            self.draw.append(&mut self.discard);
            self.draw.shuffle(rng);
        }
        let dealt: Vec<Piece> = self.draw.drain(..k).collect();
        self.discard.extend_from_slice(&dealt);
        dealt
    }
}

/// Deals `k` cards from a fresh shuffled deck (a single problem).
pub fn deal_cards<R: Rng + ?Sized>(rng: &mut R, k: usize) -> KindCounts {
    let mut deck = CardDeck::shuffled(rng);
    KindCounts::from_pieces(&deck.deal(k, rng))
}

/// A random problem: a shuffled set-up with `k` cards dealt from a fresh deck.
pub fn random_problem<R: Rng + ?Sized>(rng: &mut R, params: &GolfParams, k: usize) -> GolfPosition {
    let pos = GolfPosition::random_setup(rng, params);
    let chosen = deal_cards(rng, k);
    pos.with_chosen(chosen)
}
