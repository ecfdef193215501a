//! Masquerade Chess (chess-kit seed; RULES.md "Masquerade Chess"). Work in progress.
