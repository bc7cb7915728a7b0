//! The one output stack: every finding catalogc prints — syntax and model errors, lint
//! findings, compatibility changes — goes through these emitters.
//!
//! - [`human`]: rustc-like text with source snippets;
//! - [`json`]: the `--format json` contract of docs/cli.md (docs/lint-output.schema.json);
//! - [`sarif`]: SARIF 2.1.0, built here and nowhere else;
//! - [`github`]: GitHub workflow annotations.
//!
//! Producers describe their rules through [`RuleMetadata`] (the lint registry, the model's
//! error codes, the compatibility change kinds) and resolve what they report into [`Record`]s;
//! the machine formats are pure functions of those, so two runs print the same bytes.
//! Every emitter writes to an [`std::io::Write`] as it goes.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use super::{Diagnostic, Level, SourceFile, SourceMap};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::io::{self, Write};

/// Counts printed at the end of every report.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// Findings at error level.
    pub errors: usize,
    /// Findings at warning level.
    pub warnings: usize,
    /// Findings at info level.
    pub infos: usize,
    /// Tools checked.
    pub tools: usize,
    /// Catalogs checked.
    pub catalogs: usize,
    /// Rules that did not run because the input cannot carry what they check (a published
    /// tools/list has no `when-not`, errors or idempotency), in registry order.
    pub skipped_rules: Vec<String>,
}

impl Summary {
    /// Counts `diags` by level; `tools` and `catalogs` are what the run checked.
    pub fn new(diags: &[Diagnostic], tools: usize, catalogs: usize) -> Self {
        let count = |l: Level| diags.iter().filter(|d| d.level == l).count();
        Summary {
            errors: count(Level::Error),
            warnings: count(Level::Warn),
            infos: count(Level::Info),
            tools,
            catalogs,
            skipped_rules: Vec::new(),
        }
    }
}

/// What a producer knows about one of its rules beyond the ID; SARIF's `reportingDescriptor`
/// is built from it. Optional parts are left out of the output when absent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RuleMeta {
    /// The rule ID, as in [`Record::rule`].
    pub id: String,
    /// Default level; `None` for findings whose level depends on the finding (change kinds).
    pub level: Option<Level>,
    /// One line.
    pub summary: String,
    /// How to fix it (plain text), or the rule's whole documentation when `doc_is_markdown`.
    pub help: Option<String>,
    /// `help` is the rule's Markdown documentation: shown as text and as Markdown.
    pub doc_is_markdown: bool,
    /// A display name, when the producer has one.
    pub name: Option<String>,
    /// A longer description than the summary.
    pub description: Option<String>,
    /// Extra key/value facts (category, compatibility class).
    pub properties: Vec<(&'static str, String)>,
}

/// A producer's table of rules.
pub trait RuleMetadata {
    /// What is known about rule `id`; `None` when the producer has no such rule.
    fn rule(&self, id: &str) -> Option<RuleMeta>;
}

/// A finding resolved for output: position in lines and columns, fingerprint computed.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Rule or error ID (`naming/tool-name`, `syntax/…`, `compat/…`).
    pub rule: String,
    /// Severity after configuration.
    pub level: Level,
    /// Where it is; `None` for findings about no particular place.
    pub location: Option<Location>,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Name of the catalog, when known.
    pub catalog: Option<String>,
    /// Name of the tool, for tool-level and field-level findings.
    pub tool: Option<String>,
    /// Dotted location inside the tool, e.g. `input.items[].amount_minor`.
    pub path: Option<String>,
    /// JSON pointer into a JSON input (a linted tools/list).
    pub pointer: Option<String>,
    /// Stable identity for baselines: does not change when unrelated lines move.
    pub fingerprint: String,
    /// The GitHub annotation title; the rule ID when `None`.
    pub title: Option<String>,
    /// SARIF result `properties`.
    pub properties: Option<Value>,
}

impl Record {
    /// The message with its help, for formats that have a single text.
    pub fn text(&self) -> String {
        match &self.help {
            Some(h) => format!("{}\nhelp: {h}", self.message),
            None => self.message.clone(),
        }
    }
}

/// 1-based position of a finding; the end column is exclusive. Columns count characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// As shown everywhere: as given, with `/` separators.
    pub file: String,
    /// Line of the start, 1-based.
    pub line: usize,
    /// Column of the start, 1-based, in characters.
    pub column: usize,
    /// Line of the end, 1-based.
    pub end_line: usize,
    /// Column just past the end, 1-based, in characters.
    pub end_column: usize,
}

impl Location {
    /// The position of `span` (byte offsets) in `f`; an inverted span is read as empty.
    pub fn of(f: &SourceFile, span: crate::syntax::Span) -> Self {
        let (line, column) = f.line_col(span.start);
        let (end_line, end_column) = f.line_col(span.end.max(span.start));
        Location {
            file: file_path(f),
            line,
            column,
            end_line,
            end_column,
        }
    }
}

/// Diagnostics resolved for output, with the fingerprints of [`fingerprints`].
pub fn records(diags: &[Diagnostic], sources: &SourceMap) -> Vec<Record> {
    each_record(diags, sources).collect()
}

/// [`records`] one at a time, in order: the machine formats write each record as it is
/// resolved, so a run with hundreds of thousands of findings never holds them all again as
/// records (and as JSON trees) beside the diagnostics.
pub fn each_record<'a>(
    diags: &'a [Diagnostic],
    sources: &'a SourceMap,
) -> impl Iterator<Item = Record> + 'a {
    let mut seen = Occurrences::default();
    diags.iter().map(move |d| Record {
        rule: d.rule.to_string(),
        level: d.level,
        location: Some(Location::of(sources.get(d.file), d.span)),
        message: d.message.clone(),
        help: d.help.as_deref().map(str::to_string),
        catalog: d.catalog.as_deref().map(str::to_string),
        tool: d.tool.as_deref().map(str::to_string),
        path: d.path.clone(),
        pointer: d.pointer.clone(),
        fingerprint: seen.fingerprint(d, sources),
        title: None,
        properties: None,
    })
}

impl Diagnostic {
    /// A stable identity for baselines and code scanning: sha256 (hex) of rule, catalog,
    /// tool and path — not line numbers, so moving text around keeps it. Without a tool or
    /// path, of rule, file path and message.
    pub fn fingerprint(&self, sources: &SourceMap) -> String {
        hex(&self.fingerprint_digest(sources))
    }

    /// The digest [`Diagnostic::fingerprint`] is the hex of.
    fn fingerprint_digest(&self, sources: &SourceMap) -> [u8; 32] {
        let file = file_path(sources.get(self.file));
        let parts: Vec<&str> = if self.tool.is_some() || self.path.is_some() {
            vec![
                &self.rule,
                self.catalog.as_deref().unwrap_or(""),
                self.tool.as_deref().unwrap_or(""),
                self.path.as_deref().unwrap_or(""),
            ]
        } else {
            vec![&self.rule, &file, &self.message]
        };
        digest(&parts, 0x1f)
    }
}

/// Fingerprints of a list; a fingerprint repeated in the list (two findings of one rule on
/// the same tool) gets its occurrence number mixed in, so every finding is distinct.
pub fn fingerprints(diags: &[Diagnostic], sources: &SourceMap) -> Vec<String> {
    let mut seen = Occurrences::default();
    diags.iter().map(|d| seen.fingerprint(d, sources)).collect()
}

/// How often each fingerprint was given so far, by its digest (32 bytes, not its 64-byte
/// hex): the distinct fingerprints of [`fingerprints`], taken in list order.
#[derive(Default)]
struct Occurrences {
    seen: std::collections::HashMap<[u8; 32], usize>,
}

impl Occurrences {
    /// The fingerprint of `d`, the next one in its list.
    fn fingerprint(&mut self, d: &Diagnostic, sources: &SourceMap) -> String {
        let digest = d.fingerprint_digest(sources);
        let n = self.seen.entry(digest).or_insert(0);
        *n += 1;
        let base = hex(&digest);
        if *n == 1 {
            base
        } else {
            let mut h = Sha256::new();
            h.update(base.as_bytes());
            h.update(format!("#{n}").as_bytes());
            hex(&h.finalize())
        }
    }
}

/// sha256 of the parts, each followed by `separator`: the hash every fingerprint is cut from.
pub fn digest(parts: &[&str], separator: u8) -> [u8; 32] {
    let mut h = Sha256::new();
    for part in parts {
        h.update(part.as_bytes());
        h.update([separator]);
    }
    h.finalize().into()
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    s
}

/// The file path as shown everywhere: as given, with `/` separators.
pub fn file_path(f: &SourceFile) -> String {
    f.path.to_string_lossy().replace('\\', "/")
}

/// Pretty JSON with a final newline: the one layout every JSON output uses.
pub fn write_json<T: serde::Serialize + ?Sized>(out: &mut dyn Write, v: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, v).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// Writes `v` as [`write_json`] lays it out when it sits `depth` containers deep in a larger
/// document (without the final newline): the pieces of a document written as it goes.
pub fn write_nested<T: serde::Serialize + ?Sized>(
    out: &mut dyn Write,
    v: &T,
    depth: usize,
) -> io::Result<()> {
    let mut buf = Vec::new();
    serde_json::to_writer_pretty(&mut buf, v).map_err(io::Error::from)?;
    let indent = " ".repeat(2 * depth);
    // serde_json escapes every newline inside a string, so each one here is a line break.
    for (i, line) in buf.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
            out.write_all(indent.as_bytes())?;
        }
        out.write_all(line)?;
    }
    Ok(())
}

/// Writes the elements of a JSON array that sits `depth` containers deep, as [`write_json`]
/// lays them out, each element written by `write` (through [`write_nested`]) as it comes;
/// `out` has the opening `[` already, and gets the closing `]`.
pub fn write_array_items<T>(
    out: &mut dyn Write,
    items: impl IntoIterator<Item = T>,
    depth: usize,
    mut write: impl FnMut(&mut dyn Write, T) -> io::Result<()>,
) -> io::Result<()> {
    let inner = format!("\n{}", " ".repeat(2 * (depth + 1)));
    let mut any = false;
    for item in items {
        out.write_all(if any { b"," } else { b"" })?;
        out.write_all(inner.as_bytes())?;
        write(out, item)?;
        any = true;
    }
    if any {
        out.write_all(b"\n")?;
        out.write_all(" ".repeat(2 * depth).as_bytes())?;
    }
    out.write_all(b"]")
}

/// Records as JSON Lines: one compact object per line, each line ending in `\n`.
pub fn jsonl(records: &[Value]) -> String {
    let mut out = String::new();
    for r in records {
        out.push_str(&r.to_string());
        out.push('\n');
    }
    out
}

/// [`write_json`] into a string.
pub fn pretty_json(v: &Value) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail, and serde_json emits UTF-8.
    let _ = write_json(&mut out, v);
    String::from_utf8_lossy(&out).into_owned()
}

/// Catalog text made safe to show: control characters (C0 but tab and newline, DEL, C1) and
/// bidirectional formatting characters become visible `\u{1b}` escapes, so a name or doc
/// cannot move the cursor, retitle the terminal or reorder what is shown.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && c != '\t' && c != '\n')
            || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    };
    if !s.contains(unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Records with and without each optional part, and text that JSON must escape.
    pub(super) fn samples() -> Vec<Record> {
        let full = Record {
            rule: "naming/tool-name".into(),
            level: Level::Warn,
            location: Some(Location {
                file: "catalogs/a b.kdl".into(),
                line: 3,
                column: 7,
                end_line: 4,
                end_column: 1,
            }),
            message: "a \"quoted\"\nmessage — ünïcode \u{1b}[31m".into(),
            help: Some("do\tthis\n  then that".into()),
            catalog: Some("billing".into()),
            tool: Some("invoice_get".into()),
            path: Some("input.items[].amount".into()),
            pointer: Some("/tools/0/inputSchema/properties/items".into()),
            fingerprint: "ab".repeat(32),
            title: None,
            properties: Some(json!({ "k": [1, {}, []], "e": {} })),
        };
        let bare = Record {
            rule: "lint/unknown-rule".into(),
            level: Level::Error,
            location: None,
            message: String::new(),
            help: None,
            catalog: None,
            tool: None,
            path: None,
            pointer: None,
            fingerprint: "0".repeat(64),
            title: None,
            properties: None,
        };
        vec![full.clone(), bare, full]
    }

    #[test]
    fn nested_writes_lay_out_as_the_whole_document() {
        let items = [
            json!({ "a": [1, 2, { "b": "x\ny" }], "c": {} }),
            json!([]),
            json!("s"),
        ];
        let whole = json!({ "outer": { "list": items.clone(), "empty": [] } });
        let mut written = Vec::new();
        written.extend_from_slice(b"{\n  \"outer\": {\n    \"list\": [");
        write_array_items(&mut written, &items, 2, |out, v| write_nested(out, v, 3)).unwrap();
        written.extend_from_slice(b",\n    \"empty\": [");
        write_array_items(&mut written, &[] as &[Value], 2, |out, v| {
            write_nested(out, v, 3)
        })
        .unwrap();
        written.extend_from_slice(b"\n  }\n}\n");
        assert_eq!(String::from_utf8(written).unwrap(), pretty_json(&whole));
    }
}
