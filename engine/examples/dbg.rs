fn main() {
    let b = engine::Board::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    for m in b.legal_moves().iter() {
        print!("{} ", b.uci(*m));
    }
    println!("\n{:?}", b.parse_uci("a1a8"));
}
