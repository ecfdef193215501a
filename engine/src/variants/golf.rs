//! Chess Golf (placeholder, being written).
