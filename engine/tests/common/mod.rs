//! Helpers shared by the integration tests that read recorded results (`games.csv`).

/// The fields of one CSV line (double quotes around a field that holds commas).
pub fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            c => out.last_mut().expect("one field at least").push(c),
        }
    }
    out
}
