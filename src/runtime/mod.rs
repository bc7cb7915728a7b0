//! The small module generated code links against: contract checks, tool-error encoding,
//! call results, the [`Catalog`] trait and the canonical-JSON digests.
//!
//! It depends only on `serde`, `serde_json`, `sha2` and `regress` (and `schemars` with the
//! `schemars` feature), and re-exports them:
//! generated code names only `::catalogc`, so a crate that serves generated catalogs adds
//! one dependency and does not compile the compiler.

pub mod call;
pub mod canonical;
pub mod content;
pub mod validate;

pub use call::{
    CallError, CallResult, Catalog, ErrorInfo, InputNeeded, InputRequest, Reply, ToolError,
    ToolInfo, approval_digest,
};
pub use content::{Content, Image, ImageBlock, Markdown, Text, ToolOutput};
pub use validate::{
    ArrayRule, Bound, FieldRule, Format, NumRule, Pattern, Shape, StrRule, Validate, Violation,
    Violations, some,
};
pub use {regress, serde, serde_json, sha2};

#[cfg(feature = "schemars")]
pub use schemars;
