//! Build-time tables for `engine::attacks`: leaper attacks, lines and segments between
//! squares, and "fancy" magic bitboards for sliders. Computed once here so the engine
//! starts with no initialisation and no lazy-static check on the hot path.
//!
//! The magic search is deterministic (fixed seed), so every build emits the same tables.

use std::fmt::Write as _;
use std::path::PathBuf;

fn sq_ok(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn leaper(sq: usize, deltas: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut bb = 0u64;
    for &(df, dr) in deltas {
        if sq_ok(f + df, r + dr) {
            bb |= 1 << ((r + dr) * 8 + f + df);
        }
    }
    bb
}

fn slide(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut bb = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while sq_ok(f, r) {
            let b = 1u64 << (r * 8 + f);
            bb |= b;
            if occ & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    bb
}

/// Relevant occupancy: the rays without their last square (edges never block further).
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut bb = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while sq_ok(f + df, r + dr) {
            bb |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    bb
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Finds magics for all 64 squares; returns (mask, magic, shift, offset) and the table.
/// Per square: (mask, magic, shift, offset).
type MagicEntries = Vec<(u64, u64, u32, u32)>;

fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng) -> (MagicEntries, Vec<u64>) {
    let mut entries = Vec::new();
    let mut table: Vec<u64> = Vec::new();
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let mut occs = Vec::with_capacity(size);
        let mut atts = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            atts.push(slide(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut used = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let m = rng.sparse();
            if (mask.wrapping_mul(m) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for i in 0..size {
                let idx = (occs[i].wrapping_mul(m) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = atts[i];
                } else if used[idx] != atts[i] {
                    ok = false;
                    break;
                }
            }
            if ok {
                break m;
            }
        };
        let offset = table.len() as u32;
        table.extend(std::iter::repeat_n(0, size));
        for i in 0..size {
            let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
            table[offset as usize + idx] = atts[i];
        }
        entries.push((mask, magic, shift, offset));
    }
    (entries, table)
}

fn write_array(out: &mut String, name: &str, ty: &str, vals: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [{ty}; {}] = [", vals.len()).unwrap();
    for chunk in vals.chunks(8) {
        for v in chunk {
            write!(out, "{v:#x},").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut out = String::new();

    let knight: Vec<u64> = (0..64)
        .map(|s| {
            leaper(
                s,
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
            )
        })
        .collect();
    let king: Vec<u64> = (0..64)
        .map(|s| {
            leaper(
                s,
                &[
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                ],
            )
        })
        .collect();
    let mut pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, 1), (1, 1)])).collect();
    pawn.extend((0..64).map(|s| leaper(s, &[(-1, -1), (1, -1)])));
    write_array(&mut out, "KNIGHT", "u64", &knight);
    write_array(&mut out, "KING", "u64", &king);
    write_array(&mut out, "PAWN", "u64", &pawn);

    // between[a][b]: squares strictly between a and b on a shared line, else 0.
    // line[a][b]: the whole line through a and b (edge to edge), else 0.
    let mut between = vec![0u64; 4096];
    let mut line = vec![0u64; 4096];
    for a in 0..64 {
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            let from_a = slide(a, 0, dirs);
            for b in 0..64 {
                if a == b || from_a & (1 << b) == 0 {
                    continue;
                }
                let from_b = slide(b, 0, dirs);
                line[a * 64 + b] = (from_a & from_b) | (1 << a) | (1 << b);
                between[a * 64 + b] = slide(a, 1 << b, dirs) & slide(b, 1 << a, dirs);
            }
        }
    }
    // `line` above is the intersection of the two full stars, which can contain off-line
    // squares; restrict it to squares aligned with both a and b.
    for a in 0..64 {
        for b in 0..64 {
            if line[a * 64 + b] == 0 {
                continue;
            }
            let (fa, ra) = ((a % 8) as i32, (a / 8) as i32);
            let (fb, rb) = ((b % 8) as i32, (b / 8) as i32);
            let (df, dr) = ((fb - fa).signum(), (rb - ra).signum());
            let mut bb = 1u64 << a;
            for sign in [1, -1] {
                let (mut f, mut r) = (fa + sign * df, ra + sign * dr);
                while sq_ok(f, r) {
                    bb |= 1 << (r * 8 + f);
                    f += sign * df;
                    r += sign * dr;
                }
            }
            line[a * 64 + b] = bb;
        }
    }
    write_array(&mut out, "BETWEEN", "u64", &between);
    write_array(&mut out, "LINE", "u64", &line);

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (name, dirs) in [("ROOK", &ROOK_DIRS), ("BISHOP", &BISHOP_DIRS)] {
        let (entries, table) = find_magics(dirs, &mut rng);
        writeln!(out, "pub(crate) static {name}_MAGICS: [Magic; 64] = [").unwrap();
        for (mask, magic, shift, offset) in entries {
            writeln!(
                out,
                "Magic {{ mask: {mask:#x}, magic: {magic:#x}, shift: {shift}, offset: {offset} }},"
            )
            .unwrap();
        }
        out.push_str("];\n");
        write_array(&mut out, &format!("{name}_TABLE"), "u64", &table);
    }

    let path = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("tables.rs");
    std::fs::write(path, out).unwrap();
}
