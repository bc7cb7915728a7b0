//! The naming step: every Rust name of a catalog's generated code, resolved before any
//! token is built, so emission never invents a name and two catalog names never meet as one
//! Rust name.
//!
//! Scopes and rules (all deterministic, in declaration order):
//! - catalog root: `Catalog` (the served catalog's unit struct) is reserved; the handler
//!   trait is the catalog name in Pascal case (`Catalog2` for a catalog named `catalog`);
//!   each named `type` gets its Pascal name once; enums and objects nested in a
//!   named type are `{Type}{Field}`;
//! - tool modules: one per tool (the tool name in snake case), distinct within the catalog;
//! - in a tool module `Input`, `Output`, `Error`, `NeedsInput` and `Reply` are reserved; an
//!   enum or object of a top-level field is `{Field}`, else `{Owner}{Field}`; array items
//!   are named after the array field with `Item`;
//! - fields are snake case, enum variants and error codes Pascal case, each distinct within
//!   its type; keywords become raw (`r#type`) or take a `_` suffix (`self_`), a leading digit
//!   a prefix (`_2fa`, `V2fa`).

use crate::model::{Catalog, ErrorDef, Extra, Field, NeedsInput, Num, NumTy, Tool, Ty, TyKind};
use crate::names::{Case, Unique, pascal_case, rust_ident};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The Rust type of a field.
#[derive(Debug, Clone, PartialEq)]
pub enum RTy {
    String,
    /// An `integer`: the smallest Rust integer type holding its bounds.
    Int(IntTy),
    F64,
    Bool,
    Vec(Box<RTy>),
    /// A `map`: `BTreeMap<String, T>`, keys in order so output is deterministic.
    Map(Box<RTy>),
    /// A `json` value: `serde_json::Value`.
    Json,
    /// A `timestamp` or `format="date-time"` string: `runtime::DateTime`.
    DateTime,
    /// A `format="date"` string: `runtime::Date`.
    Date,
    /// A nullable array item, map value or extra property (`nullable=#true`): `Option<T>`,
    /// `None` being `null`.
    Nullable(Box<RTy>),
    /// An enum or struct generated in the same scope.
    Local(String),
    /// A named `type` at the catalog root.
    Root(String),
}

/// The Rust integer types, smallest first; of two the same size, the unsigned one first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntTy {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
}

impl IntTy {
    const ALL: [IntTy; 8] = [
        IntTy::U8,
        IntTy::I8,
        IntTy::U16,
        IntTy::I16,
        IntTy::U32,
        IntTy::I32,
        IntTy::U64,
        IntTy::I64,
    ];

    /// The type's name in Rust.
    pub fn name(self) -> &'static str {
        match self {
            IntTy::U8 => "u8",
            IntTy::I8 => "i8",
            IntTy::U16 => "u16",
            IntTy::I16 => "i16",
            IntTy::U32 => "u32",
            IntTy::I32 => "i32",
            IntTy::U64 => "u64",
            IntTy::I64 => "i64",
        }
    }

    /// The smallest and largest value.
    fn range(self) -> (i128, i128) {
        match self {
            IntTy::U8 => (0, u8::MAX.into()),
            IntTy::I8 => (i8::MIN.into(), i8::MAX.into()),
            IntTy::U16 => (0, u16::MAX.into()),
            IntTy::I16 => (i16::MIN.into(), i16::MAX.into()),
            IntTy::U32 => (0, u32::MAX.into()),
            IntTy::I32 => (i32::MIN.into(), i32::MAX.into()),
            IntTy::U64 => (0, u64::MAX.into()),
            IntTy::I64 => (i64::MIN.into(), i64::MAX.into()),
        }
    }

    /// The smallest type holding every value `n` admits: its bounds (inclusive or
    /// exclusive) and enum values, a missing side standing for `i64`'s end. A range no
    /// type holds (bounds beyond `i64` below) or that is empty stays `i64`.
    pub fn of(n: &NumTy) -> IntTy {
        let (mut lo, mut hi) = IntTy::I64.range();
        let mut raise = |v: i128| lo = lo.max(v);
        if let Some(m) = &n.min {
            raise(ceil(m.value));
        }
        if let Some(m) = &n.exclusive_min {
            raise(floor(m.value) + 1);
        }
        let mut lower = |v: i128| hi = hi.min(v);
        if let Some(m) = &n.max {
            lower(floor(m.value));
        }
        if let Some(m) = &n.exclusive_max {
            lower(ceil(m.value) - 1);
        }
        if let Some(e) = &n.enum_values {
            let values = e.values.iter().map(|v| floor(v.value));
            if let (Some(min), Some(max)) = (values.clone().min(), values.max()) {
                lo = lo.max(min);
                hi = hi.min(max);
            }
        }
        if lo > hi {
            return IntTy::I64;
        }
        IntTy::ALL
            .into_iter()
            .find(|t| {
                let (min, max) = t.range();
                min <= lo && hi <= max
            })
            .unwrap_or(IntTy::I64)
    }
}

/// The largest integer not above `n` (a bound far beyond `i64` as `i64`'s end).
fn floor(n: Num) -> i128 {
    match n {
        Num::Int(i) => i.into(),
        Num::Float(f) => clamped(f.floor()),
    }
}

/// The smallest integer not below `n`.
fn ceil(n: Num) -> i128 {
    match n {
        Num::Int(i) => i.into(),
        Num::Float(f) => clamped(f.ceil()),
    }
}

/// A whole float as an integer, within `u64`'s and `i64`'s ranges together.
fn clamped(f: f64) -> i128 {
    if f.is_nan() {
        0
    } else if f >= 18_446_744_073_709_551_615.0 {
        u64::MAX.into()
    } else if f <= -9_223_372_036_854_775_808.0 {
        i64::MIN.into()
    } else {
        // Whole and within range: exact.
        f as i128
    }
}

#[derive(Debug)]
pub struct FieldPlan<'a> {
    pub field: &'a Field,
    pub ident: String,
    pub ty: RTy,
    /// The variant of a `default=` on an enum field.
    pub default_variant: Option<String>,
}

#[derive(Debug)]
pub struct StructPlan<'a> {
    pub ident: String,
    pub doc: Option<Cow<'a, str>>,
    pub fields: Vec<FieldPlan<'a>>,
    /// An open object's other properties: the Rust field holding them (a map after the
    /// named fields) and the type of each value.
    pub extra: Option<ExtraPlan<'a>>,
    /// Every field's type is `Eq` and `Hash` (no `f64`, no JSON value, at any depth).
    pub hash: bool,
}

/// The `extra` of an open object: `pub {ident}: BTreeMap<String, {ty}>`.
#[derive(Debug)]
pub struct ExtraPlan<'a> {
    pub extra: &'a Extra,
    pub ident: String,
    pub ty: RTy,
}

#[derive(Debug)]
pub struct EnumPlan<'a> {
    pub ident: String,
    pub doc: Option<&'a str>,
    /// Variant identifier and the JSON value it stands for.
    pub variants: Vec<(String, &'a str)>,
}

/// A `union`: a serde internally tagged enum with one struct per variant.
#[derive(Debug)]
pub struct UnionPlan<'a> {
    pub ident: String,
    pub doc: Option<&'a str>,
    /// The discriminator property (the serde `tag`).
    pub discriminator: &'a str,
    /// Variant identifier, its JSON name and the struct holding its other fields.
    pub variants: Vec<(String, &'a str, String)>,
    /// Every variant's struct is `Eq` and `Hash`.
    pub hash: bool,
}

#[derive(Debug)]
pub enum Item<'a> {
    Struct(StructPlan<'a>),
    Enum(EnumPlan<'a>),
    Union(UnionPlan<'a>),
}

#[derive(Debug)]
pub struct ToolPlan<'a> {
    pub tool: &'a Tool,
    /// Module and handler method name.
    pub module: String,
    /// `Input`, `Output` and their nested types, in that order.
    pub items: Vec<Item<'a>>,
    pub errors: Vec<(String, &'a ErrorDef)>,
    /// The struct of each of `errors`' detail fields (`{Variant}Detail`, one of `items`),
    /// when it declares them; in the same order.
    pub details: Vec<Option<String>>,
    /// Every detail struct is `Eq` and `Hash`, so `Error` can derive them.
    pub error_hash: bool,
    pub needs: Vec<(String, &'a NeedsInput)>,
    /// The field of each of `needs` in the tool's `Answers`, in the same order.
    pub answer_fields: Vec<String>,
}

#[derive(Debug)]
pub struct CatalogPlan<'a> {
    pub cat: &'a Catalog,
    pub trait_ident: String,
    /// Named types and their nested types.
    pub types: Vec<Item<'a>>,
    pub tools: Vec<ToolPlan<'a>>,
}

/// Resolves every name of `cat`'s generated code.
pub fn plan(cat: &Catalog) -> CatalogPlan<'_> {
    // `Catalog` is the unit struct every generated module declares; the handler trait takes
    // the catalog's name unless that is `Catalog` (a catalog named `catalog`), then the next
    // free one. Named types are claimed after it, so none takes the trait's name either.
    let mut root = Unique::with_reserved(["Catalog"]);
    let trait_ident = root.claim(rust_ident(&cat.name.value, Case::Pascal), Case::Pascal);
    // Named types first, so a use before the declaration finds the name.
    let named: HashMap<&str, String> = cat
        .types
        .iter()
        .map(|t| {
            let ident = root.claim(rust_ident(&t.name.value, Case::Pascal), Case::Pascal);
            (t.name.value.as_str(), ident)
        })
        .collect();
    let mut types = Vec::new();
    let mut enums = Vec::new();
    for t in &cat.types {
        let ident = named
            .get(t.name.value.as_str())
            .cloned()
            .unwrap_or_default();
        let mut s = Scope {
            unique: &mut root,
            named: &named,
            items: &mut types,
            enums: &mut enums,
            in_root: true,
            top_level: false,
        };
        s.structure(ident, t.doc.as_ref().map(|d| d.value.as_str()), &t.fields);
    }
    let root_unhashable = mark_hashable(&mut types, &HashSet::new());
    // `__rt` is the runtime alias every generated module imports.
    let mut modules = Unique::with_reserved(["__rt"]);
    let tools = cat
        .tools
        .iter()
        .map(|tool| {
            let module = modules.claim(rust_ident(&tool.name.value, Case::Snake), Case::Snake);
            let mut unique = Unique::with_reserved([
                "Input",
                "Output",
                "Error",
                "NeedsInput",
                "Reply",
                "Answers",
                "Call",
            ]);
            let mut items = Vec::new();
            // The root's enums, then the tool's own: a value set has one type.
            let mut tool_enums = enums.clone();
            let mut s = Scope {
                unique: &mut unique,
                named: &named,
                items: &mut items,
                enums: &mut tool_enums,
                in_root: false,
                top_level: true,
            };
            // `Input` and `Output` are documented by the tool's summary.
            let summary = tool.summary.as_ref().map(|s| s.value.as_str());
            s.structure("Input".into(), summary, &tool.input.fields);
            // An unstructured result is a runtime type (`emit` aliases it), not a struct.
            if tool.content.is_none() {
                let output = tool.output.as_ref().map_or(&[][..], |o| &o.fields[..]);
                s.structure("Output".into(), summary, output);
            }
            // `Internal` is every tool's internal error.
            let errors = pascal_names(["Internal"], &tool.errors, |e| &e.code.value);
            let details: Vec<Option<String>> = errors
                .iter()
                .map(|(variant, e)| {
                    let detail = e.detail.as_ref()?;
                    let ident = s
                        .unique
                        .claim_first(&[format!("{variant}Detail")], Case::Pascal);
                    let at = s.items.len();
                    s.structure(ident.clone(), None, &detail.fields);
                    if let Some(Item::Struct(plan)) = s.items.get_mut(at) {
                        plan.doc = Some(Cow::Owned(format!(
                            "The detail of error `{}`, sent to the model beside its message.",
                            e.code.value
                        )));
                    }
                    Some(ident)
                })
                .collect();
            let unhashable = mark_hashable(&mut items, &root_unhashable);
            let error_hash = details.iter().flatten().all(|d| !unhashable.contains(d));
            let needs = pascal_names([], &tool.needs_input, |n| &n.name.value);
            let answer_fields = unique_names(Case::Snake, [], &tool.needs_input, |n| &n.name.value);
            ToolPlan {
                tool,
                module,
                items,
                errors,
                details,
                error_hash,
                needs,
                answer_fields,
            }
        })
        .collect();
    CatalogPlan {
        cat,
        trait_ident,
        types,
        tools,
    }
}

/// Sets `hash` on the structs and unions of one scope: `Eq` and `Hash` can be derived when
/// every field's type has them, a type of the scope (`Local`) or of the root (`Root`, in
/// `root_unhashable` when not) included. Starts from every item hashable and clears the
/// ones a field prevents until nothing changes, so recursive types stay hashable. Returns
/// the idents of the scope's items that are not.
fn mark_hashable(items: &mut [Item<'_>], root_unhashable: &HashSet<String>) -> HashSet<String> {
    let mut not: HashSet<String> = HashSet::new();
    loop {
        let before = not.len();
        for item in items.iter() {
            let (ident, hashable) = match item {
                Item::Struct(s) => {
                    let tys = s
                        .fields
                        .iter()
                        .map(|f| &f.ty)
                        .chain(s.extra.iter().map(|x| &x.ty));
                    let ok = tys.into_iter().all(|t| hashable(t, &not, root_unhashable));
                    (&s.ident, ok)
                }
                Item::Union(u) => (
                    &u.ident,
                    u.variants.iter().all(|(_, _, sid)| !not.contains(sid)),
                ),
                Item::Enum(_) => continue,
            };
            if !hashable {
                not.insert(ident.clone());
            }
        }
        if not.len() == before {
            break;
        }
    }
    for item in items.iter_mut() {
        match item {
            Item::Struct(s) => s.hash = !not.contains(&s.ident),
            Item::Union(u) => u.hash = !not.contains(&u.ident),
            Item::Enum(_) => {}
        }
    }
    not
}

/// Whether `ty` is `Eq` and `Hash`, given the scope's and the root's items that are not.
fn hashable(ty: &RTy, local: &HashSet<String>, root: &HashSet<String>) -> bool {
    match ty {
        RTy::String | RTy::Int(_) | RTy::Bool | RTy::DateTime | RTy::Date => true,
        RTy::F64 | RTy::Json => false,
        RTy::Vec(inner) | RTy::Map(inner) | RTy::Nullable(inner) => hashable(inner, local, root),
        RTy::Local(name) => !local.contains(name),
        RTy::Root(name) => !root.contains(name),
    }
}

/// The time type of a string of format `date-time` or `date`. A string with a pattern or
/// length bounds stays a `String`: those constrain the text as written, which the time type
/// does not keep (it writes `-00:00` as `Z`, a fraction of `.5` as `.500`).
fn time_ty(s: &crate::model::StringTy) -> Option<RTy> {
    if s.pattern.is_some() || s.min_length.is_some() || s.max_length.is_some() {
        return None;
    }
    match s.format.as_ref()?.value {
        crate::model::Format::DateTime => Some(RTy::DateTime),
        crate::model::Format::Date => Some(RTy::Date),
        _ => None,
    }
}

/// An array item, map value or extra property that may be `null` (`nullable=#true`):
/// `Option<T>`, `None` being `null`. A `json` value admits `null` already: no `Option`.
fn or_null(ty: RTy, nullable: bool) -> RTy {
    if nullable && ty != RTy::Json {
        RTy::Nullable(Box::new(ty))
    } else {
        ty
    }
}

/// Distinct Pascal-case identifiers for `items`, named by `name`, none of them `reserved`.
fn pascal_names<'t, T, const N: usize>(
    reserved: [&str; N],
    items: &'t [T],
    name: impl Fn(&T) -> &str,
) -> Vec<(String, &'t T)> {
    let idents = unique_names(Case::Pascal, reserved, items, &name);
    idents.into_iter().zip(items).collect()
}

/// The identifiers of `items` in `case`, numbered where they collide (in order).
fn unique_names<T, const N: usize>(
    case: Case,
    reserved: [&str; N],
    items: &[T],
    name: impl Fn(&T) -> &str,
) -> Vec<String> {
    let mut unique = Unique::with_reserved(reserved);
    items
        .iter()
        .map(|i| unique.claim(rust_ident(name(i), case), case))
        .collect()
}

/// A string enum planned so far, for the next one with the same values to use.
#[derive(Clone)]
struct KnownEnum<'a> {
    /// Its values, sorted: the value set.
    values: Vec<&'a str>,
    ident: String,
    /// Declared at the catalog's root (a tool names it `super::…`).
    in_root: bool,
    variants: Vec<(String, &'a str)>,
}

struct Scope<'s, 'a> {
    unique: &'s mut Unique,
    named: &'s HashMap<&'a str, String>,
    items: &'s mut Vec<Item<'a>>,
    /// The enums this scope can name: the root's and, in a tool, the tool's.
    enums: &'s mut Vec<KnownEnum<'a>>,
    /// Planning the catalog's root rather than a tool module.
    in_root: bool,
    /// In a tool module: a nested type of `Input`/`Output` may take the bare field name.
    top_level: bool,
}

impl<'a> Scope<'_, 'a> {
    /// Plans struct `ident` (already claimed) and everything nested in it.
    fn structure(&mut self, ident: String, doc: Option<&'a str>, fields: &'a [Field]) {
        self.open_structure(ident, doc, fields, None);
    }

    /// [`Scope::structure`] of an object that may be open (`extra`).
    fn open_structure(
        &mut self,
        ident: String,
        doc: Option<&'a str>,
        fields: &'a [Field],
        extra: Option<&'a Extra>,
    ) {
        let at = self.items.len();
        self.items.push(Item::Struct(StructPlan {
            ident: ident.clone(),
            doc: doc.map(Cow::Borrowed),
            fields: Vec::new(),
            extra: None,
            hash: true,
        }));
        let mut field_names = Unique::new();
        let mut planned = Vec::with_capacity(fields.len());
        for f in fields {
            let fident = field_names.claim(rust_ident(&f.name.value, Case::Snake), Case::Snake);
            let base = pascal_case(&f.name.value);
            let ty = self.ty(
                &ident,
                &base,
                &f.ty,
                f.doc.as_ref().map(|d| d.value.as_str()),
            );
            // A `const=` field keeps its base Rust type, a string for a time format.
            let ty = match ty {
                RTy::DateTime | RTy::Date if f.constant.is_some() => RTy::String,
                ty => ty,
            };
            let default_variant = match (&ty, f.default.as_ref().map(|d| &d.value)) {
                (RTy::Local(e) | RTy::Root(e), Some(crate::model::Literal::String(v))) => {
                    let in_root = self.in_root || matches!(ty, RTy::Root(_));
                    self.enums
                        .iter()
                        .find(|en| &en.ident == e && en.in_root == in_root)
                        .and_then(|en| en.variants.iter().find(|(_, value)| value == v))
                        .map(|(id, _)| id.clone())
                }
                _ => None,
            };
            planned.push(FieldPlan {
                field: f,
                ident: fident,
                ty,
                default_variant,
            });
        }
        let extra = extra.map(|x| ExtraPlan {
            extra: x,
            ident: field_names.claim("extra".to_string(), Case::Snake),
            ty: or_null(self.ty(&ident, "Extra", &x.values, None), x.nullable),
        });
        if let Some(Item::Struct(s)) = self.items.get_mut(at) {
            s.fields = planned;
            s.extra = extra;
        }
    }

    /// A nested type's name: `{Base}` when allowed and free, else `{Owner}{Base}`.
    fn claim(&mut self, owner: &str, base: &str) -> String {
        let base = rust_ident(base, Case::Pascal);
        // `Self_` (an escaped keyword) needs no escape after a prefix: `TypeSelf`.
        let tail = base
            .strip_prefix("r#")
            .unwrap_or(&base)
            .trim_end_matches('_');
        let owned = format!("{owner}{tail}");
        let candidates = if self.top_level && matches!(owner, "Input" | "Output") {
            vec![base, owned]
        } else {
            vec![owned]
        };
        self.unique.claim_first(&candidates, Case::Pascal)
    }

    fn ty(&mut self, owner: &str, base: &str, ty: &'a Ty, doc: Option<&'a str>) -> RTy {
        match &ty.kind {
            TyKind::String(s) | TyKind::Cursor(s) => match &s.enum_values {
                Some(values) => {
                    let mut set: Vec<&str> =
                        values.values.iter().map(|v| v.value.as_str()).collect();
                    set.sort_unstable();
                    if let Some(known) = self.enums.iter().find(|e| e.values == set) {
                        return if known.in_root && !self.in_root {
                            RTy::Root(known.ident.clone())
                        } else {
                            RTy::Local(known.ident.clone())
                        };
                    }
                    let ident = self.claim(owner, base);
                    let mut variants = Unique::new();
                    let variants: Vec<(String, &str)> = values
                        .values
                        .iter()
                        .map(|v| {
                            let id =
                                variants.claim(rust_ident(&v.value, Case::Pascal), Case::Pascal);
                            (id, v.value.as_str())
                        })
                        .collect();
                    self.enums.push(KnownEnum {
                        values: set,
                        ident: ident.clone(),
                        in_root: self.in_root,
                        variants: variants.clone(),
                    });
                    self.items.push(Item::Enum(EnumPlan {
                        ident: ident.clone(),
                        doc,
                        variants,
                    }));
                    RTy::Local(ident)
                }
                // A cursor is opaque text, whatever its format.
                None if matches!(ty.kind, TyKind::String(_)) => time_ty(s).unwrap_or(RTy::String),
                None => RTy::String,
            },
            TyKind::Timestamp => RTy::DateTime,
            TyKind::Integer(n) => RTy::Int(IntTy::of(n)),
            TyKind::Number(_) => RTy::F64,
            TyKind::Boolean => RTy::Bool,
            TyKind::Array(a) => {
                let item_base = format!("{base}Item");
                let item = self.ty(owner, &item_base, &a.items, None);
                RTy::Vec(Box::new(or_null(item, a.items_nullable)))
            }
            TyKind::Map(m) => {
                let value_base = format!("{base}Value");
                let value = self.ty(owner, &value_base, &m.values, None);
                RTy::Map(Box::new(or_null(value, m.values_nullable)))
            }
            TyKind::Json => RTy::Json,
            TyKind::Object(o) => {
                let ident = self.claim(owner, base);
                let was = std::mem::replace(&mut self.top_level, false);
                self.open_structure(ident.clone(), doc, &o.fields, o.extra.as_deref());
                self.top_level = was;
                RTy::Local(ident)
            }
            TyKind::Union(u) => {
                let ident = self.claim(owner, base);
                let at = self.items.len();
                self.items.push(Item::Union(UnionPlan {
                    ident: ident.clone(),
                    doc,
                    discriminator: &u.discriminator.value,
                    variants: Vec::new(),
                    hash: true,
                }));
                let was = std::mem::replace(&mut self.top_level, false);
                let mut names = Unique::new();
                let variants = u
                    .variants
                    .iter()
                    .map(|v| {
                        let vid =
                            names.claim(rust_ident(&v.name.value, Case::Pascal), Case::Pascal);
                        let sid = self.claim(&ident, &v.name.value);
                        let vdoc = v.doc.as_ref().map(|d| d.value.as_str());
                        self.structure(sid.clone(), vdoc, &v.fields.fields);
                        (vid, v.name.value.as_str(), sid)
                    })
                    .collect();
                self.top_level = was;
                if let Some(Item::Union(p)) = self.items.get_mut(at) {
                    p.variants = variants;
                }
                RTy::Local(ident)
            }
            TyKind::Named(n) => match self.named.get(n.value.as_str()) {
                Some(ident) => RTy::Root(ident.clone()),
                // Lowering resolves every named type; a hand-built model that does not is
                // generated as free-form text rather than a dangling name.
                None => RTy::String,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::load_source;

    /// A catalog named `catalog` was lint-clean, but its handler trait `Catalog` collided
    /// with the generated unit struct `Catalog`, so the generated crate did not compile: every
    /// root name is now distinct, whatever the catalog and its types are called.
    #[test]
    fn a_catalog_named_catalog_gets_a_trait_apart_from_the_catalog_struct() {
        for name in [
            "catalog", "Catalog", "self", "type", "match", "2fa", "catalog2",
        ] {
            let text = format!(
                "catalog \"{name}\" version=\"1.0.0\"\ntype \"Catalog\" {{\n    field \"a\" \"boolean\"\n}}\ntype \"Catalog2\" {{\n    field \"b\" \"boolean\"\n}}\n"
            );
            let loaded = load_source("x.kdl", text);
            let p = plan(&loaded.project.catalogs[0]);
            let mut root: Vec<&str> = vec!["Catalog", p.trait_ident.as_str()];
            root.extend(p.types.iter().map(|i| match i {
                Item::Struct(s) => s.ident.as_str(),
                Item::Enum(e) => e.ident.as_str(),
                Item::Union(u) => u.ident.as_str(),
            }));
            let distinct: std::collections::HashSet<&str> = root.iter().copied().collect();
            assert_eq!(distinct.len(), root.len(), "{name}: {root:?}");
            let plain = p.trait_ident.strip_prefix("r#").unwrap_or(&p.trait_ident);
            assert!(!crate::names::is_rust_keyword(plain) || p.trait_ident.starts_with("r#"));
        }
        let loaded = load_source("x.kdl", "catalog \"catalog\" version=\"1.0.0\"\n");
        assert_eq!(plan(&loaded.project.catalogs[0]).trait_ident, "Catalog2");
    }

    #[test]
    fn names_are_resolved_once_and_distinct() {
        let text = r#"
catalog "my-catalog" version="1.0.0"
type "match" {
    field "type" "string" { enum "a" "A" "2x" "" }
    field "Type" "integer"
}
tool "self" version="1.0.0" {
    summary "s"
    effect "read"
    input {
        field "status" "string" { enum "open" }
        field "items" "array" { items "object" { field "x" "boolean" } }
    }
    output {
        field "status" "string" { enum "done" }
        field "m" "match"
    }
    error "NOT_FOUND" class="not-found"
    error "not-found" class="not-found"
}
tool "Self" version="1.0.0" { summary "s"; effect "read"; input; }
"#;
        let loaded = load_source("x.kdl", text);
        let p = plan(&loaded.project.catalogs[0]);
        assert_eq!(p.trait_ident, "MyCatalog");
        let idents: Vec<&str> = p
            .types
            .iter()
            .map(|i| match i {
                Item::Struct(s) => s.ident.as_str(),
                Item::Enum(e) => e.ident.as_str(),
                Item::Union(u) => u.ident.as_str(),
            })
            .collect();
        assert_eq!(idents, ["Match", "MatchType"]);
        let Item::Struct(m) = &p.types[0] else {
            panic!("struct first")
        };
        let fields: Vec<&str> = m.fields.iter().map(|f| f.ident.as_str()).collect();
        assert_eq!(fields, ["r#type", "type_2"]);
        let Item::Enum(e) = &p.types[1] else {
            panic!("enum second")
        };
        let variants: Vec<&str> = e.variants.iter().map(|v| v.0.as_str()).collect();
        assert_eq!(variants, ["A", "A2", "V2x", "X"]);
        let modules: Vec<&str> = p.tools.iter().map(|t| t.module.as_str()).collect();
        assert_eq!(modules, ["self_", "self_2"]);
        let t = &p.tools[0];
        let items: Vec<&str> = t
            .items
            .iter()
            .map(|i| match i {
                Item::Struct(s) => s.ident.as_str(),
                Item::Enum(e) => e.ident.as_str(),
                Item::Union(u) => u.ident.as_str(),
            })
            .collect();
        assert_eq!(
            items,
            ["Input", "Status", "ItemsItem", "Output", "OutputStatus"]
        );
        let errors: Vec<&str> = t.errors.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(errors, ["NotFound", "NotFound2"]);
    }

    /// The Rust type and default variant of each field of the first tool's input, and how
    /// many enums the tool's module declares.
    fn input_fields(text: &str) -> (Vec<(RTy, Option<String>)>, usize) {
        let loaded = load_source("x.kdl", text);
        let p = plan(&loaded.project.catalogs[0]);
        let items = &p.tools[0].items;
        let Some(Item::Struct(input)) = items.first() else {
            panic!("Input first")
        };
        let fields = input.fields.iter();
        let fields = fields.map(|f| (f.ty.clone(), f.default_variant.clone()));
        let enums = items.iter().filter(|i| matches!(i, Item::Enum(_)));
        (fields.collect(), enums.count())
    }

    /// The Rust types of input fields `fields` (catalog text) of a one-tool catalog.
    fn input_types(fields: &str) -> Vec<RTy> {
        let text = format!(
            "catalog \"c\" version=\"1.0.0\"\ntool \"t\" version=\"1.0.0\" {{\n    effect \"read\"\n    input {{\n{fields}    }}\n}}\n"
        );
        input_fields(&text).0.into_iter().map(|f| f.0).collect()
    }

    #[test]
    fn integers_take_the_smallest_type_holding_their_bounds() {
        let types = input_types(
            r#"
        field "page" "integer" min=1 max=50
        field "delta" "integer" min=-100 max=100
        field "port" "integer" min=0 max=65535
        field "count" "integer" min=0
        field "offset" "integer" max=10
        field "big" "integer" min=0 max=100000000000
        field "level" "integer" { enum 1 2 3; }
        field "under" "integer" exclusive-min=-1 exclusive-max=256
"#,
        );
        let ints = [
            IntTy::U8,
            IntTy::I8,
            IntTy::U16,
            IntTy::U64,
            IntTy::I64,
            IntTy::U64,
            IntTy::U8,
            IntTy::U8,
        ];
        assert_eq!(types, ints.map(RTy::Int));
    }

    #[test]
    fn time_formats_are_time_types_unless_the_text_is_constrained() {
        let types = input_types(
            r#"
        field "at" "timestamp"
        field "when" "string" format="date-time"
        field "day" "string" format="date" default="2026-01-31"
        field "shaped" "string" format="date" pattern="^2026-"
        field "fixed" "string" format="date" const="2026-01-31"
        field "days" "array" max-items=3 { items "string" format="date"; }
"#,
        );
        let vec_of_dates = RTy::Vec(Box::new(RTy::Date));
        assert_eq!(
            types,
            [
                RTy::DateTime,
                RTy::DateTime,
                RTy::Date,
                RTy::String,
                RTy::String,
                vec_of_dates
            ]
        );
    }

    #[test]
    fn eq_and_hash_only_where_every_field_has_them() {
        let text = r#"
catalog "c" version="1.0.0"
type "Price" {
    field "amount" "number" required=#true
}
type "Tag" {
    field "name" "string" required=#true max-length=8
    field "children" "array" max-items=3 { items "Tag"; }
}
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "tag" "Tag"
        field "when" "timestamp"
    }
    output {
        field "price" "Price"
    }
}
"#;
        let loaded = load_source("x.kdl", text);
        let p = plan(&loaded.project.catalogs[0]);
        let hash = |items: &[Item<'_>]| -> Vec<(String, bool)> {
            items
                .iter()
                .filter_map(|i| match i {
                    Item::Struct(s) => Some((s.ident.clone(), s.hash)),
                    _ => None,
                })
                .collect()
        };
        let want = |v: &[(&str, bool)]| -> Vec<(String, bool)> {
            v.iter().map(|(n, h)| (n.to_string(), *h)).collect()
        };
        // A recursive type stays hashable; an `f64` anywhere below makes a type not.
        assert_eq!(hash(&p.types), want(&[("Price", false), ("Tag", true)]));
        let tool = hash(&p.tools[0].items);
        assert_eq!(tool, want(&[("Input", true), ("Output", false)]));
    }

    #[test]
    fn an_enum_with_the_values_of_a_known_one_is_that_type() {
        let text = r#"
catalog "c" version="1.0.0"
type "Event" {
    field "status" "string" required=#true { enum "open" "closed"; }
}
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "status" "string" default="closed" { enum "closed" "open"; }
        field "mode" "string" { enum "a" "b"; }
        field "again" "string" { enum "b" "a"; }
    }
}
"#;
        let (root, local) = (RTy::Root("EventStatus".into()), RTy::Local("Mode".into()));
        let closed = Some("Closed".to_string());
        let (fields, enums) = input_fields(text);
        assert_eq!(
            fields,
            [(root, closed), (local.clone(), None), (local, None)]
        );
        // One enum in the tool module: `Mode`.
        assert_eq!(enums, 1);
    }
}
