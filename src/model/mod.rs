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
mod policy;
pub mod read;
pub mod vocab;
pub use crate::syntax::{Span, Spanned as Sp};
pub use lower::lower;

/// Every catalog loaded in one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Project {
    /// The catalogs, in the order their files were loaded.
    pub catalogs: Vec<Catalog>,
}

#[derive(Debug, Clone, PartialEq)]
/// One lowered catalog file: its named types and tools.
pub struct Catalog {
    /// The file it was read from.
    pub file: FileId,
    /// The catalog's name (the `catalog` node's argument).
    pub name: Sp<String>,
    /// As written; `catalog/version` checks it is semver.
    pub version: Sp<String>,
    /// One line about the catalog as a whole.
    pub summary: Option<Sp<String>>,
    /// Named object types, in declaration order.
    pub types: Vec<TypeDef>,
    /// Tools, in declaration order.
    pub tools: Vec<Tool>,
    /// Tools that loading left out with an error (a schema over the inlining caps): nothing
    /// is built from them, but the named types they use are still in use.
    pub left_out: Vec<Tool>,
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
            left_out: Vec::new(),
            span: Span::default(),
        }
    }

    /// The named type `name`; with duplicates, the first declaration.
    pub fn type_def(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name.value == name)
    }

    /// The tool `name`; with duplicates, the first declaration.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name.value == name)
    }
}

#[derive(Debug, Clone, PartialEq)]
/// A named object type (`type "NAME" { field … }`), inlined wherever it is used.
pub struct TypeDef {
    /// The type's name as fields refer to it.
    pub name: Sp<String>,
    /// Its `doc` text, which becomes the schema `description`.
    pub doc: Option<Sp<String>>,
    /// Its fields, in declaration order.
    pub fields: Vec<Field>,
    /// The `type` node.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
/// One tool: what the model sees (texts, schemas) and what the server promises (effect,
/// errors, limits, idempotency).
pub struct Tool {
    /// The MCP tool name; unique across the project.
    pub name: Sp<String>,
    /// The tool's own version label, as written; `breaking` checks its bumps.
    pub version: Sp<String>,
    /// A human display title (MCP `title`).
    pub title: Option<Box<Sp<String>>>,
    /// One line: what the tool does.
    pub summary: Option<Sp<String>>,
    /// When the model should call the tool.
    pub when: Option<Sp<String>>,
    /// When it should not, and what to call instead.
    pub when_not: Option<Sp<String>>,
    /// The side-effect class; decides the MCP annotations.
    pub effect: Sp<Effect>,
    /// `effect … idempotent=#true`: an `append` or `destructive` tool whose repeated call
    /// has no further effect without a key (a delete by name, an upsert by natural key).
    pub idempotent: Option<Box<Sp<bool>>>,
    /// As written; see [`Tool::open_world`] for the effective value.
    pub open_world: Option<Box<Sp<bool>>>,
    /// Result size and time bounds, when declared.
    pub limits: Option<Box<Limits>>,
    /// The arguments; empty when the tool takes none.
    pub input: Object,
    /// The structured result, when declared.
    pub output: Option<Object>,
    /// `output kind="text"|"markdown"|"image"`: the result is MCP content blocks of this
    /// kind, not structured JSON (then `output` is `None`: there is no `outputSchema`).
    pub content: Option<Sp<ContentKind>>,
    /// The errors the tool may return, in declaration order.
    pub errors: Vec<ErrorDef>,
    /// How a repeated call is recognised, for write tools.
    pub idempotency: Option<Box<Idempotency>>,
    /// The confirmation a destructive call needs.
    pub confirm: Option<Box<Confirm>>,
    /// `resource key=`: the input field naming the resource a write changes; the server
    /// serializes the writes on one resource value.
    pub resource: Option<Box<Resource>>,
    /// What the model should do after a timeout.
    pub on_timeout: Option<Box<OnTimeout>>,
    /// Input the tool may ask the user for during the call.
    pub needs_input: Vec<NeedsInput>,
    /// Example requests, for the description and the evaluation export.
    pub examples: Examples,
    /// `example-call`: concrete calls with their result, for docs and `serve --mock`.
    pub example_calls: Vec<ExampleCall>,
    /// Set when the tool should no longer be used.
    pub deprecated: Option<Box<Deprecated>>,
    /// `stability "…"` as written; see [`Tool::stability`] for the effective level.
    pub stability: Option<Box<Sp<Stability>>>,
    /// Lint rules suppressed for this tool.
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
            idempotent: None,
            open_world: None,
            limits: None,
            input: Object::default(),
            output: None,
            content: None,
            errors: Vec::new(),
            idempotency: None,
            confirm: None,
            resource: None,
            on_timeout: None,
            needs_input: Vec::new(),
            examples: Examples::default(),
            example_calls: Vec::new(),
            deprecated: None,
            stability: None,
            allows: Vec::new(),
            span: Span::default(),
        }
    }

    /// `stability` as written, else [`Stability::Stable`].
    pub fn stability(&self) -> Stability {
        self.stability.as_ref().map(|s| s.value).unwrap_or_default()
    }

    /// The deprecation's sunset date, when declared.
    pub fn sunset(&self) -> Option<chrono::NaiveDate> {
        self.deprecated
            .as_ref()
            .and_then(|d| d.sunset.as_ref())
            .map(|s| s.value)
    }

    /// `open-world` as written, else `#true` for `external-read` and `#false` otherwise.
    pub fn open_world(&self) -> bool {
        self.open_world
            .as_ref()
            .map(|o| o.value)
            .unwrap_or(self.effect.value == Effect::ExternalRead)
    }

    /// A tool is safe to retry when its effect is read-class or `update`, it has
    /// `idempotency`, or its effect is declared `idempotent=#true`.
    pub fn safe_to_retry(&self) -> bool {
        !matches!(self.effect.value, Effect::Append | Effect::Destructive)
            || self.idempotency.is_some()
            || self.naturally_idempotent()
    }

    /// `effect … idempotent=#true`: repeating the call needs no key to be harmless.
    pub fn naturally_idempotent(&self) -> bool {
        self.idempotent.as_ref().is_some_and(|i| i.value)
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
                Effect::Append | Effect::Destructive => {
                    self.idempotency.is_some() || self.naturally_idempotent()
                }
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

keyword_enum! {
    /// How much a tool's contract is promised (`stability "…"`), from least to most.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
    pub enum Stability {
        /// Anything may change in any release: a breaking change needs no major version.
        Experimental = "experimental",
        /// Breaking changes need a major version, but `--policy no-major` lets them pass.
        Beta = "beta",
        /// The default: every promise of docs/compatibility.md holds.
        #[default]
        Stable = "stable",
    }
}

keyword_enum! {
    /// What an unstructured result is (`output kind="…"`): the MCP content block it is sent as.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum ContentKind {
        /// Plain text: one `text` content block.
        Text = "text",
        /// Markdown: one `text` content block whose text is Markdown.
        Markdown = "markdown",
        /// An image: one `image` content block (base64 data and its MIME type).
        Image = "image",
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// The MCP tool annotation hints (`readOnlyHint`, …), derived from the effect.
pub struct Annotations {
    /// The tool changes nothing (`readOnlyHint`).
    pub read_only: bool,
    /// A change may destroy or overwrite data (`destructiveHint`).
    pub destructive: bool,
    /// Repeating a call with the same arguments has no further effect (`idempotentHint`).
    pub idempotent: bool,
    /// The tool reaches outside the server's own data (`openWorldHint`).
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
/// A tool's `limits` node; each bound is absent unless written.
pub struct Limits {
    /// Most items one result returns.
    pub max_items: Option<Sp<u64>>,
    /// Largest result, in bytes.
    pub max_result_bytes: Option<Sp<u64>>,
    /// Longest a call may take, in milliseconds.
    pub timeout_ms: Option<Sp<u64>>,
    /// The `limits` node.
    pub span: Span,
}

/// The fields of an `input`, `output`, object field or named type.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    /// The fields, in declaration order.
    pub fields: Vec<Field>,
    /// The `input` / `output` node (or the owning field).
    pub span: Span,
    /// `extra TYPE …` of an `object` field: the object is open, and every property its
    /// fields do not name has this type. `None`: closed (only `object` fields can be open).
    pub extra: Option<Box<Extra>>,
}

/// The properties of an open object besides its fields (`extra TYPE …`), and the bounds of
/// its property count (`min-entries` / `max-entries` on the object field).
#[derive(Debug, Clone, PartialEq)]
pub struct Extra {
    /// The type of every undeclared property: a scalar type, `json`, an array, an object or
    /// a named type (see [`Extra::admits`]).
    pub values: Box<Ty>,
    /// `extra … nullable=#true`: an undeclared property may also be `null`.
    pub nullable: bool,
    /// `min-entries`: fewest properties, declared ones included.
    pub min_entries: Option<Sp<u64>>,
    /// `max-entries`: most properties, declared ones included.
    pub max_entries: Option<Sp<u64>>,
}

impl Object {
    /// Calls `f` on each field's type, then on the extras' type of an open object.
    pub fn each_ty<'a>(&'a self, f: &mut impl FnMut(&'a Ty)) {
        self.fields.iter().for_each(|field| f(&field.ty));
        if let Some(x) = &self.extra {
            f(&x.values);
        }
    }
}

impl Extra {
    /// Whether extra properties may have type `kind`: what a map's values may have (an
    /// open object's extras are its map of the properties its fields do not name).
    pub fn admits(kind: &TyKind) -> bool {
        MapTy::admits(kind)
    }
}

#[derive(Debug, Clone, PartialEq)]
/// One `field` of an object.
pub struct Field {
    /// The property name in the JSON object.
    pub name: Sp<String>,
    /// Its type and constraints.
    pub ty: Ty,
    /// The field must be present (`required=#true`).
    pub required: bool,
    /// `nullable=#true`: `null` is a value of the field, besides those of its type (a
    /// required nullable field is present, possibly `null`).
    pub nullable: bool,
    /// `default=`: the value a reader assumes when the field is absent.
    pub default: Option<Box<Sp<Literal>>>,
    /// `sensitive=#true`: the value is a secret or personal data; kept out of logs.
    pub sensitive: bool,
    /// `deprecated=#true`: still accepted, no longer to be used.
    pub deprecated: bool,
    /// Its `doc` text, which becomes the schema `description`.
    pub doc: Option<Sp<String>>,
    /// Its `title` child: a short human label, the schema `title`.
    pub title: Option<Box<Sp<String>>>,
    /// Its `examples` child: sample values, the schema `examples` (lint checks each against
    /// the field's own type and constraints).
    pub examples: Vec<Sp<serde_json::Value>>,
    /// `const=VALUE`: the only value the field takes (a string, number or boolean), the
    /// schema `const`; the discriminator of a tagged shape.
    pub constant: Option<Box<Sp<Literal>>>,
    /// `header="Name"`: on Streamable HTTP the client mirrors the argument into the
    /// `Mcp-Param-Name` request header (MCP `x-mcp-header`), so gateways can route on it.
    pub header: Option<Box<Sp<String>>>,
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
            nullable: false,
            default: None,
            sensitive: false,
            deprecated: false,
            doc: None,
            title: None,
            examples: Vec::new(),
            constant: None,
            header: None,
            span: Span::default(),
        }
    }
}

/// A type with its constraints: the type of a field, or of an array's `items`.
#[derive(Debug, Clone, PartialEq)]
pub struct Ty {
    /// The type itself.
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

    /// Calls `f` on each type directly inside this one: an array's items, a map's values,
    /// an object's field types and extras, each union variant's. The walkers that look for
    /// (and follow) named types go through this, so a new place a type can sit is added
    /// here once.
    pub fn each_child<'a>(&'a self, f: &mut impl FnMut(&'a Ty)) {
        match &self.kind {
            TyKind::Array(a) => f(&a.items),
            TyKind::Map(m) => f(&m.values),
            TyKind::Object(o) => o.each_ty(f),
            TyKind::Union(u) => u.variants.iter().for_each(|v| v.fields.each_ty(f)),
            _ => {}
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
/// The types a field can have, each with its own constraints.
pub enum TyKind {
    /// `string`.
    String(Box<StringTy>),
    /// `integer`: a number without a fractional part.
    Integer(Box<NumTy>),
    /// `number`: any finite number.
    Number(Box<NumTy>),
    /// `boolean`.
    Boolean,
    /// Opaque pagination cursor: a string, `maxLength` 512 unless `max_length` is given.
    Cursor(Box<StringTy>),
    /// RFC 3339 date-time with offset.
    Timestamp,
    /// `array`, with its `items` type.
    Array(Box<ArrayTy>),
    /// `object`, with its fields written inline.
    Object(Object),
    /// `map`: an object whose keys are free and whose values share one type (label maps,
    /// filters, options).
    Map(Box<MapTy>),
    /// `json`: any JSON value (the empty schema `{}`), for free-form payloads.
    Json,
    /// `union`: one of several object shapes, told apart by a discriminator property.
    Union(Box<UnionTy>),
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
        Map = "map",
        Json = "json",
        Union = "union",
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
            TyKind::Map(_) => BuiltinType::Map,
            TyKind::Json => BuiltinType::Json,
            TyKind::Union(_) => BuiltinType::Union,
            TyKind::Named(n) => return &n.value,
        };
        builtin.as_str()
    }
}

/// The cursor's `maxLength` when the author gives none.
pub const CURSOR_DEFAULT_MAX_LENGTH: u64 = 512;

#[derive(Debug, Clone, PartialEq, Default)]
/// The constraints of a `string` (or `cursor`) type; each absent unless written.
pub struct StringTy {
    /// `min-length`, in characters.
    pub min_length: Option<Sp<u64>>,
    /// `max-length`, in characters.
    pub max_length: Option<Sp<u64>>,
    /// `pattern`: an ECMA-262 regular expression the whole value matches.
    pub pattern: Option<Sp<String>>,
    /// `format`: a well-known string format.
    pub format: Option<Sp<Format>>,
    /// `enum`: the only values allowed.
    pub enum_values: Option<EnumValues>,
}

#[derive(Debug, Clone, PartialEq)]
/// A string type's `enum` child: the closed (or extensible) set of values.
pub struct EnumValues {
    /// The values, in declaration order.
    pub values: Vec<Sp<String>>,
    /// `extensible=#true` on the field: clients must accept values added later.
    pub extensible: bool,
    /// The `enum` node.
    pub span: Span,
}

keyword_enum! {
    /// A `format` of a string type.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Format {
        DateTime = "date-time",
        Date = "date",
        Email = "email",
        Uri = "uri",
        Uuid = "uuid",
        Ipv4 = "ipv4",
        Ipv6 = "ipv6",
        Hostname = "hostname",
        Time = "time",
    }
}

impl Format {
    /// Formats whose values have a bounded length (`bounds/string-unbounded` accepts them).
    pub fn is_bounded(self) -> bool {
        self.max_len().is_some()
    }

    /// The longest value of this format in characters, for formats that bound it. A date-time
    /// or time may carry any number of fraction digits; 40 and 32 cover milliseconds to
    /// nanoseconds with an offset, which is what servers write.
    pub fn max_len(self) -> Option<u64> {
        match self {
            Format::DateTime => Some(40),
            Format::Date => Some(10),
            Format::Uuid => Some(36),
            Format::Ipv4 => Some(15),
            // Eight groups, or six with an embedded IPv4 address.
            Format::Ipv6 => Some(45),
            // RFC 1123: at most 253 characters.
            Format::Hostname => Some(253),
            Format::Time => Some(32),
            Format::Email | Format::Uri => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
/// The constraints of an `integer` or `number` type; each absent unless written.
pub struct NumTy {
    /// `min`: smallest allowed value (inclusive).
    pub min: Option<Sp<Num>>,
    /// `max`: largest allowed value (inclusive).
    pub max: Option<Sp<Num>>,
    /// `exclusive-min`: the value must be greater.
    pub exclusive_min: Option<Sp<Num>>,
    /// `exclusive-max`: the value must be smaller.
    pub exclusive_max: Option<Sp<Num>>,
    /// `multiple-of`: the value is a multiple of it (positive).
    pub multiple_of: Option<Sp<Num>>,
    /// `unit`: what the number counts (minor currency units, milliseconds, …).
    pub unit: Option<Sp<Unit>>,
    /// `enum 1 2 3`: the only values allowed.
    pub enum_values: Option<NumEnum>,
}

#[derive(Debug, Clone, PartialEq)]
/// An `integer` or `number` type's `enum` child: the closed set of values (integers on an
/// `integer` field).
pub struct NumEnum {
    /// The values, in declaration order.
    pub values: Vec<Sp<Num>>,
    /// The `enum` node.
    pub span: Span,
}

/// A number as written in a bound: integers stay exact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// Written without a fraction or exponent.
    Int(i64),
    /// Finite.
    Float(f64),
}

impl Num {
    /// The value as a float (integers beyond 2^53 are rounded).
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// Equality as JSON numbers, as a hashable key: two numbers have one key exactly when
    /// their doubles are equal (`1` and `1.0`, `0` and `-0.0` alike). Model numbers are
    /// finite, so no NaN needs a key.
    pub fn key(self) -> u64 {
        let f = self.as_f64();
        if f == 0.0 { 0 } else { f.to_bits() }
    }
}

keyword_enum! {
    /// What a number counts, written `unit="…"`.
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
/// The constraints of an `array` type.
pub struct ArrayTy {
    /// `min-items`.
    pub min_items: Option<Sp<u64>>,
    /// `max-items`.
    pub max_items: Option<Sp<u64>>,
    /// `unique=#true`: no two items are equal.
    pub unique: bool,
    /// The `items` child; required, so always present after lowering.
    pub items: Box<Ty>,
    /// `items … nullable=#true`: `null` is an item besides the values of the items' type
    /// (a list with gaps, such as one cell per column).
    pub items_nullable: bool,
}

#[derive(Debug, Clone, PartialEq)]
/// The constraints of a `map` type.
pub struct MapTy {
    /// `min-entries`: fewest keys.
    pub min_entries: Option<Sp<u64>>,
    /// `max-entries`: most keys.
    pub max_entries: Option<Sp<u64>>,
    /// The `values` child: the type of every value; never a map or a union (see
    /// [`MapTy::admits`]), but an object, array or named type may hold fields.
    pub values: Box<Ty>,
    /// `values … nullable=#true`: a value may also be `null` (a label map where `null`
    /// removes the label).
    pub values_nullable: bool,
}

impl TyKind {
    /// Whether a value of this type is a structure with its own sites: an array, an object,
    /// a named type, a union or a map (not a scalar, not `json`).
    pub fn is_structured(&self) -> bool {
        matches!(
            self,
            TyKind::Array(_)
                | TyKind::Object(_)
                | TyKind::Named(_)
                | TyKind::Union(_)
                | TyKind::Map(_)
        )
    }
}

impl MapTy {
    /// Whether a map's values may have type `kind`: the scalars, `json`, arrays, objects and
    /// named types. Maps of maps and of unions are not part of the format.
    pub fn admits(kind: &TyKind) -> bool {
        !matches!(kind, TyKind::Map(_) | TyKind::Union(_))
    }
}

#[derive(Debug, Clone, PartialEq)]
/// A `union` type: objects told apart by the string constant of one property.
pub struct UnionTy {
    /// `discriminator=`: the property whose value names the variant.
    pub discriminator: Sp<String>,
    /// The `variant` children, in declaration order (at least two, names unique).
    pub variants: Vec<Variant>,
}

#[derive(Debug, Clone, PartialEq)]
/// One `variant "NAME" { field … }` of a union: a closed object whose discriminator property
/// is the constant `NAME`. The discriminator is implicit: `fields` never holds it.
pub struct Variant {
    /// The variant's name: the discriminator's value.
    pub name: Sp<String>,
    /// Its `doc` text, which becomes the schema `description` of the variant.
    pub doc: Option<Sp<String>>,
    /// Its fields besides the discriminator.
    pub fields: Object,
}

/// A `default=` value.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A string value.
    String(String),
    /// An integer value.
    Int(i64),
    /// Finite.
    Float(f64),
    /// `#true` or `#false`.
    Bool(bool),
    /// `#null`, on a `nullable=#true` field only.
    Null,
}

#[derive(Debug, Clone, PartialEq)]
/// One `error` a tool declares it may return.
pub struct ErrorDef {
    /// The machine-readable code (`invoice_not_found`); unique within the tool.
    pub code: Sp<String>,
    /// What kind of failure, which decides the allowed retry policies.
    pub class: Sp<ErrorClass>,
    /// As written; see [`ErrorDef::retry`].
    pub retry: Option<Sp<Retry>>,
    /// The message the model sees, when written.
    pub message: Option<Sp<String>>,
    /// What the model should do next, when written.
    pub next_step: Option<Sp<String>>,
    /// `detail { field … }`: the typed fields an occurrence of the error carries to the
    /// model beside its message (a closed object, part of the error's contract); `None`
    /// when the error declares none.
    pub detail: Option<Box<Object>>,
    /// The `error` node.
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
    /// The kind of failure an error is; decides its allowed retry policies.
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
    /// What the model may do after an error.
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
    /// `ttl-s`: how long the server remembers a key, in seconds.
    pub ttl_s: Option<Sp<u64>>,
    /// The `idempotency` node.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
/// `confirm digest=…`: a destructive call must carry a confirmation of what it does.
pub struct Confirm {
    /// What the confirmation digest covers.
    pub digest: Sp<ConfirmDigest>,
    /// The `confirm` node.
    pub span: Span,
}

keyword_enum! {
    /// What a confirmation digest covers.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum ConfirmDigest {
        Arguments = "arguments",
        ArgumentsResourceVersion = "arguments+resource-version",
    }
}

#[derive(Debug, Clone, PartialEq)]
/// `resource key="FIELD"`: the input field whose value names the resource a write tool
/// changes. Writes with the same value run one at a time (docs/runtime.md).
pub struct Resource {
    /// The input field.
    pub key: Sp<String>,
    /// The `resource` node.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
/// `on-timeout`: how the model recovers when a call times out.
pub struct OnTimeout {
    /// The recovery strategy.
    pub strategy: Sp<TimeoutStrategy>,
    /// With `query-status`: the read tool that tells the outcome.
    pub tool: Option<Sp<String>>,
    /// The `on-timeout` node.
    pub span: Span,
}

keyword_enum! {
    /// How the model recovers from a timeout.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum TimeoutStrategy {
        QueryStatus = "query-status",
        RetryWithKey = "retry-with-key",
    }
}

/// `needs-input "NAME" kind="confirmation" { doc "..." }`.
#[derive(Debug, Clone, PartialEq)]
pub struct NeedsInput {
    /// The name the input is asked for by.
    pub name: Sp<String>,
    /// What kind of input.
    pub kind: Sp<InputKind>,
    /// What to tell the user, when written.
    pub doc: Option<Sp<String>>,
    /// The `needs-input` node.
    pub span: Span,
}

keyword_enum! {
    /// What kind of input a tool may ask the user for.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum InputKind {
        Confirmation = "confirmation",
        Choice = "choice",
        Credential = "credential",
        Text = "text",
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
/// A tool's `examples`: requests that should and should not select it.
pub struct Examples {
    /// `call`: requests for which the model should call this tool.
    pub calls: Vec<Sp<String>>,
    /// `no-call`: requests for which it should not call any tool like it.
    pub no_calls: Vec<Sp<String>>,
    /// `confusable`: requests that belong to a similar tool, not this one.
    pub confusables: Vec<Sp<String>>,
}

/// `example-call "NAME" { arguments "JSON"; result "…" }`: one concrete call of the tool.
/// Documentation and mock data: it enters no hash.
#[derive(Debug, Clone, PartialEq)]
pub struct ExampleCall {
    /// Names the example (unique within the tool).
    pub name: Sp<String>,
    /// The arguments (`{}` when not written), checked against the input schema by lint.
    pub arguments: Sp<serde_json::Value>,
    /// The result, when written: checked against the output by lint.
    pub result: Option<Sp<ExampleResult>>,
    /// The `example-call` node.
    pub span: Span,
}

/// An example call's result, read by the tool's output kind.
#[derive(Debug, Clone, PartialEq)]
pub enum ExampleResult {
    /// The structured output (a tool with `output { … }` or none), as JSON.
    Json(serde_json::Value),
    /// The text or Markdown of an `output kind="text"`/`"markdown"` tool, verbatim.
    Text(String),
}

/// An ISO 8601 calendar date, `YYYY-MM-DD` exactly (`sunset=`, `CATALOGC_TODAY`).
pub fn parse_date(text: &str) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .filter(|_| text.len() == 10)
}

#[derive(Debug, Clone, PartialEq)]
/// A tool's `deprecated` node.
pub struct Deprecated {
    /// Why, when written.
    pub reason: Option<Sp<String>>,
    /// The tool to call instead, when named.
    pub replacement: Option<Sp<String>>,
    /// `since="1.4.0"`: the tool version that deprecated it, when written.
    pub since: Option<Sp<String>>,
    /// `sunset="2027-03-01"`: the first day the tool may be removed, when written.
    pub sunset: Option<Sp<chrono::NaiveDate>>,
    /// The `deprecated` node.
    pub span: Span,
}

/// `allow "RULE-ID" reason="..."`: suppresses one lint rule for the tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Allow {
    /// The rule ID to suppress.
    pub rule: Sp<String>,
    /// Why (`allow/without-reason` asks for one).
    pub reason: Option<Sp<String>>,
    /// The `allow` node.
    pub span: Span,
}

#[cfg(test)]
mod layout {
    use super::*;

    #[test]
    fn dates_parse_strictly() {
        assert_eq!(
            parse_date("2027-03-01"),
            chrono::NaiveDate::from_ymd_opt(2027, 3, 1)
        );
        for bad in ["2027-3-1", "2027-02-30", "tomorrow", "2027-03-01T00:00", ""] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    /// The model of an 8 MiB catalog must stay within the hostile-input memory budget
    /// (`benches/hostile.rs`): a field or tool that grows again fails here, not there. Rare
    /// parts live behind `Option<Box<…>>`; grow those instead.
    #[test]
    fn the_model_types_stay_small() {
        let sizes = [
            ("Tool", size_of::<Tool>(), 608),
            ("Field", size_of::<Field>(), 224),
            ("Ty", size_of::<Ty>(), 64),
            ("Object", size_of::<Object>(), 48),
            ("TypeDef", size_of::<TypeDef>(), 120),
        ];
        for (name, size, most) in sizes {
            assert!(size <= most, "{name} is {size} bytes, more than {most}");
        }
    }
}
