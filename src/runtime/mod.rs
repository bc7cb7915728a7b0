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
    ArrayRule, Bound, ConstRule, FieldRule, Format, MapRule, NumRule, Pattern, Scalar, Shape,
    StrRule, UnionRule, Validate, Violation, Violations, or_null, some,
};
pub use {regress, serde, serde_json, sha2};

#[cfg(feature = "schemars")]
pub use schemars;

/// schemars' view of a required nullable field (`#[schemars(with = "OrNull<T>")]`): the
/// schema of `Option<T>` (`T` or `null`), but not an `Option`, so schemars lists the field
/// as required, as the catalog's schema does.
#[cfg(feature = "schemars")]
pub struct OrNull<T>(core::marker::PhantomData<T>);

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for OrNull<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Option<T> as schemars::JsonSchema>::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Option<T> as schemars::JsonSchema>::json_schema(generator)
    }
}
