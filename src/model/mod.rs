//! The typed model of a catalog (catalog-format.md), lowered by hand from the syntax tree.
//!
//! Every user-written name and value keeps its span in a [`Sp`]; spans never take part in
//! equality or hashing. Optional children stay `Option` so the linter, not the lowering,
//! decides how bad a missing `summary` is; what the schema cannot do without (an `effect`,
//! a resolvable type) is a lowering error.

use crate::diag::FileId;

pub mod lower;
pub use crate::syntax::{Span, Spanned as Sp};
pub use lower::lower;

/// Every catalog loaded in one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Project {
    pub catalogs: Vec<Catalog>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    pub file: FileId,
    pub name: Sp<String>,
    /// As written; `catalog/version` checks it is semver.
    pub version: Sp<String>,
    pub summary: Option<Sp<String>>,
    /// Named object types, in declaration order.
    pub types: Vec<TypeDef>,
    /// Tools, in declaration order.
    pub tools: Vec<Tool>,
    /// The `catalog` node.
    pub span: Span,
}

impl Catalog {
    pub fn type_def(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name.value == name)
    }

    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name.value == name)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    pub name: Sp<String>,
    pub doc: Option<Sp<String>>,
    pub fields: Vec<Field>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: Sp<String>,
    pub version: Sp<String>,
    pub title: Option<Sp<String>>,
    pub summary: Option<Sp<String>>,
    pub when: Option<Sp<String>>,
    pub when_not: Option<Sp<String>>,
    pub effect: Sp<Effect>,
    /// As written; see [`Tool::open_world`] for the effective value.
    pub open_world: Option<Sp<bool>>,
    pub limits: Option<Limits>,
    pub input: Object,
    pub output: Option<Object>,
    pub errors: Vec<ErrorDef>,
    pub idempotency: Option<Idempotency>,
    pub confirm: Option<Confirm>,
    pub on_timeout: Option<OnTimeout>,
    pub needs_input: Vec<NeedsInput>,
    pub examples: Examples,
    pub deprecated: Option<Deprecated>,
    pub allows: Vec<Allow>,
    /// The `tool` node.
    pub span: Span,
}

impl Tool {
    /// A tool with only a name, a version and an effect, an empty `input` and every optional
    /// part absent, all at empty spans: the start of a model built in code rather than read
    /// from a file (tests, importers).
    pub fn new(name: impl Into<String>, version: impl Into<String>, effect: Effect) -> Tool {
        Tool {
            name: Sp::new(name.into(), Span::default()),
            version: Sp::new(version.into(), Span::default()),
            title: None,
            summary: None,
            when: None,
            when_not: None,
            effect: Sp::new(effect, Span::default()),
            open_world: None,
            limits: None,
            input: Object::default(),
            output: None,
            errors: Vec::new(),
            idempotency: None,
            confirm: None,
            on_timeout: None,
            needs_input: Vec::new(),
            examples: Examples::default(),
            deprecated: None,
            allows: Vec::new(),
            span: Span::default(),
        }
    }

    /// `open-world` as written, else `#true` for `external-read` and `#false` otherwise.
    pub fn open_world(&self) -> bool {
        self.open_world
            .as_ref()
            .map(|o| o.value)
            .unwrap_or(self.effect.value == Effect::ExternalRead)
    }

    /// A tool is safe to retry when its effect is read-class or `update`, or it has
    /// `idempotency`.
    pub fn safe_to_retry(&self) -> bool {
        !matches!(self.effect.value, Effect::Append | Effect::Destructive)
            || self.idempotency.is_some()
    }

    /// The `input` or `output` object; `None` for a tool without `output`.
    pub fn object(&self, side: Side) -> Option<&Object> {
        match side {
            Side::Input => Some(&self.input),
            Side::Output => self.output.as_ref(),
        }
    }

    /// The four MCP annotation hints derived from `effect` (catalog-format.md).
    pub fn annotations(&self) -> Annotations {
        let e = self.effect.value;
        Annotations {
            read_only: e.is_read_class(),
            destructive: matches!(e, Effect::Update | Effect::Destructive),
            idempotent: match e {
                Effect::Append | Effect::Destructive => self.idempotency.is_some(),
                _ => true,
            },
            open_world: self.open_world(),
        }
    }
}

/// Which schema of a tool. Direction matters for compatibility and for how strict a rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Written by the model, read by the server.
    Input,
    /// Written by the server, read by clients.
    Output,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Input => "input",
            Side::Output => "output",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// Side-effect class, ordered from least to most side effect (compat.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Effect {
    #[default]
    Read,
    ExternalRead,
    Preview,
    Update,
    Append,
    Destructive,
}

impl Effect {
    pub const ALL: [Effect; 6] = [
        Effect::Read,
        Effect::ExternalRead,
        Effect::Preview,
        Effect::Update,
        Effect::Append,
        Effect::Destructive,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::ExternalRead => "external-read",
            Effect::Preview => "preview",
            Effect::Update => "update",
            Effect::Append => "append",
            Effect::Destructive => "destructive",
        }
    }

    pub fn parse(s: &str) -> Option<Effect> {
        Effect::ALL.into_iter().find(|e| e.as_str() == s)
    }

    /// `read`, `external-read`, `preview`.
    pub fn is_read_class(self) -> bool {
        matches!(self, Effect::Read | Effect::ExternalRead | Effect::Preview)
    }

    /// `append`, `update`, `destructive`.
    pub fn is_write(self) -> bool {
        !self.is_read_class()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    pub max_items: Option<Sp<u64>>,
    pub max_result_bytes: Option<Sp<u64>>,
    pub timeout_ms: Option<Sp<u64>>,
    pub span: Span,
}

/// The fields of an `input`, `output`, object field or named type.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    pub fields: Vec<Field>,
    /// The `input` / `output` node (or the owning field).
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: Sp<String>,
    pub ty: Ty,
    pub required: bool,
    pub default: Option<Sp<Literal>>,
    pub sensitive: bool,
    pub deprecated: bool,
    pub doc: Option<Sp<String>>,
    /// The `field` node.
    pub span: Span,
}

/// A type with its constraints: the type of a field, or of an array's `items`.
#[derive(Debug, Clone, PartialEq)]
pub struct Ty {
    pub kind: TyKind,
    /// The type-name token (`"string"`, `"Invoice"`).
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TyKind {
    String(StringTy),
    Integer(NumTy),
    Number(NumTy),
    Boolean,
    /// Opaque pagination cursor: a string, `maxLength` 512 unless `max_length` is given.
    Cursor(StringTy),
    /// RFC 3339 date-time with offset.
    Timestamp,
    Array(ArrayTy),
    Object(Object),
    /// A named `type` of the same catalog, inlined in schemas. Resolved at lowering: a
    /// missing or recursive type is an error, so consumers may rely on it existing.
    Named(Sp<String>),
}

impl TyKind {
    /// The name a catalog author writes for this type.
    pub fn keyword(&self) -> &str {
        match self {
            TyKind::String(_) => "string",
            TyKind::Integer(_) => "integer",
            TyKind::Number(_) => "number",
            TyKind::Boolean => "boolean",
            TyKind::Cursor(_) => "cursor",
            TyKind::Timestamp => "timestamp",
            TyKind::Array(_) => "array",
            TyKind::Object(_) => "object",
            TyKind::Named(n) => &n.value,
        }
    }
}

/// The cursor's `maxLength` when the author gives none.
pub const CURSOR_DEFAULT_MAX_LENGTH: u64 = 512;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct StringTy {
    pub min_length: Option<Sp<u64>>,
    pub max_length: Option<Sp<u64>>,
    pub pattern: Option<Sp<String>>,
    pub format: Option<Sp<Format>>,
    pub enum_values: Option<EnumValues>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EnumValues {
    pub values: Vec<Sp<String>>,
    /// `extensible=#true` on the field: clients must accept values added later.
    pub extensible: bool,
    /// The `enum` node.
    pub span: Span,
}

/// String formats: the runtime's enum, so generated checks and the model name them alike.
pub use crate::runtime::Format;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct NumTy {
    pub min: Option<Sp<Num>>,
    pub max: Option<Sp<Num>>,
    pub exclusive_min: Option<Sp<Num>>,
    pub exclusive_max: Option<Sp<Num>>,
    pub multiple_of: Option<Sp<Num>>,
    pub unit: Option<Sp<Unit>>,
}

/// A number as written in a bound: integers stay exact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Int(i64),
    /// Finite.
    Float(f64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    Minor,
    Ms,
    S,
    Bytes,
    Count,
    Percent,
    BasisPoints,
}

impl Unit {
    pub const ALL: [Unit; 7] = [
        Unit::Minor,
        Unit::Ms,
        Unit::S,
        Unit::Bytes,
        Unit::Count,
        Unit::Percent,
        Unit::BasisPoints,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Minor => "minor",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Bytes => "bytes",
            Unit::Count => "count",
            Unit::Percent => "percent",
            Unit::BasisPoints => "basis-points",
        }
    }

    pub fn parse(s: &str) -> Option<Unit> {
        Unit::ALL.into_iter().find(|u| u.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ArrayTy {
    pub min_items: Option<Sp<u64>>,
    pub max_items: Option<Sp<u64>>,
    pub unique: bool,
    /// The `items` child; required, so always present after lowering.
    pub items: Box<Ty>,
}

/// A `default=` value.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    String(String),
    Int(i64),
    /// Finite.
    Float(f64),
    Bool(bool),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ErrorDef {
    pub code: Sp<String>,
    pub class: Sp<ErrorClass>,
    /// As written; see [`ErrorDef::retry`].
    pub retry: Option<Sp<Retry>>,
    pub message: Option<Sp<String>>,
    pub next_step: Option<Sp<String>>,
    pub span: Span,
}

impl ErrorDef {
    /// The retry policy as written, else the class's default.
    pub fn retry(&self) -> Retry {
        self.retry
            .as_ref()
            .map(|r| r.value)
            .unwrap_or(self.class.value.allowed_retries()[0])
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    InvalidArgument,
    PermissionDenied,
    NotFound,
    Conflict,
    PreconditionFailed,
    BusinessRejected,
    RateLimited,
    Unavailable,
    Timeout,
    BudgetExceeded,
    Internal,
}

impl ErrorClass {
    pub const ALL: [ErrorClass; 11] = [
        ErrorClass::InvalidArgument,
        ErrorClass::PermissionDenied,
        ErrorClass::NotFound,
        ErrorClass::Conflict,
        ErrorClass::PreconditionFailed,
        ErrorClass::BusinessRejected,
        ErrorClass::RateLimited,
        ErrorClass::Unavailable,
        ErrorClass::Timeout,
        ErrorClass::BudgetExceeded,
        ErrorClass::Internal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorClass::InvalidArgument => "invalid-argument",
            ErrorClass::PermissionDenied => "permission-denied",
            ErrorClass::NotFound => "not-found",
            ErrorClass::Conflict => "conflict",
            ErrorClass::PreconditionFailed => "precondition-failed",
            ErrorClass::BusinessRejected => "business-rejected",
            ErrorClass::RateLimited => "rate-limited",
            ErrorClass::Unavailable => "unavailable",
            ErrorClass::Timeout => "timeout",
            ErrorClass::BudgetExceeded => "budget-exceeded",
            ErrorClass::Internal => "internal",
        }
    }

    pub fn parse(s: &str) -> Option<ErrorClass> {
        ErrorClass::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The retry policies this class allows; the first is the default.
    pub fn allowed_retries(self) -> &'static [Retry] {
        use Retry::*;
        match self {
            ErrorClass::InvalidArgument => &[FixArguments, Never],
            ErrorClass::PermissionDenied => &[Never],
            ErrorClass::NotFound => &[Never, FixArguments],
            ErrorClass::Conflict => &[AfterUserAction, Never],
            ErrorClass::PreconditionFailed => &[AfterUserAction, Never],
            ErrorClass::BusinessRejected => &[AfterUserAction, Never],
            ErrorClass::RateLimited => &[Backoff, Never],
            ErrorClass::Unavailable => &[Backoff, Never],
            ErrorClass::Timeout => &[QueryStatus, Never],
            ErrorClass::BudgetExceeded => &[Never],
            ErrorClass::Internal => &[Never],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Retry {
    FixArguments,
    Never,
    AfterUserAction,
    Backoff,
    QueryStatus,
}

impl Retry {
    pub const ALL: [Retry; 5] = [
        Retry::FixArguments,
        Retry::Never,
        Retry::AfterUserAction,
        Retry::Backoff,
        Retry::QueryStatus,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Retry::FixArguments => "fix-arguments",
            Retry::Never => "never",
            Retry::AfterUserAction => "after-user-action",
            Retry::Backoff => "backoff",
            Retry::QueryStatus => "query-status",
        }
    }

    pub fn parse(s: &str) -> Option<Retry> {
        Retry::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// `idempotency key="FIELD" scope="tenant" "operation" ttl-s=86400`.
#[derive(Debug, Clone, PartialEq)]
pub struct Idempotency {
    /// The input field carrying the key.
    pub key: Sp<String>,
    /// What a key is unique within: the `scope=` value followed by the node's arguments
    /// (`["tenant", "operation"]`).
    pub scope: Vec<Sp<String>>,
    pub ttl_s: Option<Sp<u64>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    pub digest: Sp<ConfirmDigest>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConfirmDigest {
    Arguments,
    ArgumentsResourceVersion,
}

impl ConfirmDigest {
    pub fn as_str(self) -> &'static str {
        match self {
            ConfirmDigest::Arguments => "arguments",
            ConfirmDigest::ArgumentsResourceVersion => "arguments+resource-version",
        }
    }

    pub fn parse(s: &str) -> Option<ConfirmDigest> {
        [
            ConfirmDigest::Arguments,
            ConfirmDigest::ArgumentsResourceVersion,
        ]
        .into_iter()
        .find(|d| d.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct OnTimeout {
    pub strategy: Sp<TimeoutStrategy>,
    /// With `query-status`: the read tool that tells the outcome.
    pub tool: Option<Sp<String>>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeoutStrategy {
    QueryStatus,
    RetryWithKey,
}

impl TimeoutStrategy {
    pub fn as_str(self) -> &'static str {
        match self {
            TimeoutStrategy::QueryStatus => "query-status",
            TimeoutStrategy::RetryWithKey => "retry-with-key",
        }
    }

    pub fn parse(s: &str) -> Option<TimeoutStrategy> {
        [TimeoutStrategy::QueryStatus, TimeoutStrategy::RetryWithKey]
            .into_iter()
            .find(|t| t.as_str() == s)
    }
}

/// `needs-input "NAME" kind="confirmation" { doc "..." }`.
#[derive(Debug, Clone, PartialEq)]
pub struct NeedsInput {
    pub name: Sp<String>,
    pub kind: Sp<InputKind>,
    pub doc: Option<Sp<String>>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputKind {
    Confirmation,
    Choice,
    Credential,
    Text,
}

impl InputKind {
    pub const ALL: [InputKind; 4] = [
        InputKind::Confirmation,
        InputKind::Choice,
        InputKind::Credential,
        InputKind::Text,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            InputKind::Confirmation => "confirmation",
            InputKind::Choice => "choice",
            InputKind::Credential => "credential",
            InputKind::Text => "text",
        }
    }

    pub fn parse(s: &str) -> Option<InputKind> {
        InputKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Examples {
    pub calls: Vec<Sp<String>>,
    pub no_calls: Vec<Sp<String>>,
    pub confusables: Vec<Sp<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Deprecated {
    pub reason: Option<Sp<String>>,
    pub replacement: Option<Sp<String>>,
    pub span: Span,
}

/// `allow "RULE-ID" reason="..."`: suppresses one lint rule for the tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Allow {
    pub rule: Sp<String>,
    pub reason: Option<Sp<String>>,
    pub span: Span,
}
