//! `catalogc import`: an MCP `tools/list` result (`{"tools": […]}` or a bare array of tools)
//! → a catalog in the canonical layout that loads without errors (docs/import.md).
//!
//! Import is a front end before the syntax: it builds KDL nodes ([`kdl`]), prints them and
//! lays them out with [`crate::fmt::format`], then loads the result to prove it lowers
//! cleanly. What the format cannot say is kept where it was met, as a `// catalogc import:`
//! comment, and listed in [`Imported::notes`] (the CLI prints them on stderr). Choices:
//! - Every tool and the catalog get version `1.0.0`: `tools/list` carries no versions.
//! - The description goes to `summary` whole, unless sentences of it say when (not) to use
//!   the tool ([`split_description`]); then those move to `when` / `when-not`.
//! - The effect follows the annotations with MCP's defaults for absent hints; without any
//!   hint it is guessed from the verbs of the name ([`effects`]), with a comment.
//! - A schema the format cannot express keeps the closest form it has: the non-null type of
//!   a nullable one, the first alternative of a union, a closed empty object for an open
//!   map or a value of any type. Each says so in its comment.

pub mod effects;
pub mod kdl;
pub mod locate;
mod schema;
mod shape;

use crate::diag::{FileId, Level};
use kdl::{Item, Node};
use serde_json::{Map, Value};
use std::fmt;

/// The prefix of every comment the importer writes.
pub const COMMENT_PREFIX: &str = "catalogc import:";

/// The version given to the catalog and every tool.
pub const VERSION: &str = "1.0.0";

/// A catalog imported from a tools/list JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The catalog, canonically formatted.
    pub text: String,
    /// Everything that could not be expressed or had to be guessed, in tool order.
    pub notes: Vec<Note>,
    /// How many tools were imported.
    pub tools: usize,
}

/// One thing the importer could not express, or had to guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The tool (empty for the list as a whole).
    pub tool: String,
    /// Where in the tool: `input.filter`, `annotations`, … (empty for the tool itself).
    pub path: String,
    /// The same place as a JSON path in the served Tool object
    /// (`inputSchema.properties.filter`, `annotations`): what `catalogc drift` reports at.
    pub json_path: String,
    /// What was lost or assumed.
    pub what: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.tool.is_empty(), self.path.is_empty()) {
            (true, _) => write!(f, "{}", self.what),
            (false, true) => write!(f, "{}: {}", self.tool, self.what),
            (false, false) => write!(f, "{} {}: {}", self.tool, self.path, self.what),
        }
    }
}

/// Why a JSON text could not be imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// Not JSON at all.
    Json(String),
    /// JSON, but not a tools/list result.
    Shape(String),
    /// The catalog name asked for is not one a catalog may have
    /// ([`crate::names::is_catalog_name`]).
    Name(String),
    /// The catalog would be larger than the file size cap, so no command could read it.
    TooLarge {
        /// Its size in bytes (as far as it was written before the cap stopped it).
        bytes: usize,
        /// The cap.
        cap: u64,
    },
    /// The generated catalog does not load cleanly: a bug of the importer.
    Internal(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Json(e) => write!(f, "not valid JSON: {e}"),
            ImportError::Shape(e) => write!(f, "not an MCP tools/list result: {e}"),
            ImportError::Name(name) => write!(
                f,
                "catalog name {name:?} is not a plain name: use ASCII letters, digits, `-` and `_`, starting with a letter or digit, at most {} characters",
                crate::names::MAX_CATALOG_NAME
            ),
            ImportError::TooLarge { bytes, cap } => write!(
                f,
                "the imported catalog is {bytes} bytes, over the {cap}-byte limit for one catalog file, so no command could read it; split the tools list, or raise --max-file-bytes for this and every later command"
            ),
            ImportError::Internal(e) => write!(
                f,
                "the imported catalog does not load ({e}); this is a catalogc bug"
            ),
        }
    }
}

impl std::error::Error for ImportError {}

/// Imports the tools/list JSON `json` (a leading byte order mark is skipped) as a catalog
/// named `catalog`.
pub fn import(json: &str, catalog: &str) -> Result<Imported, ImportError> {
    import_within(json, catalog, u64::MAX)
}

/// [`import`], refusing ([`ImportError::TooLarge`]) a catalog over `max_bytes`, the file size
/// cap of the commands that will read it: checked tool by tool while the text is first
/// written, so a list of 50,000 tools stops at the tool that crosses the cap, before
/// anything is laid out or loaded; and again on the laid-out text.
pub fn import_within(json: &str, catalog: &str, max_bytes: u64) -> Result<Imported, ImportError> {
    // Editors on Windows save JSON with a byte order mark, which JSON (RFC 8259) tells
    // parsers they may ignore and serde_json rejects.
    let json = json.strip_prefix('\u{FEFF}').unwrap_or(json);
    let value: Value = serde_json::from_str(json).map_err(|e| ImportError::Json(e.to_string()))?;
    let tools = match value {
        Value::Array(tools) => tools,
        Value::Object(mut o) => match o.remove("tools") {
            Some(Value::Array(tools)) => tools,
            Some(_) => return Err(ImportError::Shape("`tools` is not an array".into())),
            None => {
                return Err(ImportError::Shape(
                    "expected {\"tools\": [...]} or an array of tools".into(),
                ));
            }
        },
        _ => {
            return Err(ImportError::Shape(
                "expected {\"tools\": [...]} or an array of tools".into(),
            ));
        }
    };
    let written = write_tools(&tools, catalog, max_bytes)?;
    // The parsed list is the largest thing held; laying out and checking the catalog
    // does not need it.
    drop(tools);
    written.finish(max_bytes)
}

/// Imports the Tool objects `tools` (a tools/list's `tools` array) as a catalog named
/// `catalog`.
pub fn import_tools(tools: &[Value], catalog: &str) -> Result<Imported, ImportError> {
    import_tools_within(tools, catalog, u64::MAX)
}

/// [`import_tools`] with the size cap of [`import_within`].
pub fn import_tools_within(
    tools: &[Value],
    catalog: &str,
    max_bytes: u64,
) -> Result<Imported, ImportError> {
    write_tools(tools, catalog, max_bytes)?.finish(max_bytes)
}

/// A catalog written from a list, before it is laid out and checked.
struct Written {
    raw: String,
    notes: Vec<Note>,
    tools: usize,
}

/// Writes the catalog of `tools` (not yet laid out), refusing one over `max_bytes`.
fn write_tools(tools: &[Value], catalog: &str, max_bytes: u64) -> Result<Written, ImportError> {
    if !crate::names::is_catalog_name(catalog) {
        return Err(ImportError::Name(catalog.to_string()));
    }
    let mut notes = Vec::new();
    let too_large = |bytes: usize| ImportError::TooLarge {
        bytes,
        cap: max_bytes,
    };
    // Written item by item (as `kdl::render` writes a list), so a list whose catalog
    // outgrows the cap stops at the tool that crosses it.
    let mut raw = kdl::render(&[
        Item::Comment(format!(
            "{COMMENT_PREFIX} generated from an MCP tools/list; versions ({VERSION}) are assumed"
        )),
        Item::Node(Node::new("catalog").arg(catalog).prop("version", VERSION)),
    ]);
    let mut seen = std::collections::HashSet::new();
    for (i, tool) in tools.iter().enumerate() {
        let Some(obj) = tool.as_object() else {
            notes.push(list_note(format!("tools[{i}] is not an object; skipped")));
            continue;
        };
        let Some(name) = obj.get("name").and_then(Value::as_str) else {
            notes.push(list_note(format!(
                "tools[{i}] has no string `name`; skipped"
            )));
            continue;
        };
        if !seen.insert(name.to_string()) {
            notes.push(list_note(format!(
                "tool `{name}` is listed twice; the second is skipped"
            )));
            continue;
        }
        raw.push_str(&kdl::render(&[Item::Node(tool_node(
            name, obj, &mut notes,
        ))]));
        if raw.len() as u64 > max_bytes {
            return Err(too_large(raw.len()));
        }
    }
    Ok(Written {
        raw,
        notes,
        tools: seen.len(),
    })
}

impl Written {
    /// Lays the catalog out canonically and checks that it loads.
    fn finish(self, max_bytes: u64) -> Result<Imported, ImportError> {
        let text =
            crate::fmt::format(&self.raw).map_err(|e| ImportError::Internal(format!("{e:?}")))?;
        drop(self.raw);
        if text.len() as u64 > max_bytes {
            return Err(ImportError::TooLarge {
                bytes: text.len(),
                cap: max_bytes,
            });
        }
        check_loads(&text)?;
        Ok(Imported {
            text,
            notes: self.notes,
            tools: self.tools,
        })
    }
}

fn list_note(what: String) -> Note {
    Note {
        tool: String::new(),
        path: String::new(),
        json_path: String::new(),
        what,
    }
}

/// Loads `text` and fails on any syntax or model error.
fn check_loads(text: &str) -> Result<(), ImportError> {
    let parsed = crate::syntax::parse(text);
    if let Some(e) = parsed.errors.first() {
        return Err(ImportError::Internal(e.message.clone()));
    }
    let (_, diags) = crate::model::lower(&parsed.document, FileId(0));
    match diags.iter().find(|d| d.level == Level::Error) {
        Some(d) => Err(ImportError::Internal(format!("{} [{}]", d.message, d.rule))),
        None => Ok(()),
    }
}

/// Collects the notes of one tool and mirrors each as a comment at its place.
pub(crate) struct ToolNotes<'n> {
    tool: String,
    notes: &'n mut Vec<Note>,
}

impl ToolNotes<'_> {
    /// Records `what` at `path`, a key of the Tool object that is also its JSON path, and
    /// writes it as a comment into `block`.
    pub(crate) fn add(&mut self, block: &mut Node, path: &str, what: String) {
        self.add_at(block, path, path, what);
    }

    /// Records `what` at `path` in the catalog and `json_path` in the Tool object.
    pub(crate) fn add_at(&mut self, block: &mut Node, path: &str, json_path: &str, what: String) {
        block.comment(format!("{COMMENT_PREFIX} {what}"));
        self.notes.push(Note {
            tool: self.tool.clone(),
            path: path.to_string(),
            json_path: json_path.to_string(),
            what,
        });
    }
}

/// Keys of a Tool object that the importer reads.
const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
];

fn tool_node(name: &str, obj: &Map<String, Value>, notes: &mut Vec<Note>) -> Node {
    let mut tn = ToolNotes {
        tool: name.to_string(),
        notes,
    };
    let mut node = Node::new("tool").arg(name).prop("version", VERSION);
    let annotations = obj.get("annotations").and_then(Value::as_object);
    let title = obj.get("title").and_then(Value::as_str);
    let ann_title = annotations
        .and_then(|a| a.get("title"))
        .and_then(Value::as_str);
    if let (Some(t), Some(a)) = (title, ann_title)
        && t != a
    {
        tn.add(
            &mut node,
            "annotations.title",
            format!("annotations.title {a:?} differs from title; title kept"),
        );
    }
    if let Some(t) = title.or(ann_title) {
        node.child(Node::new("title").arg(t));
    }
    texts(&mut node, obj.get("description"), &mut tn);
    let description = obj.get("description").and_then(Value::as_str);
    effects::effect(&mut node, name, description, annotations, &mut tn);
    let mut input = Node::new("input").block();
    schema::top(&mut input, obj.get("inputSchema"), "input", &mut tn);
    node.child(input);
    if let Some(out) = obj.get("outputSchema") {
        let mut output = Node::new("output").block();
        schema::top(&mut output, Some(out), "output", &mut tn);
        node.child(output);
    } else if let Some(kind) = effects::content_kind(name) {
        tn.add(
            &mut node,
            "outputSchema",
            format!(
                "no outputSchema: result kind `{}` guessed from the tool's name",
                kind.as_str()
            ),
        );
        node.child(Node::new("output").prop("kind", kind.as_str()));
    }
    for key in obj.keys().filter(|k| !TOOL_KEYS.contains(&k.as_str())) {
        tn.add(
            &mut node,
            key,
            format!("`{key}` is not expressible in a catalog; left out"),
        );
    }
    node
}

/// `summary` (and `when` / `when-not` where the description says so).
fn texts(node: &mut Node, description: Option<&Value>, tn: &mut ToolNotes<'_>) {
    let text = description.and_then(Value::as_str).unwrap_or("").trim();
    if text.is_empty() {
        tn.add(node, "description", "no description".into());
        return;
    }
    let split = split_description(text);
    if split.when.is_none() && split.when_not.is_none() {
        node.comment(format!(
            "{COMMENT_PREFIX} the description does not say when (not) to use the tool; it is the summary whole"
        ));
    }
    node.child(Node::new("summary").arg(split.summary.as_str()));
    if let Some(w) = split.when {
        node.child(Node::new("when").arg(w));
    }
    if let Some(w) = split.when_not {
        node.child(Node::new("when-not").arg(w));
    }
}

/// A description cut into the catalog's three texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitDescription {
    /// Everything not about when to use the tool, in order.
    pub summary: String,
    /// Sentences that say when to use it.
    pub when: Option<String>,
    /// Sentences that say when not to, or what to use instead.
    pub when_not: Option<String>,
}

const WHEN_STARTS: &[&str] = &[
    "use when",
    "use this when",
    "use this tool when",
    "use it when",
    "use this if",
    "use this tool if",
    "call this when",
    "call this tool when",
    "useful when",
];

const WHEN_NOT_STARTS: &[&str] = &[
    "do not use",
    "don't use",
    "do not call",
    "don't call",
    "never use",
    "never call",
    "not for ",
    "avoid using",
    "avoid calling",
];

/// Splits `text` into sentences (at `.`, `!` or `?` followed by white space, and at line
/// ends) and moves those that start like "Use this when …" to `when` and like "Do not use
/// …" to `when-not`. Nothing is moved unless such a sentence exists; the summary keeps the
/// rest with its own spacing.
pub fn split_description(text: &str) -> SplitDescription {
    let mut summary = String::new();
    let mut when = Vec::new();
    let mut when_not = Vec::new();
    for (sentence, sep) in sentences(text) {
        let lower = sentence.trim_start_matches(['-', '*', ' ']).to_lowercase();
        if WHEN_STARTS.iter().any(|s| lower.starts_with(s)) {
            when.push(sentence.trim());
        } else if WHEN_NOT_STARTS.iter().any(|s| lower.starts_with(s)) {
            when_not.push(sentence.trim());
        } else {
            summary.push_str(sentence);
            summary.push_str(sep);
        }
    }
    let join = |v: Vec<&str>| (!v.is_empty()).then(|| v.join(" "));
    SplitDescription {
        summary: summary.trim().to_string(),
        when: join(when),
        when_not: join(when_not),
    }
}

/// `(sentence, white space after it)` pairs that concatenate back to `text`.
fn sentences(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let ends = c == '\n'
            || (matches!(c, '.' | '!' | '?')
                && chars.peek().is_some_and(|(_, n)| n.is_whitespace()));
        if !ends {
            continue;
        }
        let end = if c == '\n' { i } else { i + c.len_utf8() };
        let mut ws_end = end;
        while let Some(&(j, n)) = chars.peek() {
            if !n.is_whitespace() {
                break;
            }
            ws_end = j + n.len_utf8();
            chars.next();
        }
        out.push((&text[start..end], &text[end..ws_end]));
        start = ws_end;
    }
    if start < text.len() {
        out.push((&text[start..], ""));
    }
    out
}

#[cfg(test)]
mod tests;
