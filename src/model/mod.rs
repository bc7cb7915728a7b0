//! The typed model of a catalog (docs/catalog-format.md), lowered by hand from the syntax tree.
//!
//! Every user-written name and value keeps its span in a [`Sp`]; spans never take part in
//! equality or hashing. Optional children stay `Option` so the linter, not the lowering,
//! decides how bad a missing `summary` is; what the schema cannot do without (an `effect`,
//! a resolvable type) is a lowering error.

use crate::diag::FileId;
pub use read::Keyword;
use read::keyword_enum;

pub mod codes;
pub mod inline;
pub mod lower;
pub mod read;
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
    /// A catalog built in code (tests, synthetic models): version `1.0.0` unless changed,
    /// no summary, no types, no tools, every span empty, file 0.
    pub fn new(name: impl Into<String>) -> Catalog {
        Catalog {
            file: FileId(0),
            name: Sp::new(name.into(), Span::default()),
            version: Sp::new("1.0.0".to_string(), Span::default()),
            summary: None,
            types: Vec::new(),
            tools: Vec::new(),
            span: Span::default(),
        }
    }

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

    /// The four MCP annotation hints derived from `effect` (docs/catalog-format.md).
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

keyword_enum! {
    /// Which schema of a tool. Direction matters for compatibility and for how strict a rule is.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Side {
        /// Written by the model, read by the server.
        Input = "input",
        /// Written by the server, read by clients.
        Output = "output",
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

keyword_enum! {
    /// Side-effect class, ordered from least to most side effect (docs/compatibility.md).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
    pub enum Effect {
        #[default]
        Read = "read",
        ExternalRead = "external-read",
        Preview = "preview",
        Update = "update",
        Append = "append",
        Destructive = "destructive",
    }
}

impl Effect {
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

impl Field {
    /// An optional field of type `kind` built in code: no default, doc or flags, every span
    /// empty.
    pub fn new(name: impl Into<String>, kind: TyKind) -> Field {
        Field {
            name: Sp::new(name.into(), Span::default()),
            ty: Ty::new(kind),
            required: false,
            default: None,
            sensitive: false,
            deprecated: false,
            doc: None,
            span: Span::default(),
        }
    }
}

/// A type with its constraints: the type of a field, or of an array's `items`.
#[derive(Debug, Clone, PartialEq)]
pub struct Ty {
    pub kind: TyKind,
    /// The type-name token (`"string"`, `"Invoice"`).
    pub span: Span,
}

impl Ty {
    /// A type built in code, with an empty span.
    pub fn new(kind: TyKind) -> Ty {
        Ty {
            kind,
            span: Span::default(),
        }
    }
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

keyword_enum! {
    /// The field types built into the format; any other type name is a declared `type`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum BuiltinType {
        String = "string",
        Integer = "integer",
        Number = "number",
        Boolean = "boolean",
        Cursor = "cursor",
        Timestamp = "timestamp",
        Array = "array",
        Object = "object",
    }
}

impl TyKind {
    /// The name a catalog author writes for this type.
    pub fn keyword(&self) -> &str {
        let builtin = match self {
            TyKind::String(_) => BuiltinType::String,
            TyKind::Integer(_) => BuiltinType::Integer,
            TyKind::Number(_) => BuiltinType::Number,
            TyKind::Boolean => BuiltinType::Boolean,
            TyKind::Cursor(_) => BuiltinType::Cursor,
            TyKind::Timestamp => BuiltinType::Timestamp,
            TyKind::Array(_) => BuiltinType::Array,
            TyKind::Object(_) => BuiltinType::Object,
            TyKind::Named(n) => return &n.value,
        };
        builtin.as_str()
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

keyword_enum! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Format {
        DateTime = "date-time",
        Date = "date",
        Email = "email",
        Uri = "uri",
        Uuid = "uuid",
    }
}

impl Format {
    /// Formats whose values have a bounded length (`bounds/string-unbounded` accepts them).
    pub fn is_bounded(self) -> bool {
        matches!(self, Format::DateTime | Format::Date | Format::Uuid)
    }
}

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

keyword_enum! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Unit {
        Minor = "minor",
        Ms = "ms",
        S = "s",
        Bytes = "bytes",
        Count = "count",
        Percent = "percent",
        BasisPoints = "basis-points",
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

keyword_enum! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum ErrorClass {
        InvalidArgument = "invalid-argument",
        PermissionDenied = "permission-denied",
        NotFound = "not-found",
        Conflict = "conflict",
        PreconditionFailed = "precondition-failed",
        BusinessRejected = "business-rejected",
        RateLimited = "rate-limited",
        Unavailable = "unavailable",
        Timeout = "timeout",
        BudgetExceeded = "budget-exceeded",
        Internal = "internal",
    }
}

impl ErrorClass {
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

keyword_enum! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Retry {
        FixArguments = "fix-arguments",
        Never = "never",
        AfterUserAction = "after-user-action",
        Backoff = "backoff",
        QueryStatus = "query-status",
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

keyword_enum! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum ConfirmDigest {
        Arguments = "arguments",
        ArgumentsResourceVersion = "arguments+resource-version",
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct OnTimeout {
    pub strategy: Sp<TimeoutStrategy>,
    /// With `query-status`: the read tool that tells the outcome.
    pub tool: Option<Sp<String>>,
    pub span: Span,
}

keyword_enum! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum TimeoutStrategy {
        QueryStatus = "query-status",
        RetryWithKey = "retry-with-key",
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

keyword_enum! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum InputKind {
        Confirmation = "confirmation",
        Choice = "choice",
        Credential = "credential",
        Text = "text",
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
