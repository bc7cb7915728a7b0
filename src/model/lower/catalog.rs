//! The document, its `catalog` node, named `type`s and `tool`s with their plain parts
//! (texts, examples, deprecation, allows).

use super::*;
use crate::model::read::{KeyHashes, quoted_list};
use crate::syntax::{Document, Node, Value};

impl Cx {
    /// The first pass over a file: its named types' names (a field may use a type declared
    /// further down), and the nodes to lower in parts, in document order.
    pub(super) fn outline(&mut self, doc: &Document) -> (Vec<usize>, Vec<usize>) {
        let mut type_nodes = Vec::new();
        for (i, node) in doc.nodes().enumerate() {
            if node.name.value != "type" {
                continue;
            }
            let Some(name) =
                node.entries()
                    .find(|e| e.name.is_none())
                    .and_then(|e| match e.value.value {
                        Value::String(s) => Some(Sp::new(s, e.value.span)),
                        _ => None,
                    })
            else {
                type_nodes.push(i);
                continue;
            };
            if self.type_names.contains(name.value) {
                self.err(
                    "naming/duplicate",
                    name.span,
                    format!("type `{}` is declared twice in this file", name.value),
                    Some("rename or remove one; this declaration is ignored".to_string()),
                );
                continue;
            }
            std::sync::Arc::make_mut(&mut self.type_names).insert(name.value.to_string());
            type_nodes.push(i);
        }

        // A tool or a type reads nothing but its own node and the type names, so they are
        // lowered in parts, on every core; `lower_document` takes each one's result and
        // problems in document order, exactly where a single pass would have produced them.
        // Node indices, not nodes: a view of a node is about 100 bytes, and a file of 100,000
        // types held this list beside its syntax tree at the peak of the load.
        let mut next_type = type_nodes.iter().peekable();
        let items: Vec<usize> = (doc.nodes().enumerate())
            .filter(|(i, n)| match n.name.value {
                "tool" => true,
                "type" => next_type.next_if(|&&t| t == *i).is_some(),
                _ => false,
            })
            .map(|(i, _)| i)
            .collect();
        (type_nodes, items)
    }

    /// The tools and types at `items` (node indices of `doc`), with the problems of each.
    pub(super) fn lower_part(&self, doc: &Document, items: &[usize], limit: usize) -> Part {
        let mut cx = Cx {
            r: Reader::new(self.r.file, "model").with_limit(limit),
            type_names: std::sync::Arc::clone(&self.type_names),
        };
        let top = doc.nodes();
        // The part's reader keeps its problems (so its cap bounds a hostile file's memory
        // as a single pass would); each node's are cut out of them below, as it is taken.
        // Each result is moved once more, into the catalog: a second list of a part's
        // results (to pair each with its problems) doubled the largest part of the model.
        let ends: Vec<_> = (items.iter().filter_map(|&i| top.get(i)))
            .map(|node| {
                let node = &node;
                let lowered = if node.name.value == "tool" {
                    Lowered::Tool(cx.lower_tool(node).map(Box::new))
                } else {
                    // Diagnostics of a type name no tool.
                    cx.tool = None;
                    cx.path.clear();
                    Lowered::Type(cx.lower_type(node))
                };
                (lowered, cx.r.diags.len(), cx.r.dropped)
            })
            .collect();
        Part {
            ends,
            diags: std::mem::take(&mut cx.r.diags),
        }
    }

    /// The catalog of `doc`, from the parts [`Cx::lower_part`] made of the items
    /// [`Cx::outline`] gave (in order), and the nodes no part lowers.
    pub(super) fn lower_document(
        &mut self,
        doc: &Document,
        type_nodes: &[usize],
        parts: Vec<Part>,
    ) -> Option<Catalog> {
        let mut catalog: Option<Catalog> = None;
        let mut catalog_seen = false;
        // Sized by the tools that lowered, not by the `tool` nodes: a file of 100,000 broken
        // tools reserved room for 100,000 tools that never came.
        let lowered_tools = (parts.iter().flat_map(|p| &p.ends))
            .filter(|(l, ..)| matches!(l, Lowered::Tool(Some(_))))
            .count();
        let mut lowered = parts.into_iter().flat_map(|Part { ends, diags }| {
            let mut diags = diags.into_iter();
            let (mut kept, mut dropped) = (0, 0);
            ends.into_iter().map(move |(lowered, kept_to, dropped_to)| {
                let mine: Vec<_> = diags.by_ref().take(kept_to - kept).collect();
                let gone = dropped_to - dropped;
                (kept, dropped) = (kept_to, dropped_to);
                (lowered, mine, gone)
            })
        });

        let mut types = Vec::with_capacity(type_nodes.len());
        let mut tools: Vec<Tool> = Vec::with_capacity(lowered_tools);
        let mut tool_names: crate::FastSet<String> =
            crate::FastSet::with_capacity_and_hasher(lowered_tools, Default::default());
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
                    // `type_nodes` is in node order: a search, not a scan per type (a file of
                    // 100,000 types made that scan most of the load time).
                    if type_nodes.binary_search(&i).is_err() {
                        continue;
                    }
                    let Some((Lowered::Type(ty), diags, dropped)) = lowered.next() else {
                        continue;
                    };
                    self.r.absorb(diags, dropped);
                    types.extend(ty);
                }
                "tool" => {
                    let Some((Lowered::Tool(tool), diags, dropped)) = lowered.next() else {
                        continue;
                    };
                    self.r.absorb(diags, dropped);
                    if let Some(t) = tool {
                        if tool_names.insert(t.name.value.clone()) {
                            tools.push(*t);
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
        c.types = compact(types);
        c.tools = compact(tools);
        Some(c)
    }

    pub(super) fn lower_catalog(&mut self, node: &Node) -> Option<Catalog> {
        self.check_annotations(node);
        let usage = "catalog \"NAME\" version=\"1.0.0\" { summary \"...\" }";
        let props = self.props(node, &["version"], &|_| None);
        let args = self.args(node, 1, 1, usage);
        let name = args.first().and_then(|e| self.string(e, "catalog name"));
        if let Some(n) = name
            .as_ref()
            .filter(|n| !crate::names::is_catalog_name(&n.value))
        {
            self.fail(
                "invalid-name",
                n.span,
                format!(
                    "catalog name {:?} is not a plain name: it names the lock, generated and docs files and the generated module",
                    n.value
                ),
                Some(format!("use ASCII letters, digits, `-` and `_`, starting with a letter or digit, at most {} characters", crate::names::MAX_CATALOG_NAME)),
            );
        }
        let version = self
            .required(
                &props,
                node,
                "version",
                "`catalog` needs a `version`",
                || format!("write it as `{usage}`"),
            )
            .and_then(|e| self.string(&e, "`version`"));
        let mut summary = None;
        let mut seen = Seen::default();
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
            left_out: Vec::new(),
            span: node.span,
        })
    }

    pub(super) fn lower_type(&mut self, node: &Node) -> Option<TypeDef> {
        self.check_annotations(node);
        self.props(node, &[], &|_| None);
        let args = self.args(node, 1, 1, "type \"Name\" { field ... }");
        let name = self.string(args.first()?, "type name")?;
        self.path.set(&name.value);
        let mut doc = None;
        // Sized to the fields written: the list becomes the type's, without spare room.
        let written = node
            .child_nodes()
            .filter(|n| n.name.value == "field")
            .count();
        let mut fields = Vec::with_capacity(written);
        let mut seen = Seen::default();
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
                        self.unknown_node(&n, "in `type`", TYPE_CHILDREN);
                    }
                }
            }
        }
        self.path.clear();
        Some(TypeDef {
            name,
            doc,
            fields: compact(fields),
            span: node.span,
        })
    }

    // ---- tools ----

    pub(super) fn lower_tool(&mut self, node: &Node) -> Option<Tool> {
        self.check_annotations(node);
        self.tool = None;
        self.path.clear();
        let usage = "tool \"resource_action\" version=\"1.0.0\" { ... }";
        let props = self.props(node, &["version"], &|_| None);
        let args = self.args(node, 1, 1, usage);
        let name = args.first().and_then(|e| self.string(e, "tool name"));
        self.tool = name.as_ref().map(|n| n.value.as_str().into());
        let version = self
            .required(&props, node, "version", "`tool` needs a `version`", || {
                format!("write it as `{usage}`")
            })
            .and_then(|e| self.string(&e, "`version`"));

        let mut seen = Seen::default();
        let mut title = None;
        let mut summary = None;
        let mut when = None;
        let mut when_not = None;
        let mut effect = None;
        let mut effect_seen = false;
        let mut idempotent = None;
        let mut open_world = None;
        let mut limits = None;
        let mut input = None;
        let mut output = None;
        let mut content = None;
        let mut errors: Vec<ErrorDef> = Vec::new();
        let mut error_codes = KeyHashes::default();
        let mut idempotency = None;
        let mut confirm = None;
        let mut resource = None;
        let mut on_timeout = None;
        let mut needs_input: Vec<NeedsInput> = Vec::new();
        let mut needs_input_names = KeyHashes::default();
        let mut examples = Examples::default();
        let mut example_calls: Vec<(ExampleCall, Option<Sp<String>>)> = Vec::new();
        let mut deprecated = None;
        let mut stability = None;
        let mut allows = Vec::new();

        for n in node.child_nodes() {
            let kind = n.name.value;
            let single = !matches!(kind, "error" | "needs-input" | "allow" | "example-call")
                && TOOL_CHILDREN.contains(&kind);
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
                    (effect, idempotent) = self.lower_effect(&n);
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
                "output"
                    if n.entries()
                        .any(|e| e.name.is_some_and(|k| k.value == "kind")) =>
                {
                    content = self.lower_content(&n);
                }
                "output" => output = Some(self.lower_object_node(&n)),
                "error" => {
                    if let Some(e) = self.lower_error(&n) {
                        self.push_unique(
                            &mut errors,
                            &mut error_codes,
                            e,
                            |e| &e.code,
                            |code| format!("error code `{code}` is declared twice"),
                            "remove one; this declaration is ignored",
                        );
                    }
                }
                "idempotency" => idempotency = self.lower_idempotency(&n),
                "confirm" => confirm = self.lower_confirm(&n),
                "resource" => resource = self.lower_resource(&n),
                "on-timeout" => on_timeout = self.lower_on_timeout(&n),
                "needs-input" => {
                    if let Some(ni) = self.lower_needs_input(&n) {
                        self.push_unique(
                            &mut needs_input,
                            &mut needs_input_names,
                            ni,
                            |ni| &ni.name,
                            |name| format!("needs-input `{name}` is declared twice"),
                            "remove one; this declaration is ignored",
                        );
                    }
                }
                "examples" => examples = self.lower_examples(&n),
                "example-call" => {
                    if let Some((call, result)) = self.lower_example_call(&n) {
                        if example_calls
                            .iter()
                            .any(|(c, _)| c.name.value == call.name.value)
                        {
                            self.err(
                                "naming/duplicate",
                                call.name.span,
                                format!("example-call `{}` is declared twice", call.name.value),
                                Some(
                                    "rename or remove one; this declaration is ignored".to_string(),
                                ),
                            );
                        } else {
                            example_calls.push((call, result));
                        }
                    }
                }
                "deprecated" => deprecated = self.lower_deprecated(&n),
                "stability" => {
                    self.check_annotations(&n);
                    self.props(&n, &[], &|_| None);
                    self.no_children(&n);
                    let a = self.args(&n, 1, 1, "stability \"experimental\"");
                    stability = a
                        .first()
                        .and_then(|e| self.keyword::<Stability>(e, "`stability`"))
                        .map(Box::new);
                }
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
                    quoted_list(Effect::NAMES)
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
                    extra: None,
                }
            }
        };
        // The result is read once the output kind is known (it may be declared later).
        let example_calls = example_calls
            .into_iter()
            .map(|(mut call, text)| {
                call.result = text.and_then(|t| self.example_result(t, content.as_ref()));
                call
            })
            .collect();
        let tool = Tool {
            name: name?,
            version: version?,
            title: title.map(Box::new),
            summary,
            when,
            when_not,
            effect: effect?,
            idempotent: idempotent.map(Box::new),
            open_world: open_world.map(Box::new),
            limits: limits.map(Box::new),
            input,
            output,
            content,
            errors: compact(errors),
            idempotency: idempotency.map(Box::new),
            confirm: confirm.map(Box::new),
            resource: resource.map(Box::new),
            on_timeout: on_timeout.map(Box::new),
            needs_input: compact(needs_input),
            examples,
            example_calls: compact(example_calls),
            deprecated: deprecated.map(Box::new),
            stability,
            allows: compact(allows),
            span: node.span,
        };
        Some(tool)
    }

    pub(super) fn lower_examples(&mut self, n: &Node) -> Examples {
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
                        self.unknown_node(&c, "in `examples`", EXAMPLES_CHILDREN);
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

    /// An `example-call` with its arguments parsed and its result still as written.
    pub(super) fn lower_example_call(
        &mut self,
        n: &Node,
    ) -> Option<(ExampleCall, Option<Sp<String>>)> {
        self.check_annotations(n);
        let usage = "example-call \"NAME\" { arguments \"{...}\"; result \"...\" }";
        self.props(n, &[], &|_| None);
        let a = self.args(n, 1, 1, usage);
        let name = a.first().and_then(|e| self.string(e, "example-call name"));
        let mut arguments = None;
        let mut result = None;
        let mut seen = Seen::default();
        for c in n.child_nodes() {
            match c.name.value {
                "arguments" | "result" => {
                    if !self.once(&mut seen, &c, "`example-call`") {
                        continue;
                    }
                    let text = self.text_node(&c);
                    if c.name.value == "arguments" {
                        arguments = text.and_then(|t| self.json(t, "`arguments`"));
                    } else {
                        result = text;
                    }
                }
                _ => {
                    self.check_annotations(&c);
                    self.unknown_node(&c, "in `example-call`", EXAMPLE_CALL_CHILDREN);
                }
            }
        }
        let arguments = arguments
            .unwrap_or_else(|| Sp::new(serde_json::Value::Object(Default::default()), n.span));
        let call = ExampleCall {
            name: name?,
            arguments,
            result: None,
            span: n.span,
        };
        Some((call, result))
    }

    /// An example's `result` as the tool's output kind reads it: JSON for a structured
    /// output, the text itself for text and Markdown; an image has none.
    fn example_result(
        &mut self,
        text: Sp<String>,
        content: Option<&Sp<ContentKind>>,
    ) -> Option<Sp<ExampleResult>> {
        match content.map(|k| k.value) {
            Some(ContentKind::Text | ContentKind::Markdown) => {
                Some(Sp::new(ExampleResult::Text(text.value), text.span))
            }
            Some(ContentKind::Image) => {
                self.err(
                    "model/unexpected-children",
                    text.span,
                    "an `output kind=\"image\"` tool's example has no `result`: an image is not written in a catalog",
                    Some("remove `result`; `serve --mock` answers with a placeholder image".to_string()),
                );
                None
            }
            None => self
                .json(text, "`result`")
                .map(|v| Sp::new(ExampleResult::Json(v.value), v.span)),
        }
    }

    /// `text` parsed as JSON, or a `model/wrong-type` error at its span.
    pub(super) fn json(&mut self, text: Sp<String>, what: &str) -> Option<Sp<serde_json::Value>> {
        match serde_json::from_str(&text.value) {
            Ok(v) => Some(Sp::new(v, text.span)),
            Err(e) => {
                self.err(
                    "model/wrong-type",
                    text.span,
                    format!("{what} is not JSON: {e}"),
                    Some(
                        "write it as a JSON text, e.g. a raw string `#\"{\"a\": 1}\"#`".to_string(),
                    ),
                );
                None
            }
        }
    }

    pub(super) fn lower_deprecated(&mut self, n: &Node) -> Option<Deprecated> {
        self.check_annotations(n);
        let props = self.props(n, &["replacement", "since", "sunset"], &|_| None);
        self.no_children(n);
        let a = self.args(n, 0, 1, "deprecated \"reason\" replacement=\"OTHER_TOOL\"");
        let reason = a.first().and_then(|e| self.string(e, "deprecation reason"));
        let replacement = props
            .get("replacement")
            .and_then(|e| self.string(e, "`replacement`"));
        let since = props.get("since").and_then(|e| self.string(e, "`since`"));
        if let Some(v) = &since
            && let Err(e) = semver::Version::parse(&v.value)
        {
            self.err(
                "model/invalid-value",
                v.span,
                format!("`since` version `{}` is not semver ({e})", v.value),
                Some("write the tool version that deprecated it, e.g. `since=\"1.4.0\"`".into()),
            );
        }
        let sunset = props.get("sunset").and_then(|e| {
            let text = self.string(e, "`sunset`")?;
            match parse_date(&text.value) {
                Some(d) => Some(Sp::new(d, text.span)),
                None => {
                    self.err(
                        "model/invalid-value",
                        text.span,
                        format!("`sunset` `{}` is not a date", text.value),
                        Some(
                            "write an ISO 8601 calendar date, e.g. `sunset=\"2027-03-01\"`".into(),
                        ),
                    );
                    None
                }
            }
        });
        Some(Deprecated {
            reason,
            replacement,
            since,
            sunset,
            span: n.span,
        })
    }

    pub(super) fn lower_allow(&mut self, n: &Node) -> Option<Allow> {
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
}

/// A top-level node lowered ahead of the document pass (see [`Cx::lower_document`]).
// The tool is boxed: unboxed, every slot would have a tool's size (about 1.2 KB) and a file
// of many small types (120 B each) would hold ten times its model in slots while it lowers.
// The box is freed as its tool moves into the catalog, so tools cost no more at the peak.
pub(super) enum Lowered {
    Tool(Option<Box<Tool>>),
    Type(Option<TypeDef>),
}

/// The tools and types of one part of a file, each with the count of problems the part had
/// found (kept and dropped) once it was lowered, and those problems.
pub struct Part {
    ends: Vec<(Lowered, usize, usize)>,
    diags: Vec<crate::diag::Diagnostic>,
}

impl Part {
    /// How many problems the part kept (the rest it only counted).
    pub fn kept(&self) -> usize {
        self.diags.len()
    }

    /// How many problems the part counted without keeping them.
    pub fn dropped(&self) -> usize {
        self.ends.last().map_or(0, |&(_, _, dropped)| dropped)
    }
}
