//! Output formats for a [`Report`]: human, `json` (docs/compatibility.md's shape, a contract), `sarif`,
//! `github` workflow annotations and `markdown` (a table for a pull-request comment).

use super::decide::ACCEPT_STALE;
use super::kinds::CompatRules;
use super::{
    CatalogReport, Change, Class, Loc, Policy, Report, ToolReport, Versioned, fingerprint,
};
use crate::contract::markdown::code;
use crate::diag::emit::{self, Location, Record, github, human, sarif};
use crate::diag::{Level, SourceFile, SourceMap};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::{self, Write};

/// The sources of both sides: locations of the old side point into `old`.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    /// The old side's files.
    pub old: &'a SourceMap,
    /// The new side's files.
    pub new: &'a SourceMap,
}

impl Sources<'_> {
    fn file(&self, loc: Loc, old: bool) -> Option<&SourceFile> {
        let map = if old { self.old } else { self.new };
        map.files.get(loc.file.0)
    }

    fn pos(&self, loc: Loc, old: bool) -> Option<Location> {
        self.file(loc, old).map(|f| Location::of(f, loc.span))
    }

    /// Where a change is reported in single-location formats: the new side when it exists.
    fn primary(&self, ch: &Change) -> Option<Location> {
        match (ch.new, ch.old) {
            (Some(n), _) => self.pos(n, false),
            (None, Some(o)) => self.pos(o, true),
            (None, None) => None,
        }
    }

    fn version_pos(&self, v: &Versioned, old: bool) -> Option<Location> {
        self.pos(v.loc, old)
    }

    /// `LABEL file:line:col` and the source line, when the location resolves.
    fn write_location(
        &self,
        out: &mut dyn Write,
        label: &str,
        loc: Option<Loc>,
        old: bool,
    ) -> io::Result<()> {
        match loc.and_then(|l| Some((self.file(l, old)?, l.span))) {
            Some((f, span)) => human::write_location(out, label, f, span),
            None => Ok(()),
        }
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
    pos: Option<Location>,
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
                for ch in t.changes.iter().filter(|ch| counted_major(ch)) {
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

/// A major change `--policy no-major` refuses: not accepted, not of a beta tool.
fn counted_major(ch: &Change) -> bool {
    ch.class() == Class::Major && !ch.standing.exempt_from_no_major()
}

/// The `accept` entries that matched nothing, each as one message.
fn stale(report: &Report) -> impl Iterator<Item = (&super::Accept, String)> {
    report.stale.iter().filter_map(|&i| {
        let a = report.accepts.get(i)?;
        let mut what = format!("tool `{}`", a.tool);
        if let Some(k) = a.kind {
            what.push_str(&format!(", kind `{}`", k.id()));
        }
        if let Some(p) = &a.path {
            what.push_str(&format!(", path `{p}`"));
        }
        if let Some(v) = &a.version {
            what.push_str(&format!(", version {v}"));
        }
        Some((
            a,
            format!("`accept` ({what}) matches no change: remove it from catalogc.kdl"),
        ))
    })
}

/// The human report: one block per changed tool, every change with both sides' locations.
pub fn write_human(
    out: &mut dyn Write,
    report: &Report,
    sources: Sources<'_>,
    policy: Policy,
) -> io::Result<()> {
    let out: &mut dyn Write = &mut human::Escaping(out);
    for c in &report.catalogs {
        writeln!(
            out,
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
        )?;
        for p in &c.verdict.problems {
            writeln!(out, "  error[{}]: {}", p.rule, p.message)?;
            let loc = c.new_version.as_ref().map(|v| v.loc);
            sources.write_location(out, "-->", loc, false)?;
        }
        for t in c
            .tools
            .iter()
            .filter(|t| !t.changes.is_empty() || !t.verdict.ok())
        {
            writeln!(
                out,
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
            )?;
            for ch in &t.changes {
                writeln!(
                    out,
                    "    {:<5} {}: {}{}",
                    ch.class().as_str(),
                    ch.kind.id(),
                    ch.message,
                    super::changelog::note(report, ch)
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default()
                )?;
                sources.write_location(out, "old", ch.old, true)?;
                sources.write_location(out, "new", ch.new, false)?;
            }
            for p in &t.verdict.problems {
                writeln!(out, "    error[{}]: {}", p.rule, p.message)?;
                let loc = t.new_version.as_ref().map(|v| v.loc);
                sources.write_location(out, "-->", loc, false)?;
            }
            if policy == Policy::NoMajor && t.changes.iter().any(counted_major) {
                writeln!(
                    out,
                    "    error[compat/policy-no-major]: major change under --policy no-major: ship a new tool name side by side instead"
                )?;
            }
        }
    }
    for (a, message) in stale(report) {
        writeln!(out, "warning[{}]: {message}", ACCEPT_STALE.0)?;
        sources.write_location(out, "-->", a.loc, false)?;
    }
    let changes = report.changes().count();
    let fails = failures(report, sources, policy).len();
    let tools: usize = report
        .catalogs
        .iter()
        .map(|c| c.tools.iter().filter(|t| !t.changes.is_empty()).count())
        .sum();
    writeln!(
        out,
        "{changes} change(s) in {tools} tool(s); {}",
        if fails == 0 {
            "compatible with the declared versions".to_string()
        } else {
            format!("{fails} error(s)")
        }
    )
}

fn change_json(report: &Report, t: &ToolReport, ch: &Change, sources: Sources<'_>) -> Value {
    let pos = sources.primary(ch);
    let mut v = super::changelog::change_json(report, ch);
    if let Value::Object(m) = &mut v {
        m.insert("file".into(), json!(pos.as_ref().map(|p| p.file.clone())));
        m.insert("line".into(), json!(pos.as_ref().map(|p| p.line)));
        m.insert("column".into(), json!(pos.as_ref().map(|p| p.column)));
        m.insert(
            "fingerprint".into(),
            json!(fingerprint(ch.kind.id(), &t.name, &ch.path)),
        );
    }
    v
}

fn tool_json(report: &Report, t: &ToolReport, sources: Sources<'_>) -> Value {
    json!({
        "name": t.name,
        "status": t.status.as_str(),
        "old_version": version_str(&t.old_version),
        "new_version": version_str(&t.new_version),
        "required": required(t.verdict.required),
        "suggested_version": t.verdict.suggested,
        "ok": t.verdict.ok(),
        "changes": t.changes.iter().map(|ch| change_json(report, t, ch, sources)).collect::<Vec<_>>(),
    })
}

fn catalog_json(report: &Report, c: &CatalogReport, sources: Sources<'_>) -> Value {
    json!({
        "name": c.name,
        "old_version": version_str(&c.old_version),
        "new_version": version_str(&c.new_version),
        "required": required(c.verdict.required),
        "ok": c.verdict.ok(),
        "tools": c.tools.iter().map(|t| tool_json(report, t, sources)).collect::<Vec<_>>(),
    })
}

/// docs/compatibility.md's machine-readable shape.
pub fn to_json(report: &Report, sources: Sources<'_>) -> Value {
    let stale: Vec<Value> = stale(report)
        .map(|(a, message)| {
            let pos = a.loc.and_then(|l| sources.pos(l, false));
            json!({
                "rule": ACCEPT_STALE.0,
                "tool": a.tool,
                "kind": a.kind.map(|k| k.id()),
                "path": a.path,
                "version": a.version,
                "message": message,
                "file": pos.as_ref().map(|p| p.file.clone()),
                "line": pos.as_ref().map(|p| p.line),
                "column": pos.as_ref().map(|p| p.column),
            })
        })
        .collect();
    json!({
        "category": report.category.as_str(),
        "catalogs": report.catalogs.iter().map(|c| catalog_json(report, c, sources)).collect::<Vec<_>>(),
        "stale_accepts": stale,
    })
}

/// Writes the report as one pretty-printed JSON document (see [`to_json`]), newline-terminated.
pub fn write_json(out: &mut dyn Write, report: &Report, sources: Sources<'_>) -> io::Result<()> {
    emit::write_json(out, &to_json(report, sources))
}

/// Every change and failure as a finding for the shared emitters: a change is a `warning`
/// (major) or an `info` (patch, minor) titled with its class, a version or policy failure an
/// `error`.
pub fn records(report: &Report, sources: Sources<'_>, policy: Policy) -> Vec<Record> {
    let mut out = Vec::new();
    for (_, t, ch) in report.changes() {
        let class = ch.class().as_str();
        let note = super::changelog::note(report, ch)
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        out.push(Record {
            rule: ch.kind.id().to_string(),
            level: if counted_major(ch) {
                Level::Warn
            } else {
                Level::Info
            },
            location: sources.primary(ch),
            message: format!("{}: {}{note}", t.name, ch.message),
            help: None,
            catalog: None,
            tool: Some(t.name.clone()),
            path: Some(ch.path.clone()),
            pointer: None,
            fingerprint: fingerprint(ch.kind.id(), &t.name, &ch.path),
            title: Some(format!("{} ({class})", ch.kind.id())),
            properties: Some(
                json!({ "class": class, "standing": ch.standing.as_str(), "tool": t.name, "path": ch.path }),
            ),
        });
    }
    for (a, message) in stale(report) {
        out.push(Record {
            rule: ACCEPT_STALE.0.to_string(),
            level: Level::Warn,
            location: a.loc.and_then(|l| sources.pos(l, false)),
            message,
            help: None,
            catalog: None,
            tool: Some(a.tool.clone()),
            path: a.path.clone(),
            pointer: None,
            fingerprint: fingerprint(ACCEPT_STALE.0, &a.tool, a.path.as_deref().unwrap_or("")),
            title: None,
            properties: None,
        });
    }
    for f in failures(report, sources, policy) {
        out.push(Record {
            rule: f.rule.to_string(),
            level: Level::Error,
            location: f.pos,
            message: f.message,
            help: None,
            catalog: None,
            tool: f.tool.map(str::to_string),
            path: None,
            pointer: None,
            fingerprint: fingerprint(f.rule, f.tool.unwrap_or(""), "version"),
            title: None,
            properties: None,
        });
    }
    out
}

/// SARIF 2.1.0 listing every change kind and version check.
pub fn to_sarif(report: &Report, sources: Sources<'_>, policy: Policy) -> Value {
    sarif::to_sarif(
        &records(report, sources, policy),
        &CompatRules::all(),
        sarif::Shape::COMPAT,
    )
}

/// GitHub annotations: `warning` for major changes, `notice` for the others, `error` for every
/// failure.
pub fn write_github(
    out: &mut dyn Write,
    report: &Report,
    sources: Sources<'_>,
    policy: Policy,
) -> io::Result<()> {
    github::write(out, records(report, sources, policy), false)
}

/// A summary table (one row per added, removed or changed tool) and the list of changes, for
/// a pull-request comment. Every catalog text goes through the Markdown helpers the docs use
/// ([`crate::contract::markdown`]): names, and the messages that quote them, in code spans
/// that outgrow any backticks inside, so no name can end its span or cell and render as
/// markup, a link or a mention.
pub fn write_markdown(
    out: &mut dyn Write,
    report: &Report,
    sources: Sources<'_>,
    policy: Policy,
) -> io::Result<()> {
    out.write_all(markdown(report, sources, policy).as_bytes())
}

fn markdown(report: &Report, sources: Sources<'_>, policy: Policy) -> String {
    let mut s = String::from("## catalogc breaking\n\n");
    let fails = failures(report, sources, policy);
    if report.changes().next().is_none() && fails.is_empty() && report.stale.is_empty() {
        s.push_str("No contract changes.\n");
        return s;
    }
    s.push_str("| catalog | tool | status | old | new | required | suggested | ok |\n");
    s.push_str("|---|---|---|---|---|---|---|---|\n");
    for c in &report.catalogs {
        let v = |x: &Option<Versioned>| x.as_ref().map_or("—".to_string(), |v| code(&v.value));
        let ok = |b: bool| if b { "✅" } else { "❌" };
        let _ = writeln!(
            s,
            "| **{}** | *(catalog)* | | {} | {} | {} | | {} |",
            code(&c.name),
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
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                code(&c.name),
                code(&t.name),
                t.status.as_str(),
                v(&t.old_version),
                v(&t.new_version),
                required(t.verdict.required),
                t.verdict
                    .suggested
                    .as_ref()
                    .map_or(String::new(), |v| code(&v.to_string())),
                ok(t.verdict.ok())
            );
        }
    }
    s.push_str("\n| tool | class | rule | path | change |\n|---|---|---|---|---|\n");
    for (_, t, ch) in report.changes() {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            code(&t.name),
            match super::changelog::note(report, ch) {
                Some(n) => format!("{} ({})", ch.class().as_str(), code(&n)),
                None => ch.class().as_str().to_string(),
            },
            code(ch.kind.id()),
            code(&ch.path),
            code(&ch.message)
        );
    }
    let stale: Vec<String> = stale(report).map(|(_, m)| m).collect();
    if !stale.is_empty() {
        s.push_str("\n**Warnings**\n\n");
        for m in &stale {
            let _ = writeln!(s, "- {}: {}", code(ACCEPT_STALE.0), code(m));
        }
    }
    if !fails.is_empty() {
        s.push_str("\n**Errors**\n\n");
        for f in &fails {
            let _ = writeln!(s, "- {}: {}", code(f.rule), code(&f.message));
        }
    }
    s
}
