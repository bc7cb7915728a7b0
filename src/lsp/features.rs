//! What the server answers, each from one [`Snapshot`] and the text of one open file:
//! diagnostics, hover, completion, definition, references, rename, document symbols, code
//! actions and formatting. Positions are converted by [`crate::diag::Utf16Index`].

use super::analysis::{Occurrence, Snapshot, Target};
use crate::contract::markdown;
use crate::diag::emit::RuleMetadata;
use crate::diag::{Diagnostic, FileId, Level, Utf16Index};
use crate::model::vocab::{self, ValueKind};
use crate::syntax::{self, Document, Node, Span, Value};
use lsp_types as lsp;
use std::collections::HashMap;
use std::path::Path;

/// One open file inside its analysed project.
pub struct View<'a> {
    /// The project analysis.
    pub snap: &'a Snapshot,
    /// The file's id in it.
    pub file: FileId,
    /// The file's text (as analysed).
    pub text: &'a str,
    /// Its LSP line index.
    pub index: Utf16Index,
}

impl<'a> View<'a> {
    /// The view of `path`; `None` when the snapshot does not hold it.
    pub fn new(snap: &'a Snapshot, path: &Path) -> Option<View<'a>> {
        let file = snap.file_id(path)?;
        let text = snap.loaded.sources.get(file).text.as_str();
        Some(View {
            snap,
            file,
            text,
            index: Utf16Index::new(text),
        })
    }

    /// The LSP range of a byte span of this file.
    pub fn range(&self, span: Span) -> lsp::Range {
        range_in(&self.index, self.text, span)
    }

    /// The byte offset of an LSP position of this file.
    pub fn offset(&self, pos: lsp::Position) -> usize {
        self.index.offset(self.text, pos.line, pos.character)
    }

    /// A location in any file of the snapshot.
    fn location(&self, file: FileId, span: Span) -> Option<lsp::Location> {
        let f = self.snap.loaded.sources.get(file);
        let uri = super::path_to_uri(&f.path)?;
        let range = if file == self.file {
            self.range(span)
        } else {
            range_in(&Utf16Index::new(&f.text), &f.text, span)
        };
        Some(lsp::Location { uri, range })
    }

    fn diagnostics(&self) -> impl Iterator<Item = &'a Diagnostic> + '_ {
        self.snap.diagnostics.iter().filter(|d| d.file == self.file)
    }
}

fn range_in(index: &Utf16Index, text: &str, span: Span) -> lsp::Range {
    let (sl, sc) = index.position(text, span.start);
    let (el, ec) = index.position(text, span.end);
    lsp::Range::new(lsp::Position::new(sl, sc), lsp::Position::new(el, ec))
}

// ---- diagnostics ----

/// Every diagnostic of the file, for `textDocument/publishDiagnostics`.
pub fn diagnostics(view: &View) -> Vec<lsp::Diagnostic> {
    let mut all: Vec<&Diagnostic> = view.diagnostics().collect();
    if all.len() <= MAX_DIAGNOSTICS {
        return all.into_iter().map(|d| to_lsp(view, d)).collect();
    }
    // Errors before warnings before information; in file order within each.
    all.sort_by_key(|d| match d.level {
        Level::Error => 0,
        Level::Warn => 1,
        Level::Info => 2,
    });
    let more = all.len() - MAX_DIAGNOSTICS;
    let mut out: Vec<lsp::Diagnostic> = all[..MAX_DIAGNOSTICS]
        .iter()
        .map(|d| to_lsp(view, d))
        .collect();
    out.push(lsp::Diagnostic {
        range: lsp::Range::default(),
        severity: Some(lsp::DiagnosticSeverity::INFORMATION),
        source: Some("catalogc".to_string()),
        message: format!(
            "{more} more findings in this file are not shown; `catalogc lint` lists them all"
        ),
        ..lsp::Diagnostic::default()
    });
    out
}

/// The most findings published for one file; the rest are counted in one last diagnostic.
pub const MAX_DIAGNOSTICS: usize = 1_000;

fn to_lsp(view: &View, d: &Diagnostic) -> lsp::Diagnostic {
    let severity = match d.level {
        Level::Error => lsp::DiagnosticSeverity::ERROR,
        Level::Warn => lsp::DiagnosticSeverity::WARNING,
        Level::Info => lsp::DiagnosticSeverity::INFORMATION,
    };
    let message = match &d.help {
        Some(h) => format!("{}\nhelp: {h}", d.message),
        None => d.message.clone(),
    };
    let code_description = crate::lint::docs::rule_doc_url(&d.rule)
        .and_then(|u| u.parse().ok())
        .map(|href| lsp::CodeDescription { href });
    let related = related(view, d);
    lsp::Diagnostic {
        range: view.range(d.span),
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.rule.to_string())),
        code_description,
        source: Some("catalogc".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// The other places a finding names: every tool or type in backquotes in its message that
/// is declared somewhere else (the other tool of a confusable pair, a duplicate's first
/// declaration).
fn related(view: &View, d: &Diagnostic) -> Vec<lsp::DiagnosticRelatedInformation> {
    let mut out = Vec::new();
    for name in d.message.split('`').skip(1).step_by(2) {
        let targets = [
            Target::Tool(name.to_string()),
            Target::Type(d.file, name.to_string()),
        ];
        for target in &targets {
            let Some(decl) = view.snap.occurrences_of(target).find(|o| o.declaration) else {
                continue;
            };
            if decl.file == d.file && decl.span == d.span {
                continue;
            }
            if let Some(location) = view.location(decl.file, decl.span) {
                out.push(lsp::DiagnosticRelatedInformation {
                    location,
                    message: format!("`{name}` is declared here"),
                });
            }
        }
    }
    out
}

// ---- where the cursor is ----

/// What is under a byte offset of the syntax tree.
struct At<'d> {
    /// The nodes containing the offset, outermost first.
    chain: Vec<Node<'d>>,
    /// The node whose name is under the cursor, or the property name or value under it.
    hit: Hit<'d>,
}

enum Hit<'d> {
    NodeName,
    PropName(&'d str),
    PropValue(&'d str),
    Arg,
    Nothing,
}

fn contains(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

fn at(doc: &Document, offset: usize) -> At<'_> {
    let mut chain = Vec::new();
    let mut nodes = doc.nodes();
    let mut hit = Hit::Nothing;
    'outer: loop {
        for n in nodes.clone() {
            if !contains(n.span, offset) {
                continue;
            }
            chain.push(n);
            if contains(n.name.span, offset) {
                hit = Hit::NodeName;
                break 'outer;
            }
            for e in n.entries() {
                if let Some(name) = e.name
                    && contains(name.span, offset)
                {
                    hit = Hit::PropName(name.value);
                    break 'outer;
                }
                if contains(e.value.span, offset) {
                    hit = match e.name {
                        Some(name) => Hit::PropValue(name.value),
                        None => Hit::Arg,
                    };
                    break 'outer;
                }
            }
            nodes = n.child_nodes();
            continue 'outer;
        }
        break;
    }
    At { chain, hit }
}

/// The field type argument of a `field` (second argument) or `items` (first) node.
fn field_type<'d>(n: &Node<'d>) -> Option<&'d str> {
    if !vocab::TYPED_NODES.contains(&n.name.value) {
        return None;
    }
    let skip = usize::from(n.name.value == "field");
    match n
        .entries()
        .filter(|e| e.name.is_none())
        .nth(skip)?
        .value
        .value
    {
        Value::String(s) => Some(s),
        _ => None,
    }
}

fn parent_name<'d>(chain: &[Node<'d>]) -> &'d str {
    match chain.len() {
        0 | 1 => "",
        n => chain[n - 2].name.value,
    }
}

// ---- hover ----

/// Markdown for the place under `offset`: a tool's rendered description and hashes, a
/// type's declaration, a node's or property's meaning, and the `catalogc explain` text of
/// every diagnostic there.
pub fn hover(view: &View, offset: usize) -> Option<lsp::Hover> {
    let mut parts = Vec::new();
    let mut range = None;
    if let Some(o) = view.snap.occurrence_at(view.file, offset) {
        range = Some(view.range(o.span));
        parts.extend(symbol_markdown(view, o));
    } else {
        let parsed = syntax::parse(view.text);
        let at = at(&parsed.document, offset);
        if let Some(node) = at.chain.last() {
            let parent = parent_name(&at.chain);
            let md = match at.hit {
                Hit::NodeName => {
                    range = Some(view.range(node.name.span));
                    vocab::node_markdown(parent, node.name.value)
                }
                Hit::PropName(p) | Hit::PropValue(p) => {
                    vocab::property_markdown(node.name.value, p)
                }
                Hit::Arg => vocab::node_markdown(parent, node.name.value),
                Hit::Nothing => None,
            };
            parts.extend(md);
        }
    }
    for d in view.diagnostics().filter(|d| contains(d.span, offset)) {
        parts.push(explain(&d.rule));
    }
    if parts.is_empty() {
        return None;
    }
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: parts.join("\n\n---\n\n"),
        }),
        range,
    })
}

/// `catalogc explain RULE` for a lint rule; the summary and fix of a loader error code.
pub fn explain(rule: &str) -> String {
    if let Ok(text) = crate::lint::docs::explain(rule) {
        return text;
    }
    let meta = crate::lint::docs::CoreRules.rule(rule);
    match meta {
        Some(m) => format!(
            "# {rule}\n\n{}\n\n{}",
            m.summary,
            m.help.unwrap_or_default()
        ),
        None => format!("# {rule}"),
    }
}

fn symbol_markdown(view: &View, o: &Occurrence) -> Option<String> {
    let snap = view.snap;
    match &o.target {
        Target::Tool(name) => {
            let (c, t) = snap.tool_index(name)?;
            let cat = &snap.loaded.project.catalogs[c];
            let tool = &cat.tools[t];
            // Catalog text goes through the docs' Markdown helpers: no name, version or
            // description can end its code span or fence and inject markup.
            let mut md = format!(
                "**tool {}** {} (catalog {}), effect `{}`",
                markdown::code(name),
                markdown::md(&tool.version.value),
                markdown::code(&cat.name.value),
                tool.effect.value.as_str()
            );
            if let Some(contract) = snap.artifacts.tool(c, t) {
                let h = contract.hashes();
                let fence = markdown::fence(&contract.description);
                md.push_str(&format!(
                    "\n\nDescription the model sees:\n\n{fence}text\n{}\n{fence}\n\n| hash | value |\n|---|---|\n| input | `{}` |\n| output | `{}` |\n| description | `{}` |\n| contract | `{}` |",
                    contract.description, h.input, h.output, h.description, h.contract
                ));
            }
            Some(md)
        }
        Target::Type(file, name) => {
            let decl = snap.occurrences_of(&o.target).find(|o| o.declaration)?;
            let cat = snap
                .loaded
                .project
                .catalogs
                .iter()
                .find(|c| c.file == *file)?;
            let def = cat.type_def(name)?;
            let text = &snap.loaded.sources.get(decl.file).text;
            let source = text.get(def.span.start..def.span.end).unwrap_or_default();
            let fence = markdown::fence(source);
            Some(format!(
                "**type {}**\n\n{fence}kdl\n{source}\n{fence}",
                markdown::code(name)
            ))
        }
    }
}

// ---- definition, references, rename ----

/// The declaration of the tool or type under `offset`.
pub fn definition(view: &View, offset: usize) -> Option<lsp::Location> {
    let o = view.snap.occurrence_at(view.file, offset)?;
    let decl = view
        .snap
        .occurrences_of(&o.target)
        .find(|o| o.declaration)?;
    view.location(decl.file, decl.span)
}

/// Every reference to the tool or type under `offset`, with its declaration when asked.
pub fn references(view: &View, offset: usize, declaration: bool) -> Vec<lsp::Location> {
    let Some(o) = view.snap.occurrence_at(view.file, offset) else {
        return Vec::new();
    };
    view.snap
        .occurrences_of(&o.target)
        .filter(|o| declaration || !o.declaration)
        .filter_map(|o| view.location(o.file, o.span))
        .collect()
}

/// Renames the tool or type under `offset` at its declaration and every reference.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose parsed parts are cached inside it: the
// key never changes once inserted.
#[allow(clippy::mutable_key_type)]
pub fn rename(view: &View, offset: usize, new_name: &str) -> Result<lsp::WorkspaceEdit, String> {
    let o = view
        .snap
        .occurrence_at(view.file, offset)
        .ok_or("no tool or named type here to rename")?;
    if let Some(problem) = rename_problem(view.snap, &o.target, new_name) {
        return Err(problem);
    }
    let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
    for occ in view.snap.occurrences_of(&o.target) {
        if let Some(loc) = view.location(occ.file, occ.span) {
            changes.entry(loc.uri).or_default().push(lsp::TextEdit {
                range: loc.range,
                new_text: syntax::quote(new_name),
            });
        }
    }
    Ok(lsp::WorkspaceEdit {
        changes: Some(changes),
        ..lsp::WorkspaceEdit::default()
    })
}

/// Why `new_name` cannot replace the name of `target`: the rules a name is linted by
/// (`naming/tool-name` in the catalog's convention, `naming/type-name`), and no clash with
/// another tool of the project or type of the file. Renaming to the current name is allowed.
fn rename_problem(snap: &Snapshot, target: &Target, new_name: &str) -> Option<String> {
    use crate::lint::rules::naming::{tool_name, type_name};
    match target {
        Target::Tool(old) => {
            let cat = snap
                .tool_index(old)
                .and_then(|(c, _)| snap.loaded.project.catalogs.get(c));
            let convention = snap.naming.unwrap_or_else(|| {
                crate::names::Convention::dominant(
                    cat.iter()
                        .flat_map(|c| c.tools.iter().map(|t| t.name.value.as_str())),
                )
            });
            if let Some(problem) = tool_name::problem(new_name, convention) {
                return Some(problem);
            }
            (new_name != old && snap.tool_index(new_name).is_some())
                .then(|| format!("a tool named `{new_name}` already exists"))
        }
        Target::Type(file, old) => {
            if !type_name::is_pascal_case(new_name) {
                return Some(format!("type name `{new_name}` is not PascalCase"));
            }
            (new_name != old && snap.type_names(*file).contains(&new_name))
                .then(|| format!("a type named `{new_name}` already exists in this file"))
        }
    }
}

// ---- document symbols ----

/// The outline: catalog, types with their fields, tools with their inputs, outputs, fields
/// and errors.
pub fn symbols(view: &View) -> Vec<lsp::DocumentSymbol> {
    let parsed = syntax::parse(view.text);
    outline(view, parsed.document.nodes())
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written; `tags` replaces it.
fn outline<'d>(view: &View, nodes: syntax::Nodes<'d>) -> Vec<lsp::DocumentSymbol> {
    let mut out = Vec::new();
    for n in nodes {
        let kind = match n.name.value {
            "catalog" => lsp::SymbolKind::NAMESPACE,
            "type" => lsp::SymbolKind::STRUCT,
            "tool" => lsp::SymbolKind::FUNCTION,
            "input" | "output" => lsp::SymbolKind::OBJECT,
            "field" => lsp::SymbolKind::FIELD,
            "error" => lsp::SymbolKind::ENUM_MEMBER,
            _ => continue,
        };
        let arg = n.entries().find(|e| e.name.is_none());
        let (name, selection) = match arg.map(|e| (e.value.value, e.value.span)) {
            Some((Value::String(s), span)) if !s.is_empty() => (s.to_string(), span),
            _ => (n.name.value.to_string(), n.name.span),
        };
        let detail = match n.name.value {
            "field" => field_type(&n).map(str::to_string),
            "catalog" | "tool" | "type" | "error" => Some(n.name.value.to_string()),
            _ => None,
        };
        let children = outline(view, n.child_nodes());
        out.push(lsp::DocumentSymbol {
            name,
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: view.range(n.span),
            selection_range: view.range(selection),
            children: (!children.is_empty()).then_some(children),
        });
    }
    out
}

// ---- completion ----

/// What may be written at `offset`: child node names at the start of a line, property
/// names after a node's name, and the values a node's argument or a property allows
/// (keywords, `#true`/`#false`, field types, tool names, rule IDs).
pub fn completion(view: &View, offset: usize) -> Vec<lsp::CompletionItem> {
    let line_start = view.text[..offset.min(view.text.len())]
        .rfind(['\n', '\r'])
        .map_or(0, |i| i + 1);
    let Some(prefix) = view.text.get(line_start..offset) else {
        return Vec::new();
    };
    let partial_len = prefix
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'/' | b'+'))
        .count();
    let head = &prefix[..prefix.len() - partial_len];
    let quoted = head.ends_with('"');
    let replace = view.range(Span::new(offset - partial_len, offset));
    let parsed = syntax::parse(view.text);
    let doc = &parsed.document;
    let parent = block_parent(doc, offset, view.text.len());
    let words = split_words(head);
    let item = |label: &str, insert: String, kind: lsp::CompletionItemKind, doc: Option<String>| {
        lsp::CompletionItem {
            label: label.to_string(),
            kind: Some(kind),
            documentation: doc.map(|value| {
                lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value,
                })
            }),
            text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                range: replace,
                new_text: insert,
            })),
            ..lsp::CompletionItem::default()
        }
    };
    let (parent_name, parent_ty) = match &parent {
        Some(p) => (p.name.value, field_type(p)),
        None => ("", None),
    };
    let value_items = |kind: ValueKind| -> Vec<lsp::CompletionItem> {
        let quote = |s: &str| {
            if quoted {
                s.to_string()
            } else {
                syntax::quote(s)
            }
        };
        let words: Vec<String> = match kind {
            ValueKind::Keyword(values) => values.iter().map(|s| s.to_string()).collect(),
            ValueKind::Tool => view.snap.tool_names(),
            ValueKind::Type => vocab::TYPE_KEYWORDS
                .iter()
                .copied()
                .chain(view.snap.type_names(view.file))
                .map(str::to_string)
                .collect(),
            ValueKind::Rule => crate::lint::registry().map(|r| r.id.to_string()).collect(),
            ValueKind::Bool => {
                return ["#true", "#false"]
                    .iter()
                    .map(|b| item(b, b.to_string(), lsp::CompletionItemKind::VALUE, None))
                    .collect();
            }
            _ => Vec::new(),
        };
        let ckind = match kind {
            ValueKind::Tool => lsp::CompletionItemKind::FUNCTION,
            ValueKind::Type => lsp::CompletionItemKind::STRUCT,
            _ => lsp::CompletionItemKind::ENUM_MEMBER,
        };
        words
            .iter()
            .map(|w| item(w, quote(w), ckind, None))
            .collect()
    };
    match words.as_slice() {
        // The start of a line: a child node of the enclosing block.
        [] => vocab::children_of(parent_name, parent_ty)
            .into_iter()
            .map(|name| {
                item(
                    name,
                    name.to_string(),
                    lsp::CompletionItemKind::KEYWORD,
                    vocab::node_markdown(parent_name, name),
                )
            })
            .collect(),
        [node, rest @ ..] => {
            let node = node.as_str();
            // `name=` or `name="` right before the cursor: the property's values.
            if let Some(key) = head
                .trim_end_matches('"')
                .strip_suffix('=')
                .map(|h| h.rsplit(|c: char| c.is_whitespace()).next().unwrap_or(""))
            {
                return vocab::property(node, key)
                    .map(|p| value_items(p.value))
                    .unwrap_or_default();
            }
            let args = rest.iter().filter(|w| !w.contains('=')).count();
            let info = vocab::node(parent_name, node);
            // The argument being written: the first one, or a field's type.
            if quoted {
                let kind = match (node, args) {
                    ("field", 1) => Some(ValueKind::Type),
                    (_, 0) => info.and_then(|i| i.arg),
                    _ => None,
                };
                return kind.map(value_items).unwrap_or_default();
            }
            if head.ends_with(char::is_whitespace) {
                let mut items = Vec::new();
                if args == 0
                    && let Some(kind) = info.and_then(|i| i.arg)
                {
                    items.extend(value_items(kind));
                }
                if node == "field" && args == 1 {
                    items.extend(value_items(ValueKind::Type));
                }
                let ty = line_field_type(node, rest);
                let written: Vec<&str> = rest
                    .iter()
                    .filter_map(|w| w.split_once('='))
                    .map(|(k, _)| k)
                    .collect();
                for p in vocab::props_of(node, ty.as_deref()) {
                    if written.contains(&p) {
                        continue;
                    }
                    items.push(item(
                        p,
                        format!("{p}="),
                        lsp::CompletionItemKind::PROPERTY,
                        vocab::property_markdown(node, p),
                    ));
                }
                return items;
            }
            Vec::new()
        }
    }
}

/// The innermost node whose `{ … }` block holds `offset`.
fn block_parent(doc: &Document, offset: usize, len: usize) -> Option<Node<'_>> {
    let mut found = None;
    let mut nodes = doc.nodes();
    'outer: loop {
        for n in nodes.clone() {
            if let Some(ch) = n.children()
                && ch.span.start < offset
                // A block cut off by the end of the file is still open there.
                && (offset < ch.span.end || ch.span.end == len)
            {
                found = Some(n);
                nodes = n.child_nodes();
                continue 'outer;
            }
        }
        return found;
    }
}

/// The words of a line before the cursor (quotes removed), split at white space outside
/// quotes.
fn split_words(head: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_quote = false;
    let mut escaped = false;
    for c in head.chars() {
        if in_quote {
            if escaped {
                escaped = false;
                cur.push(c);
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_quote = false;
            } else {
                cur.push(c);
            }
        } else if c == '"' {
            in_quote = true;
        } else if c.is_whitespace() || c == '{' || c == ';' {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            if c == '{' || c == ';' {
                words.clear();
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// A `field "name" "TYPE"` line's type, or an `items "TYPE"` line's.
fn line_field_type(node: &str, rest: &[String]) -> Option<String> {
    let skip = usize::from(node == "field");
    match node {
        "field" | "items" | "values" => rest.iter().filter(|w| !w.contains('=')).nth(skip).cloned(),
        _ => None,
    }
}

// ---- code actions ----

/// The fixes the diagnostics overlapping `range` already know: a did-you-mean, `#true`
/// for a bare `true`, removing quotes around a number, a missing `when-not` skeleton and a
/// `max-length` on an unbounded string.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose parsed parts are cached inside it: the
// key never changes once inserted.
#[allow(clippy::mutable_key_type)]
pub fn code_actions(view: &View, range: Span, uri: &lsp::Uri) -> Vec<lsp::CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in view.diagnostics() {
        if d.span.end < range.start || d.span.start > range.end {
            continue;
        }
        let Some((title, span, new_text)) = fix(view, d) else {
            continue;
        };
        let edit = lsp::TextEdit {
            range: view.range(span),
            new_text,
        };
        let changes = HashMap::from([(uri.clone(), vec![edit])]);
        out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title,
            kind: Some(lsp::CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![to_lsp(view, d)]),
            edit: Some(lsp::WorkspaceEdit {
                changes: Some(changes),
                ..lsp::WorkspaceEdit::default()
            }),
            is_preferred: Some(true),
            ..lsp::CodeAction::default()
        }));
    }
    out
}

/// One diagnostic's fix: a title and one edit.
fn fix(view: &View, d: &Diagnostic) -> Option<(String, Span, String)> {
    let text = view.text.get(d.span.start..d.span.end)?;
    let help = d.help.as_deref().unwrap_or("");
    if d.rule == "syntax/v1-keyword" {
        let new = format!("#{text}");
        return Some((format!("Write `{new}`"), d.span, new));
    }
    if let Some(rest) = help.strip_prefix("write `#")
        && let Some(word) = rest.strip_suffix("` without quotes")
    {
        let new = format!("#{word}");
        return Some((format!("Write `{new}`"), d.span, new));
    }
    if let Some(number) = help.strip_prefix("remove the quotes: ") {
        return Some((format!("Write {number}"), d.span, number.to_string()));
    }
    if let Some(rest) = help.strip_prefix("did you mean `")
        && let Some((word, _)) = rest.split_once("`?")
    {
        let new = if text.starts_with('"') || !syntax::is_plain_identifier(word) {
            syntax::quote(word)
        } else {
            word.to_string()
        };
        return Some((format!("Change to `{word}`"), d.span, new));
    }
    let parsed = syntax::parse(view.text);
    let at = at(&parsed.document, d.span.start);
    match d.rule.as_ref() {
        "selection/missing-text" if d.message.ends_with("has no `when-not`") => {
            let tool = at.chain.iter().find(|n| n.name.value == "tool")?;
            let anchor = tool
                .child_nodes()
                .rev()
                .find(|c| matches!(c.name.value, "when" | "summary" | "title"))
                .or_else(|| tool.child_nodes().next())?;
            let line_start = view.text[..anchor.span.start]
                .rfind(['\n', '\r'])
                .map_or(0, |i| i + 1);
            let indent = &view.text[line_start..anchor.span.start];
            let end = anchor.span.end;
            let eol = view.text[end..]
                .find(['\n', '\r'])
                .map_or(view.text.len(), |i| end + i);
            let new = format!("\n{indent}when-not \"Not for …; use … instead.\"");
            Some((
                "Add a `when-not` skeleton".to_string(),
                Span::new(eol, eol),
                new,
            ))
        }
        "bounds/string-unbounded" => {
            let node = at
                .chain
                .iter()
                .rev()
                .find(|n| vocab::TYPED_NODES.contains(&n.name.value))?;
            let end = node
                .entries()
                .next_back()
                .map_or(node.name.span.end, |e| e.span.end);
            Some((
                "Add `max-length=256`".to_string(),
                Span::new(end, end),
                " max-length=256".to_string(),
            ))
        }
        _ => None,
    }
}

// ---- formatting ----

/// The whole file in the `catalogc fmt` layout, as one edit (none when already formatted);
/// `Err` when it has syntax errors or the printer's result fails verification.
pub fn formatting(view: &View) -> Result<Vec<lsp::TextEdit>, String> {
    let formatted = crate::fmt::format(view.text).map_err(|e| match e {
        crate::fmt::FormatError::Syntax { first, count } => format!(
            "not formatted: {count} syntax error{} (first: {})",
            if count == 1 { "" } else { "s" },
            first.message
        ),
        crate::fmt::FormatError::Internal(m) => format!("not formatted: {m}"),
    })?;
    if formatted == view.text {
        return Ok(Vec::new());
    }
    crate::fmt::verify(view.text, &formatted).map_err(|e| format!("not formatted: {e}"))?;
    Ok(vec![lsp::TextEdit {
        range: view.range(Span::new(0, view.text.len())),
        new_text: formatted,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The completion labels at `|` in `text`.
    fn complete(text: &str) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("c.kdl");
        let offset = text.find('|').unwrap_or_else(|| panic!("no cursor"));
        let text = text.replacen('|', "", 1);
        let snap = Snapshot::build(dir.path(), &path, &|_| Some(text.clone()));
        let view = View::new(&snap, &path).unwrap_or_else(|| panic!("no view"));
        completion(&view, offset)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    const HEAD: &str = "catalog \"c\" version=\"1.0.0\"\ntype \"Thing\" { field \"a\" \"string\" }\ntool \"thing_get\" version=\"1.0.0\" {\n";

    #[test]
    fn completes_by_position() {
        let labels = complete(&format!("{HEAD}    effect \"|\"\n}}\n"));
        assert!(labels.contains(&"external-read".to_string()), "{labels:?}");
        let labels = complete(&format!("{HEAD}    eff|\n}}\n"));
        assert!(labels.contains(&"effect".to_string()), "{labels:?}");
        assert!(labels.contains(&"when-not".to_string()), "{labels:?}");
        let labels = complete(&format!("{HEAD}    limits max-items=5 |\n}}\n"));
        assert_eq!(labels, ["max-result-bytes", "timeout-ms"]);
        let labels = complete(&format!(
            "{HEAD}    input {{\n        field \"b\" \"|\"\n    }}\n}}\n"
        ));
        assert!(labels.contains(&"Thing".to_string()), "{labels:?}");
        assert!(labels.contains(&"cursor".to_string()), "{labels:?}");
        let labels = complete(&format!(
            "{HEAD}    input {{\n        field \"b\" \"string\" |\n    }}\n}}\n"
        ));
        assert!(labels.contains(&"max-length".to_string()), "{labels:?}");
        assert!(!labels.contains(&"max-items".to_string()), "{labels:?}");
        let labels = complete(&format!(
            "{HEAD}    input {{\n        field \"b\" \"string\" format=|\n    }}\n}}\n"
        ));
        assert!(labels.contains(&"uuid".to_string()), "{labels:?}");
        let labels = complete(&format!("{HEAD}    examples {{ confusable \"|\" }}\n}}\n"));
        assert_eq!(labels, ["thing_get"]);
        let labels = complete(&format!("{HEAD}    |\n}}\n"));
        assert!(labels.contains(&"summary".to_string()), "{labels:?}");
        let labels = complete(&format!("|{HEAD}}}\n"));
        assert_eq!(labels, ["catalog", "type", "tool"]);
    }
}
