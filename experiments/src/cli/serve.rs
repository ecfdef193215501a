//! `chesslab serve`: the playtest board in the browser and its JSON API
//! ([`crate::serve`], whose settings are the arguments).

use anyhow::Result;

pub use crate::serve::ServeArgs;

pub fn run(args: &ServeArgs) -> Result<()> {
    crate::serve::run(args)
}
