//! The `chesslab` command: everything is in the library's [`experiments::cli`].

fn main() {
    experiments::cli::main()
}
