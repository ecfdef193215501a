//! Chess Golf solver (placeholder, being written).
