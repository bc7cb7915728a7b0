//! The small module generated code links against: tool definitions, validation violations,
//! tool-error encoding, call results and the canonical-JSON digest.
//!
//! It depends only on `serde`, `serde_json` and `sha2`, so a crate that serves generated
//! catalogs does not compile the compiler.

pub mod canonical;
