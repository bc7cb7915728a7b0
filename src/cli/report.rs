//! `catalogc report TRACES… [--format text|json|markdown]`: what the trace lines of a
//! running server (docs/runtime.md, "Traces") say about its tools, per tool and per effect
//! class (docs/cli.md, "report").
//!
//! Every line is read; a line that is not a trace line is a diagnostic (`FILE:LINE: what`)
//! on stderr, the report covers the others, and the exit status is 1 when there was one.

use super::{CliError, Status};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// Output format of `catalogc report`.
pub enum Format {
    /// Aligned tables, one per grouping.
    Text,
    /// One JSON object (docs/report-output.schema.json).
    Json,
    /// Markdown tables.
    Markdown,
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc report`.
pub struct ReportArgs {
    /// Trace files: JSON lines as `serve --trace` and `catalogc::rmcp::Telemetry` write
    /// them, read in the order given.
    #[arg(required = true, value_name = "TRACES")]
    pub traces: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    /// How the report is printed.
    pub format: Format,
}

/// Runs `catalogc report`: prints the report of every trace line; [`Status::Findings`] when
/// a line or a file could not be read (each named on stderr).
pub fn run(args: &ReportArgs) -> Result<Status, CliError> {
    let mut calls = Vec::new();
    let mut problems = Vec::new();
    for path in &args.traces {
        read_file(path, &mut calls, &mut problems);
    }
    for p in &problems {
        eprintln!("{p}");
    }
    let report = Report::of(&calls);
    let text = match args.format {
        Format::Text => report.text(),
        Format::Markdown => report.markdown(),
        Format::Json => crate::diag::emit::pretty_json(&report.json()),
    };
    super::print(&text)?;
    Ok(if problems.is_empty() {
        Status::Ok
    } else {
        Status::Findings
    })
}

/// One `tools/call` as its trace line records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    session: String,
    tool: String,
    effect: String,
    digest: Option<String>,
    duration_ms: f64,
    validation: Option<String>,
    approval: Option<String>,
    era: Option<String>,
    idempotency: Option<String>,
    budget: Option<String>,
    code: Option<String>,
    kind: Option<String>,
    failed: bool,
}

/// Appends the calls of the trace file at `path` to `calls`, and a line per problem
/// (`FILE:LINE: what`) to `problems`.
pub fn read_file(path: &Path, calls: &mut Vec<Call>, problems: &mut Vec<String>) {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            problems.push(format!(
                "{}: cannot read the trace file: {e}",
                path.display()
            ));
            return;
        }
    };
    let mut reader = std::io::BufReader::new(file);
    let mut bytes = Vec::new();
    let mut number = 0;
    loop {
        bytes.clear();
        match reader.read_until(b'\n', &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                problems.push(format!(
                    "{}:{}: cannot read: {e}",
                    path.display(),
                    number + 1
                ));
                break;
            }
        }
        number += 1;
        let at = |what: String| format!("{}:{number}: {what}", path.display());
        let Ok(line) = std::str::from_utf8(&bytes) else {
            problems.push(at("not UTF-8 text; a trace line is one JSON object".into()));
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(line) {
            Ok(call) => calls.push(call),
            Err(what) => problems.push(at(what)),
        }
    }
}

/// One trace line as a [`Call`], or what is wrong with it.
pub fn parse_line(line: &str) -> Result<Call, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| {
        format!(
            "column {}: not JSON ({e}); a trace line is one JSON object",
            e.column()
        )
    })?;
    let Value::Object(fields) = value else {
        return Err("not a JSON object; a trace line is one JSON object".into());
    };
    let text = |name: &str| -> Result<Option<String>, String> {
        match fields.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("`{name}` is not a string")),
        }
    };
    if text("mcp.method.name")?.as_deref() != Some("tools/call") {
        return Err("not a tools/call trace line: `mcp.method.name` is not \"tools/call\"".into());
    }
    let tool =
        text("gen_ai.tool.name")?.ok_or("a tools/call trace line without `gen_ai.tool.name`")?;
    let seconds = fields
        .get("mcp.server.operation.duration")
        .and_then(Value::as_f64)
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or("`mcp.server.operation.duration` is missing or not a number of seconds >= 0")?;
    Ok(Call {
        session: text("mcp.session.id")?.unwrap_or_default(),
        tool,
        effect: text("catalogc.tool.effect")?.unwrap_or_else(|| "unknown".into()),
        digest: text("catalogc.arguments.digest")?,
        duration_ms: seconds * 1000.0,
        validation: text("catalogc.validation")?,
        approval: text("catalogc.approval")?,
        era: text("catalogc.protocol.era")?,
        idempotency: text("catalogc.idempotency")?,
        budget: text("catalogc.budget")?,
        code: text("catalogc.error.code")?,
        kind: text("catalogc.error.kind")?,
        failed: text("error.type")?.is_some(),
    })
}

/// The figures of one group of calls (a tool, an effect class).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// Calls.
    pub calls: u64,
    /// First attempts whose arguments were checked.
    pub first_checked: u64,
    /// Of those, the ones whose arguments were valid.
    pub first_valid: u64,
    /// Tool errors by kind: `business`, `permission`, `infrastructure`, `arguments`,
    /// `protocol`.
    pub errors: BTreeMap<String, u64>,
    /// Calls repeating an earlier failed call (same session, tool and argument digest).
    pub retries: u64,
    /// Retries that succeeded.
    pub retry_successes: u64,
    /// Calls answered with the kept result of an earlier call with the same idempotency
    /// key: a side effect that did not happen twice.
    pub duplicates_prevented: u64,
    /// Calls refused by a session budget.
    pub budget_terminations: u64,
    /// Approvals asked of the user.
    pub approvals_asked: u64,
    /// Approvals granted.
    pub approvals_granted: u64,
    /// Approvals declined.
    pub approvals_declined: u64,
    /// Durations in milliseconds, sorted.
    durations: Vec<f64>,
}

/// The error kinds a report shows as rates, in order.
const RATES: [&str; 3] = ["business", "permission", "infrastructure"];

impl Figures {
    fn rate(&self, n: u64) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            n as f64 / self.calls as f64
        }
    }

    fn error_rate(&self, kind: &str) -> f64 {
        self.rate(self.errors.get(kind).copied().unwrap_or(0))
    }

    /// The share of first attempts with valid arguments; `None` when none was checked.
    pub fn first_pass_validity(&self) -> Option<f64> {
        (self.first_checked > 0).then(|| self.first_valid as f64 / self.first_checked as f64)
    }

    /// The duration at percentile `p` (nearest rank), in milliseconds.
    pub fn percentile(&self, p: f64) -> f64 {
        if self.durations.is_empty() {
            return 0.0;
        }
        let rank = ((p / 100.0) * self.durations.len() as f64).ceil() as usize;
        self.durations[rank.clamp(1, self.durations.len()) - 1]
    }
}

/// The report: figures per tool and per effect class, and over every call.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// By tool name.
    pub tools: BTreeMap<String, Figures>,
    /// By effect class.
    pub effects: BTreeMap<String, Figures>,
    /// Every call.
    pub total: Figures,
}

/// What one call adds to the figures of its groups.
#[derive(Debug, Clone, Copy, Default)]
struct Marks {
    first_checked: bool,
    first_valid: bool,
    retry: bool,
}

impl Report {
    /// The report of `calls`, in the order they were traced.
    pub fn of(calls: &[Call]) -> Report {
        let mut report = Report::default();
        // The last checked call of each tool in each session was invalid.
        let mut invalid_before: HashMap<(&str, &str), bool> = HashMap::new();
        // The last call with these arguments (session, tool, digest) failed.
        let mut failed_before: HashMap<(&str, &str, &str), bool> = HashMap::new();
        for call in calls {
            let mut marks = Marks::default();
            let session_tool = (call.session.as_str(), call.tool.as_str());
            if let Some(v) = &call.validation {
                let valid = v == "valid";
                if !invalid_before.get(&session_tool).copied().unwrap_or(false) {
                    marks.first_checked = true;
                    marks.first_valid = valid;
                }
                invalid_before.insert(session_tool, !valid);
            }
            if let Some(digest) = &call.digest {
                let key = (session_tool.0, session_tool.1, digest.as_str());
                marks.retry = failed_before.get(&key).copied().unwrap_or(false);
                failed_before.insert(key, call.failed);
            }
            for figures in [
                report.tools.entry(call.tool.clone()).or_default(),
                report.effects.entry(call.effect.clone()).or_default(),
                &mut report.total,
            ] {
                figures.add(call, marks);
            }
        }
        for figures in report
            .tools
            .values_mut()
            .chain(report.effects.values_mut())
            .chain([&mut report.total])
        {
            figures.durations.sort_by(f64::total_cmp);
        }
        report
    }
}

impl Figures {
    fn add(&mut self, call: &Call, marks: Marks) {
        self.calls += 1;
        self.first_checked += u64::from(marks.first_checked);
        self.first_valid += u64::from(marks.first_valid);
        if let Some(kind) = &call.kind {
            *self.errors.entry(kind.clone()).or_default() += 1;
        }
        self.retries += u64::from(marks.retry);
        self.retry_successes += u64::from(marks.retry && !call.failed);
        self.duplicates_prevented += u64::from(call.idempotency.as_deref() == Some("replayed"));
        self.budget_terminations += u64::from(call.budget.as_deref() == Some("exceeded"));
        // Before 2026-07-28 the user is asked within the call that then records the answer.
        let asked_within = call.era.as_deref() == Some("pre-2026-07-28");
        match call.approval.as_deref() {
            Some("asked") => self.approvals_asked += 1,
            Some("granted") => {
                self.approvals_granted += 1;
                self.approvals_asked += u64::from(asked_within);
            }
            Some("declined") => {
                self.approvals_declined += 1;
                self.approvals_asked += u64::from(asked_within);
            }
            _ => {}
        }
        self.durations.push(call.duration_ms);
    }

    fn json(&self) -> Value {
        let mut m = Map::new();
        m.insert("calls".into(), json!(self.calls));
        m.insert(
            "first_pass_validity".into(),
            json!(self.first_pass_validity().map(round4)),
        );
        m.insert("first_pass_checked".into(), json!(self.first_checked));
        m.insert("first_pass_valid".into(), json!(self.first_valid));
        m.insert("errors".into(), json!(self.errors));
        let rates: Map<String, Value> = RATES
            .iter()
            .map(|k| (k.to_string(), json!(round4(self.error_rate(k)))))
            .collect();
        m.insert("error_rates".into(), Value::Object(rates));
        m.insert("retries".into(), json!(self.retries));
        m.insert("retry_successes".into(), json!(self.retry_successes));
        m.insert(
            "duplicates_prevented".into(),
            json!(self.duplicates_prevented),
        );
        m.insert("p50_ms".into(), json!(round3(self.percentile(50.0))));
        m.insert("p95_ms".into(), json!(round3(self.percentile(95.0))));
        m.insert(
            "budget_terminations".into(),
            json!(self.budget_terminations),
        );
        m.insert(
            "approvals".into(),
            json!({
                "asked": self.approvals_asked,
                "granted": self.approvals_granted,
                "declined": self.approvals_declined,
            }),
        );
        Value::Object(m)
    }

    /// The cells of one table row, after its name.
    fn cells(&self) -> Vec<String> {
        let pct = |r: f64| format!("{:.1}%", r * 100.0);
        vec![
            self.calls.to_string(),
            self.first_pass_validity().map_or("-".into(), pct),
            pct(self.error_rate("business")),
            pct(self.error_rate("permission")),
            pct(self.error_rate("infrastructure")),
            format!("{}/{}", self.retry_successes, self.retries),
            self.duplicates_prevented.to_string(),
            format!("{:.1}", self.percentile(50.0)),
            format!("{:.1}", self.percentile(95.0)),
            self.budget_terminations.to_string(),
            format!(
                "{}/{}/{}",
                self.approvals_asked, self.approvals_granted, self.approvals_declined
            ),
        ]
    }
}

/// The column heads after the group's name.
const HEADS: [&str; 11] = [
    "calls",
    "valid 1st",
    "business",
    "permission",
    "infra",
    "retry ok/all",
    "dup prevented",
    "p50 ms",
    "p95 ms",
    "budget",
    "approvals a/g/d",
];

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn round3(x: f64) -> f64 {
    (x * 1_000.0).round() / 1_000.0
}

/// One table of a report: its title, the head of its first column, its rows.
type Table<'a> = (&'static str, &'static str, Vec<(String, &'a Figures)>);

impl Report {
    /// The tables: by tool (with every call last), by effect class.
    fn tables(&self) -> [Table<'_>; 2] {
        fn rows(m: &BTreeMap<String, Figures>) -> Vec<(String, &Figures)> {
            m.iter().map(|(k, f)| (k.clone(), f)).collect()
        }
        let mut tools = rows(&self.tools);
        tools.push(("(all)".into(), &self.total));
        [
            ("By tool", "tool", tools),
            ("By effect class", "effect", rows(&self.effects)),
        ]
    }

    /// The report as aligned text tables.
    pub fn text(&self) -> String {
        let mut out = format!("{} calls\n", self.total.calls);
        for (title, head, rows) in self.tables() {
            let mut grid = vec![
                std::iter::once(head.to_string())
                    .chain(HEADS.iter().map(|h| h.to_string()))
                    .collect::<Vec<_>>(),
            ];
            grid.extend(
                rows.iter()
                    .map(|(name, f)| std::iter::once(name.clone()).chain(f.cells()).collect()),
            );
            let widths: Vec<usize> = (0..grid[0].len())
                .map(|c| grid.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
                .collect();
            out.push_str(&format!("\n{title}\n"));
            for row in grid {
                let line: Vec<String> = row
                    .iter()
                    .zip(&widths)
                    .enumerate()
                    .map(|(c, (cell, w))| {
                        if c == 0 {
                            format!("{cell:<w$}")
                        } else {
                            format!("{cell:>w$}")
                        }
                    })
                    .collect();
                out.push_str(line.join("  ").trim_end());
                out.push('\n');
            }
        }
        out.push_str(LEGEND);
        out
    }

    /// The report as Markdown tables.
    pub fn markdown(&self) -> String {
        let mut out = format!("# Trace report\n\n{} calls.\n", self.total.calls);
        for (title, head, rows) in self.tables() {
            out.push_str(&format!(
                "\n## {title}\n\n| {head} | {} |\n",
                HEADS.join(" | ")
            ));
            out.push_str(&format!("| --- |{}\n", " ---: |".repeat(HEADS.len())));
            for (name, f) in rows {
                out.push_str(&format!("| `{name}` | {} |\n", f.cells().join(" | ")));
            }
        }
        out.push('\n');
        out.push_str(LEGEND);
        out
    }

    /// The report as JSON (docs/report-output.schema.json).
    pub fn json(&self) -> Value {
        let group = |m: &BTreeMap<String, Figures>| -> Map<String, Value> {
            m.iter().map(|(k, f)| (k.clone(), f.json())).collect()
        };
        json!({
            "version": 1,
            "total": self.total.json(),
            "tools": group(&self.tools),
            "effects": group(&self.effects),
        })
    }
}

/// What the columns mean (docs/cli.md, "report").
const LEGEND: &str = "\nvalid 1st: first attempts with valid arguments; business, permission, infra: \
tool errors of that kind per call; retry ok/all: retries (same session, tool and arguments \
after a failure) that succeeded, of all; dup prevented: calls answered from an idempotency \
key's kept result; budget: calls refused by a session budget; approvals a/g/d: asked, \
granted, declined.\n";

#[cfg(test)]
mod tests;
