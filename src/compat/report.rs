//! Output formats for a [`Report`]: human, `json` (docs/compatibility.md's shape, a contract), `sarif`,
//! `github` workflow annotations and `markdown` (a table for a pull-request comment).

use super::version::VERSION_RULES;
use super::{
    CatalogReport, Change, Class, Kind, Loc, Policy, Report, ToolReport, Versioned, fingerprint,
};
use crate::diag::SourceMap;
use serde_json::{Value, json};
use std::fmt::Write;

/// The sources of both sides: locations of the old side point into `old`.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    pub old: &'a SourceMap,
    pub new: &'a SourceMap,
}

/// A resolved location: file as shown to the user, 1-based line and column.
struct Pos {
    file: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    text: String,
}

impl Sources<'_> {
    fn pos(&self, loc: Loc, old: bool) -> Option<Pos> {
        let map = if old { self.old } else { self.new };
        let f = map.files.get(loc.file.0)?;
        let (line, column) = f.line_col(loc.span.start);
        let (end_line, end_column) = f.line_col(loc.span.end);
        Some(Pos {
            file: f.path.display().to_string().replace('\\', "/"),
            line,
            column,
            end_line,
            end_column,
            text: f.line_text(line).to_string(),
        })
    }

    /// Where a change is reported in single-location formats: the new side when it exists.
    fn primary(&self, ch: &Change) -> Option<Pos> {
        match (ch.new, ch.old) {
            (Some(n), _) => self.pos(n, false),
            (None, Some(o)) => self.pos(o, true),
            (None, None) => None,
        }
    }

    fn version_pos(&self, v: &Versioned, old: bool) -> Option<Pos> {
        self.pos(v.loc, old)
    }
}

fn required(r: Option<Class>) -> &'static str {
    r.map_or("none", Class::as_str)
}

fn version_str(v: &Option<Versioned>) -> Value {
    v.as_ref()
        .map_or(Value::Null, |v| Value::String(v.value.clone()))
}

/// One failure besides the classified changes: a rejected version, or a major change under
/// `--policy no-major`.
struct Failure<'a> {
    rule: &'a str,
    tool: Option<&'a str>,
    message: String,
    pos: Option<Pos>,
}

fn failures<'a>(report: &'a Report, sources: Sources<'_>, policy: Policy) -> Vec<Failure<'a>> {
    let mut out = Vec::new();
    for c in &report.catalogs {
        for p in &c.verdict.problems {
            out.push(Failure {
                rule: p.rule,
                tool: None,
                message: format!("catalog `{}`: {}", c.name, p.message),
                pos: c
                    .new_version
                    .as_ref()
                    .and_then(|v| sources.version_pos(v, false)),
            });
        }
        for t in &c.tools {
            for p in &t.verdict.problems {
                out.push(Failure {
                    rule: p.rule,
                    tool: Some(&t.name),
                    message: format!("tool `{}`: {}", t.name, p.message),
                    pos: t
                        .new_version
                        .as_ref()
                        .and_then(|v| sources.version_pos(v, false)),
                });
            }
            if policy == Policy::NoMajor {
                for ch in t.changes.iter().filter(|ch| ch.class() == Class::Major) {
                    out.push(Failure {
                        rule: "compat/policy-no-major",
                        tool: Some(&t.name),
                        message: format!(
                            "tool `{}`: major change under --policy no-major ({}): ship a new tool name side by side instead",
                            t.name,
                            ch.kind.id()
                        ),
                        pos: sources.primary(ch),
                    });
                }
            }
        }
    }
    out
}

/// The human report: one block per changed tool, every change with both sides' locations.
pub fn render_human(report: &Report, sources: Sources<'_>, policy: Policy) -> String {
    let mut s = String::new();
    let loc_line = |s: &mut String, label: &str, p: Option<Pos>| {
        if let Some(p) = p {
            let _ = writeln!(s, "      {label} {}:{}:{}", p.file, p.line, p.column);
            let _ = writeln!(s, "          | {}", p.text.trim_end());
        }
    };
    for c in &report.catalogs {
        let _ = writeln!(
            s,
            "catalog {} {} → {}: required {}{}",
            c.name,
            c.old_version.as_ref().map_or("(new)", |v| &v.value),
            c.new_version.as_ref().map_or("(removed)", |v| &v.value),
            required(c.verdict.required),
            if c.verdict.ok() {
                ""
            } else {
                " — version too low"
            },
        );
        for p in &c.verdict.problems {
            let _ = writeln!(s, "  error[{}]: {}", p.rule, p.message);
            loc_line(
                &mut s,
                "-->",
                c.new_version
                    .as_ref()
                    .and_then(|v| sources.version_pos(v, false)),
            );
        }
        for t in c
            .tools
            .iter()
            .filter(|t| !t.changes.is_empty() || !t.verdict.ok())
        {
            let _ = writeln!(
                s,
                "  tool {} ({}) {} → {}: required {}{}",
                t.name,
                t.status.as_str(),
                t.old_version.as_ref().map_or("-", |v| &v.value),
                t.new_version.as_ref().map_or("-", |v| &v.value),
                required(t.verdict.required),
                t.verdict
                    .suggested
                    .as_ref()
                    .map(|v| format!(", suggested {v}"))
                    .unwrap_or_default(),
            );
            for ch in &t.changes {
                let _ = writeln!(
                    s,
                    "    {:<5} {}: {}",
                    ch.class().as_str(),
                    ch.kind.id(),
                    ch.message
                );
                loc_line(&mut s, "old", ch.old.and_then(|l| sources.pos(l, true)));
                loc_line(&mut s, "new", ch.new.and_then(|l| sources.pos(l, false)));
            }
            for p in &t.verdict.problems {
                let _ = writeln!(s, "    error[{}]: {}", p.rule, p.message);
                loc_line(
                    &mut s,
                    "-->",
                    t.new_version
                        .as_ref()
                        .and_then(|v| sources.version_pos(v, false)),
                );
            }
            if policy == Policy::NoMajor && t.changes.iter().any(|c| c.class() == Class::Major) {
                let _ = writeln!(
                    s,
                    "    error[compat/policy-no-major]: major change under --policy no-major: ship a new tool name side by side instead"
                );
            }
        }
    }
    let changes = report.changes().count();
    let fails = failures(report, sources, policy).len();
    let tools: usize = report
        .catalogs
        .iter()
        .map(|c| c.tools.iter().filter(|t| !t.changes.is_empty()).count())
        .sum();
    let _ = writeln!(
        s,
        "{changes} change(s) in {tools} tool(s); {}",
        if fails == 0 {
            "compatible with the declared versions".to_string()
        } else {
            format!("{fails} error(s)")
        }
    );
    s
}

fn change_json(t: &ToolReport, ch: &Change, sources: Sources<'_>) -> Value {
    let pos = sources.primary(ch);
    json!({
        "rule": ch.kind.id(),
        "class": ch.class().as_str(),
        "path": ch.path,
        "message": ch.message,
        "file": pos.as_ref().map(|p| p.file.clone()),
        "line": pos.as_ref().map(|p| p.line),
        "column": pos.as_ref().map(|p| p.column),
        "fingerprint": fingerprint(ch.kind.id(), &t.name, &ch.path),
    })
}

fn tool_json(t: &ToolReport, sources: Sources<'_>) -> Value {
    json!({
        "name": t.name,
        "status": t.status.as_str(),
        "old_version": version_str(&t.old_version),
        "new_version": version_str(&t.new_version),
        "required": required(t.verdict.required),
        "suggested_version": t.verdict.suggested,
        "ok": t.verdict.ok(),
        "changes": t.changes.iter().map(|ch| change_json(t, ch, sources)).collect::<Vec<_>>(),
    })
}

fn catalog_json(c: &CatalogReport, sources: Sources<'_>) -> Value {
    json!({
        "name": c.name,
        "old_version": version_str(&c.old_version),
        "new_version": version_str(&c.new_version),
        "required": required(c.verdict.required),
        "ok": c.verdict.ok(),
        "tools": c.tools.iter().map(|t| tool_json(t, sources)).collect::<Vec<_>>(),
    })
}

/// docs/compatibility.md's machine-readable shape.
pub fn to_json(report: &Report, sources: Sources<'_>) -> Value {
    json!({ "catalogs": report.catalogs.iter().map(|c| catalog_json(c, sources)).collect::<Vec<_>>() })
}

pub fn render_json(report: &Report, sources: Sources<'_>) -> String {
    let mut s = serde_json::to_string_pretty(&to_json(report, sources)).unwrap_or_default();
    s.push('\n');
    s
}

fn sarif_location(p: &Pos) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": { "uri": p.file },
            "region": {
                "startLine": p.line, "startColumn": p.column,
                "endLine": p.end_line, "endColumn": p.end_column,
            }
        }
    })
}

/// SARIF 2.1.0: every change as a `note` (patch/minor) or `warning` (major), every version
/// or policy failure as an `error`.
pub fn to_sarif(report: &Report, sources: Sources<'_>, policy: Policy) -> Value {
    let mut rules: Vec<Value> = Kind::ALL
        .iter()
        .map(|k| {
            json!({
                "id": k.id(),
                "shortDescription": { "text": k.title() },
                "fullDescription": { "text": k.doc() },
                "properties": { "class": k.class().as_str() },
            })
        })
        .collect();
    let extra = VERSION_RULES.iter().copied().chain([(
        "compat/policy-no-major",
        "a major change while --policy no-major is in force",
    )]);
    rules.extend(extra.map(|(id, text)| json!({ "id": id, "shortDescription": { "text": text } })));
    let mut results = Vec::new();
    for (_, t, ch) in report.changes() {
        let level = if ch.class() == Class::Major {
            "warning"
        } else {
            "note"
        };
        let fp = fingerprint(ch.kind.id(), &t.name, &ch.path);
        let locations: Vec<Value> = sources.primary(ch).iter().map(sarif_location).collect();
        results.push(json!({
            "ruleId": ch.kind.id(),
            "level": level,
            "message": { "text": format!("{}: {}", t.name, ch.message) },
            "locations": locations,
            "partialFingerprints": { "catalogc/v1": fp },
            "properties": { "class": ch.class().as_str(), "tool": t.name, "path": ch.path },
        }));
    }
    for f in failures(report, sources, policy) {
        let fp = fingerprint(f.rule, f.tool.unwrap_or(""), "version");
        let locations: Vec<Value> = f.pos.iter().map(sarif_location).collect();
        results.push(json!({
            "ruleId": f.rule,
            "level": "error",
            "message": { "text": f.message },
            "locations": locations,
            "partialFingerprints": { "catalogc/v1": fp },
        }));
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "catalogc",
                "informationUri": "https://github.com/catalogc/catalogc",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }]
    })
}

pub fn render_sarif(report: &Report, sources: Sources<'_>, policy: Policy) -> String {
    let mut s =
        serde_json::to_string_pretty(&to_sarif(report, sources, policy)).unwrap_or_default();
    s.push('\n');
    s
}

/// GitHub workflow commands escape `%`, CR and LF in messages, and also `:` and `,` in
/// properties.
fn gh_escape(s: &str, property: bool) -> String {
    let mut out = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    if property {
        out = out.replace(':', "%3A").replace(',', "%2C");
    }
    out
}

fn gh_line(level: &str, pos: Option<&Pos>, title: &str, message: &str) -> String {
    let mut props = Vec::new();
    if let Some(p) = pos {
        props.push(format!("file={}", gh_escape(&p.file, true)));
        props.push(format!("line={}", p.line));
        props.push(format!("col={}", p.column));
    }
    props.push(format!("title={}", gh_escape(title, true)));
    format!(
        "::{level} {}::{}\n",
        props.join(","),
        gh_escape(message, false)
    )
}

/// GitHub annotations: `warning` for major changes, `notice` for the others, `error` for every
/// failure.
pub fn render_github(report: &Report, sources: Sources<'_>, policy: Policy) -> String {
    let mut s = String::new();
    for (_, t, ch) in report.changes() {
        let level = if ch.class() == Class::Major {
            "warning"
        } else {
            "notice"
        };
        let pos = sources.primary(ch);
        let title = format!("{} ({})", ch.kind.id(), ch.class().as_str());
        s.push_str(&gh_line(
            level,
            pos.as_ref(),
            &title,
            &format!("{}: {}", t.name, ch.message),
        ));
    }
    for f in failures(report, sources, policy) {
        s.push_str(&gh_line("error", f.pos.as_ref(), f.rule, &f.message));
    }
    s
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// A summary table (one row per added, removed or changed tool) and the list of changes, for
/// a pull-request comment.
pub fn render_markdown(report: &Report, sources: Sources<'_>, policy: Policy) -> String {
    let mut s = String::from("## catalogc breaking\n\n");
    let fails = failures(report, sources, policy);
    if report.changes().next().is_none() && fails.is_empty() {
        s.push_str("No contract changes.\n");
        return s;
    }
    s.push_str("| catalog | tool | status | old | new | required | suggested | ok |\n");
    s.push_str("|---|---|---|---|---|---|---|---|\n");
    for c in &report.catalogs {
        let v = |x: &Option<Versioned>| {
            x.as_ref()
                .map_or("—".to_string(), |v| format!("`{}`", v.value))
        };
        let ok = |b: bool| if b { "✅" } else { "❌" };
        let _ = writeln!(
            s,
            "| **{}** | *(catalog)* | | {} | {} | {} | | {} |",
            md_cell(&c.name),
            v(&c.old_version),
            v(&c.new_version),
            required(c.verdict.required),
            ok(c.verdict.ok())
        );
        for t in c
            .tools
            .iter()
            .filter(|t| t.status != super::Status::Unchanged)
        {
            let _ = writeln!(
                s,
                "| {} | `{}` | {} | {} | {} | {} | {} | {} |",
                md_cell(&c.name),
                md_cell(&t.name),
                t.status.as_str(),
                v(&t.old_version),
                v(&t.new_version),
                required(t.verdict.required),
                t.verdict
                    .suggested
                    .as_ref()
                    .map_or(String::new(), |v| format!("`{v}`")),
                ok(t.verdict.ok())
            );
        }
    }
    s.push_str("\n| tool | class | rule | path | change |\n|---|---|---|---|---|\n");
    for (_, t, ch) in report.changes() {
        let _ = writeln!(
            s,
            "| `{}` | {} | `{}` | `{}` | {} |",
            md_cell(&t.name),
            ch.class().as_str(),
            ch.kind.id(),
            md_cell(&ch.path),
            md_cell(&ch.message)
        );
    }
    if !fails.is_empty() {
        s.push_str("\n**Errors**\n\n");
        for f in &fails {
            let _ = writeln!(s, "- `{}`: {}", f.rule, md_cell(&f.message));
        }
    }
    s
}
