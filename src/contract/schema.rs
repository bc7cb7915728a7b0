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
    Tool, Ty, TyKind,
};
use serde_json::{Map, Number, Value, json};

/// The MCP 2026-07-28 keyword naming the `Mcp-Param-{Name}` header a client mirrors an
/// argument into (from a field's `header=`).
pub const HEADER_KEYWORD: &str = "x-mcp-header";

/// The `$schema` URI at the top of every input and output schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The input schema of `tool`, with `$schema`: the one schema that carries `x-mcp-header`.
pub fn input_schema(cat: &Catalog, tool: &Tool) -> Value {
    let mut ctx = Ctx::new(cat);
    ctx.headers = true;
    with_dialect(Value::Object(ctx.object(&tool.input.fields, None)))
}

/// The output schema of `tool` (its `outputSchema`), or `None` when it declares no output.
pub fn output_schema(cat: &Catalog, tool: &Tool) -> Option<Value> {
    tool.output
        .as_ref()
        .map(|o| with_dialect(object_schema(cat, o)))
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
    let mut def = Map::new();
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
    let mut ann = Map::new();
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

/// Schema-building state: the catalog for named types, and the named types being inlined
/// (the guard against recursion in hand-built models).
pub struct Ctx<'a> {
    cat: &'a Catalog,
    inlining: Vec<&'a str>,
    /// Emit `x-mcp-header`: only clients send arguments, so only the input schema has it.
    headers: bool,
}

impl<'a> Ctx<'a> {
    fn new(cat: &'a Catalog) -> Self {
        Ctx {
            cat,
            inlining: Vec::new(),
            headers: false,
        }
    }

    fn object(&mut self, fields: &[Field], doc: Option<&str>) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("type".into(), json!("object"));
        if let Some(d) = doc {
            m.insert("description".into(), json!(d));
        }
        let mut props = Map::with_capacity(fields.len());
        let mut required = Vec::new();
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
        m
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
                    Value::Object(self.ty(&mt.values, None)),
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
            TyKind::Named(name) => return self.named(&name.value, doc),
        }
        m
    }

    fn named(&mut self, name: &str, doc: Option<&str>) -> Map<String, Value> {
        let cat = self.cat;
        let Some(def) = cat.type_def(name) else {
            return self.object(&[], doc);
        };
        // Loading leaves out tools over the inlined depth cap; a hand-built model is cut off
        // at it rather than overflowing the stack.
        if self.inlining.contains(&def.name.value.as_str())
            || self.inlining.len() >= MAX_INLINED_DEPTH
        {
            return self.object(&[], doc);
        }
        self.inlining.push(def.name.value.as_str());
        let doc = doc.or(def.doc.as_ref().map(|d| d.value.as_str()));
        let m = self.object(&def.fields, doc);
        self.inlining.pop();
        m
    }

    fn array(&mut self, m: &mut Map<String, Value>, a: &ArrayTy) {
        m.insert("items".into(), Value::Object(self.ty(&a.items, None)));
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
