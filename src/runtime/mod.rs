//! The small module generated code links against: contract checks, tool-error encoding,
//! call results, the [`Catalog`] trait and the canonical-JSON digests.
//!
//! It depends only on `serde`, `serde_json`, `sha2`, `regress`, `regex`, `fancy-regex` and
//! `chrono` (and `schemars` with the `schemars` feature), and re-exports `serde`,
//! `serde_json`, `sha2`, `regress` and `chrono` (the time types of generated fields):
//! generated code names only `::catalogc`, so a crate that serves generated catalogs adds
//! one dependency and does not compile the compiler.

pub mod call;
pub mod canonical;
pub mod content;
pub mod context;
pub mod guard;
pub mod idempotency;
pub mod pattern;
pub mod policy;
pub mod profile;
pub mod serial;
pub mod time;
pub mod validate;

pub use call::{
    CallError, CallResult, Catalog, ErrorInfo, InputNeeded, InputRequest, Refusal, Reply,
    ToolError, ToolInfo, approval_digest, error_detail,
};
pub use content::{Content, Image, ImageBlock, Markdown, Text, ToolOutput};
pub use context::{
    Answer, Call, CallBuilder, Cancellation, Confirmation, Credential, Era, FromAnswers, Progress,
    ProgressSink, RawAnswers, RequestId, answer_text,
};
pub use guard::{Budget, BudgetDecision, Guard};
pub use idempotency::Idempotency;
pub use policy::Policy;
pub use profile::Profile;
pub use serial::{DeResult, Fields, SerResult, StrEnum, StructOut, deserialize_enum};
pub use time::{Date, DateTime};
pub use validate::{
    ArrayRule, Bound, ConstRule, FieldRule, Format, MapRule, NumRule, Pattern, Scalar, Shape,
    StrRule, UnionRule, Validate, Violation, Violations,
};
pub use {chrono, regress, serde, serde_json, sha2};

/// Every name generated code uses, behind one alias (`use ::catalogc::runtime::support as
/// __rt;`): the runtime's items and the standard ones, so a generated path is `__rt::Option`
/// rather than `::core::option::Option`. Fewer tokens per path make generation and users'
/// builds of large catalogs faster, and a catalog type named `Option` or `String` still
/// cannot shadow the standard one.
#[doc(hidden)]
pub mod support {
    pub use super::*;
    pub use core::clone::Clone;
    pub use core::cmp::{Eq, PartialEq};
    pub use core::default::Default;
    pub use core::fmt::{self, Debug, Display};
    pub use core::future::Future;
    pub use core::hash::Hash;
    pub use core::marker::{Copy, Send, Sync};
    pub use core::option::Option::{self, None, Some};
    pub use core::result::Result::{self, Err, Ok};
    pub use serde::{Deserialize, Deserializer, Serialize, Serializer};
    pub use std::collections::BTreeMap;
    pub use std::error::Error as StdError;
    pub use std::string::String;
    pub use std::vec::Vec;
}

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
