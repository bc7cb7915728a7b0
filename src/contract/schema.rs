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
//!   Nullable array items (`items … nullable=#true`), map values and extras (`values` /
//!   `extra … nullable=#true`) are written the same way in `items` / `additionalProperties`.
//! - A `map` is an object with `"properties": {}` (for the clients that insist on it) and
//!   its value schema as `additionalProperties`, `min-entries`/`max-entries` as
//!   `minProperties`/`maxProperties`. An open object (`extra`) is its fields' object with
//!   `additionalProperties` and the count bounds written the same way. A `json` value is the empty schema (only its
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
//! - Schemas are written as compact JSON text in one pass (serde_json's compact form, so
//!   `export` re-indents it to the bytes serde_json's pretty printer gives; see
//!   [`crate::contract::text`]); consumers that need a tree parse it ([`parse`]).

use crate::model::inline::MAX_INLINED_DEPTH;
use crate::model::{
    ArrayTy, CURSOR_DEFAULT_MAX_LENGTH, Catalog, ErrorDef, Field, Literal, Num, NumTy, Object,
    StringTy, Tool, Ty, TyKind, UnionTy,
};
use crate::runtime::canonical::write_string;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::ops::Range;

/// The MCP 2026-07-28 keyword naming the `Mcp-Param-{Name}` header a client mirrors an
/// argument into (from a field's `header=`).
pub const HEADER_KEYWORD: &str = "x-mcp-header";

/// The `$schema` URI at the top of every input and output schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The input schema of `tool`, with `$schema`: the one schema that carries `x-mcp-header`.
pub fn input_schema(cat: &Catalog, tool: &Tool) -> Value {
    parse(&Schemas::one_tool(cat).input(tool))
}

/// The output schema of `tool` (its `outputSchema`), or `None` when it declares no output.
pub fn output_schema(cat: &Catalog, tool: &Tool) -> Option<Value> {
    Schemas::one_tool(cat).output(tool).as_deref().map(parse)
}

/// The detail schema of error `e` of a tool of `cat` (see [`Schemas::detail`]), or `None`
/// when it declares no detail fields.
pub fn detail_schema(cat: &Catalog, e: &ErrorDef) -> Option<Value> {
    Schemas::one_tool(cat).detail(e).as_deref().map(parse)
}

/// The closed object schema of `obj`, without `$schema`.
pub fn object_schema(cat: &Catalog, obj: &Object) -> Value {
    let mut out = String::new();
    Ctx::new(cat).object(&mut out, &obj.fields, None, false);
    parse(&out)
}

/// The schema of a field or of a bare type as a tree; see [`ty_schema_text`].
pub fn ty_schema<T: SchemaOf + ?Sized>(cat: &Catalog, of: &T) -> Value {
    parse(&ty_schema_text(cat, of))
}

/// The schema of a field or of a bare type as compact JSON text; see [`SchemaOf`].
pub fn ty_schema_text<T: SchemaOf + ?Sized>(cat: &Catalog, of: &T) -> String {
    let mut out = String::new();
    of.schema_of(&mut Ctx::new(cat), &mut out);
    out
}

/// A schema's text as a tree. Only catalogc's own schema text comes here, so it always
/// parses; it may nest deeper than serde_json's default limit of 128 (a field nested in
/// 64 named types is 128 levels of JSON), which the schema caps bound instead.
///
/// A list read from text grows by doubling, so a long one (an enum of many values) holds up
/// to twice its room; such lists are shrunk to their length before the tree is returned.
pub fn parse(text: &str) -> Value {
    use serde::Deserialize;
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let mut tree = Value::deserialize(&mut de).unwrap_or(Value::Null);
    shrink_long_lists(&mut tree);
    tree
}

/// How many unused slots a parsed list may keep.
const SPARE_KEPT: usize = 64;

/// Gives back the spare room of every list with more than [`SPARE_KEPT`] unused slots.
fn shrink_long_lists(value: &mut Value) {
    match value {
        Value::Array(items) => {
            if items.capacity() - items.len() > SPARE_KEPT {
                items.shrink_to_fit();
            }
            items.iter_mut().for_each(shrink_long_lists);
        }
        Value::Object(map) => map.values_mut().for_each(shrink_long_lists),
        _ => {}
    }
}

/// What [`ty_schema`] accepts: a [`Field`] (with its doc, default and deprecation) or a
/// bare [`Ty`].
pub trait SchemaOf {
    #[doc(hidden)]
    fn schema_of(&self, ctx: &mut Ctx<'_>, out: &mut String);
}

impl SchemaOf for Field {
    fn schema_of(&self, ctx: &mut Ctx<'_>, out: &mut String) {
        ctx.field(out, self);
    }
}

impl SchemaOf for Ty {
    fn schema_of(&self, ctx: &mut Ctx<'_>, out: &mut String) {
        out.push('{');
        ctx.ty(out, self, None, false);
        out.push('}');
    }
}

/// The schemas of the tools of one catalog, the text of each named type used in more than
/// one place written once and copied into every use: a catalog whose tools share nested
/// types no longer walks (and formats the constraints of) every type again at every use.
/// The same bytes as writing each schema on its own. A type used once is not kept: keeping
/// every level of a deep type would hold its subtrees once more per level.
pub struct Schemas<'a> {
    ctx: Ctx<'a>,
}

impl<'a> Schemas<'a> {
    /// Schemas of the tools of `cat`, sharing the named types its fields use repeatedly.
    pub fn new(cat: &'a Catalog) -> Self {
        let mut ctx = Ctx::new(cat);
        ctx.repeated = Cow::Owned(repeated_types(cat));
        Schemas { ctx }
    }

    /// [`Schemas::new`] with the catalog's repeated types counted beforehand by
    /// [`RepeatedTypes::of`]: the runs of tools of one catalog, each with its own schemas,
    /// share one count instead of each walking the whole catalog.
    pub fn sharing(cat: &'a Catalog, repeated: &'a RepeatedTypes<'a>) -> Self {
        let mut ctx = Ctx::new(cat);
        ctx.repeated = Cow::Borrowed(&repeated.0);
        Schemas { ctx }
    }

    /// Schemas of a tool or two of `cat`: counting the uses of every type of the catalog
    /// would cost more than it saves.
    pub fn one_tool(cat: &'a Catalog) -> Self {
        Schemas { ctx: Ctx::new(cat) }
    }

    /// The text of [`input_schema`] of `tool`, a tool of this catalog.
    pub fn input(&mut self, tool: &Tool) -> String {
        let mut out = String::new();
        self.write_input(&mut out, tool);
        out
    }

    /// The text of [`output_schema`] of `tool`, a tool of this catalog.
    pub fn output(&mut self, tool: &Tool) -> Option<String> {
        let mut out = String::new();
        self.write_output(&mut out, tool).then_some(out)
    }

    /// The detail schema of error `e` of a tool of this catalog, with `$schema`: the closed
    /// object of its `detail` fields, or `None` when it declares none.
    pub fn detail(&mut self, e: &ErrorDef) -> Option<String> {
        let detail = e.detail.as_ref()?;
        self.ctx.headers = false;
        let mut out = String::new();
        self.ctx.top(&mut out, &detail.fields);
        Some(out)
    }

    fn write_input(&mut self, out: &mut String, tool: &Tool) {
        self.ctx.headers = true;
        self.ctx.top(out, &tool.input.fields);
    }

    /// Writes the output schema; `false` (nothing written) when `tool` has no output.
    fn write_output(&mut self, out: &mut String, tool: &Tool) -> bool {
        self.ctx.headers = false;
        let Some(o) = &tool.output else {
            return false;
        };
        self.ctx.top(out, &o.fields);
        true
    }
}

/// An MCP tool definition as compact JSON text, with where its schemas sit in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// The definition (one entry of `tools/list`).
    pub text: Box<str>,
    /// Where `inputSchema`'s value is in `text`.
    pub input: Range<usize>,
    /// Where `outputSchema`'s value is in `text`, when the tool has an output.
    pub output: Option<Range<usize>>,
}

/// The `_meta` key of a tool definition that names its stability level (`experimental` or
/// `beta`; a `stable` tool has none).
pub const STABILITY_META: &str = "io.catalogc/stability";

/// The MCP tool definition of `tool`, its schemas written by `schemas`: `name`, `title`,
/// `description`, `inputSchema`, `outputSchema`, `annotations` with `title` and all four
/// hints explicit. [`crate::contract::ToolContract`] is the one caller that builds it.
pub fn definition_of(schemas: &mut Schemas<'_>, tool: &Tool, description: &str) -> Definition {
    // Room for a typical definition (the description, then about 1.5 KB of schemas and
    // annotations), so that the text is not copied at each doubling on the way.
    let mut out = String::with_capacity(description.len() * 2 + 1536);
    let (input, output) = write_definition(&mut out, schemas, tool, description);
    Definition {
        text: out.into_boxed_str(),
        input,
        output,
    }
}

/// Appends the text of [`definition_of`] to `out` (empty or not); returns where its input
/// and output schemas sit in `out`. Written into a buffer used again for the next tool,
/// this measures a definition without keeping it.
pub fn write_definition(
    out: &mut String,
    schemas: &mut Schemas<'_>,
    tool: &Tool,
    description: &str,
) -> (Range<usize>, Option<Range<usize>>) {
    out.push('{');
    key(out, "name");
    write_string(out, &tool.name.value);
    if let Some(title) = &tool.title {
        key(out, "title");
        write_string(out, &title.value);
    }
    key(out, "description");
    write_string(out, description);
    key(out, "inputSchema");
    let start = out.len();
    schemas.write_input(out, tool);
    let input = start..out.len();
    let mut output = None;
    if tool.output.is_some() {
        key(out, "outputSchema");
        let start = out.len();
        schemas.write_output(out, tool);
        output = Some(start..out.len());
    }
    let a = tool.annotations();
    key(out, "annotations");
    out.push('{');
    if let Some(title) = &tool.title {
        key(out, "title");
        write_string(out, &title.value);
    }
    for (k, v) in [
        ("readOnlyHint", a.read_only),
        ("destructiveHint", a.destructive),
        ("idempotentHint", a.idempotent),
        ("openWorldHint", a.open_world),
    ] {
        key(out, k);
        out.push_str(if v { "true" } else { "false" });
    }
    out.push('}');
    // Only a level other than the default is listed, so a tool without `stability` keeps
    // its definition byte for byte.
    if tool.stability() != crate::model::Stability::Stable {
        key(out, "_meta");
        out.push('{');
        key(out, STABILITY_META);
        write_string(out, tool.stability().as_str());
        out.push('}');
    }
    out.push('}');
    (input, output)
}

/// Starts an object member: a comma unless it is the object's first (every member follows
/// the `{` or a complete value, and no value ends in `{`), then the quoted key and colon.
fn key(out: &mut String, k: &str) {
    if !out.ends_with('{') {
        out.push(',');
    }
    write_string(out, k);
    out.push(':');
}

/// Starts an array item: a comma unless it is the first.
fn item(out: &mut String) {
    if !out.ends_with('[') {
        out.push(',');
    }
}

/// `"type": T`, or `[T, "null"]` for a nullable value: the 2020-12 spelling every validator
/// knows (see the module docs).
fn type_member(out: &mut String, t: &str, nullable: bool) {
    key(out, "type");
    if nullable {
        out.push('[');
        write_string(out, t);
        out.push_str(",\"null\"]");
    } else {
        write_string(out, t);
    }
}

fn doc_member(out: &mut String, doc: Option<&str>) {
    if let Some(d) = doc {
        key(out, "description");
        write_string(out, d);
    }
}

/// Built named-type schemas by type name and `headers`: the text after `type` and
/// `description` (which the use site decides), with the named-type levels it spans.
type Built<'a> = HashMap<(&'a str, bool), (Box<str>, usize)>;

/// Schema-writing state: the catalog for named types, and the named types being inlined
/// (the guard against recursion in hand-built models).
pub struct Ctx<'a> {
    cat: &'a Catalog,
    inlining: Vec<&'a str>,
    /// Emit `x-mcp-header`: only clients send arguments, so only the input schema has it.
    headers: bool,
    /// The object schema text of each named type kept, by name and `headers`.
    built: Built<'a>,
    /// Named types cut off (recursive or too deep) so far: a schema built with a cut depends
    /// on where it was built, so it is not kept.
    cuts: usize,
    /// The longest `inlining` reached so far.
    deepest: usize,
    /// The named types worth keeping once built: those used in more than one place.
    repeated: Cow<'a, HashSet<&'a str>>,
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
            repeated: Cow::Owned(HashSet::new()),
        }
    }

    /// A top-level schema: `$schema`, then the closed object of `fields`.
    fn top(&mut self, out: &mut String, fields: &[Field]) {
        out.push('{');
        key(out, "$schema");
        write_string(out, DIALECT);
        self.object_members(out, fields, None, None, false);
        out.push('}');
    }

    fn object(&mut self, out: &mut String, fields: &[Field], doc: Option<&str>, nullable: bool) {
        out.push('{');
        self.object_members(out, fields, doc, None, nullable);
        out.push('}');
    }

    /// An object schema's members; `tag` is a union variant's discriminator and name, listed
    /// and required before the fields.
    fn object_members(
        &mut self,
        out: &mut String,
        fields: &[Field],
        doc: Option<&str>,
        tag: Option<(&str, &str)>,
        nullable: bool,
    ) {
        type_member(out, "object", nullable);
        doc_member(out, doc);
        self.object_rest(out, fields, tag);
    }

    /// What follows an object schema's `type` and `description`.
    fn object_rest(&mut self, out: &mut String, fields: &[Field], tag: Option<(&str, &str)>) {
        self.properties(out, fields, tag);
        key(out, "additionalProperties");
        out.push_str("false");
    }

    /// `additionalProperties` (the schema of `values`) and the property-count bounds of a map
    /// or open object.
    fn open_members(
        &mut self,
        out: &mut String,
        values: &Ty,
        nullable: bool,
        min: &Option<crate::model::Sp<u64>>,
        max: &Option<crate::model::Sp<u64>>,
    ) {
        key(out, "additionalProperties");
        out.push('{');
        self.ty(out, values, None, nullable);
        out.push('}');
        if let Some(n) = min {
            key(out, "minProperties");
            let _ = write!(out, "{}", n.value);
        }
        if let Some(n) = max {
            key(out, "maxProperties");
            let _ = write!(out, "{}", n.value);
        }
    }

    /// An object schema's `properties` and `required`.
    fn properties(&mut self, out: &mut String, fields: &[Field], tag: Option<(&str, &str)>) {
        key(out, "properties");
        out.push('{');
        if let Some((disc, name)) = tag {
            key(out, disc);
            out.push_str("{\"type\":\"string\",\"const\":");
            write_string(out, name);
            out.push('}');
        }
        for f in fields {
            key(out, &f.name.value);
            self.field(out, f);
        }
        out.push('}');
        let required = tag.map(|(disc, _)| disc).into_iter().chain(
            fields
                .iter()
                .filter(|f| f.required)
                .map(|f| f.name.value.as_str()),
        );
        let mut any = false;
        for name in required {
            if !any {
                key(out, "required");
                out.push('[');
                any = true;
            }
            item(out);
            write_string(out, name);
        }
        if any {
            out.push(']');
        }
    }

    fn field(&mut self, out: &mut String, f: &Field) {
        out.push('{');
        let doc = f.doc.as_ref().map(|d| d.value.as_str());
        self.ty(out, &f.ty, doc, f.nullable);
        if let Some(c) = &f.constant {
            key(out, "const");
            literal(out, &c.value);
        }
        if let Some(d) = &f.default {
            key(out, "default");
            literal(out, &d.value);
        }
        if let Some(t) = &f.title {
            key(out, "title");
            write_string(out, &t.value);
        }
        if !f.examples.is_empty() {
            key(out, "examples");
            out.push('[');
            for e in &f.examples {
                item(out);
                // Written by serde_json: the compact form this text is in.
                out.push_str(&e.value.to_string());
            }
            out.push(']');
        }
        if f.deprecated {
            key(out, "deprecated");
            out.push_str("true");
        }
        if let Some(h) = f.header.as_ref().filter(|_| self.headers) {
            key(out, HEADER_KEYWORD);
            write_string(out, &h.value);
        }
        out.push('}');
    }

    /// The members of `ty`'s schema. `doc` is the description the use site gives (a named
    /// type falls back to its own); `nullable` adds `null` to the values (see [`type_member`];
    /// an `enum` lists it last and a union adds a null branch, since those alone decide what
    /// they admit).
    fn ty(&mut self, out: &mut String, ty: &Ty, doc: Option<&str>, nullable: bool) {
        let head = |out: &mut String, t: &str| {
            type_member(out, t, nullable);
            doc_member(out, doc);
        };
        match &ty.kind {
            TyKind::String(s) => {
                head(out, "string");
                string_constraints(out, s, None, nullable);
            }
            TyKind::Cursor(s) => {
                head(out, "string");
                string_constraints(out, s, Some(CURSOR_DEFAULT_MAX_LENGTH), nullable);
            }
            TyKind::Timestamp => {
                head(out, "string");
                key(out, "format");
                out.push_str("\"date-time\"");
            }
            TyKind::Integer(n) => {
                head(out, "integer");
                num_constraints(out, n, nullable);
            }
            TyKind::Number(n) => {
                head(out, "number");
                num_constraints(out, n, nullable);
            }
            TyKind::Boolean => head(out, "boolean"),
            TyKind::Array(a) => {
                head(out, "array");
                self.array(out, a);
            }
            TyKind::Object(o) => match &o.extra {
                None => self.object_members(out, &o.fields, doc, None, nullable),
                // An open object: the closed object's members up to `additionalProperties`,
                // then the extras' schema and count bounds as a map writes them.
                Some(x) => {
                    head(out, "object");
                    self.properties(out, &o.fields, None);
                    self.open_members(out, &x.values, x.nullable, &x.min_entries, &x.max_entries);
                }
            },
            TyKind::Map(mt) => {
                head(out, "object");
                key(out, "properties");
                out.push_str("{}");
                self.open_members(
                    out,
                    &mt.values,
                    mt.values_nullable,
                    &mt.min_entries,
                    &mt.max_entries,
                );
            }
            // The empty schema: any value (`null` included). Only the description is said.
            TyKind::Json => doc_member(out, doc),
            TyKind::Union(u) => {
                head(out, "object");
                self.union(out, u, nullable);
            }
            TyKind::Named(name) => self.named(out, &name.value, doc, nullable),
        }
    }

    fn union(&mut self, out: &mut String, u: &UnionTy, nullable: bool) {
        let disc = u.discriminator.value.as_str();
        key(out, "oneOf");
        out.push('[');
        for v in &u.variants {
            item(out);
            out.push('{');
            let doc = v.doc.as_ref().map(|d| d.value.as_str());
            self.object_members(
                out,
                &v.fields.fields,
                doc,
                Some((disc, &v.name.value)),
                false,
            );
            out.push('}');
        }
        if nullable {
            item(out);
            out.push_str("{\"type\":\"null\"}");
        }
        out.push(']');
    }

    fn named(&mut self, out: &mut String, name: &str, doc: Option<&str>, nullable: bool) {
        let cat = self.cat;
        let Some(def) = cat.type_def(name) else {
            return self.object_members(out, &[], doc, None, nullable);
        };
        let key = (def.name.value.as_str(), self.headers);
        let own_doc = doc.or(def.doc.as_ref().map(|d| d.value.as_str()));
        // A kept schema was built without any cut, so it is what building it here gives as
        // long as its levels fit under the depth cap from here (a type on the inlining path
        // would have been cut while building it: a kept type reaches none).
        if let Some((rest, levels)) = self.built.get(&key)
            && self.inlining.len() + levels <= MAX_INLINED_DEPTH
        {
            self.deepest = self.deepest.max(self.inlining.len() + levels);
            type_member(out, "object", nullable);
            doc_member(out, own_doc);
            out.push_str(rest);
            return;
        }
        // Loading leaves out tools over the inlined depth cap; a hand-built model is cut off
        // at it rather than overflowing the stack.
        if self.inlining.contains(&key.0) || self.inlining.len() >= MAX_INLINED_DEPTH {
            self.cuts += 1;
            return self.object_members(out, &[], doc, None, nullable);
        }
        let (cuts, deepest, depth) = (self.cuts, self.deepest, self.inlining.len());
        self.inlining.push(key.0);
        self.deepest = self.inlining.len();
        type_member(out, "object", nullable);
        doc_member(out, own_doc);
        let start = out.len();
        self.object_rest(out, &def.fields, None);
        self.inlining.pop();
        let levels = self.deepest - depth;
        self.deepest = self.deepest.max(deepest);
        if self.cuts == cuts && self.repeated.contains(key.0) {
            let rest = out.get(start..).unwrap_or_default().into();
            self.built.insert(key, (rest, levels));
        }
    }

    fn array(&mut self, out: &mut String, a: &ArrayTy) {
        key(out, "items");
        out.push('{');
        self.ty(out, &a.items, None, a.items_nullable);
        out.push('}');
        if let Some(n) = &a.min_items {
            key(out, "minItems");
            let _ = write!(out, "{}", n.value);
        }
        if let Some(n) = &a.max_items {
            key(out, "maxItems");
            let _ = write!(out, "{}", n.value);
        }
        if a.unique {
            key(out, "uniqueItems");
            out.push_str("true");
        }
    }
}

/// The named types a catalog refers to from more than one field (of its tools and types),
/// counted once for [`Schemas::sharing`].
pub struct RepeatedTypes<'a>(HashSet<&'a str>);

impl<'a> RepeatedTypes<'a> {
    /// The repeated named types of `cat`.
    pub fn of(cat: &'a Catalog) -> Self {
        RepeatedTypes(repeated_types(cat))
    }
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
                _ => ty.each_child(&mut |c| stack.push(c)),
            }
        }
    }
    repeated
}

/// A JSON array of `values` (each written by `one`), with `null` last when `nullable`.
fn list<T>(out: &mut String, values: &[T], nullable: bool, mut one: impl FnMut(&mut String, &T)) {
    out.push('[');
    for v in values {
        item(out);
        one(out, v);
    }
    if nullable {
        item(out);
        out.push_str("null");
    }
    out.push(']');
}

fn string_constraints(out: &mut String, s: &StringTy, default_max: Option<u64>, nullable: bool) {
    if let Some(f) = &s.format {
        key(out, "format");
        write_string(out, f.value.as_str());
    }
    if let Some(e) = &s.enum_values {
        key(out, "enum");
        list(out, &e.values, nullable, |out, v| {
            write_string(out, &v.value)
        });
    }
    if let Some(n) = &s.min_length {
        key(out, "minLength");
        let _ = write!(out, "{}", n.value);
    }
    if let Some(n) = s.max_length.as_ref().map(|n| n.value).or(default_max) {
        key(out, "maxLength");
        let _ = write!(out, "{n}");
    }
    if let Some(p) = &s.pattern {
        key(out, "pattern");
        write_string(out, &p.value);
    }
}

fn num_constraints(out: &mut String, n: &NumTy, nullable: bool) {
    if let Some(e) = &n.enum_values {
        key(out, "enum");
        list(out, &e.values, nullable, |out, v| num(out, v.value));
    }
    let bounds = [
        ("minimum", &n.min),
        ("exclusiveMinimum", &n.exclusive_min),
        ("maximum", &n.max),
        ("exclusiveMaximum", &n.exclusive_max),
        ("multipleOf", &n.multiple_of),
    ];
    for (k, v) in bounds {
        if let Some(v) = v {
            key(out, k);
            num(out, v.value);
        }
    }
    if let Some(u) = &n.unit {
        key(out, "x-unit");
        write_string(out, u.value.as_str());
    }
}

fn num(out: &mut String, n: Num) {
    match n {
        Num::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Num::Float(f) => float(out, f),
    }
}

/// A double as serde_json writes it (shortest round-trip digits).
fn float(out: &mut String, f: f64) {
    // The model only holds finite floats; a non-finite one cannot be said in JSON at all.
    match Number::from_f64(f) {
        Some(n) => {
            let _ = write!(out, "{n}");
        }
        None => out.push_str("null"),
    }
}

fn literal(out: &mut String, l: &Literal) {
    match l {
        Literal::String(s) => write_string(out, s),
        Literal::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Literal::Float(f) => float(out, *f),
        Literal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Literal::Null => out.push_str("null"),
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
        f.header = (field == "a").then(|| sp("A".to_string())).map(Box::new);
        f
    }

    /// Every tool's schemas, built with each named type kept or rebuilt at every use.
    fn both(cat: &Catalog) -> [Vec<(String, Option<String>)>; 2] {
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
        assert_eq!(parse(&kept[2].0), input_schema(&cat, &cat.tools[2]));
        assert!(kept[0].0.contains(HEADER_KEYWORD));
        assert!(
            !kept[0]
                .1
                .as_deref()
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
