//! The canonical JSON Schema (2020-12) of each tool's input and output, and the MCP tool
//! definition built from it (`catalogc export tools-json` prints them; docs/cli.md).
//!
//! Choices where the format is silent, all made so the output is byte-identical for the
//! same catalog and portable across MCP clients:
//! - The top-level input and output schemas carry `"$schema"` naming 2020-12: the dialect is
//!   then explicit for clients that still assume draft-07, and MCP clients accept it. Nested
//!   schemas do not repeat it.
//! - Every object schema has `"properties"` (possibly empty: some clients insist on it) and
//!   `"additionalProperties":false`; `"required"` is omitted when no field is required
//!   (older validators reject an empty `required` array).
//! - Keys come in a fixed order: `type`, `description`, the type's constraints, `default`,
//!   `deprecated`. Hashes use RFC 8785 and do not depend on it, but `tools.json` bytes do.
//! - A field's `doc` wins over the doc of the named type it uses; without one the type's doc
//!   is the description.
//! - `unit` becomes the extension keyword `"x-unit"`: a unit change is a major contract
//!   change (docs/compatibility.md), so it must move the input/output hash, and a model reading the
//!   schema needs to know an amount is in minor units. 2020-12 treats unknown keywords as
//!   annotations, so validators accept it; it is not a `format`, so the "no non-standard
//!   format" rule holds.
//! - `header="Name"` becomes `"x-mcp-header": "Name"` (MCP 2026-07-28) on that property of
//!   the input schema only, wherever the field sits (lint reports a placement the spec
//!   forbids); output schemas never carry it, since only clients send arguments. Catalogs
//!   without `header=` hash as before.
//! - `sensitive` is not emitted: it governs what the server logs, not what a client may send
//!   (a patch-level change in docs/compatibility.md), and naming the secret fields helps no client.
//! - `nullable=#true` writes `"type": [T, "null"]` (and `null` at the end of an `enum`), the
//!   2020-12 spelling every validator knows; `anyOf` with a null branch would read as a
//!   union to clients that flatten schemas. An optional field still is simply not required.
//! - A `map` is an object with `"properties": {}` (for the clients that insist on it) and
//!   its value schema as `additionalProperties`, `min-entries`/`max-entries` as
//!   `minProperties`/`maxProperties`. A `json` value is the empty schema (only its
//!   `description`): no `type`, so `null` is one of its values already.
//! - `const=` writes `"const"` after the type's constraints (a nullable field cannot have
//!   one: lowering refuses it, since `const` alone would then reject `null`); an `enum` of an
//!   `integer` or `number` lists its numbers as written. A field's `title` and `examples`
//!   come after `default`: descriptive like `doc`, they are part of the schema clients see and
//!   so of its hash, and appear only where written (existing hashes do not move).
//! - A `union` is `{"type": "object", "oneOf": [...]}` with one closed object per variant in
//!   declaration order; each lists the discriminator first, as `{"type": "string", "const":
//!   NAME}`, and requires it first. `oneOf` (not `anyOf`) because the constants make the
//!   variants disjoint, and the outer `type` serves clients that read a property's type
//!   without looking into `oneOf`. A nullable union adds `{"type": "null"}` as the last
//!   branch, since `oneOf` alone decides what it admits.
//! - `extensible=#true` enums still list their current values in `enum`: the schema states
//!   what the server accepts and returns today; extensibility is a compatibility promise.
//! - Lowering guarantees named types exist and are not recursive, and loading leaves out a
//!   tool whose inlined schema is over the caps of [`crate::model::inline`]. For a model
//!   built by hand that breaks this, a missing or recursive type, or one nested deeper than
//!   [`MAX_INLINED_DEPTH`] named types, becomes a closed empty object: fail closed, never
//!   panic, loop or overflow the stack.

use crate::model::inline::MAX_INLINED_DEPTH;
use crate::model::{
    ArrayTy, CURSOR_DEFAULT_MAX_LENGTH, Catalog, Field, Literal, Num, NumTy, Object, StringTy,
    Tool, Ty, TyKind, UnionTy,
};
use serde_json::{Map, Number, Value, json};
use std::collections::{HashMap, HashSet};

/// The MCP 2026-07-28 keyword naming the `Mcp-Param-{Name}` header a client mirrors an
/// argument into (from a field's `header=`).
pub const HEADER_KEYWORD: &str = "x-mcp-header";

/// The `$schema` URI at the top of every input and output schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The input schema of `tool`, with `$schema`: the one schema that carries `x-mcp-header`.
pub fn input_schema(cat: &Catalog, tool: &Tool) -> Value {
    Schemas::one_tool(cat).input(tool)
}

/// The output schema of `tool` (its `outputSchema`), or `None` when it declares no output.
pub fn output_schema(cat: &Catalog, tool: &Tool) -> Option<Value> {
    Schemas::one_tool(cat).output(tool)
}

/// The schemas of the tools of one catalog, the schema of each named type used in more than
/// one place built once and copied into every use: a catalog whose tools share nested types
/// no longer walks (and formats the constraints of) every type again at every use. The same
/// bytes as building each schema on its own. A type used once is not kept: keeping every
/// level of a deep type would hold its subtrees once more per level.
pub struct Schemas<'a> {
    ctx: Ctx<'a>,
}

impl<'a> Schemas<'a> {
    /// Schemas of the tools of `cat`, sharing the named types its fields use repeatedly.
    pub fn new(cat: &'a Catalog) -> Self {
        let mut ctx = Ctx::new(cat);
        ctx.repeated = repeated_types(cat);
        Schemas { ctx }
    }

    /// Schemas of a tool or two of `cat`: counting the uses of every type of the catalog
    /// would cost more than it saves.
    fn one_tool(cat: &'a Catalog) -> Self {
        Schemas { ctx: Ctx::new(cat) }
    }

    /// [`input_schema`] of `tool`, a tool of this catalog.
    pub fn input(&mut self, tool: &Tool) -> Value {
        self.ctx.headers = true;
        with_dialect(Value::Object(self.ctx.object(&tool.input.fields, None)))
    }

    /// [`output_schema`] of `tool`, a tool of this catalog.
    pub fn output(&mut self, tool: &Tool) -> Option<Value> {
        self.ctx.headers = false;
        let out = tool.output.as_ref()?;
        Some(with_dialect(Value::Object(
            self.ctx.object(&out.fields, None),
        )))
    }
}

/// The closed object schema of `obj`, without `$schema`.
pub fn object_schema(cat: &Catalog, obj: &Object) -> Value {
    Value::Object(Ctx::new(cat).object(&obj.fields, None))
}

/// The schema of a field or of a bare type; see [`SchemaOf`].
pub fn ty_schema<T: SchemaOf + ?Sized>(cat: &Catalog, of: &T) -> Value {
    of.schema_of(&mut Ctx::new(cat))
}

/// What [`ty_schema`] accepts: a [`Field`] (with its doc, default and deprecation) or a
/// bare [`Ty`].
pub trait SchemaOf {
    #[doc(hidden)]
    fn schema_of(&self, ctx: &mut Ctx<'_>) -> Value;
}

impl SchemaOf for Field {
    fn schema_of(&self, ctx: &mut Ctx<'_>) -> Value {
        Value::Object(ctx.field(self))
    }
}

impl SchemaOf for Ty {
    fn schema_of(&self, ctx: &mut Ctx<'_>) -> Value {
        Value::Object(ctx.ty(self, None))
    }
}

/// The MCP tool definition of `tool` from its already built parts: `name`, `title`,
/// `description`, `inputSchema`, `outputSchema`, `annotations` with `title` and all four
/// hints explicit. [`crate::contract::ToolContract`] is the one caller that builds it.
pub fn definition_of(tool: &Tool, description: &str, input: Value, output: Option<Value>) -> Value {
    // Exact capacities here and in `fit`: a catalog of many small tools is mostly these
    // maps, and a map grown by doubling holds room for up to twice its entries.
    let mut def = Map::with_capacity(6);
    def.insert("name".into(), json!(tool.name.value));
    if let Some(title) = &tool.title {
        def.insert("title".into(), json!(title.value));
    }
    def.insert("description".into(), json!(description));
    def.insert("inputSchema".into(), input);
    if let Some(out) = output {
        def.insert("outputSchema".into(), out);
    }
    let a = tool.annotations();
    let mut ann = Map::with_capacity(5);
    if let Some(title) = &tool.title {
        ann.insert("title".into(), json!(title.value));
    }
    ann.insert("readOnlyHint".into(), json!(a.read_only));
    ann.insert("destructiveHint".into(), json!(a.destructive));
    ann.insert("idempotentHint".into(), json!(a.idempotent));
    ann.insert("openWorldHint".into(), json!(a.open_world));
    def.insert("annotations".into(), Value::Object(ann));
    Value::Object(def)
}

fn with_dialect(schema: Value) -> Value {
    match schema {
        Value::Object(body) => {
            let mut top = Map::with_capacity(body.len() + 1);
            top.insert("$schema".into(), json!(DIALECT));
            top.extend(body);
            Value::Object(top)
        }
        other => other,
    }
}

/// Built named-type schemas by type name and `headers`, each with the named-type levels it
/// spans.
type Built<'a> = HashMap<(&'a str, bool), (Map<String, Value>, usize)>;

/// Schema-building state: the catalog for named types, and the named types being inlined
/// (the guard against recursion in hand-built models).
pub struct Ctx<'a> {
    cat: &'a Catalog,
    inlining: Vec<&'a str>,
    /// Emit `x-mcp-header`: only clients send arguments, so only the input schema has it.
    headers: bool,
    /// The object schema of each named type (without `description`, which the use site
    /// decides) by name and `headers`, with the number of named-type levels it spans.
    built: Built<'a>,
    /// Named types cut off (recursive or too deep) so far: a schema built with a cut depends
    /// on where it was built, so it is not kept.
    cuts: usize,
    /// The longest `inlining` reached so far.
    deepest: usize,
    /// The named types worth keeping once built: those used in more than one place.
    repeated: HashSet<&'a str>,
}

impl<'a> Ctx<'a> {
    fn new(cat: &'a Catalog) -> Self {
        Ctx {
            cat,
            inlining: Vec::new(),
            headers: false,
            built: HashMap::new(),
            cuts: 0,
            deepest: 0,
            repeated: HashSet::new(),
        }
    }

    fn object(&mut self, fields: &[Field], doc: Option<&str>) -> Map<String, Value> {
        self.object_with(fields, doc, None)
    }

    /// An object schema; `tag` is a union variant's discriminator and name, listed and
    /// required before the fields.
    fn object_with(
        &mut self,
        fields: &[Field],
        doc: Option<&str>,
        tag: Option<(&str, &str)>,
    ) -> Map<String, Value> {
        let mut m = Map::with_capacity(5);
        m.insert("type".into(), json!("object"));
        if let Some(d) = doc {
            m.insert("description".into(), json!(d));
        }
        let mut props = Map::with_capacity(fields.len() + 1);
        let mut required = Vec::with_capacity(fields.iter().filter(|f| f.required).count() + 1);
        if let Some((disc, name)) = tag {
            props.insert(disc.into(), json!({"type": "string", "const": name}));
            required.push(json!(disc));
        }
        for f in fields {
            props.insert(f.name.value.clone(), Value::Object(self.field(f)));
            if f.required {
                required.push(json!(f.name.value));
            }
        }
        m.insert("properties".into(), Value::Object(props));
        if !required.is_empty() {
            m.insert("required".into(), Value::Array(required));
        }
        m.insert("additionalProperties".into(), json!(false));
        m
    }

    fn field(&mut self, f: &Field) -> Map<String, Value> {
        let mut m = self.ty(&f.ty, f.doc.as_ref().map(|d| d.value.as_str()));
        if f.nullable {
            nullable(&mut m);
        }
        if let Some(c) = &f.constant {
            m.insert("const".into(), literal(&c.value));
        }
        if let Some(d) = &f.default {
            m.insert("default".into(), literal(&d.value));
        }
        if let Some(t) = &f.title {
            m.insert("title".into(), json!(t.value));
        }
        if !f.examples.is_empty() {
            let examples = f.examples.iter().map(|e| e.value.clone()).collect();
            m.insert("examples".into(), Value::Array(examples));
        }
        if f.deprecated {
            m.insert("deprecated".into(), json!(true));
        }
        if let Some(h) = f.header.as_ref().filter(|_| self.headers) {
            m.insert(HEADER_KEYWORD.into(), json!(h.value));
        }
        fit(m)
    }

    /// `doc` is the description the use site gives; a named type falls back to its own.
    fn ty(&mut self, ty: &Ty, doc: Option<&str>) -> Map<String, Value> {
        let mut m = Map::new();
        let head = |m: &mut Map<String, Value>, t: &str| {
            m.insert("type".into(), json!(t));
            if let Some(d) = doc {
                m.insert("description".into(), json!(d));
            }
        };
        match &ty.kind {
            TyKind::String(s) => {
                head(&mut m, "string");
                string_constraints(&mut m, s, None);
            }
            TyKind::Cursor(s) => {
                head(&mut m, "string");
                string_constraints(&mut m, s, Some(CURSOR_DEFAULT_MAX_LENGTH));
            }
            TyKind::Timestamp => {
                head(&mut m, "string");
                m.insert("format".into(), json!("date-time"));
            }
            TyKind::Integer(n) => {
                head(&mut m, "integer");
                num_constraints(&mut m, n);
            }
            TyKind::Number(n) => {
                head(&mut m, "number");
                num_constraints(&mut m, n);
            }
            TyKind::Boolean => head(&mut m, "boolean"),
            TyKind::Array(a) => {
                head(&mut m, "array");
                self.array(&mut m, a);
            }
            TyKind::Object(o) => return self.object(&o.fields, doc),
            TyKind::Map(mt) => {
                head(&mut m, "object");
                m.insert("properties".into(), json!({}));
                m.insert(
                    "additionalProperties".into(),
                    Value::Object(fit(self.ty(&mt.values, None))),
                );
                if let Some(n) = &mt.min_entries {
                    m.insert("minProperties".into(), json!(n.value));
                }
                if let Some(n) = &mt.max_entries {
                    m.insert("maxProperties".into(), json!(n.value));
                }
            }
            TyKind::Json => {
                // The empty schema: any value. Only the description is said.
                if let Some(d) = doc {
                    m.insert("description".into(), json!(d));
                }
            }
            TyKind::Union(u) => {
                head(&mut m, "object");
                self.union(&mut m, u);
            }
            TyKind::Named(name) => return self.named(&name.value, doc),
        }
        m
    }

    fn union(&mut self, m: &mut Map<String, Value>, u: &UnionTy) {
        let disc = u.discriminator.value.as_str();
        let branches = u
            .variants
            .iter()
            .map(|v| {
                let doc = v.doc.as_ref().map(|d| d.value.as_str());
                Value::Object(self.object_with(&v.fields.fields, doc, Some((disc, &v.name.value))))
            })
            .collect();
        m.insert("oneOf".into(), Value::Array(branches));
    }

    fn named(&mut self, name: &str, doc: Option<&str>) -> Map<String, Value> {
        let cat = self.cat;
        let Some(def) = cat.type_def(name) else {
            return self.object(&[], doc);
        };
        let key = (def.name.value.as_str(), self.headers);
        let own_doc = doc.or(def.doc.as_ref().map(|d| d.value.as_str()));
        // A kept schema was built without any cut, so it is what building it here gives as
        // long as its levels fit under the depth cap from here (a type on the inlining path
        // would have been cut while building it: a kept type reaches none).
        if let Some((body, levels)) = self.built.get(&key)
            && self.inlining.len() + levels <= MAX_INLINED_DEPTH
        {
            self.deepest = self.deepest.max(self.inlining.len() + levels);
            return described(body, own_doc);
        }
        // Loading leaves out tools over the inlined depth cap; a hand-built model is cut off
        // at it rather than overflowing the stack.
        if self.inlining.contains(&key.0) || self.inlining.len() >= MAX_INLINED_DEPTH {
            self.cuts += 1;
            return self.object(&[], doc);
        }
        let (cuts, deepest, depth) = (self.cuts, self.deepest, self.inlining.len());
        self.inlining.push(key.0);
        self.deepest = self.inlining.len();
        let body = self.object(&def.fields, None);
        self.inlining.pop();
        let levels = self.deepest - depth;
        self.deepest = self.deepest.max(deepest);
        let m = described(&body, own_doc);
        if self.cuts == cuts && self.repeated.contains(key.0) {
            self.built.insert(key, (body, levels));
        }
        m
    }

    fn array(&mut self, m: &mut Map<String, Value>, a: &ArrayTy) {
        m.insert("items".into(), Value::Object(fit(self.ty(&a.items, None))));
        if let Some(n) = &a.min_items {
            m.insert("minItems".into(), json!(n.value));
        }
        if let Some(n) = &a.max_items {
            m.insert("maxItems".into(), json!(n.value));
        }
        if a.unique {
            m.insert("uniqueItems".into(), json!(true));
        }
    }
}

/// `m` without spare room (see [`definition_of`]).
fn fit(m: Map<String, Value>) -> Map<String, Value> {
    let mut exact = Map::with_capacity(m.len());
    exact.extend(m);
    exact
}

/// The named types `cat` refers to from more than one field (of its tools and types).
fn repeated_types(cat: &Catalog) -> HashSet<&str> {
    let mut once = HashSet::new();
    let mut repeated = HashSet::new();
    // A stack, not recursion: a model built in code may nest without bound.
    let mut stack: Vec<&Ty> = Vec::new();
    let objects = cat
        .tools
        .iter()
        .flat_map(|t| std::iter::once(&t.input.fields).chain(t.output.as_ref().map(|o| &o.fields)));
    for fields in objects.chain(cat.types.iter().map(|t| &t.fields)) {
        stack.extend(fields.iter().map(|f| &f.ty));
        while let Some(ty) = stack.pop() {
            match &ty.kind {
                TyKind::Named(n) => {
                    let name = n.value.as_str();
                    let again = !once.insert(name);
                    repeated.extend(again.then_some(name));
                }
                TyKind::Array(a) => stack.push(&a.items),
                TyKind::Map(m) => stack.push(&m.values),
                TyKind::Object(o) => stack.extend(o.fields.iter().map(|f| &f.ty)),
                _ => {}
            }
        }
    }
    repeated
}

/// A copy of the object schema `body` (built without a description) with `doc` as its
/// `description`, in the place [`Ctx::object`] puts it: right after `type`.
fn described(body: &Map<String, Value>, doc: Option<&str>) -> Map<String, Value> {
    let Some(d) = doc else {
        return body.clone();
    };
    let mut m = Map::with_capacity(body.len() + 1);
    let mut rest = body.iter();
    if let Some((k, v)) = rest.next() {
        m.insert(k.clone(), v.clone());
    }
    m.insert("description".into(), json!(d));
    m.extend(rest.map(|(k, v)| (k.clone(), v.clone())));
    m
}

/// `null` added to a schema's values: its `type` becomes `[T, "null"]` (in place, so the key
/// order stays) and an `enum` lists `null` last, since `enum` alone decides what it admits.
fn nullable(m: &mut Map<String, Value>) {
    if let Some(Value::String(t)) = m.get("type") {
        let both = json!([t, "null"]);
        m.insert("type".into(), both);
    }
    if let Some(Value::Array(values)) = m.get_mut("enum") {
        values.push(Value::Null);
    }
    if let Some(Value::Array(branches)) = m.get_mut("oneOf") {
        branches.push(json!({"type": "null"}));
    }
}

fn string_constraints(m: &mut Map<String, Value>, s: &StringTy, default_max: Option<u64>) {
    if let Some(f) = &s.format {
        m.insert("format".into(), json!(f.value.as_str()));
    }
    if let Some(e) = &s.enum_values {
        let vals: Vec<Value> = e.values.iter().map(|v| json!(v.value)).collect();
        m.insert("enum".into(), Value::Array(vals));
    }
    if let Some(n) = &s.min_length {
        m.insert("minLength".into(), json!(n.value));
    }
    if let Some(n) = s.max_length.as_ref().map(|n| n.value).or(default_max) {
        m.insert("maxLength".into(), json!(n));
    }
    if let Some(p) = &s.pattern {
        m.insert("pattern".into(), json!(p.value));
    }
}

fn num_constraints(m: &mut Map<String, Value>, n: &NumTy) {
    if let Some(e) = &n.enum_values {
        let vals: Vec<Value> = e.values.iter().map(|v| num(v.value)).collect();
        m.insert("enum".into(), Value::Array(vals));
    }
    let bounds = [
        ("minimum", &n.min),
        ("exclusiveMinimum", &n.exclusive_min),
        ("maximum", &n.max),
        ("exclusiveMaximum", &n.exclusive_max),
        ("multipleOf", &n.multiple_of),
    ];
    for (key, v) in bounds {
        if let Some(v) = v {
            m.insert(key.into(), num(v.value));
        }
    }
    if let Some(u) = &n.unit {
        m.insert("x-unit".into(), json!(u.value.as_str()));
    }
}

fn num(n: Num) -> Value {
    match n {
        Num::Int(i) => json!(i),
        Num::Float(f) => float(f),
    }
}

fn float(f: f64) -> Value {
    // The model only holds finite floats; a non-finite one cannot be said in JSON at all.
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn literal(l: &Literal) -> Value {
    match l {
        Literal::String(s) => json!(s),
        Literal::Int(i) => json!(i),
        Literal::Float(f) => float(*f),
        Literal::Bool(b) => json!(b),
        Literal::Null => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Effect, TypeDef};
    use crate::testing::{catalog_with, sp, text, tool_with};

    fn named(field: &str, ty: &str, doc: Option<&str>) -> Field {
        let mut f = Field::new(field, TyKind::Named(sp(ty.to_string())));
        f.doc = doc.and_then(text);
        f.header = (field == "a").then(|| sp("A".to_string()));
        f
    }

    /// Every tool's schemas, built with each named type kept or rebuilt at every use.
    fn both(cat: &Catalog) -> [Vec<(Value, Option<Value>)>; 2] {
        [true, false].map(|keep| {
            let mut s = if keep {
                Schemas::new(cat)
            } else {
                Schemas::one_tool(cat)
            };
            assert_eq!(s.ctx.repeated.is_empty(), !keep);
            cat.tools
                .iter()
                .map(|t| (s.input(t), s.output(t)))
                .collect()
        })
    }

    /// Keeping each named type's schema gives the bytes of building it at every use:
    /// whatever doc the use site gives, with `x-mcp-header` in inputs only, and where a
    /// hand-built chain deeper than the cap is cut off at different depths.
    #[test]
    fn kept_named_types_change_nothing() {
        let depth = MAX_INLINED_DEPTH + 6;
        let mut types: Vec<TypeDef> = (0..depth)
            .map(|i| TypeDef {
                name: sp(format!("T{i}")),
                doc: text(&format!("Level {i}.")),
                fields: vec![
                    named("a", &format!("T{}", i + 1), None),
                    named("b", "Leaf", Some("Other.")),
                    Field::new("leaf", crate::testing::string()),
                ],
                span: crate::model::Span::default(),
            })
            .collect();
        types.push(TypeDef {
            name: sp(format!("T{depth}")),
            doc: None,
            fields: vec![Field::new("end", crate::testing::string())],
            span: crate::model::Span::default(),
        });
        // `Leaf` is shared by every level; `Self` refers to itself.
        types.push(TypeDef {
            name: sp("Leaf".to_string()),
            doc: text("A leaf."),
            fields: vec![Field::new("end", crate::testing::string())],
            span: crate::model::Span::default(),
        });
        types.push(TypeDef {
            name: sp("Self".to_string()),
            doc: None,
            fields: vec![named("again", "Self", None)],
            span: crate::model::Span::default(),
        });
        let uses = |first: usize| {
            vec![
                named("a", &format!("T{first}"), Some("Here.")),
                named("b", &format!("T{}", depth - 3), None),
                named("c", "Self", None),
                named("d", "Missing", None),
            ]
        };
        let tools = [depth - 2, 5, 0, depth - 1, MAX_INLINED_DEPTH - 2]
            .iter()
            .enumerate()
            .map(|(i, &first)| {
                tool_with(
                    &format!("t{i}"),
                    Effect::Read,
                    uses(first),
                    Some(uses(depth - first)),
                )
            })
            .collect();
        let cat = catalog_with("c", tools, types);
        let [kept, rebuilt] = both(&cat);
        assert_eq!(kept, rebuilt);
        assert_eq!(kept[2].0, input_schema(&cat, &cat.tools[2]));
        assert!(kept[0].0.to_string().contains(HEADER_KEYWORD));
        assert!(
            !kept[0]
                .1
                .as_ref()
                .map(Value::to_string)
                .unwrap_or_default()
                .contains(HEADER_KEYWORD)
        );
    }

    /// The synthetic catalog of nested shared types gives the same schemas either way.
    #[test]
    fn kept_types_of_a_loaded_catalog_change_nothing() {
        let text = crate::testing::synthetic_catalog_nested("nested", 12, 4);
        let loaded = crate::project::load_source("nested.kdl", text);
        let cat = &loaded.project.catalogs[0];
        assert!(!cat.types.is_empty());
        let [kept, rebuilt] = both(cat);
        assert_eq!(kept, rebuilt);
    }
}
