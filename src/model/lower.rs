//! Lowering: the typed KDL view ([`crate::syntax::Document`]) of one file into a [`Catalog`].
//!
//! Written by hand so every message can say what to write instead, and so lowering goes on
//! after every mistake: one run reports every problem of a file. A part that cannot be
//! lowered is left out of the model (a tool without an `effect`, a field whose type does not
//! resolve) so consumers never see a half-built value; its diagnostics explain why.

use super::*;
use crate::diag::suggest::did_you_mean;
use crate::diag::{Diagnostic, FileId, Level};
use crate::syntax::{Document, Entry, Node, Number, Value};
use std::collections::{HashMap, HashSet};

/// Nesting of fields (objects and array items) deeper than this is refused rather than
/// followed, so a hostile file cannot exhaust the stack.
pub const MAX_FIELD_DEPTH: usize = 64;

/// Lowers one parsed file. The catalog is `None` when the file has no usable `catalog` node;
/// the diagnostics then say why, together with every other problem of the file.
pub fn lower(doc: &Document, file: FileId) -> (Option<Catalog>, Vec<Diagnostic>) {
    let mut cx = Cx {
        file,
        diags: Vec::new(),
        tool: None,
        path: Vec::new(),
        type_names: HashSet::new(),
    };
    let catalog = cx.lower_document(doc);
    if let Some(c) = &catalog {
        for d in &mut cx.diags {
            d.catalog = Some(c.name.value.clone());
        }
    }
    (catalog, cx.diags)
}

const U64_RANGE: (i128, i128) = (0, u64::MAX as i128);
const I64_RANGE: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);

fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

const TOP_LEVEL: &[&str] = &["catalog", "type", "tool"];
const CATALOG_CHILDREN: &[&str] = &["summary"];
const TOOL_CHILDREN: &[&str] = &[
    "title",
    "summary",
    "when",
    "when-not",
    "effect",
    "open-world",
    "limits",
    "input",
    "output",
    "error",
    "idempotency",
    "confirm",
    "on-timeout",
    "needs-input",
    "examples",
    "deprecated",
    "allow",
];
const TYPE_KEYWORDS: &[&str] = &[
    "string",
    "integer",
    "number",
    "boolean",
    "cursor",
    "timestamp",
    "array",
    "object",
];
const COMMON_FIELD_PROPS: &[&str] = &["required", "default", "sensitive", "deprecated"];
const STRING_PROPS: &[&str] = &[
    "min-length",
    "max-length",
    "pattern",
    "format",
    "extensible",
];
const CURSOR_PROPS: &[&str] = &["min-length", "max-length"];
const NUM_PROPS: &[&str] = &[
    "min",
    "max",
    "exclusive-min",
    "exclusive-max",
    "multiple-of",
    "unit",
];
const ARRAY_PROPS: &[&str] = &["min-items", "max-items", "unique"];
const EFFECTS: &[&str] = &[
    "read",
    "external-read",
    "preview",
    "update",
    "append",
    "destructive",
];
const CLASSES: &[&str] = &[
    "invalid-argument",
    "permission-denied",
    "not-found",
    "conflict",
    "precondition-failed",
    "business-rejected",
    "rate-limited",
    "unavailable",
    "timeout",
    "budget-exceeded",
    "internal",
];
const RETRIES: &[&str] = &[
    "fix-arguments",
    "never",
    "after-user-action",
    "backoff",
    "query-status",
];
const UNITS: &[&str] = &[
    "minor",
    "ms",
    "s",
    "bytes",
    "count",
    "percent",
    "basis-points",
];
const FORMATS: &[&str] = &["date-time", "date", "email", "uri", "uuid"];
const KINDS: &[&str] = &["confirmation", "choice", "credential", "text"];
const DIGESTS: &[&str] = &["arguments", "arguments+resource-version"];
const STRATEGIES: &[&str] = &["query-status", "retry-with-key"];

/// The type-specific properties of a field type keyword.
fn type_props(keyword: &str) -> &'static [&'static str] {
    match keyword {
        "string" => STRING_PROPS,
        "cursor" => CURSOR_PROPS,
        "integer" | "number" => NUM_PROPS,
        "array" => ARRAY_PROPS,
        _ => &[],
    }
}

/// Which field types a property belongs to, for "does not apply" messages.
fn types_with_prop(prop: &str) -> Vec<&'static str> {
    TYPE_KEYWORDS
        .iter()
        .copied()
        .filter(|k| type_props(k).contains(&prop))
        .collect()
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string \"{s}\""),
        Value::Number(n) => format!("the number {}", number_text(n)),
        Value::Bool(b) => format!("#{b}"),
        Value::Null => "#null".to_string(),
    }
}

fn number_text(n: &Number) -> String {
    match n {
        Number::Int(i) => i.to_string(),
        Number::BigInt(s) => s.clone(),
        Number::Float(f) => format!("{f:?}"),
        Number::FloatOverflow => "(too large for a 64-bit float)".to_string(),
        Number::Inf => "#inf".to_string(),
        Number::NegInf => "#-inf".to_string(),
        Number::NaN => "#nan".to_string(),
    }
}

/// Properties of one node by name (first occurrence), after unknown and duplicate ones were
/// reported.
struct Props<'a> {
    map: Vec<(&'a str, Entry<'a>)>,
}

impl<'a> Props<'a> {
    fn get(&self, name: &str) -> Option<&Entry<'a>> {
        self.map.iter().find(|(n, _)| *n == name).map(|(_, e)| e)
    }
}

struct Cx {
    file: FileId,
    diags: Vec<Diagnostic>,
    tool: Option<String>,
    /// Dotted location of the field being lowered; `[]` segments attach without a dot.
    path: Vec<String>,
    /// Named types declared in this file (first declaration of each name).
    type_names: HashSet<String>,
}

impl Cx {
    /// Appends `item` unless one of the same name is there already: a repeat is reported as
    /// `naming/duplicate` (`message` names it) and dropped, so the model never holds a name
    /// twice.
    fn push_unique<T>(
        &mut self,
        items: &mut Vec<T>,
        item: T,
        name: impl Fn(&T) -> &Sp<String>,
        message: impl FnOnce(&str) -> String,
        help: &str,
    ) {
        let new = name(&item);
        if items.iter().any(|x| name(x).value == new.value) {
            let span = new.span;
            let message = message(&new.value);
            self.err("naming/duplicate", span, message, Some(help.to_string()));
        } else {
            items.push(item);
        }
    }

    fn err(&mut self, rule: &str, span: Span, message: impl Into<String>, help: Option<String>) {
        let mut d = Diagnostic::new(rule, Level::Error, self.file, span, message);
        d.help = help;
        d.tool = self.tool.clone();
        if !self.path.is_empty() {
            let mut p = String::new();
            for seg in &self.path {
                if !p.is_empty() && seg != "[]" {
                    p.push('.');
                }
                p.push_str(seg);
            }
            d.path = Some(p);
        }
        self.diags.push(d);
    }

    // ---- generic node reading ----

    /// Reports type annotations on the node and its entries: the format uses none.
    fn check_annotations(&mut self, node: &Node) {
        if let Some(ty) = &node.ty {
            self.err(
                "model/type-annotation",
                ty.span,
                format!(
                    "type annotation `({})` on `{}`: catalogs use no type annotations",
                    ty.value, node.name.value
                ),
                Some("remove the parenthesised annotation".to_string()),
            );
        }
        for e in node.entries() {
            if let Some(ty) = &e.ty {
                self.err(
                    "model/type-annotation",
                    ty.span,
                    format!(
                        "type annotation `({})` on a value of `{}`: catalogs use no type annotations",
                        ty.value, node.name.value
                    ),
                    Some("remove the parenthesised annotation".to_string()),
                );
            }
        }
    }

    /// The node's properties, reporting unknown and duplicate ones. `explain_unknown` may
    /// word the message for an unknown property (one that belongs to another field type).
    fn props<'a>(
        &mut self,
        node: &Node<'a>,
        allowed: &[&str],
        explain_unknown: &dyn Fn(&str) -> Option<String>,
    ) -> Props<'a> {
        let mut map: Vec<(&'a str, Entry<'a>)> = Vec::new();
        for e in node.entries() {
            let Some(name) = e.name else { continue };
            let key = name.value;
            if !allowed.contains(&key) {
                let message = explain_unknown(key).unwrap_or_else(|| {
                    format!("unknown property `{key}` on `{}`", node.name.value)
                });
                let allowed_text = if allowed.is_empty() {
                    format!("`{}` takes no properties", node.name.value)
                } else {
                    format!("allowed here: {}", quoted_list(allowed))
                };
                let help = Some(match did_you_mean(key, allowed.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`? {allowed_text}"),
                    None => allowed_text,
                });
                self.err("model/unknown-property", name.span, message, help);
                continue;
            }
            if map.iter().any(|(n, _)| *n == key) {
                self.err(
                    "model/duplicate-property",
                    e.span,
                    format!("property `{key}` is given twice on `{}`", node.name.value),
                    Some("keep one of them; this one is ignored".to_string()),
                );
                continue;
            }
            map.push((key, e));
        }
        Props { map }
    }

    /// The node's arguments; reports missing (below `min`) and extra (above `max`) ones.
    /// `usage` shows how the node is written.
    fn args<'a>(&mut self, node: &Node<'a>, min: usize, max: usize, usage: &str) -> Vec<Entry<'a>> {
        let args: Vec<Entry<'a>> = node.entries().filter(|e| e.name.is_none()).collect();
        if args.len() < min {
            self.err(
                "model/missing-argument",
                node.name.span,
                format!(
                    "`{}` needs {} argument{}",
                    node.name.value,
                    min,
                    if min == 1 { "" } else { "s" }
                ),
                Some(format!("write it as `{usage}`")),
            );
        }
        for extra in args.iter().skip(max) {
            self.err(
                "model/unexpected-argument",
                extra.span,
                format!(
                    "`{}` takes {} argument{}; this one is extra",
                    node.name.value,
                    if max == usize::MAX {
                        "any number of".to_string()
                    } else {
                        max.to_string()
                    },
                    if max == 1 { "" } else { "s" }
                ),
                Some(format!("write it as `{usage}`")),
            );
        }
        args.into_iter().take(max).collect()
    }

    /// A node that takes no children block.
    fn no_children(&mut self, node: &Node) {
        if let Some(ch) = node.children()
            && !ch.nodes().is_empty()
        {
            self.err(
                "model/unexpected-children",
                ch.span,
                format!("`{}` takes no children block", node.name.value),
                Some("remove the `{ ... }` block".to_string()),
            );
        }
    }

    fn unknown_node(&mut self, node: &Node, where_: &str, allowed: &[&str]) {
        let name = node.name.value;
        let allowed_text = format!("allowed {where_}: {}", quoted_list(allowed));
        let help = match did_you_mean(name, allowed.iter().copied()) {
            Some(s) => format!("did you mean `{s}`? {allowed_text}"),
            None => allowed_text,
        };
        self.err(
            "model/unknown-node",
            node.name.span,
            format!("unknown node `{name}` {where_}"),
            Some(help),
        );
    }

    /// Reports the second and later occurrence of a single-valued child.
    fn once(&mut self, seen: &mut HashSet<String>, node: &Node, parent: &str) -> bool {
        if seen.insert(node.name.value.to_string()) {
            return true;
        }
        self.err(
            "model/duplicate-node",
            node.name.span,
            format!("`{}` is given twice in {parent}", node.name.value),
            Some("keep one of them; this one is ignored".to_string()),
        );
        false
    }

    // ---- values ----

    fn wrong_type(&mut self, e: &Entry, what: &str, expected: &str, help: String) {
        self.err(
            "model/wrong-type",
            e.value.span,
            format!(
                "{what}: expected {expected}, found {}",
                describe(&e.value.value)
            ),
            Some(help),
        );
    }

    fn string(&mut self, e: &Entry, what: &str) -> Option<Sp<String>> {
        match e.value.value {
            Value::String(s) => Some(Sp::new(s.to_string(), e.value.span)),
            Value::Number(n) => {
                self.number_problem(e, n, what);
                let text = number_text(n);
                self.wrong_type(e, what, "a string", format!("put it in quotes: \"{text}\""));
                None
            }
            other => {
                let help = match other {
                    Value::Null => "write a string in quotes, or leave the entry out".to_string(),
                    _ => "write a string in quotes".to_string(),
                };
                self.wrong_type(e, what, "a string", help);
                None
            }
        }
    }

    fn boolean(&mut self, e: &Entry, what: &str) -> Option<Sp<bool>> {
        match e.value.value {
            Value::Bool(b) => Some(Sp::new(b, e.value.span)),
            Value::String(s) if s == "true" || s == "false" => {
                self.wrong_type(
                    e,
                    what,
                    "#true or #false",
                    format!("write `#{s}` without quotes"),
                );
                None
            }
            _ => {
                self.wrong_type(
                    e,
                    what,
                    "#true or #false",
                    "write `#true` or `#false`".to_string(),
                );
                None
            }
        }
    }

    /// Reports the number kinds no catalog value may hold. Returns true when it reported.
    fn number_problem(&mut self, e: &Entry, n: &Number, what: &str) -> bool {
        match n {
            Number::FloatOverflow => {
                self.err(
                    "model/number-overflow",
                    e.value.span,
                    format!("{what}: this number is too large for a 64-bit float"),
                    Some("write a number of a sensible magnitude".to_string()),
                );
                true
            }
            Number::Inf | Number::NegInf | Number::NaN => {
                self.err(
                    "model/not-finite",
                    e.value.span,
                    format!(
                        "{what}: `{}` is not a finite number, which JSON cannot carry",
                        number_text(n)
                    ),
                    Some("write a finite number".to_string()),
                );
                true
            }
            _ => false,
        }
    }

    fn not_a_number_help(v: &Value) -> String {
        match v {
            Value::String(s) if s.trim().parse::<f64>().is_ok() => {
                format!("remove the quotes: {}", s.trim())
            }
            _ => "write a number without quotes, e.g. 50".to_string(),
        }
    }

    /// A non-negative integer that fits a `u64`.
    fn uint(&mut self, e: &Entry, what: &str) -> Option<Sp<u64>> {
        let span = e.value.span;
        match e.value.value {
            Value::Number(Number::Int(i)) => match u64::try_from(*i) {
                Ok(v) => Some(Sp::new(v, span)),
                Err(_) => {
                    self.out_of_range(span, what, &i.to_string(), U64_RANGE);
                    None
                }
            },
            Value::Number(Number::BigInt(s)) => {
                self.out_of_range(span, what, s, U64_RANGE);
                None
            }
            Value::Number(n @ Number::Float(_)) => {
                self.wrong_type(
                    e,
                    what,
                    "an integer",
                    format!(
                        "write a whole number without a fraction or exponent (found {})",
                        number_text(n)
                    ),
                );
                None
            }
            Value::Number(n) => {
                self.number_problem(e, n, what);
                None
            }
            v => {
                let help = Self::not_a_number_help(&v).replace("a number", "a whole number");
                self.wrong_type(e, what, "an integer", help);
                None
            }
        }
    }

    /// A whole number outside what the model stores (`u64` counts, `i64` bounds): never
    /// wrapped, always reported with the range that fits.
    fn out_of_range(&mut self, span: Span, what: &str, found: &str, range: (i128, i128)) {
        self.err(
            "model/out-of-range",
            span,
            format!("{what}: {found} is out of range"),
            Some(format!(
                "write a whole number from {} to {}",
                range.0, range.1
            )),
        );
    }

    /// A bound: an integer that fits an `i64` or, unless `integer_only`, a finite float.
    fn num(&mut self, e: &Entry, what: &str, integer_only: bool) -> Option<Sp<Num>> {
        let span = e.value.span;
        match e.value.value {
            Value::Number(Number::Int(i)) => match i64::try_from(*i) {
                Ok(v) => Some(Sp::new(Num::Int(v), span)),
                Err(_) => {
                    self.out_of_range(span, what, &i.to_string(), I64_RANGE);
                    None
                }
            },
            Value::Number(Number::BigInt(s)) => {
                self.out_of_range(span, what, s, I64_RANGE);
                None
            }
            Value::Number(Number::Float(f)) if !integer_only => Some(Sp::new(Num::Float(*f), span)),
            Value::Number(n @ Number::Float(_)) => {
                self.wrong_type(
                    e,
                    what,
                    "an integer (the field is an `integer`)",
                    format!(
                        "write a whole number, or make the field a `number` (found {})",
                        number_text(n)
                    ),
                );
                None
            }
            Value::Number(n) => {
                self.number_problem(e, n, what);
                None
            }
            v => {
                let expected = if integer_only {
                    "an integer"
                } else {
                    "a number"
                };
                self.wrong_type(e, what, expected, Self::not_a_number_help(&v));
                None
            }
        }
    }

    /// A string that must be one of a fixed set of keywords.
    fn keyword<T>(
        &mut self,
        e: &Entry,
        what: &str,
        parse: fn(&str) -> Option<T>,
        allowed: &[&str],
    ) -> Option<Sp<T>> {
        let s = self.string(e, what)?;
        match parse(&s.value) {
            Some(v) => Some(Sp::new(v, s.span)),
            None => {
                let list = format!("one of {}", quoted_list(allowed));
                let help = match did_you_mean(&s.value, allowed.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`? write {list}"),
                    None => format!("write {list}"),
                };
                self.err(
                    "model/unknown-keyword",
                    s.span,
                    format!("{what}: `{}` is not a known value", s.value),
                    Some(help),
                );
                None
            }
        }
    }

    /// A node of the form `NAME "text"` (summary, doc, when, ...).
    fn text_node(&mut self, node: &Node) -> Option<Sp<String>> {
        self.check_annotations(node);
        let name = node.name.value;
        self.props(node, &[], &|_| None);
        self.no_children(node);
        let args = self.args(node, 1, 1, &format!("{name} \"...\""));
        let e = args.first()?;
        self.string(e, &format!("`{name}`"))
    }

    // ---- document ----

    fn lower_document(&mut self, doc: &Document) -> Option<Catalog> {
        let mut catalog: Option<Catalog> = None;
        let mut catalog_seen = false;
        // Type names first: fields may use a type declared further down.
        let mut type_nodes = Vec::new();
        for (i, node) in doc.nodes().enumerate() {
            if node.name.value != "type" {
                continue;
            }
            let Some(name) =
                node.entries()
                    .find(|e| e.name.is_none())
                    .and_then(|e| match e.value.value {
                        Value::String(s) => Some(Sp::new(s.to_string(), e.value.span)),
                        _ => None,
                    })
            else {
                type_nodes.push(i);
                continue;
            };
            if self.type_names.contains(&name.value) {
                self.err(
                    "naming/duplicate",
                    name.span,
                    format!("type `{}` is declared twice in this file", name.value),
                    Some("rename or remove one; this declaration is ignored".to_string()),
                );
                continue;
            }
            self.type_names.insert(name.value.clone());
            type_nodes.push(i);
        }

        let mut types = Vec::new();
        let mut tools: Vec<Tool> = Vec::new();
        let mut tool_names: HashSet<String> = HashSet::new();
        for (i, node) in doc.nodes().enumerate() {
            // Diagnostics outside a tool name no tool.
            self.tool = None;
            self.path.clear();
            match node.name.value {
                "catalog" => {
                    if catalog_seen {
                        self.check_annotations(&node);
                        self.err(
                            "model/duplicate-node",
                            node.name.span,
                            "a file holds exactly one `catalog` node; this is a second one",
                            Some(
                                "move the tools of another catalog into a file of their own"
                                    .to_string(),
                            ),
                        );
                        continue;
                    }
                    catalog_seen = true;
                    catalog = self.lower_catalog(&node);
                }
                "type" => {
                    if type_nodes.contains(&i)
                        && let Some(t) = self.lower_type(&node)
                    {
                        types.push(t);
                    }
                }
                "tool" => {
                    if let Some(t) = self.lower_tool(&node) {
                        if tool_names.insert(t.name.value.clone()) {
                            tools.push(t);
                        } else {
                            self.tool = None;
                            self.err(
                                "naming/duplicate",
                                t.name.span,
                                format!("tool `{}` is declared twice in this file", t.name.value),
                                Some(
                                    "rename or remove one; this declaration is ignored".to_string(),
                                ),
                            );
                        }
                    }
                }
                _ => {
                    self.check_annotations(&node);
                    self.unknown_node(&node, "at the top level", TOP_LEVEL);
                }
            }
        }
        if !catalog_seen {
            let span = doc.nodes().first().map(|n| n.name.span).unwrap_or_default();
            self.err(
                "model/missing-catalog",
                span,
                "this file has no `catalog` node",
                Some("start the file with `catalog \"NAME\" version=\"1.0.0\"`".to_string()),
            );
        }
        self.tool = None;
        self.path.clear();
        self.break_cycles(&mut types);
        let mut c = catalog?;
        c.types = types;
        c.tools = tools;
        Some(c)
    }

    fn lower_catalog(&mut self, node: &Node) -> Option<Catalog> {
        self.check_annotations(node);
        let usage = "catalog \"NAME\" version=\"1.0.0\" { summary \"...\" }";
        let props = self.props(node, &["version"], &|_| None);
        let args = self.args(node, 1, 1, usage);
        let name = args.first().and_then(|e| self.string(e, "catalog name"));
        let version = match props.get("version") {
            Some(e) => self.string(e, "`version`"),
            None => {
                self.err(
                    "model/missing-property",
                    node.name.span,
                    "`catalog` needs a `version`",
                    Some(format!("write it as `{usage}`")),
                );
                None
            }
        };
        let mut summary = None;
        let mut seen = HashSet::new();
        if let Some(ch) = node.children() {
            for n in ch.nodes() {
                match n.name.value {
                    "summary" => {
                        if self.once(&mut seen, &n, "`catalog`") {
                            summary = self.text_node(&n);
                        }
                    }
                    _ => {
                        self.check_annotations(&n);
                        self.unknown_node(&n, "in `catalog`", CATALOG_CHILDREN);
                    }
                }
            }
        }
        Some(Catalog {
            file: self.file,
            name: name?,
            version: version?,
            summary,
            types: Vec::new(),
            tools: Vec::new(),
            span: node.span,
        })
    }

    fn lower_type(&mut self, node: &Node) -> Option<TypeDef> {
        self.check_annotations(node);
        self.props(node, &[], &|_| None);
        let args = self.args(node, 1, 1, "type \"Name\" { field ... }");
        let name = self.string(args.first()?, "type name")?;
        self.path = vec![name.value.clone()];
        let mut doc = None;
        let mut fields = Vec::new();
        let mut seen = HashSet::new();
        if let Some(ch) = node.children() {
            for n in ch.nodes() {
                match n.name.value {
                    "doc" => {
                        if self.once(&mut seen, &n, "`type`") {
                            doc = self.text_node(&n);
                        }
                    }
                    "field" => self.push_field(&mut fields, &n, 1),
                    _ => {
                        self.check_annotations(&n);
                        self.unknown_node(&n, "in `type`", &["doc", "field"]);
                    }
                }
            }
        }
        self.path.clear();
        Some(TypeDef {
            name,
            doc,
            fields,
            span: node.span,
        })
    }

    // ---- tools ----

    fn lower_tool(&mut self, node: &Node) -> Option<Tool> {
        self.check_annotations(node);
        self.tool = None;
        self.path.clear();
        let usage = "tool \"resource_action\" version=\"1.0.0\" { ... }";
        let props = self.props(node, &["version"], &|_| None);
        let args = self.args(node, 1, 1, usage);
        let name = args.first().and_then(|e| self.string(e, "tool name"));
        self.tool = name.as_ref().map(|n| n.value.clone());
        let version = match props.get("version") {
            Some(e) => self.string(e, "`version`"),
            None => {
                self.err(
                    "model/missing-property",
                    node.name.span,
                    "`tool` needs a `version`",
                    Some(format!("write it as `{usage}`")),
                );
                None
            }
        };

        let mut seen = HashSet::new();
        let mut title = None;
        let mut summary = None;
        let mut when = None;
        let mut when_not = None;
        let mut effect = None;
        let mut effect_seen = false;
        let mut open_world = None;
        let mut limits = None;
        let mut input = None;
        let mut output = None;
        let mut errors: Vec<ErrorDef> = Vec::new();
        let mut idempotency = None;
        let mut confirm = None;
        let mut on_timeout = None;
        let mut needs_input: Vec<NeedsInput> = Vec::new();
        let mut examples = Examples::default();
        let mut deprecated = None;
        let mut allows = Vec::new();

        for n in node.child_nodes() {
            let kind = n.name.value;
            let single =
                !matches!(kind, "error" | "needs-input" | "allow") && TOOL_CHILDREN.contains(&kind);
            if single && !self.once(&mut seen, &n, "a `tool`") {
                continue;
            }
            match kind {
                "title" => title = self.text_node(&n),
                "summary" => summary = self.text_node(&n),
                "when" => when = self.text_node(&n),
                "when-not" => when_not = self.text_node(&n),
                "effect" => {
                    effect_seen = true;
                    effect = self.lower_effect(&n);
                }
                "open-world" => {
                    self.check_annotations(&n);
                    self.props(&n, &[], &|_| None);
                    self.no_children(&n);
                    let a = self.args(&n, 1, 1, "open-world #true");
                    open_world = a.first().and_then(|e| self.boolean(e, "`open-world`"));
                }
                "limits" => limits = self.lower_limits(&n),
                "input" => input = Some(self.lower_object_node(&n)),
                "output" => output = Some(self.lower_object_node(&n)),
                "error" => {
                    if let Some(e) = self.lower_error(&n) {
                        self.push_unique(
                            &mut errors,
                            e,
                            |e| &e.code,
                            |code| format!("error code `{code}` is declared twice"),
                            "remove one; this declaration is ignored",
                        );
                    }
                }
                "idempotency" => idempotency = self.lower_idempotency(&n),
                "confirm" => confirm = self.lower_confirm(&n),
                "on-timeout" => on_timeout = self.lower_on_timeout(&n),
                "needs-input" => {
                    if let Some(ni) = self.lower_needs_input(&n) {
                        self.push_unique(
                            &mut needs_input,
                            ni,
                            |ni| &ni.name,
                            |name| format!("needs-input `{name}` is declared twice"),
                            "remove one; this declaration is ignored",
                        );
                    }
                }
                "examples" => examples = self.lower_examples(&n),
                "deprecated" => deprecated = self.lower_deprecated(&n),
                "allow" => {
                    if let Some(a) = self.lower_allow(&n) {
                        allows.push(a);
                    }
                }
                _ => {
                    self.check_annotations(&n);
                    self.unknown_node(&n, "in a `tool`", TOOL_CHILDREN);
                }
            }
        }
        if !effect_seen {
            self.err(
                "model/missing-child",
                node.name.span,
                "this tool has no `effect`",
                Some(format!(
                    "add `effect \"read\"` (or one of {})",
                    quoted_list(EFFECTS)
                )),
            );
        }
        let input = match input {
            Some(i) => i,
            None => {
                self.err(
                    "model/missing-child",
                    node.name.span,
                    "this tool has no `input`",
                    Some(
                        "add `input { field ... }`, or a bare `input` when it takes no arguments"
                            .to_string(),
                    ),
                );
                Object {
                    fields: Vec::new(),
                    span: node.name.span,
                }
            }
        };
        let tool = Tool {
            name: name?,
            version: version?,
            title,
            summary,
            when,
            when_not,
            effect: effect?,
            open_world,
            limits,
            input,
            output,
            errors,
            idempotency,
            confirm,
            on_timeout,
            needs_input,
            examples,
            deprecated,
            allows,
            span: node.span,
        };
        Some(tool)
    }

    fn lower_effect(&mut self, n: &Node) -> Option<Sp<Effect>> {
        self.check_annotations(n);
        self.props(n, &[], &|_| None);
        self.no_children(n);
        let a = self.args(n, 1, 1, "effect \"read\"");
        self.keyword(a.first()?, "`effect`", Effect::parse, EFFECTS)
    }

    fn lower_limits(&mut self, n: &Node) -> Option<Limits> {
        self.check_annotations(n);
        let props = self.props(n, &["max-items", "max-result-bytes", "timeout-ms"], &|_| {
            None
        });
        self.no_children(n);
        self.args(
            n,
            0,
            0,
            "limits max-items=50 max-result-bytes=65536 timeout-ms=5000",
        );
        let mut get = |k: &str| {
            props
                .get(k)
                .and_then(|e| self.uint(e, &format!("`limits {k}`")))
        };
        Some(Limits {
            max_items: get("max-items"),
            max_result_bytes: get("max-result-bytes"),
            timeout_ms: get("timeout-ms"),
            span: n.span,
        })
    }

    fn lower_error(&mut self, n: &Node) -> Option<ErrorDef> {
        self.check_annotations(n);
        let usage = "error \"CODE\" class=\"invalid-argument\" retry=\"never\" { message \"...\" next-step \"...\" }";
        let props = self.props(n, &["class", "retry"], &|_| None);
        let a = self.args(n, 1, 1, usage);
        let code = a.first().and_then(|e| self.string(e, "error code"));
        let class = match props.get("class") {
            Some(e) => self.keyword(e, "error `class`", ErrorClass::parse, CLASSES),
            None => {
                self.err(
                    "model/missing-property",
                    n.name.span,
                    "`error` needs a `class`",
                    Some(format!("write it as `{usage}`")),
                );
                None
            }
        };
        let retry = props
            .get("retry")
            .and_then(|e| self.keyword(e, "error `retry`", Retry::parse, RETRIES));
        let mut message = None;
        let mut next_step = None;
        let mut seen = HashSet::new();
        if let Some(ch) = n.children() {
            for c in ch.nodes() {
                match c.name.value {
                    "message" => {
                        if self.once(&mut seen, &c, "`error`") {
                            message = self.text_node(&c);
                        }
                    }
                    "next-step" => {
                        if self.once(&mut seen, &c, "`error`") {
                            next_step = self.text_node(&c);
                        }
                    }
                    _ => {
                        self.check_annotations(&c);
                        self.unknown_node(&c, "in `error`", &["message", "next-step"]);
                    }
                }
            }
        }
        Some(ErrorDef {
            code: code?,
            class: class?,
            retry,
            message,
            next_step,
            span: n.span,
        })
    }

    fn lower_idempotency(&mut self, n: &Node) -> Option<Idempotency> {
        self.check_annotations(n);
        let usage =
            "idempotency key=\"idempotency_key\" scope=\"tenant\" \"operation\" ttl-s=86400";
        let props = self.props(n, &["key", "scope", "ttl-s"], &|_| None);
        self.no_children(n);
        let args = self.args(n, 0, usize::MAX, usage);
        let key = match props.get("key") {
            Some(e) => self.string(e, "idempotency `key`"),
            None => {
                self.err(
                    "model/missing-property",
                    n.name.span,
                    "`idempotency` needs a `key` naming the input field that carries the key",
                    Some(format!("write it as `{usage}`")),
                );
                None
            }
        };
        let mut scope = Vec::new();
        if let Some(e) = props.get("scope")
            && let Some(s) = self.string(e, "idempotency `scope`")
        {
            scope.push(s);
        }
        for e in args {
            if let Some(s) = self.string(&e, "idempotency scope") {
                scope.push(s);
            }
        }
        let ttl_s = props
            .get("ttl-s")
            .and_then(|e| self.uint(e, "idempotency `ttl-s`"));
        Some(Idempotency {
            key: key?,
            scope,
            ttl_s,
            span: n.span,
        })
    }

    fn lower_confirm(&mut self, n: &Node) -> Option<Confirm> {
        self.check_annotations(n);
        let usage = "confirm digest=\"arguments\"";
        let props = self.props(n, &["digest"], &|_| None);
        self.no_children(n);
        self.args(n, 0, 0, usage);
        let digest = match props.get("digest") {
            Some(e) => self.keyword(e, "confirm `digest`", ConfirmDigest::parse, DIGESTS),
            None => {
                self.err(
                    "model/missing-property",
                    n.name.span,
                    "`confirm` needs a `digest`",
                    Some(format!(
                        "write `{usage}` or `confirm digest=\"arguments+resource-version\"`"
                    )),
                );
                None
            }
        };
        Some(Confirm {
            digest: digest?,
            span: n.span,
        })
    }

    fn lower_on_timeout(&mut self, n: &Node) -> Option<OnTimeout> {
        self.check_annotations(n);
        let usage = "on-timeout \"query-status\" tool=\"STATUS_TOOL\"";
        let props = self.props(n, &["tool"], &|_| None);
        self.no_children(n);
        let a = self.args(n, 1, 1, usage);
        let strategy = a.first().and_then(|e| {
            self.keyword(
                e,
                "`on-timeout` strategy",
                TimeoutStrategy::parse,
                STRATEGIES,
            )
        })?;
        let tool = props
            .get("tool")
            .and_then(|e| self.string(e, "on-timeout `tool`"));
        match strategy.value {
            TimeoutStrategy::QueryStatus if tool.is_none() && props.get("tool").is_none() => {
                self.err(
                    "model/missing-property",
                    n.name.span,
                    "`on-timeout \"query-status\"` needs `tool=` naming the status tool",
                    Some(format!("write it as `{usage}`")),
                );
                return None;
            }
            TimeoutStrategy::RetryWithKey => {
                if let Some(t) = &tool {
                    self.err(
                        "model/unknown-property",
                        t.span,
                        "`tool=` applies only to `on-timeout \"query-status\"`",
                        Some("remove `tool=`, or use the query-status strategy".to_string()),
                    );
                }
            }
            _ => {}
        }
        let query = strategy.value == TimeoutStrategy::QueryStatus;
        Some(OnTimeout {
            strategy,
            tool: if query { tool } else { None },
            span: n.span,
        })
    }

    fn lower_needs_input(&mut self, n: &Node) -> Option<NeedsInput> {
        self.check_annotations(n);
        let usage = "needs-input \"NAME\" kind=\"confirmation\" { doc \"...\" }";
        let props = self.props(n, &["kind"], &|_| None);
        let a = self.args(n, 1, 1, usage);
        let name = a.first().and_then(|e| self.string(e, "needs-input name"));
        let kind = match props.get("kind") {
            Some(e) => self.keyword(e, "needs-input `kind`", InputKind::parse, KINDS),
            None => {
                self.err(
                    "model/missing-property",
                    n.name.span,
                    "`needs-input` needs a `kind`",
                    Some(format!("write it as `{usage}`")),
                );
                None
            }
        };
        let mut doc = None;
        let mut seen = HashSet::new();
        if let Some(ch) = n.children() {
            for c in ch.nodes() {
                if c.name.value == "doc" {
                    if self.once(&mut seen, &c, "`needs-input`") {
                        doc = self.text_node(&c);
                    }
                } else {
                    self.check_annotations(&c);
                    self.unknown_node(&c, "in `needs-input`", &["doc"]);
                }
            }
        }
        Some(NeedsInput {
            name: name?,
            kind: kind?,
            doc,
            span: n.span,
        })
    }

    fn lower_examples(&mut self, n: &Node) -> Examples {
        self.check_annotations(n);
        self.props(n, &[], &|_| None);
        self.args(n, 0, 0, "examples { call \"...\" no-call \"...\" }");
        let mut ex = Examples::default();
        if let Some(ch) = n.children() {
            for c in ch.nodes() {
                let target = match c.name.value {
                    "call" => &mut ex.calls,
                    "no-call" => &mut ex.no_calls,
                    "confusable" => &mut ex.confusables,
                    _ => {
                        self.check_annotations(&c);
                        self.unknown_node(&c, "in `examples`", &["call", "no-call", "confusable"]);
                        continue;
                    }
                };
                if let Some(t) = self.text_node(&c) {
                    target.push(t);
                }
            }
        }
        ex
    }

    fn lower_deprecated(&mut self, n: &Node) -> Option<Deprecated> {
        self.check_annotations(n);
        let props = self.props(n, &["replacement"], &|_| None);
        self.no_children(n);
        let a = self.args(n, 0, 1, "deprecated \"reason\" replacement=\"OTHER_TOOL\"");
        let reason = a.first().and_then(|e| self.string(e, "deprecation reason"));
        let replacement = props
            .get("replacement")
            .and_then(|e| self.string(e, "`replacement`"));
        Some(Deprecated {
            reason,
            replacement,
            span: n.span,
        })
    }

    fn lower_allow(&mut self, n: &Node) -> Option<Allow> {
        self.check_annotations(n);
        let props = self.props(n, &["reason"], &|_| None);
        self.no_children(n);
        let a = self.args(n, 1, 1, "allow \"category/rule\" reason=\"...\"");
        let rule = a.first().and_then(|e| self.string(e, "allowed rule ID"));
        let reason = props.get("reason").and_then(|e| self.string(e, "`reason`"));
        Some(Allow {
            rule: rule?,
            reason,
            span: n.span,
        })
    }

    // ---- fields ----

    /// `input` / `output`: a block of `field` nodes (may be absent or empty).
    fn lower_object_node(&mut self, n: &Node) -> Object {
        self.check_annotations(n);
        let name = n.name.value;
        self.props(n, &[], &|_| None);
        self.args(n, 0, 0, &format!("{name} {{ field ... }}"));
        self.path = vec![name.to_string()];
        let mut fields = Vec::new();
        if let Some(ch) = n.children() {
            for c in ch.nodes() {
                if c.name.value == "field" {
                    self.push_field(&mut fields, &c, 1);
                } else {
                    self.check_annotations(&c);
                    self.unknown_node(&c, &format!("in `{name}`"), &["field"]);
                }
            }
        }
        self.path.clear();
        Object {
            fields,
            span: n.span,
        }
    }

    /// Lowers a `field` node and appends it, reporting a duplicate name.
    fn push_field(&mut self, fields: &mut Vec<Field>, node: &Node, depth: usize) {
        let Some(f) = self.lower_field(node, depth) else {
            return;
        };
        if fields.iter().any(|x| x.name.value == f.name.value) {
            self.path.push(f.name.value.clone());
            self.err(
                "naming/duplicate",
                f.name.span,
                format!("field `{}` is declared twice in this object", f.name.value),
                Some("rename or remove one; this declaration is ignored".to_string()),
            );
            self.path.pop();
            return;
        }
        fields.push(f);
    }

    fn lower_field(&mut self, node: &Node, depth: usize) -> Option<Field> {
        self.check_annotations(node);
        let usage = "field \"name\" \"string\" required=#true max-length=64 { doc \"...\" }";
        let args = self.args(node, 2, 2, usage);
        let name = args.first().and_then(|e| self.string(e, "field name"))?;
        self.path.push(name.value.clone());
        let result = self.lower_field_inner(node, name, args.get(1), depth);
        self.path.pop();
        result
    }

    fn lower_field_inner(
        &mut self,
        node: &Node,
        name: Sp<String>,
        ty_entry: Option<&Entry>,
        depth: usize,
    ) -> Option<Field> {
        let ty_name = self.type_name(ty_entry?)?;
        let keyword = ty_name.value.clone();
        let kind_label = if TYPE_KEYWORDS.contains(&keyword.as_str()) {
            let article = if keyword.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("{article} `{keyword}` field")
        } else {
            format!("a field of type `{keyword}`")
        };
        let mut allowed: Vec<&str> = COMMON_FIELD_PROPS.to_vec();
        allowed.extend_from_slice(type_props(&keyword));
        let label = kind_label.clone();
        let props = self.props(node, &allowed, &|p| {
            let owners = types_with_prop(p);
            Some(if owners.is_empty() {
                format!("unknown property `{p}` on {label}")
            } else {
                format!(
                    "`{p}` does not apply to {label} (it applies to {})",
                    quoted_list(&owners)
                )
            })
        });
        let required = props
            .get("required")
            .and_then(|e| self.boolean(e, "`required`"))
            .is_some_and(|b| b.value);
        let sensitive = props
            .get("sensitive")
            .and_then(|e| self.boolean(e, "`sensitive`"))
            .is_some_and(|b| b.value);
        let deprecated = props
            .get("deprecated")
            .and_then(|e| self.boolean(e, "`deprecated`"))
            .is_some_and(|b| b.value);

        let mut doc = None;
        let mut seen = HashSet::new();
        let mut rest: Vec<Node> = Vec::new();
        if let Some(ch) = node.children() {
            for c in ch.nodes() {
                if c.name.value == "doc" {
                    if self.once(&mut seen, &c, "a `field`") {
                        doc = self.text_node(&c);
                    }
                } else {
                    rest.push(c);
                }
            }
        }
        let ty = self.lower_ty(&ty_name, &props, &rest, depth, &["doc"], &kind_label)?;
        let default = props
            .get("default")
            .and_then(|e| self.default_value(e, &ty.kind, &kind_label));
        Some(Field {
            name,
            ty,
            required,
            default,
            sensitive,
            deprecated,
            doc,
            span: node.span,
        })
    }

    /// The TYPE argument of a field or `items`: a keyword or a declared type name.
    fn type_name(&mut self, e: &Entry) -> Option<Sp<String>> {
        let t = self.string(e, "field type")?;
        if TYPE_KEYWORDS.contains(&t.value.as_str()) || self.type_names.contains(&t.value) {
            return Some(t);
        }
        let mut candidates: Vec<&str> = TYPE_KEYWORDS.to_vec();
        let mut declared: Vec<&str> = self.type_names.iter().map(String::as_str).collect();
        declared.sort_unstable();
        candidates.extend(declared.iter().copied());
        let list = if declared.is_empty() {
            format!(
                "use one of {} or declare `type \"{}\" {{ ... }}` in this file",
                quoted_list(TYPE_KEYWORDS),
                t.value
            )
        } else {
            format!(
                "use one of {}, or a type declared in this file: {}",
                quoted_list(TYPE_KEYWORDS),
                quoted_list(&declared)
            )
        };
        let help = match did_you_mean(&t.value, candidates.iter().copied()) {
            Some(m) => format!("did you mean `{m}`? {list}"),
            None => list,
        };
        self.err(
            "model/unresolved-type",
            t.span,
            format!(
                "`{}` is neither a field type nor a type declared in this file",
                t.value
            ),
            Some(help),
        );
        None
    }

    /// The type with its constraints from `props` and children (`enum`, `items`, `field`).
    /// `extra_children` were consumed by the caller and are only listed in messages.
    fn lower_ty(
        &mut self,
        ty_name: &Sp<String>,
        props: &Props<'_>,
        children: &[Node],
        depth: usize,
        extra_children: &[&str],
        label: &str,
    ) -> Option<Ty> {
        if depth > MAX_FIELD_DEPTH {
            self.err(
                "model/too-deep",
                ty_name.span,
                format!("fields are nested more than {MAX_FIELD_DEPTH} levels deep"),
                Some("flatten the structure".to_string()),
            );
            return None;
        }
        let keyword = ty_name.value.as_str();
        let own_children: &[&str] = match keyword {
            "string" => &["enum"],
            "array" => &["items"],
            "object" => &["field"],
            _ => &[],
        };
        let mut allowed_children = extra_children.to_vec();
        allowed_children.extend_from_slice(own_children);
        let mut enum_node = None;
        let mut items_node = None;
        let mut fields = Vec::new();
        let mut seen = HashSet::new();
        for c in children {
            match (c.name.value, keyword) {
                ("enum", "string") => {
                    if self.once(&mut seen, c, label) {
                        enum_node = Some(*c);
                    }
                }
                ("items", "array") => {
                    if self.once(&mut seen, c, label) {
                        items_node = Some(*c);
                    }
                }
                ("field", "object") => self.push_field(&mut fields, c, depth + 1),
                (other, _) => {
                    self.check_annotations(c);
                    if ["enum", "items", "field", "doc"].contains(&other) {
                        self.err(
                            "model/unknown-node",
                            c.name.span,
                            format!("`{other}` does not apply to {label}"),
                            Some(if allowed_children.is_empty() {
                                format!("{label} takes no children")
                            } else {
                                format!("allowed here: {}", quoted_list(&allowed_children))
                            }),
                        );
                    } else {
                        self.unknown_node(c, &format!("in {label}"), &allowed_children);
                    }
                }
            }
        }
        let u = |cx: &mut Self, k: &str| props.get(k).and_then(|e| cx.uint(e, &format!("`{k}`")));
        let kind = match keyword {
            "string" | "cursor" => {
                let mut st = StringTy {
                    min_length: u(self, "min-length"),
                    max_length: u(self, "max-length"),
                    ..StringTy::default()
                };
                if keyword == "string" {
                    st.pattern = props
                        .get("pattern")
                        .and_then(|e| self.string(e, "`pattern`"));
                    st.format = props
                        .get("format")
                        .and_then(|e| self.keyword(e, "`format`", Format::parse, FORMATS));
                    let extensible = props
                        .get("extensible")
                        .and_then(|e| self.boolean(e, "`extensible`"));
                    if let Some(en) = enum_node {
                        st.enum_values = Some(
                            self.lower_enum(&en, extensible.as_ref().is_some_and(|b| b.value)),
                        );
                    } else if let Some(x) = extensible {
                        self.err(
                            "model/missing-child",
                            x.span,
                            "`extensible` needs an `enum` child on the same field",
                            Some("add `{ enum \"a\" \"b\" }` or remove `extensible`".to_string()),
                        );
                    }
                    TyKind::String(st)
                } else {
                    TyKind::Cursor(st)
                }
            }
            "integer" | "number" => {
                let int = keyword == "integer";
                let mut n = |k: &str| {
                    props
                        .get(k)
                        .and_then(|e| self.num(e, &format!("`{k}`"), int))
                };
                let mut nt = NumTy {
                    min: n("min"),
                    max: n("max"),
                    exclusive_min: n("exclusive-min"),
                    exclusive_max: n("exclusive-max"),
                    multiple_of: n("multiple-of"),
                    unit: None,
                };
                if let Some(m) = &nt.multiple_of
                    && m.value.as_f64() <= 0.0
                {
                    self.err(
                        "model/out-of-range",
                        m.span,
                        "`multiple-of` must be greater than 0",
                        Some("write a positive number".to_string()),
                    );
                    nt.multiple_of = None;
                }
                nt.unit = props
                    .get("unit")
                    .and_then(|e| self.keyword(e, "`unit`", Unit::parse, UNITS));
                if int {
                    TyKind::Integer(nt)
                } else {
                    TyKind::Number(nt)
                }
            }
            "boolean" => TyKind::Boolean,
            "timestamp" => TyKind::Timestamp,
            "array" => {
                let min_items = u(self, "min-items");
                let max_items = u(self, "max-items");
                let unique = props
                    .get("unique")
                    .and_then(|e| self.boolean(e, "`unique`"))
                    .is_some_and(|b| b.value);
                let Some(items) = items_node else {
                    self.err(
                        "model/missing-child",
                        ty_name.span,
                        "an `array` needs an `items` child naming the element type",
                        Some("add `{ items \"string\" max-length=64 }`".to_string()),
                    );
                    return None;
                };
                let items = self.lower_items(&items, depth)?;
                TyKind::Array(ArrayTy {
                    min_items,
                    max_items,
                    unique,
                    items: Box::new(items),
                })
            }
            "object" => TyKind::Object(Object {
                fields,
                span: ty_name.span,
            }),
            _ => TyKind::Named(ty_name.clone()),
        };
        Some(Ty {
            kind,
            span: ty_name.span,
        })
    }

    /// `items TYPE [attributes] { ... }`: the element type of an array.
    fn lower_items(&mut self, node: &Node, depth: usize) -> Option<Ty> {
        self.check_annotations(node);
        let args = self.args(node, 1, 1, "items \"string\" max-length=64");
        let ty_name = self.type_name(args.first()?)?;
        let keyword = ty_name.value.clone();
        let label = if TYPE_KEYWORDS.contains(&keyword.as_str()) {
            format!("`{keyword}` items")
        } else {
            format!("items of type `{keyword}`")
        };
        let label2 = label.clone();
        let props = self.props(node, type_props(&keyword), &|p| {
            if COMMON_FIELD_PROPS.contains(&p) {
                return Some(format!(
                    "`{p}` belongs on the array field, not on its `items`"
                ));
            }
            let owners = types_with_prop(p);
            (!owners.is_empty()).then(|| {
                format!(
                    "`{p}` does not apply to {label2} (it applies to {})",
                    quoted_list(&owners)
                )
            })
        });
        let children: Vec<Node> = node.child_nodes().collect();
        self.path.push("[]".to_string());
        let ty = self.lower_ty(&ty_name, &props, &children, depth + 1, &[], &label);
        self.path.pop();
        ty
    }

    fn lower_enum(&mut self, node: &Node, extensible: bool) -> EnumValues {
        self.check_annotations(node);
        self.props(node, &[], &|p| {
            (p == "extensible").then(|| "`extensible` goes on the field, not on `enum`".to_string())
        });
        self.no_children(node);
        let mut values: Vec<Sp<String>> = Vec::new();
        for e in node.entries().filter(|e| e.name.is_none()) {
            let Some(v) = self.string(&e, "enum value") else {
                continue;
            };
            self.push_unique(
                &mut values,
                v,
                |v| v,
                |v| format!("enum value \"{v}\" is listed twice"),
                "remove the repeated value",
            );
        }
        EnumValues {
            values,
            extensible,
            span: node.span,
        }
    }

    fn default_value(&mut self, e: &Entry, kind: &TyKind, label: &str) -> Option<Sp<Literal>> {
        let span = e.value.span;
        let what = "`default`";
        match kind {
            TyKind::String(_) | TyKind::Cursor(_) | TyKind::Timestamp => self
                .string(e, what)
                .map(|s| Sp::new(Literal::String(s.value), span)),
            TyKind::Integer(_) | TyKind::Number(_) => {
                let int = matches!(kind, TyKind::Integer(_));
                self.num(e, what, int).map(|n| {
                    Sp::new(
                        match n.value {
                            Num::Int(i) => Literal::Int(i),
                            Num::Float(f) => Literal::Float(f),
                        },
                        span,
                    )
                })
            }
            TyKind::Boolean => self
                .boolean(e, what)
                .map(|b| Sp::new(Literal::Bool(b.value), span)),
            TyKind::Array(_) | TyKind::Object(_) | TyKind::Named(_) => {
                let name_span = e.name.as_ref().map(|n| n.span).unwrap_or(e.span);
                self.err(
                    "model/unknown-property",
                    name_span,
                    format!("`default` does not apply to {label}"),
                    Some("defaults exist for strings, numbers and booleans; remove it".to_string()),
                );
                None
            }
        }
    }

    // ---- recursion ----

    /// Reports every named-type cycle at the reference that closes it and removes the field
    /// holding that reference, so schemas (which inline named types) stay finite.
    fn break_cycles(&mut self, types: &mut [TypeDef]) {
        let index: HashMap<String, usize> = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.value.clone(), i))
            .collect();
        // Edges: for each type, (referenced type, reference span, dotted path of the field).
        let edges: Vec<Vec<(usize, Span, String)>> = types
            .iter()
            .map(|t| {
                let mut out = Vec::new();
                collect_refs(&t.fields, &t.name.value, &mut out);
                out.into_iter()
                    .filter_map(|(name, span, path)| index.get(&name).map(|&i| (i, span, path)))
                    .collect()
            })
            .collect();
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut state = vec![0u8; types.len()];
        let mut bad: HashSet<Span> = HashSet::new();
        for start in 0..types.len() {
            if state[start] != 0 {
                continue;
            }
            // Iterative DFS: (node, next edge index).
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some((to, span, path)) = edges[node].get(*next) {
                    *next += 1;
                    match state[*to] {
                        0 => {
                            state[*to] = 1;
                            stack.push((*to, 0));
                        }
                        1 => {
                            let chain: Vec<&str> = stack
                                .iter()
                                .skip_while(|(n, _)| n != to)
                                .map(|(n, _)| types[*n].name.value.as_str())
                                .chain(std::iter::once(types[*to].name.value.as_str()))
                                .collect();
                            self.tool = None;
                            self.path = vec![path.clone()];
                            self.err(
                                "model/recursive-type",
                                *span,
                                format!(
                                    "type `{}` is recursive: {}",
                                    types[*to].name.value,
                                    chain.join(" → ")
                                ),
                                Some("a tool schema must be finite; break the cycle, e.g. with a reference string field".to_string()),
                            );
                            self.path.clear();
                            bad.insert(*span);
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
        if !bad.is_empty() {
            for t in types.iter_mut() {
                prune(&mut t.fields, &bad);
            }
        }
    }
}

/// Every named-type reference inside `fields`: (type name, span, dotted field path).
fn collect_refs(fields: &[Field], prefix: &str, out: &mut Vec<(String, Span, String)>) {
    for f in fields {
        let path = format!("{prefix}.{}", f.name.value);
        collect_ty_refs(&f.ty, &path, out);
    }
}

fn collect_ty_refs(ty: &Ty, path: &str, out: &mut Vec<(String, Span, String)>) {
    match &ty.kind {
        TyKind::Named(n) => out.push((n.value.clone(), n.span, path.to_string())),
        TyKind::Array(a) => collect_ty_refs(&a.items, &format!("{path}[]"), out),
        TyKind::Object(o) => collect_refs(&o.fields, path, out),
        _ => {}
    }
}

/// Removes fields whose type (directly or through array items) is a reference in `bad`.
fn prune(fields: &mut Vec<Field>, bad: &HashSet<Span>) {
    fields.retain(|f| !ty_is_bad(&f.ty, bad));
    for f in fields.iter_mut() {
        prune_ty(&mut f.ty, bad);
    }
}

fn ty_is_bad(ty: &Ty, bad: &HashSet<Span>) -> bool {
    match &ty.kind {
        TyKind::Named(n) => bad.contains(&n.span),
        TyKind::Array(a) => ty_is_bad(&a.items, bad),
        _ => false,
    }
}

fn prune_ty(ty: &mut Ty, bad: &HashSet<Span>) {
    match &mut ty.kind {
        TyKind::Object(o) => prune(&mut o.fields, bad),
        TyKind::Array(a) => prune_ty(&mut a.items, bad),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    fn lower_text(src: &str) -> (Option<Catalog>, Vec<Diagnostic>) {
        let parsed = parse(src);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        lower(&parsed.document, FileId(0))
    }

    const SPEC_SUBMIT: &str = r#"
catalog "payments" version="2.0.0"
tool "payment_transfer_submit" version="2.0.0" {
    summary "Transfer money between two accounts of the authenticated tenant."
    effect "destructive"
    idempotency key="idempotency_key" scope="tenant" "operation" ttl-s=86400
    confirm digest="arguments+resource-version"
    on-timeout "query-status" tool="payment_transfer_status"
    needs-input "approval" kind="confirmation" { doc "The user approves the exact transfer." }
    input {
        field "amount_minor" "integer" required=#true exclusive-min=0 max=1000000 unit="minor"
        field "currency" "string" required=#true { enum "USD" "EUR" }
        field "page_size" "integer" min=1 max=50 default=20
        field "tags" "array" max-items=3 unique=#true { items "string" max-length=8 }
        field "cursor" "cursor" { doc "Opaque." }
    }
    error "LEDGER_UNAVAILABLE" class="unavailable" retry="backoff"
    examples {
        call "Send 20 EUR."
        no-call "What is my balance?"
        confusable "payment_transfer_preview"
    }
    deprecated "use v3" replacement="payment_transfer_submit_v3"
    allow "errors/undeclared" reason="kept short"
}
"#;

    #[test]
    fn lowers_the_spec_write_tool() {
        let (cat, diags) = lower_text(SPEC_SUBMIT);
        assert!(diags.is_empty(), "{diags:?}");
        let cat = cat.expect("catalog");
        assert_eq!(cat.name.value, "payments");
        assert_eq!(
            &SPEC_SUBMIT[cat.name.span.start..cat.name.span.end],
            "\"payments\""
        );
        let t = &cat.tools[0];
        assert_eq!(t.effect.value, Effect::Destructive);
        let idem = t.idempotency.as_ref().expect("idempotency");
        assert_eq!(idem.key.value, "idempotency_key");
        let scope: Vec<&str> = idem.scope.iter().map(|s| s.value.as_str()).collect();
        assert_eq!(scope, ["tenant", "operation"]);
        assert_eq!(idem.ttl_s.as_ref().map(|t| t.value), Some(86400));
        assert_eq!(
            t.confirm.as_ref().map(|c| c.digest.value),
            Some(ConfirmDigest::ArgumentsResourceVersion)
        );
        let ot = t.on_timeout.as_ref().expect("on-timeout");
        assert_eq!(ot.strategy.value, TimeoutStrategy::QueryStatus);
        assert_eq!(
            ot.tool.as_ref().map(|s| s.value.as_str()),
            Some("payment_transfer_status")
        );
        assert_eq!(t.needs_input[0].kind.value, InputKind::Confirmation);
        assert!(t.needs_input[0].doc.is_some());

        let f = &t.input.fields;
        assert_eq!(f.len(), 5);
        assert!(f[0].required);
        let TyKind::Integer(n) = &f[0].ty.kind else {
            panic!("integer expected")
        };
        assert_eq!(n.exclusive_min.as_ref().map(|v| v.value), Some(Num::Int(0)));
        assert_eq!(n.max.as_ref().map(|v| v.value), Some(Num::Int(1_000_000)));
        assert_eq!(n.unit.as_ref().map(|u| u.value), Some(Unit::Minor));
        let TyKind::String(s) = &f[1].ty.kind else {
            panic!("string expected")
        };
        let values: Vec<&str> = s
            .enum_values
            .as_ref()
            .map(|e| e.values.iter().map(|v| v.value.as_str()).collect())
            .unwrap_or_default();
        assert_eq!(values, ["USD", "EUR"]);
        assert_eq!(
            f[2].default.as_ref().map(|d| d.value.clone()),
            Some(Literal::Int(20))
        );
        assert!(!f[2].required);
        let TyKind::Array(a) = &f[3].ty.kind else {
            panic!("array expected")
        };
        assert!(a.unique);
        assert_eq!(a.max_items.as_ref().map(|m| m.value), Some(3));
        assert!(
            matches!(&a.items.kind, TyKind::String(s) if s.max_length.as_ref().map(|m| m.value) == Some(8))
        );
        assert!(matches!(&f[4].ty.kind, TyKind::Cursor(_)));

        assert_eq!(t.errors[0].class.value, ErrorClass::Unavailable);
        assert_eq!(t.errors[0].retry(), Retry::Backoff);
        assert_eq!(t.examples.calls.len(), 1);
        assert_eq!(t.examples.no_calls.len(), 1);
        assert_eq!(t.examples.confusables[0].value, "payment_transfer_preview");
        let dep = t.deprecated.as_ref().expect("deprecated");
        assert_eq!(
            dep.reason.as_ref().map(|r| r.value.as_str()),
            Some("use v3")
        );
        assert_eq!(t.allows[0].rule.value, "errors/undeclared");
        assert!(t.allows[0].reason.is_some());
        assert!(t.annotations().idempotent);
    }

    #[test]
    fn named_types_resolve_in_any_order_and_inline_nothing() {
        let src = r#"
tool "invoice_list" version="1.0.0" {
    effect "read"
    input
    output { field "items" "array" max-items=5 { items "Invoice" } }
}
type "Invoice" { field "invoice_reference" "string" max-length=32 }
catalog "billing" version="1.0.0"
"#;
        let (cat, diags) = lower_text(src);
        assert!(diags.is_empty(), "{diags:?}");
        let cat = cat.expect("catalog");
        assert_eq!(cat.types.len(), 1);
        let out = cat.tools[0].output.as_ref().expect("output");
        let TyKind::Array(a) = &out.fields[0].ty.kind else {
            panic!("array expected")
        };
        assert!(matches!(&a.items.kind, TyKind::Named(n) if n.value == "Invoice"));
    }

    #[test]
    fn a_tool_missing_its_effect_is_left_out_but_others_stay() {
        let src = "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" { input }\ntool \"c_d\" version=\"1\" { effect \"read\"; input }\n";
        let (cat, diags) = lower_text(src);
        let cat = cat.expect("catalog");
        assert_eq!(cat.tools.len(), 1);
        assert_eq!(cat.tools[0].name.value, "c_d");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].rule, "model/missing-child");
        assert_eq!(diags[0].tool.as_deref(), Some("a_b"));
        assert_eq!(diags[0].catalog.as_deref(), Some("c"));
    }

    #[test]
    fn recursive_fields_are_pruned_after_the_report() {
        let src = "catalog \"c\" version=\"1.0.0\"\ntype \"Node\" { field \"label\" \"string\" max-length=4; field \"next\" \"Node\" }\n";
        let (cat, diags) = lower_text(src);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].rule, "model/recursive-type");
        assert_eq!(diags[0].path.as_deref(), Some("Node.next"));
        let cat = cat.expect("catalog");
        assert_eq!(cat.types[0].fields.len(), 1);
    }

    #[test]
    fn paths_name_the_field_inside_the_tool() {
        let src = r#"catalog "c" version="1.0.0"
tool "a_b" version="1.0.0" {
    effect "read"
    input { field "items" "array" max-items=2 { items "object" { field "amount_minor" "integer" unit="cent" } } }
}"#;
        let (_, diags) = lower_text(src);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].path.as_deref(), Some("input.items[].amount_minor"));
        assert_eq!(diags[0].tool.as_deref(), Some("a_b"));
    }

    #[test]
    fn findings_after_a_tool_do_not_name_it() {
        let src = "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" { effect \"read\"; input }\ntype \"T\" { field \"x\" \"strin\" }\nbogus\n";
        let (_, diags) = lower_text(src);
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(diags.iter().all(|d| d.tool.is_none()), "{diags:?}");
        assert_eq!(diags[0].path.as_deref(), Some("T.x"));
        assert_eq!(diags[1].path, None);
    }

    #[test]
    fn did_you_mean_needs_a_close_match() {
        assert_eq!(did_you_mean("reed", EFFECTS.iter().copied()), Some("read"));
        assert_eq!(
            did_you_mean("max-lenght", STRING_PROPS.iter().copied()),
            Some("max-length")
        );
        assert_eq!(did_you_mean("colour", TOOL_CHILDREN.iter().copied()), None);
    }

    #[test]
    fn deep_nesting_is_refused_not_followed() {
        let mut src = String::from(
            "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" { effect \"read\"; input {",
        );
        for _ in 0..80 {
            src.push_str(" field \"x\" \"object\" {");
        }
        for _ in 0..80 {
            src.push('}');
        }
        src.push_str("} }\n");
        let parsed = parse(&src);
        let (_, diags) = lower(&parsed.document, FileId(0));
        assert!(
            diags.iter().any(|d| d.rule == "model/too-deep")
                || parsed.errors.iter().any(|e| e.code.contains("deep")),
            "{diags:?} {:?}",
            parsed.errors
        );
    }
}
