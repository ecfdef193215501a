//! Expedition Chess (Expedition seed; RULES.md "Expedition Chess"). Work in progress.
