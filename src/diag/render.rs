//! Rendering diagnostics: human (rustc-like), `json` (the contract of rules.md, schema in
//! docs/lint-output.schema.json), `sarif` 2.1.0 and `github` workflow annotations.
//!
//! Every renderer is a pure function of the diagnostics and the sources, so two runs over
//! the same files print the same bytes. Callers sort diagnostics first
//! ([`crate::project::sort_diagnostics`]).

use super::{Diagnostic, Level, SourceFile, SourceMap};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// Counts printed at the end of every report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub tools: usize,
    pub catalogs: usize,
}

impl Summary {
    pub fn new(diags: &[Diagnostic], tools: usize, catalogs: usize) -> Self {
        let count = |l: Level| diags.iter().filter(|d| d.level == l).count();
        Summary {
            errors: count(Level::Error),
            warnings: count(Level::Warn),
            infos: count(Level::Info),
            tools,
            catalogs,
        }
    }
}

/// What a renderer knows about a rule beyond its ID (SARIF `rules` metadata). The lint
/// module supplies its own table; [`CoreRules`] covers the syntax and model errors.
pub trait RuleMetadata {
    fn rule(&self, id: &str) -> Option<RuleMeta>;
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleMeta {
    pub id: String,
    pub level: Level,
    /// One line.
    pub summary: String,
    /// How to fix it.
    pub help: String,
}

/// Metadata of the diagnostics the loader itself reports (`syntax/…`, `model/…`,
/// `naming/duplicate`).
#[derive(Debug, Clone, Copy, Default)]
pub struct CoreRules;

const CORE_RULES: &[(&str, &str, &str)] = &[
    (
        "model/unknown-node",
        "A node that has no meaning where it is written.",
        "Use one of the nodes listed in the message; check the spelling.",
    ),
    (
        "model/unknown-property",
        "A property that does not apply to this node or field type.",
        "Use one of the properties listed in the message; check the spelling.",
    ),
    (
        "model/wrong-type",
        "A value of the wrong kind (string, number, boolean).",
        "Write the value as the message says, e.g. remove quotes around a number.",
    ),
    (
        "model/missing-argument",
        "A node lacks a required argument.",
        "Add the argument shown in the message.",
    ),
    (
        "model/unexpected-argument",
        "A node has more arguments than it takes.",
        "Remove the extra argument.",
    ),
    (
        "model/missing-property",
        "A node lacks a required property.",
        "Add the property shown in the message.",
    ),
    (
        "model/missing-child",
        "A required child node is missing.",
        "Add the child node shown in the message.",
    ),
    (
        "model/missing-catalog",
        "A catalog file without a `catalog` node.",
        "Start the file with `catalog \"NAME\" version=\"1.0.0\"`.",
    ),
    (
        "model/unexpected-children",
        "A children block on a node that takes none.",
        "Remove the `{ ... }` block.",
    ),
    (
        "model/duplicate-property",
        "The same property twice on one node.",
        "Keep one of them.",
    ),
    (
        "model/duplicate-node",
        "A single-valued child (or the `catalog` node) given twice.",
        "Keep one of them.",
    ),
    (
        "model/out-of-range",
        "An integer outside the range the model holds.",
        "Write a value inside the range given in the message.",
    ),
    (
        "model/number-overflow",
        "A decimal number too large for a 64-bit float (e.g. 1e400).",
        "Write a number of a sensible magnitude.",
    ),
    (
        "model/number-underflow",
        "A non-zero decimal number too small for a 64-bit float (e.g. 1e-400): it would read as 0.",
        "Write 0, or a number of a sensible magnitude.",
    ),
    (
        "model/not-finite",
        "#nan, #inf or #-inf where a number is needed.",
        "Write a finite number.",
    ),
    (
        "model/unknown-keyword",
        "A value outside a fixed set (effect, class, retry, unit, format, kind, digest, strategy).",
        "Use one of the values listed in the message.",
    ),
    (
        "model/type-annotation",
        "A KDL type annotation `(type)`; catalogs use none.",
        "Remove the annotation.",
    ),
    (
        "model/unresolved-type",
        "A field type that is neither a built-in type nor a `type` declared in the file.",
        "Use a built-in type or declare the named type.",
    ),
    (
        "model/recursive-type",
        "A named type that contains itself; schemas inline named types, so it would be infinite.",
        "Break the cycle, e.g. with a reference string field.",
    ),
    (
        "model/too-deep",
        "Fields nested deeper than the lowering follows.",
        "Flatten the structure.",
    ),
    (
        "naming/duplicate",
        "A duplicate tool, type, field, error code or enum value.",
        "Rename or remove one of them.",
    ),
];

impl RuleMetadata for CoreRules {
    fn rule(&self, id: &str) -> Option<RuleMeta> {
        if let Some((id, summary, help)) = CORE_RULES.iter().find(|(r, _, _)| *r == id) {
            return Some(RuleMeta {
                id: id.to_string(),
                level: Level::Error,
                summary: summary.to_string(),
                help: help.to_string(),
            });
        }
        id.starts_with("syntax/").then(|| RuleMeta {
            id: id.to_string(),
            level: Level::Error,
            summary: "The file is not valid KDL v2.".to_string(),
            help: "Fix the syntax as the message says.".to_string(),
        })
    }
}

impl Diagnostic {
    /// A stable identity for baselines and code scanning: sha256 (hex) of rule, catalog,
    /// tool and path — not line numbers, so moving text around keeps it. Without a tool or
    /// path, of rule, file path and message.
    pub fn fingerprint(&self, sources: &SourceMap) -> String {
        let mut h = Sha256::new();
        let mut part = |s: &str| {
            h.update(s.as_bytes());
            h.update([0x1f]);
        };
        part(&self.rule);
        if self.tool.is_some() || self.path.is_some() {
            part(self.catalog.as_deref().unwrap_or(""));
            part(self.tool.as_deref().unwrap_or(""));
            part(self.path.as_deref().unwrap_or(""));
        } else {
            part(&file_path(sources.get(self.file)));
            part(&self.message);
        }
        hex(&h.finalize())
    }
}

/// Fingerprints of a list; a fingerprint repeated in the list (two findings of one rule on
/// the same tool) gets its occurrence number mixed in, so every finding is distinct.
pub fn fingerprints(diags: &[Diagnostic], sources: &SourceMap) -> Vec<String> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    diags
        .iter()
        .map(|d| {
            let base = d.fingerprint(sources);
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                base
            } else {
                let mut h = Sha256::new();
                h.update(base.as_bytes());
                h.update(format!("#{n}").as_bytes());
                hex(&h.finalize())
            }
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The file path as shown everywhere: as given, with `/` separators.
fn file_path(f: &SourceFile) -> String {
    f.path.to_string_lossy().replace('\\', "/")
}

/// 1-based (line, column, end_line, end_column); the end column is exclusive.
fn region(d: &Diagnostic, sources: &SourceMap) -> (usize, usize, usize, usize) {
    let f = sources.get(d.file);
    let (l, c) = f.line_col(d.span.start);
    let (el, ec) = f.line_col(d.span.end.max(d.span.start));
    (l, c, el, ec)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

// ---- human ----

struct Style {
    on: bool,
}

impl Style {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn level_code(level: Level) -> &'static str {
        match level {
            Level::Error => "1;31",
            Level::Warn => "1;33",
            Level::Info => "1;36",
        }
    }
}

/// Tabs expanded so the caret lines up under them.
fn expand_tabs(s: &str) -> String {
    s.replace('\t', "    ")
}

/// rustc-like text: one header per file, each finding with its location, source line, caret
/// and help, then a summary line.
pub fn render_human(
    diags: &[Diagnostic],
    sources: &SourceMap,
    summary: &Summary,
    color: bool,
) -> String {
    let st = Style { on: color };
    let mut out = String::new();
    let mut i = 0;
    while i < diags.len() {
        let file = diags[i].file;
        let end = diags[i..]
            .iter()
            .position(|d| d.file != file)
            .map_or(diags.len(), |p| i + p);
        let group = &diags[i..end];
        let f = sources.get(file);
        let s = Summary::new(group, 0, 0);
        let mut counts = Vec::new();
        if s.errors > 0 {
            counts.push(plural(s.errors, "error"));
        }
        if s.warnings > 0 {
            counts.push(plural(s.warnings, "warning"));
        }
        if s.infos > 0 {
            counts.push(plural(s.infos, "info"));
        }
        let _ = writeln!(
            out,
            "{}",
            st.paint("1", &format!("{}: {}", file_path(f), counts.join(", ")))
        );
        out.push('\n');
        let width = group
            .iter()
            .map(|d| region(d, sources).0.to_string().len())
            .max()
            .unwrap_or(1);
        for d in group {
            render_one(&mut out, d, f, sources, width, &st);
        }
        i = end;
    }
    let line = format!(
        "{}, {}, {} in {}, {}",
        plural(summary.errors, "error"),
        plural(summary.warnings, "warning"),
        plural(summary.infos, "info"),
        plural(summary.catalogs, "catalog"),
        plural(summary.tools, "tool"),
    );
    let head = if summary.errors > 0 {
        st.paint(Style::level_code(Level::Error), "error")
    } else if summary.warnings > 0 {
        st.paint(Style::level_code(Level::Warn), "warning")
    } else {
        st.paint("1;32", "ok")
    };
    let _ = writeln!(out, "{head}: {line}");
    out
}

fn render_one(
    out: &mut String,
    d: &Diagnostic,
    f: &SourceFile,
    sources: &SourceMap,
    width: usize,
    st: &Style,
) {
    let (line, col, end_line, end_col) = region(d, sources);
    let lc = Style::level_code(d.level);
    let level = match d.level {
        Level::Error => "error",
        Level::Warn => "warning",
        Level::Info => "info",
    };
    let _ = writeln!(
        out,
        "{}{} {}",
        st.paint(lc, &format!("{level}[{}]", d.rule)),
        st.paint("1", ":"),
        st.paint("1", &d.message)
    );
    let pad = " ".repeat(width);
    let gutter = |s: &str| st.paint("1;34", s);
    let _ = writeln!(out, "{pad}{} {}:{line}:{col}", gutter("-->"), file_path(f));
    let text = f.line_text(line);
    let _ = writeln!(out, "{pad} {}", gutter("|"));
    let _ = writeln!(
        out,
        "{} {} {}",
        gutter(&format!("{line:>width$}")),
        gutter("|"),
        expand_tabs(text)
    );
    // Columns count characters; the caret starts under the first character of the span
    // and runs to its end (or the end of the line for a span over several lines).
    let chars: Vec<char> = text.chars().collect();
    let start = col.saturating_sub(1).min(chars.len());
    let stop = if end_line == line {
        end_col.saturating_sub(1).min(chars.len())
    } else {
        chars.len()
    };
    let lead: String = chars[..start].iter().collect();
    let under: String = chars[start..stop.max(start)].iter().collect();
    let lead_w = expand_tabs(&lead).chars().count();
    let under_w = expand_tabs(&under).chars().count().max(1);
    let _ = writeln!(
        out,
        "{pad} {} {}{}",
        gutter("|"),
        " ".repeat(lead_w),
        st.paint(lc, &"^".repeat(under_w))
    );
    let mut context = Vec::new();
    if let Some(t) = &d.tool {
        context.push(format!("tool `{t}`"));
    }
    if let Some(p) = &d.path {
        context.push(format!("`{p}`"));
    }
    if !context.is_empty() {
        let _ = writeln!(
            out,
            "{pad} {} {}: {}",
            gutter("="),
            st.paint("1", "in"),
            context.join(", ")
        );
    }
    if let Some(h) = &d.help {
        let _ = writeln!(out, "{pad} {} {}: {h}", gutter("="), st.paint("1", "help"));
    }
    out.push('\n');
}

// ---- json ----

/// The `--format json` object of rules.md ("Machine-readable output").
pub fn to_json(diags: &[Diagnostic], sources: &SourceMap, summary: &Summary) -> Value {
    let fps = fingerprints(diags, sources);
    let list: Vec<Value> = diags
        .iter()
        .zip(fps)
        .map(|(d, fp)| {
            let (line, column, end_line, end_column) = region(d, sources);
            let mut m = Map::new();
            m.insert("rule".into(), json!(d.rule));
            m.insert("level".into(), json!(d.level.as_str()));
            m.insert("file".into(), json!(file_path(sources.get(d.file))));
            m.insert("line".into(), json!(line));
            m.insert("column".into(), json!(column));
            m.insert("end_line".into(), json!(end_line));
            m.insert("end_column".into(), json!(end_column));
            if let Some(c) = &d.catalog {
                m.insert("catalog".into(), json!(c));
            }
            if let Some(t) = &d.tool {
                m.insert("tool".into(), json!(t));
            }
            if let Some(p) = &d.path {
                m.insert("path".into(), json!(p));
            }
            m.insert("message".into(), json!(d.message));
            if let Some(h) = &d.help {
                m.insert("help".into(), json!(h));
            }
            m.insert("fingerprint".into(), json!(fp));
            Value::Object(m)
        })
        .collect();
    json!({
        "diagnostics": list,
        "summary": {
            "errors": summary.errors,
            "warnings": summary.warnings,
            "infos": summary.infos,
            "tools": summary.tools,
            "catalogs": summary.catalogs,
        }
    })
}

pub fn render_json(diags: &[Diagnostic], sources: &SourceMap, summary: &Summary) -> String {
    pretty(&to_json(diags, sources, summary))
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string());
    s.push('\n');
    s
}

// ---- sarif ----

fn sarif_level(l: Level) -> &'static str {
    match l {
        Level::Error => "error",
        Level::Warn => "warning",
        Level::Info => "note",
    }
}

/// SARIF 2.1.0, one run; `rules` lists every rule that has a result, sorted by ID.
pub fn to_sarif(diags: &[Diagnostic], sources: &SourceMap, rules: &dyn RuleMetadata) -> Value {
    let mut ids: Vec<&str> = diags.iter().map(|d| d.rule.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let rule_objs: Vec<Value> = ids
        .iter()
        .map(|id| {
            let meta = rules.rule(id).or_else(|| CoreRules.rule(id));
            let mut r = Map::new();
            r.insert("id".into(), json!(id));
            if let Some(m) = meta {
                r.insert("shortDescription".into(), json!({ "text": m.summary }));
                r.insert("help".into(), json!({ "text": m.help }));
                r.insert(
                    "defaultConfiguration".into(),
                    json!({ "level": sarif_level(m.level) }),
                );
            } else {
                r.insert("shortDescription".into(), json!({ "text": id }));
            }
            Value::Object(r)
        })
        .collect();
    let fps = fingerprints(diags, sources);
    let results: Vec<Value> = diags
        .iter()
        .zip(fps)
        .map(|(d, fp)| {
            let (line, column, end_line, end_column) = region(d, sources);
            let index = ids.iter().position(|i| *i == d.rule).unwrap_or(0);
            let text = match &d.help {
                Some(h) => format!("{}\nhelp: {h}", d.message),
                None => d.message.clone(),
            };
            json!({
                "ruleId": d.rule,
                "ruleIndex": index,
                "level": sarif_level(d.level),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": file_path(sources.get(d.file)) },
                        "region": {
                            "startLine": line,
                            "startColumn": column,
                            "endLine": end_line,
                            "endColumn": end_column,
                        }
                    }
                }],
                "partialFingerprints": { "catalogc/v1": fp },
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "catalogc",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rule_objs,
                }
            },
            // Columns count characters, as in every other output.
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

pub fn render_sarif(diags: &[Diagnostic], sources: &SourceMap, rules: &dyn RuleMetadata) -> String {
    pretty(&to_sarif(diags, sources, rules))
}

// ---- github ----

/// Workflow-command escaping of the message part.
fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Workflow-command escaping of a property value.
fn gh_prop(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=RULE::message` line per
/// finding (`::warning`, `::notice` for the lower levels).
pub fn render_github(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = String::new();
    for d in diags {
        let (line, col, end_line, end_col) = region(d, sources);
        let cmd = match d.level {
            Level::Error => "error",
            Level::Warn => "warning",
            Level::Info => "notice",
        };
        let msg = match &d.help {
            Some(h) => format!("{}\nhelp: {h}", d.message),
            None => d.message.clone(),
        };
        let _ = writeln!(
            out,
            "::{cmd} file={},line={line},col={col},endLine={end_line},endColumn={end_col},title={}::{}",
            gh_prop(&file_path(sources.get(d.file))),
            gh_prop(&d.rule),
            gh_data(&msg)
        );
    }
    out
}
