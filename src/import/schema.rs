//! JSON Schema (as MCP servers publish it: draft-07 or 2020-12) → catalog fields.
//!
//! A property schema is first flattened to one [`Shape`]: local `$ref`s resolved, `allOf`
//! merged, `null` dropped from a nullable type or union, a union cut to its first
//! alternative, a missing `type` inferred. Then each keyword the format has becomes an
//! attribute or child; every other keyword is reported where it was met.

use super::ToolNotes;
use super::kdl::{Node, Val};
use super::shape::Shape;
use crate::contract::schema::HEADER_KEYWORD;
use crate::model::{Format, Unit};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Object nesting beyond which a schema becomes a closed empty object: the catalog format
/// nests declarations at most 64 blocks deep and an array level takes two.
const MAX_DEPTH: usize = 24;

/// Fields per tool side beyond which the rest is left out (the model's cap is 10,000).
const MAX_FIELDS: usize = 5_000;

/// `$ref`s followed per tool side, against schemas that expand exponentially.
const MAX_REFS: usize = 1_000;

/// Keywords every type reads (or reports itself).
const COMMON: &[&str] = &[
    "type",
    "description",
    "default",
    "deprecated",
    "$schema",
    NULLABLE,
];

/// The key [`Cx::shape`] leaves in a flattened shape whose `null` it dropped (from a type
/// list or a union), so the field is written `nullable=#true`. Not a JSON Schema keyword.
const NULLABLE: &str = "\u{0}nullable";

/// The key [`Cx::shape`] leaves in a flattened shape whose union of objects it kept as a
/// `union` (see [`Cx::tagged`]): `{"discriminator", "key", "variants": [[name, shape]…]}`.
const UNION: &str = "\u{0}union";

/// Writes the fields of the top-level `inputSchema` / `outputSchema` into `block`.
pub(super) fn top(block: &mut Node, schema: Option<&Value>, side: &str, tn: &mut ToolNotes<'_>) {
    let at = At {
        path: side.to_string(),
        json: format!("{side}Schema"),
    };
    let Some(schema) = schema else {
        tn.add_at(
            block,
            &at.path,
            &at.json,
            "no inputSchema; the tool takes no arguments".into(),
        );
        return;
    };
    let mut cx = Cx {
        root: schema,
        tn,
        refs: Vec::new(),
        followed: 0,
        fields: 0,
        input: side == "input",
        reported: 0,
    };
    let mut lost = Vec::new();
    let shape = cx.shape(schema, &mut lost);
    if shape.get("type").and_then(Value::as_str) != Some("object") {
        lost.push(format!(
            "the {side} schema is not an object schema; left empty"
        ));
        cx.report(block, &at, lost);
        return;
    }
    let mut rest: Vec<&str> = shape.keys().collect();
    rest.retain(|k| !matches!(*k, "$defs" | "definitions" | "title"));
    if let Some(d) = shape.get("description").and_then(Value::as_str) {
        lost.push(format!(
            "the {side} schema's description is not expressible: {d:?}"
        ));
    }
    cx.object_body(block, &shape, &at, 0, &mut lost);
    unread(
        &shape,
        &rest,
        &["properties", "required", "additionalProperties"],
        &mut lost,
    );
    cx.report(block, &at, lost);
}

/// The keywords of `shape` no step read (`read` lists those of the type's own step).
fn unread(shape: &Shape<'_>, keys: &[&str], read: &[&str], lost: &mut Vec<String>) {
    for k in keys {
        if !read.contains(k) && !COMMON.contains(k) && shape.contains_key(k) {
            let value = shape.get(k).map(short).unwrap_or_default();
            lost.push(format!("`{k}` ({value}) is not expressible; left out"));
        }
    }
}

/// A JSON value in at most 80 characters, for notes.
fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// A place in a tool side, in the catalog (`input.tags[]`) and in the Tool object
/// (`inputSchema.properties.tags.items`).
struct At {
    path: String,
    json: String,
}

impl At {
    fn field(&self, name: &str) -> At {
        At {
            path: format!("{}.{name}", self.path),
            json: format!("{}.properties.{name}", self.json),
        }
    }

    fn items(&self) -> At {
        At {
            path: format!("{}[]", self.path),
            json: format!("{}.items", self.json),
        }
    }
}

struct Cx<'a, 'n, 't> {
    root: &'a Value,
    tn: &'t mut ToolNotes<'n>,
    /// The `$ref`s being expanded, to stop at a recursive one.
    refs: Vec<String>,
    followed: usize,
    fields: usize,
    /// The input side, the only one whose fields carry `x-mcp-header`.
    input: bool,
    /// Notes reported so far: a field whose subtree gained one is not expressed exactly.
    reported: usize,
}

impl Cx<'_, '_, '_> {
    fn report(&mut self, block: &mut Node, at: &At, lost: Vec<String>) {
        for what in lost {
            self.reported += 1;
            self.tn.add_at(block, &at.path, &at.json, what);
        }
    }

    /// `schema` flattened: see the module documentation. What is dropped goes to `lost`.
    fn shape<'v>(&mut self, schema: &'v Value, lost: &mut Vec<String>) -> Shape<'v> {
        let Some(obj) = schema.as_object() else {
            lost.push(format!("schema `{}`: any value", short(schema)));
            return Shape::default();
        };
        let mut out = Shape::default();
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            let root = self.root;
            match r.strip_prefix('#').and_then(|p| root.pointer(p)) {
                Some(target) if !self.refs.iter().any(|x| x == r) && self.followed < MAX_REFS => {
                    self.followed += 1;
                    // Popped by `typed` once the whole subtree is built.
                    self.refs.push(r.to_string());
                    // A target is shared by every schema naming it: copied, not borrowed.
                    out = self.shape(target, lost).into_owned();
                }
                Some(_) => lost.push(format!("`$ref` {r:?} is recursive: any value")),
                None => lost.push(format!("`$ref` {r:?} does not resolve: any value")),
            }
        }
        for (k, v) in obj {
            if k != "$ref" {
                out.insert(k.clone(), Cow::Borrowed(v));
            }
        }
        self.all_of(&mut out, lost);
        self.union(&mut out, lost);
        single_type(&mut out, lost);
        out
    }

    /// `allOf`: every part must hold, so the parts are intersected into the outer schema
    /// ([`intersect`]), and the note says what each combined keyword became.
    fn all_of<'v>(&mut self, out: &mut Shape<'v>, lost: &mut Vec<String>) {
        // `allOf`, `anyOf` and `oneOf` reach a shape only from the schema's own keywords
        // (a flattened part or target has none left), so they are borrowed.
        let Some(Cow::Borrowed(Value::Array(parts))) = out.remove("allOf") else {
            return;
        };
        let mut merged = Vec::new();
        for p in parts {
            let part = self.shape(p, lost);
            intersect(out, part, &mut merged);
        }
        if parts.len() > 1 || !merged.is_empty() {
            let what = if merged.is_empty() {
                "no keyword in two of them".to_string()
            } else {
                merged.join("; ")
            };
            lost.push(format!(
                "`allOf` of {} schemas merged into one: {what}",
                parts.len()
            ));
        }
    }

    fn union<'v>(&mut self, out: &mut Shape<'v>, lost: &mut Vec<String>) {
        let key = if out.contains_key("anyOf") {
            "anyOf"
        } else {
            "oneOf"
        };
        let Some(Cow::Borrowed(Value::Array(alts))) = out.remove(key) else {
            return;
        };
        let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
        let mut kept: Vec<&Value> = alts.iter().filter(|a| !is_null(a)).collect();
        if kept.len() < alts.len() {
            out.insert(NULLABLE, Cow::Owned(Value::Bool(true)));
        }
        if kept.len() == 1 && alts.len() == 1 {
            lost.push(format!(
                "`{key}` of one alternative is written as that alternative"
            ));
        }
        if kept.len() > 1
            && let Some(u) = self.tagged(key, &kept, lost)
        {
            out.insert("type", Cow::Owned(Value::from("object")));
            out.insert(UNION, Cow::Owned(u));
            return;
        }
        if kept.len() > 1 {
            let kinds: Vec<String> = kept.iter().map(|a| kind_label(a)).collect();
            lost.push(format!(
                "`{key}` union ({}) is not expressible; only the first alternative is kept",
                kinds.join(" | ")
            ));
            kept.truncate(1);
        }
        if let Some(first) = kept.first() {
            let part = self.shape(first, lost);
            merge_under(out, part);
        }
    }

    /// Alternatives that are all objects with one property in common whose value is a
    /// distinct string constant in each (`const`, or an `enum` of one value): a `union` with
    /// that property as discriminator. Anything else is `None` (the caller cuts the union).
    fn tagged(&mut self, key: &str, alts: &[&Value], lost: &mut Vec<String>) -> Option<Value> {
        // Flattening follows `$ref`s; a union cut after all must follow them again.
        let refs = self.refs.len();
        let found = self.tagged_inner(key, alts, lost);
        if found.is_none() {
            self.refs.truncate(refs);
        }
        found
    }

    fn tagged_inner(
        &mut self,
        key: &str,
        alts: &[&Value],
        lost: &mut Vec<String>,
    ) -> Option<Value> {
        let mut flat_lost = Vec::new();
        let shapes: Vec<Shape<'_>> = alts.iter().map(|a| self.shape(a, &mut flat_lost)).collect();
        let tag_of = |s: &Shape<'_>, prop: &str| -> Option<String> {
            let p = s.get("properties")?.get(prop)?;
            let c = match p.get("const") {
                Some(c) => c,
                None => match p.get("enum").and_then(Value::as_array)?.as_slice() {
                    [one] => one,
                    _ => return None,
                },
            };
            c.as_str().filter(|t| !t.is_empty()).map(str::to_string)
        };
        let first = shapes.first()?;
        let candidates = first.get("properties")?.as_object()?.keys();
        let disc = candidates
            .into_iter()
            .find(|prop| {
                let tags: Vec<Option<String>> = shapes.iter().map(|s| tag_of(s, prop)).collect();
                tags.iter().all(Option::is_some)
                    && tags.iter().enumerate().all(|(i, t)| !tags[..i].contains(t))
            })?
            .clone();
        let disc = disc.as_str();
        if !shapes
            .iter()
            .all(|s| s.get("type").and_then(Value::as_str) == Some("object") && !is_map(s))
        {
            return None;
        }
        lost.extend(flat_lost);
        let variants: Vec<Value> = shapes
            .into_iter()
            .filter_map(|mut s| {
                let tag = tag_of(&s, disc)?;
                if let Some(Value::Object(p)) = s.get_mut("properties") {
                    p.remove(disc);
                }
                if let Some(Value::Array(r)) = s.get_mut("required") {
                    r.retain(|n| n.as_str() != Some(disc));
                }
                Some(Value::Array(vec![Value::from(tag), s.into_value()]))
            })
            .collect();
        Some(serde_json::json!({"discriminator": disc, "key": key, "variants": variants}))
    }

    /// A `union` node from the shape [`Cx::tagged`] kept: one `variant` per alternative.
    fn union_node(&mut self, head: Node, u: &Value, at: &At, depth: usize) -> Node {
        let disc = u
            .get("discriminator")
            .and_then(Value::as_str)
            .unwrap_or("type");
        let key = u.get("key").and_then(Value::as_str).unwrap_or("oneOf");
        let mut node = head.arg("union").prop("discriminator", disc).block();
        let variants = u.get("variants").and_then(Value::as_array);
        for (i, v) in variants.into_iter().flatten().enumerate() {
            let (Some(name), Some(shape)) = (
                v.get(0).and_then(Value::as_str),
                v.get(1).and_then(Value::as_object),
            ) else {
                continue;
            };
            let shape = Shape::borrowed(shape);
            let mut vn = Node::new("variant").arg(name).block();
            if let Some(d) = shape.get("description").and_then(Value::as_str) {
                vn.child(Node::new("doc").arg(d));
            }
            let vat = At {
                path: format!("{}<{name}>", at.path),
                json: format!("{}.{key}[{i}]", at.json),
            };
            let mut inner = Vec::new();
            self.object_body(&mut vn, &shape, &vat, depth + 1, &mut inner);
            let keys: Vec<&str> = shape.keys().collect();
            unread(
                &shape,
                &keys,
                &["properties", "required", "additionalProperties", "title"],
                &mut inner,
            );
            self.report(&mut vn, &vat, inner);
            node.child(vn);
        }
        node
    }

    /// The fields of an object shape into `block`.
    fn object_body(
        &mut self,
        block: &mut Node,
        shape: &Shape<'_>,
        at: &At,
        depth: usize,
        lost: &mut Vec<String>,
    ) {
        match shape.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            None => lost.push("open object (no `additionalProperties`): closed by import".into()),
            Some(v) => lost.push(format!(
                "open object (`additionalProperties` {}): closed by import",
                short(v)
            )),
        }
        let required: Vec<&str> = match shape.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let empty = Map::new();
        let props = shape
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        for r in &required {
            if !props.contains_key(*r) {
                lost.push(format!(
                    "required `{r}` has no schema in `properties`; left out"
                ));
            }
        }
        for (name, schema) in props {
            if self.fields >= MAX_FIELDS {
                lost.push(format!(
                    "more than {MAX_FIELDS} fields; the rest are left out"
                ));
                break;
            }
            self.fields += 1;
            let field_at = at.field(name);
            let node = Node::new("field").arg(name.as_str());
            let mut field_lost = Vec::new();
            let mut node = self.typed(node, schema, &field_at, depth, &mut field_lost, true);
            if required.contains(&name.as_str()) {
                node = node.prop("required", true);
            }
            self.report(block, &field_at, field_lost);
            block.child(node);
        }
    }

    /// `head` (a `field NAME` or `items` node) completed with the type of `schema`.
    fn typed(
        &mut self,
        head: Node,
        schema: &Value,
        at: &At,
        depth: usize,
        lost: &mut Vec<String>,
        is_field: bool,
    ) -> Node {
        let refs = self.refs.len();
        let node = self.typed_shape(head, schema, at, depth, lost, is_field);
        self.refs.truncate(refs);
        node
    }

    fn typed_shape(
        &mut self,
        head: Node,
        schema: &Value,
        at: &At,
        depth: usize,
        lost: &mut Vec<String>,
        is_field: bool,
    ) -> Node {
        let (reported, lost_before) = (self.reported, lost.len());
        let mut shape = self.shape(schema, lost);
        let ty = shape
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let ty = ty.as_str();
        // A field's `const` becomes `const=` (the format refuses it on a nullable field, and
        // on items: those keep the one-value enum below).
        let constant = shape
            .get("const")
            .filter(|_| is_field && !shape.contains_key(NULLABLE))
            .and_then(|c| default_value(c, ty, false));
        if constant.is_some() {
            shape.remove("const");
        }
        let mut node;
        let read: &[&str];
        match ty {
            "string" => {
                (node, read) = string(head, &shape, lost);
            }
            "integer" | "number" => {
                (node, read) = number(head, &shape, ty == "integer", lost);
            }
            "boolean" => {
                node = head.arg("boolean");
                read = &[];
            }
            "array" if depth < MAX_DEPTH => {
                node = head.arg("array");
                read = &["items", "minItems", "maxItems", "uniqueItems"];
                self.array(&mut node, &shape, at, depth, lost);
            }
            "object" if depth < MAX_DEPTH && shape.contains_key(UNION) => {
                let u = shape.get(UNION).cloned().unwrap_or_default();
                node = self.union_node(head, &u, at, depth);
                read = &[UNION];
            }
            "object" if depth < MAX_DEPTH && is_map(&shape) => {
                (node, read) = self.map(head, &shape, at, depth, lost);
            }
            "object" if depth < MAX_DEPTH => {
                node = head.arg("object");
                let open = matches!(
                    shape.get("additionalProperties"),
                    Some(Value::Bool(true) | Value::Object(_))
                );
                read = if open {
                    node = count_props(node, &shape, lost);
                    &[
                        "properties",
                        "required",
                        "additionalProperties",
                        "minProperties",
                        "maxProperties",
                    ]
                } else {
                    &["properties", "required", "additionalProperties"]
                };
                node = node.block();
                let mut inner = Vec::new();
                if open {
                    // Declared fields, then the extras' type; the body sees a closed object.
                    let mut closed = shape.clone();
                    closed.insert("additionalProperties", Cow::Owned(Value::Bool(false)));
                    self.object_body(&mut node, &closed, at, depth + 1, &mut inner);
                    let extra = self.extra(&shape, at, depth, &mut inner);
                    node.child(extra);
                } else {
                    self.object_body(&mut node, &shape, at, depth + 1, &mut inner);
                }
                lost.extend(inner);
            }
            "array" | "object" => {
                lost.push(format!(
                    "nested deeper than {MAX_DEPTH} levels: a closed empty object"
                ));
                return head.arg("object");
            }
            "null" => {
                lost.push("type `null` alone is not expressible: a closed empty object".into());
                node = head.arg("object");
                read = &[];
            }
            _ => {
                node = head.arg("json");
                read = &[];
            }
        }
        // The last arm above: any JSON value, which admits `null` already.
        let any = !matches!(
            ty,
            "string" | "integer" | "number" | "boolean" | "array" | "object" | "null"
        );
        let mut read = read.to_vec();
        // Items, map values and extras say it as a field does (`json` admits `null` already).
        if shape.contains_key(NULLABLE) && !is_field && !any {
            node = node.prop("nullable", true);
        }
        if is_field {
            if let Some(c) = constant {
                node = node.prop("const", c);
            }
            // Examples of a value import could not express exactly (a union flattened, a
            // bound left out) may not fit what it wrote: keep them only when nothing was lost.
            let exact = self.reported == reported && lost.len() == lost_before;
            if !exact && let Some(v) = shape.remove("examples") {
                lost.push(format!(
                    "examples {} left out: the field's type is not expressed exactly",
                    short(&v)
                ));
            }
            node = self.field_level(node, &shape, ty, lost);
            read.extend(["title", "examples"]);
            if self.input {
                node = header(node, &shape, lost);
                read.push(HEADER_KEYWORD);
            }
        } else {
            for k in ["description", "default", "deprecated"] {
                if let Some(v) = shape.get(k) {
                    lost.push(format!(
                        "`{k}` of array items ({}) is not expressible",
                        short(v)
                    ));
                }
            }
        }
        let keys: Vec<&str> = shape.keys().collect();
        unread(&shape, &keys, &read, lost);
        node
    }

    /// The `extra` node of an open object with fields: its `additionalProperties` as the
    /// type map values may have, or `json` (for `true`, and with a note for a map of maps or
    /// of unions).
    fn extra(&mut self, shape: &Shape<'_>, at: &At, depth: usize, lost: &mut Vec<String>) -> Node {
        let why =
            "extra properties {} are not expressible (maps and unions of extras have no form)";
        let (node, extra_at, extra_lost) =
            self.open_values("extra", shape, at, depth, &map_value_fits, why);
        // Reported at the object: the `extra` node is a child, not a field of its own.
        for what in extra_lost {
            lost.push(format!("{}: {what}", extra_at.path));
        }
        node
    }

    /// A `map` node from an object whose only content is an `additionalProperties` schema.
    fn map(
        &mut self,
        head: Node,
        shape: &Shape<'_>,
        at: &At,
        depth: usize,
        lost: &mut Vec<String>,
    ) -> (Node, &'static [&'static str]) {
        let mut node = count_props(head.arg("map"), shape, lost);
        let why = "map values {} are not expressible (maps of maps and of unions have no form)";
        let (values, values_at, values_lost) =
            self.open_values("values", shape, at, depth, &map_value_fits, why);
        self.report(&mut node, &values_at, values_lost);
        node.child(values);
        (
            node,
            &[
                "properties",
                "additionalProperties",
                "minProperties",
                "maxProperties",
            ],
        )
    }

    /// The `values` or `extra` node (`name`) of `shape`'s `additionalProperties` schema: its
    /// type when its flattened shape `fits`, else `json` with a note (`why`, whose `{}` is the
    /// schema); `true` or `{}` is `json`. Returns the node, its place and its notes.
    fn open_values(
        &mut self,
        name: &str,
        shape: &Shape<'_>,
        at: &At,
        depth: usize,
        fits: &dyn Fn(&Shape<'_>) -> bool,
        why: &str,
    ) -> (Node, At, Vec<String>) {
        let place = At {
            path: format!("{}{{}}", at.path),
            json: format!("{}.additionalProperties", at.json),
        };
        let mut notes = Vec::new();
        let node = match shape.get("additionalProperties") {
            Some(v @ Value::Object(o)) if !o.is_empty() => {
                let refs = self.refs.len();
                let value_type = self.shape(v, &mut Vec::new());
                self.refs.truncate(refs);
                if fits(&value_type) {
                    self.typed(Node::new(name), v, &place, depth + 1, &mut notes, false)
                } else {
                    let what = why.replacen("{}", &short(v), 1);
                    notes.push(format!("{what}: any JSON value"));
                    Node::new(name).arg("json")
                }
            }
            _ => Node::new(name).arg("json"),
        };
        (node, place, notes)
    }

    fn array(
        &mut self,
        node: &mut Node,
        shape: &Shape<'_>,
        at: &At,
        depth: usize,
        lost: &mut Vec<String>,
    ) {
        let mut attrs = Vec::new();
        for (key, attr) in [("minItems", "min-items"), ("maxItems", "max-items")] {
            if let Some(v) = shape.get(key) {
                match v.as_u64() {
                    Some(n) => attrs.push((attr, Val::from(n))),
                    None => lost.push(format!("`{key}` {} is not a count; left out", short(v))),
                }
            }
        }
        if shape.get("uniqueItems") == Some(&Value::Bool(true)) {
            attrs.push(("unique", Val::Bool(true)));
        }
        for (k, v) in attrs {
            *node = std::mem::replace(node, Node::new("")).prop(k, v);
        }
        let items_at = at.items();
        let mut items_lost = Vec::new();
        let items = match shape.get("items") {
            Some(items @ Value::Object(_)) => self.typed(
                Node::new("items"),
                items,
                &items_at,
                depth + 1,
                &mut items_lost,
                false,
            ),
            Some(other) => {
                items_lost.push(format!(
                    "`items` {} (a tuple or boolean schema) is not expressible: a closed empty object",
                    short(other)
                ));
                Node::new("items").arg("object")
            }
            None => {
                items_lost
                    .push("untyped array items are not expressible: a closed empty object".into());
                Node::new("items").arg("object")
            }
        };
        self.report(node, &items_at, items_lost);
        node.child(items);
    }

    /// `doc`, `default` and `deprecated` of a field.
    fn field_level(
        &mut self,
        mut node: Node,
        shape: &Shape<'_>,
        ty: &str,
        lost: &mut Vec<String>,
    ) -> Node {
        let nullable = shape.contains_key(NULLABLE);
        if nullable {
            node = node.prop("nullable", true);
        }
        if let Some(v) = shape.get("default") {
            match default_value(v, ty, nullable) {
                Some(val) => node = node.prop("default", val),
                None => lost.push(format!(
                    "default {} is not expressible for a {} field; left out",
                    short(v),
                    if ty.is_empty() { "untyped" } else { ty }
                )),
            }
        }
        if shape.get("deprecated") == Some(&Value::Bool(true)) {
            node = node.prop("deprecated", true);
        }
        if let Some(d) = shape.get("description").and_then(Value::as_str) {
            // `fmt` puts `doc` first among the children.
            node = node.block();
            node.child(Node::new("doc").arg(d));
        }
        match shape.get("title") {
            Some(Value::String(t)) => {
                node = node.block();
                node.child(Node::new("title").arg(t.as_str()));
            }
            Some(v) => lost.push(format!("`title` {} is not a text; left out", short(v))),
            None => {}
        }
        if let Some(v) = shape.get("examples") {
            node = examples(node, v, ty, lost);
        }
        node
    }
}

/// `min-entries` / `max-entries` from `minProperties` / `maxProperties` (of a map or an
/// open object).
fn count_props(mut node: Node, shape: &Shape<'_>, lost: &mut Vec<String>) -> Node {
    for (key, attr) in [
        ("minProperties", "min-entries"),
        ("maxProperties", "max-entries"),
    ] {
        if let Some(v) = shape.get(key) {
            match v.as_u64() {
                Some(n) => node = node.prop(attr, n),
                None => lost.push(format!("`{key}` {} is not a count; left out", short(v))),
            }
        }
    }
    node
}

/// The format's map values and extras: scalars, arrays and objects with fields (not maps or
/// unions: a map of maps has no form).
fn map_value_fits(t: &Shape<'_>) -> bool {
    match t.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "number" | "boolean" | "array") => true,
        Some("object") => !is_map(t) && !t.contains_key(UNION),
        _ => false,
    }
}

/// An object schema that is a map: free keys (`additionalProperties` `true` or a schema) and
/// no named property.
fn is_map(shape: &Shape<'_>) -> bool {
    let open = match shape.get("additionalProperties") {
        Some(Value::Bool(b)) => *b,
        Some(Value::Object(_)) => true,
        _ => false,
    };
    let named = shape
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    open && !named
}

/// Adds `part` to `out` as both holding at once (`allOf`): the higher of two lower bounds
/// and the lower of two upper bounds, the values two enums share, every required name,
/// `uniqueItems` and a closed object if either says so, and a property both declare as the
/// `allOf` of its two schemas (intersected in turn when it is read). What cannot be
/// intersected keeps `out`'s word: a second `pattern` (the format has one per field) or
/// another `type`, `format`, `const` or `multipleOf`. `merged` gets one line per keyword
/// that both had.
fn intersect<'v>(out: &mut Shape<'v>, part: Shape<'v>, merged: &mut Vec<String>) {
    for (k, theirs) in part {
        let Some(mine) = out.get(&k) else {
            out.insert(k, theirs);
            continue;
        };
        if *mine == *theirs {
            continue;
        }
        let f = |v: &Value| v.as_f64();
        match k.as_str() {
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties"
            | "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties"
                if f(mine).is_some() && f(&theirs).is_some() =>
            {
                let lower = k.starts_with("min") || k == "exclusiveMinimum";
                let (a, b) = (f(mine).unwrap_or(0.0), f(&theirs).unwrap_or(0.0));
                let keep_theirs = if lower { b > a } else { b < a };
                let kept = if keep_theirs { &*theirs } else { mine };
                merged.push(format!("`{k}` {mine} and {theirs} → {kept}"));
                if keep_theirs {
                    out.insert(k, theirs);
                }
            }
            "enum" if mine.is_array() && theirs.is_array() => {
                let same = |a: &Value, b: &Value| match (a.as_f64(), b.as_f64()) {
                    (Some(x), Some(y)) => x == y,
                    _ => a == b,
                };
                let theirs = theirs.as_array().map(Vec::as_slice).unwrap_or_default();
                if let Some(values) = out.get_mut(&k).and_then(Value::as_array_mut) {
                    let before = values.len();
                    values.retain(|v| theirs.iter().any(|t| same(v, t)));
                    merged.push(format!(
                        "`enum` of {before} and {} values intersected to {}",
                        theirs.len(),
                        values.len()
                    ));
                }
            }
            "required" => add_required(out, theirs),
            "properties" => {
                if let (Some(mine), Value::Object(theirs)) = (
                    out.get_mut(&k).and_then(Value::as_object_mut),
                    theirs.into_owned(),
                ) {
                    for (name, schema) in theirs {
                        match mine.get_mut(&name) {
                            Some(m) if *m != schema => {
                                *m = serde_json::json!({ "allOf": [m.clone(), schema] });
                                merged.push(format!("property `{name}` in two of them: both hold"));
                            }
                            Some(_) => {}
                            None => {
                                mine.insert(name, schema);
                            }
                        }
                    }
                }
            }
            "uniqueItems" => {
                if *theirs == Value::Bool(true) {
                    out.insert(k, theirs);
                }
            }
            "additionalProperties" if *theirs == Value::Bool(false) => {
                out.insert(k, theirs);
                merged.push("`additionalProperties` false in one of them: closed".into());
            }
            "description" | "title" | "examples" | "default" | "$comment" => {}
            "pattern" => merged.push(format!(
                "a second `pattern` {theirs} is dropped (one pattern per field): values it alone rejects are accepted"
            )),
            _ => merged.push(format!("`{k}` {mine} and {theirs} conflict: {mine} is kept")),
        }
    }
}

/// Adds to `out` every key of `part` it does not have (the outer schema's words win).
fn merge_under<'v>(out: &mut Shape<'v>, part: Shape<'v>) {
    for (k, v) in part {
        let Some(mine) = out.get(&k) else {
            out.insert(k, v);
            continue;
        };
        match k.as_str() {
            "properties" if mine.is_object() && v.is_object() => {
                if let (Some(mine), Value::Object(theirs)) = (
                    out.get_mut(&k).and_then(Value::as_object_mut),
                    v.into_owned(),
                ) {
                    for (pk, pv) in theirs {
                        mine.entry(pk).or_insert(pv);
                    }
                }
            }
            "required" if mine.is_array() && v.is_array() => add_required(out, v),
            _ => {}
        }
    }
}

/// Adds to `out`'s `required` (when it is a list) each name of `theirs` it lacks.
fn add_required(out: &mut Shape<'_>, theirs: Cow<'_, Value>) {
    if let (Some(mine), Value::Array(theirs)) = (
        out.get_mut("required").and_then(Value::as_array_mut),
        theirs.into_owned(),
    ) {
        for r in theirs {
            if !mine.contains(&r) {
                mine.push(r);
            }
        }
    }
}

/// `type` as one string: `null` dropped from a list, a union cut to its first member, an
/// absent type inferred from the other keywords.
fn single_type(out: &mut Shape<'_>, lost: &mut Vec<String>) {
    let mut nullable = false;
    let ty = match out.get("type") {
        Some(Value::String(t)) => Some(t.clone()),
        Some(Value::Array(list)) => {
            let names: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
            let kept: Vec<&str> = names.iter().copied().filter(|t| *t != "null").collect();
            nullable = kept.len() < names.len() && !kept.is_empty();
            if kept.len() > 1 {
                lost.push(format!(
                    "type union ({}) is not expressible; only `{}` is kept",
                    kept.join(" | "),
                    kept[0]
                ));
            }
            kept.first().or(names.first()).map(|t| t.to_string())
        }
        _ => None,
    };
    if nullable {
        out.insert(NULLABLE, Cow::Owned(Value::Bool(true)));
    }
    let ty = ty.or_else(|| inferred_type(out));
    match ty {
        Some(t) => out.insert("type", Cow::Owned(Value::String(t))),
        None => drop(out.remove("type")),
    }
}

fn inferred_type(s: &Shape<'_>) -> Option<String> {
    if s.contains_key("properties") || s.contains_key("additionalProperties") {
        return Some("object".into());
    }
    if s.contains_key("items") {
        return Some("array".into());
    }
    let sample = s
        .get("const")
        .or_else(|| s.get("enum").and_then(|e| e.as_array()?.first()))?;
    Some(
        match sample {
            Value::String(_) => "string",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_f64() => "number",
            Value::Number(_) => "integer",
            _ => return None,
        }
        .into(),
    )
}

fn kind_label(v: &Value) -> String {
    match v.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(other) => other.to_string(),
        None if v.get("$ref").is_some() => "$ref".into(),
        None if v.get("const").is_some() => "const".into(),
        None => "any".into(),
    }
}

fn string(
    head: Node,
    shape: &Shape<'_>,
    lost: &mut Vec<String>,
) -> (Node, &'static [&'static str]) {
    const READ: &[&str] = &[
        "format",
        "enum",
        "const",
        "minLength",
        "maxLength",
        "pattern",
    ];
    let format = shape.get("format").and_then(Value::as_str);
    let only_format = !["enum", "const", "minLength", "maxLength", "pattern"]
        .iter()
        .any(|k| shape.contains_key(k));
    if format == Some("date-time") && only_format {
        return (head.arg("timestamp"), READ);
    }
    let mut node = head.arg("string");
    for (key, attr) in [("minLength", "min-length"), ("maxLength", "max-length")] {
        if let Some(v) = shape.get(key) {
            match v.as_u64() {
                Some(n) => node = node.prop(attr, n),
                None => lost.push(format!("`{key}` {} is not a length; left out", short(v))),
            }
        }
    }
    if let Some(p) = shape.get("pattern").and_then(Value::as_str) {
        node = node.prop("pattern", p);
    }
    if let Some(f) = format {
        match Format::parse(f) {
            Some(known) => node = node.prop("format", known.as_str()),
            None => lost.push(format!("format {f:?} is not expressible; left out")),
        }
    }
    if let Some(vals) = listed_values(shape, lost) {
        node = enum_child(node, &vals, |v| v.as_str().map(Val::from), lost);
    }
    (node, READ)
}

fn number(
    head: Node,
    shape: &Shape<'_>,
    integer: bool,
    lost: &mut Vec<String>,
) -> (Node, &'static [&'static str]) {
    let mut node = head.arg(if integer { "integer" } else { "number" });
    let bounds = [
        ("minimum", "min"),
        ("maximum", "max"),
        ("exclusiveMinimum", "exclusive-min"),
        ("exclusiveMaximum", "exclusive-max"),
        ("multipleOf", "multiple-of"),
    ];
    for (key, attr) in bounds {
        let Some(v) = shape.get(key) else { continue };
        match num_value(v, integer) {
            Some(val) if key != "multipleOf" || v.as_f64().is_some_and(|f| f > 0.0) => {
                node = node.prop(attr, val);
            }
            _ => lost.push(format!(
                "`{key}` {} is not expressible for {}; left out",
                short(v),
                if integer { "an integer" } else { "a number" }
            )),
        }
    }
    if let Some(vals) = listed_values(shape, lost) {
        node = enum_child(node, &vals, |v| num_value(v, integer), lost);
    }
    if let Some(v) = shape.get("x-unit") {
        match v.as_str().and_then(Unit::parse) {
            Some(u) => node = node.prop("unit", u.as_str()),
            None => lost.push(format!("`x-unit` {} is not a unit; left out", short(v))),
        }
    }
    (
        node,
        &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "enum",
            "const",
            "x-unit",
        ],
    )
}

/// The values of an `enum`, or of a `const` written as a one-value enum (with a note).
fn listed_values<'s>(
    shape: &'s Shape<'_>,
    lost: &mut Vec<String>,
) -> Option<std::borrow::Cow<'s, [Value]>> {
    match (shape.get("enum"), shape.get("const")) {
        (Some(Value::Array(vals)), _) => Some(std::borrow::Cow::Borrowed(vals)),
        (Some(other), _) => {
            lost.push(format!("`enum` {} is not a list; left out", short(other)));
            None
        }
        (None, Some(c)) => {
            lost.push(format!(
                "`const` {} is written as a one-value enum",
                short(c)
            ));
            Some(std::borrow::Cow::Owned(vec![c.clone()]))
        }
        (None, None) => None,
    }
}

/// The equality the loader applies to enum values, as a hashable key: numbers by value as
/// doubles (`1` and `1.0`, `0` and `-0.0` are one value, as `model::Num::key` has it),
/// strings as themselves. Imported values are finite, so no NaN needs a key.
#[derive(PartialEq, Eq, Hash)]
enum ValKey<'a> {
    Str(&'a str),
    Num(u64),
    Bool(bool),
    Null,
}

impl<'a> ValKey<'a> {
    fn of(v: &'a Val) -> ValKey<'a> {
        let num = |f: f64| ValKey::Num(if f == 0.0 { 0 } else { f.to_bits() });
        match v {
            Val::Str(s) => ValKey::Str(s),
            Val::Int(i) => num(*i as f64),
            Val::Float(f) => num(*f),
            Val::Bool(b) => ValKey::Bool(*b),
            Val::Null => ValKey::Null,
        }
    }
}

/// `node` with an `enum` child of `vals`, each converted to the field's kind of value; an
/// enum with a value of another kind, or none, is left out with a note.
fn enum_child(
    mut node: Node,
    vals: &[Value],
    convert: impl Fn(&Value) -> Option<Val>,
    lost: &mut Vec<String>,
) -> Node {
    // `null` in an enum is a value only when the type admits it, and then the field is
    // written `nullable=#true`, which lists it again: either way it is not a value here.
    let values = vals.iter().filter(|v| !v.is_null());
    let listed = values.clone().count();
    let converted: Vec<Val> = values.filter_map(&convert).collect();
    // First occurrences in order, each found by a hash lookup (comparing each value with all
    // kept before it took 38 s for one 200,000-value enum). The values move into the node
    // once the lookups are done, so an enum of a million values is held once, not thrice.
    let first: Vec<bool> = {
        let mut seen = std::collections::HashSet::with_capacity(converted.len());
        converted
            .iter()
            .map(|v| seen.insert(ValKey::of(v)))
            .collect()
    };
    let unique = first.iter().filter(|f| **f).count();
    if converted.len() == listed && unique > 0 {
        if unique < converted.len() {
            lost.push("enum values listed twice are written once".into());
        }
        let mut e = Node::new("enum");
        for (v, first) in converted.into_iter().zip(first) {
            if first {
                e = e.arg(v);
            }
        }
        node = node.block();
        node.child(e);
    } else {
        let kept: Vec<Value> = vals.iter().filter(|v| !v.is_null()).cloned().collect();
        lost.push(format!(
            "enum {} mixes types or is empty; left out",
            short(&Value::Array(kept))
        ));
    }
    node
}

/// A field's `examples` child: each value of the field's type as a KDL value (strings,
/// numbers, booleans), or as JSON text for arrays, objects, maps and untyped values. A value
/// of another type is left out with a note (lint would reject it as an example anyway).
fn examples(mut node: Node, v: &Value, ty: &str, lost: &mut Vec<String>) -> Node {
    let Value::Array(values) = v else {
        lost.push(format!("`examples` {} is not a list; left out", short(v)));
        return node;
    };
    let mut e = Node::new("examples");
    let mut any = false;
    for x in values {
        let val = match ty {
            "string" | "integer" | "number" | "boolean" => default_value(x, ty, false),
            _ => Some(Val::Str(x.to_string())),
        };
        match val {
            Some(val) => {
                e = e.arg(val);
                any = true;
            }
            None => lost.push(format!(
                "example {} is not a value of the field's type ({ty}); left out",
                short(x)
            )),
        }
    }
    if any {
        node = node.block();
        node.child(e);
    }
    node
}

/// `header="…"` of an input field from `x-mcp-header` (docs/catalog-format.md).
fn header(node: Node, shape: &Shape<'_>, lost: &mut Vec<String>) -> Node {
    match shape.get(HEADER_KEYWORD) {
        None => node,
        Some(Value::String(h)) => node.prop("header", h.as_str()),
        Some(v) => {
            lost.push(format!(
                "`{HEADER_KEYWORD}` {} is not a header name; left out",
                short(v)
            ));
            node
        }
    }
}

/// A JSON number as a bound of an integer (an integral value within 64 bits) or number field.
fn num_value(v: &Value, integer: bool) -> Option<Val> {
    if let Some(i) = v.as_i64() {
        return Some(Val::Int(i));
    }
    let f = v.as_f64()?;
    if integer {
        let fits = f.fract() == 0.0 && f >= i64::MIN as f64 && f < i64::MAX as f64;
        return fits.then_some(Val::Int(f as i64));
    }
    f.is_finite().then_some(Val::Float(f))
}

fn default_value(v: &Value, ty: &str, nullable: bool) -> Option<Val> {
    match (ty, v) {
        (_, Value::Null) if nullable => Some(Val::Null),
        ("string", Value::String(s)) => Some(Val::Str(s.clone())),
        ("boolean", Value::Bool(b)) => Some(Val::Bool(*b)),
        ("integer", Value::Number(_)) => match num_value(v, true)? {
            Val::Int(i) => Some(Val::Int(i)),
            _ => None,
        },
        ("number", Value::Number(_)) => num_value(v, false),
        _ => None,
    }
}
