//! The `trust/code-input` rule: an input the server runs as code (SQL, a script, a shell
//! command) is gated or narrowed; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::text::pattern;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::{Tool, TyKind};
use regex::Regex;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags an input string that the tool runs as code: a field named `sql`, `hogql`,
    /// `script`, `javascript`, `python`, `bash` or `shell`; or a field named `query`, `code`,
    /// `command`, `cmd`, `statement` or `expression` when its doc, a constant beside it
    /// (`kind: "HogQLQuery"`) or the tool's summary names the language (SQL, HogQL,
    /// JavaScript, Python, a shell command). The tool must run what it is given: its name has
    /// `run` or starts with `query`, or its summary says it runs or executes (a tool that only
    /// stores a query is not reported). Tools whose name already says they execute or evaluate
    /// (`pods_exec`, `puppeteer_evaluate`) are `trust/general-execution`'s.
    ///
    /// A warning on a tool that writes; on a read-only tool (a reporting query) it is advice
    /// (info): the query can still read everything the server's connection can. Not reported
    /// on a catalog tool with `confirm`, whose calls the user approves one by one.
    ///
    /// ## Why is this bad?
    /// The contract of such a tool is the whole language: whatever the model writes runs with
    /// the server's rights, and no schema bound, hint or review describes what it may do. A
    /// prompt injection needs one call to read every table, drop one, or run a command on the
    /// host. Clients cannot tell a harmless lookup from a destructive statement, so they cannot
    /// ask the user at the right moment.
    ///
    /// ## Example
    /// ```kdl
    /// tool "report_query" version="1.0.0" {
    ///     summary "Run a SQL query against the reporting database."
    ///     effect "update"
    ///     // …
    ///     input { field "sql" "string" required=#true max-length=10000 }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // named reports with bounded parameters; or `effect "read"` on a read-only database
    /// // role, or `confirm` so the user approves each statement
    /// tool "revenue_report_get" version="1.0.0" {
    ///     summary "Revenue per month of one year."
    ///     effect "read"
    ///     // …
    ///     input { field "year" "integer" required=#true min=2000 max=2100 }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "trust/code-input",
        level: Level::Warn,
        summary: "an input the server runs as code (SQL, a script, a shell command) is gated or narrowed",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

/// Field names that are code by themselves.
const CODE_NAMES: &[&str] = &["sql", "hogql", "script", "javascript", "python", "bash", "shell"];

/// Field names that are code when a text names the language.
const MAYBE_CODE: &[&str] = &["query", "code", "command", "cmd", "statement", "expression"];

/// A text that names a language the server runs.
static LANGUAGE: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\b(?:(?:sql|hogql)(?:query)?|javascript|python|bash|shell\s+commands?|code\s+to\s+(?:run|execute|evaluate))\b")
});

/// A summary that runs what it is given (quoted tool names taken out first).
static RUNS: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)\b(?:run|runs|execute|executes|evaluate|evaluates)\b"));

/// A quoted name (`'query-run'`), which says nothing about what this tool does.
static QUOTED: LazyLock<Regex> = LazyLock::new(|| pattern(r#"'[^']*'|`[^`]*`|"[^"]*""#));

/// The tool runs what its input says, and the name is not `trust/general-execution`'s.
fn runs(tool: &Tool) -> bool {
    let words = crate::names::words(&tool.name.value);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if has(&["exec", "eval", "evaluate", "execute"]) {
        return false;
    }
    has(&["run"])
        || words.first().is_some_and(|w| w == "query")
        || tool.summary.as_ref().is_some_and(|s| RUNS.is_match(&QUOTED.replace_all(&s.value, "")))
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let (Some(tool), Some(field)) = (site.tool, site.field) else { return };
    if site.side != Some(Side::Input) || !std::ptr::eq(&field.ty, site.ty) || tool.confirm.is_some() {
        return;
    }
    let TyKind::String(s) = &field.ty.kind else { return };
    if s.enum_values.is_some() || field.constant.is_some() {
        return;
    }
    let Some(last) = site.name_words().last() else { return };
    let named = CODE_NAMES.contains(&last.as_str());
    let said = || {
        let doc = field.doc.as_ref().map(|d| d.value.as_str());
        let consts = site.siblings.iter().filter_map(|f| match f.constant.as_deref().map(|c| &c.value) {
            Some(crate::model::Literal::String(c)) => Some(c.as_str()),
            _ => None,
        });
        let summary = tool.summary.as_ref().map(|s| s.value.as_str());
        doc.into_iter().chain(consts).chain(summary).any(|t| LANGUAGE.is_match(t))
    };
    if !(named || (MAYBE_CODE.contains(&last.as_str()) && said())) || !runs(tool) {
        return;
    }
    let read = tool.effect.value.is_read_class();
    let message = format!(
        "tool `{}` runs the code the model writes in `{}`{}",
        tool.name.value,
        site.path,
        if read { ", with everything the server's connection may read" } else { ": arbitrary execution with the server's rights" }
    );
    let help = "offer tools for the queries or commands callers need, each with bounded parameters; if running arbitrary code is the product, run it under a read-only or sandboxed identity, and gate writes behind the user's approval (`confirm`)";
    let f = site_finding(site, field.name.span, message).help(help);
    out.push(if read { f.level(Level::Info) } else { f });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testkit::texts::*;

    #[test]
    fn tools_that_run_their_input() {
        let t = |name: &str, summary: &str| runs(&summarised(name, summary));
        assert!(t("query-run", "It can run a trend, funnel or HogQL query."));
        assert!(t("report_sql", "Runs a SQL statement."));
        assert!(!t("insight-create-from-query", "Create an insight from a query tested with 'query-run'."));
        assert!(!t("puppeteer_evaluate", "Execute JavaScript in the browser console"));
        assert!(LANGUAGE.is_match("HogQLQuery"));
        assert!(LANGUAGE.is_match("The shell command to run."));
        assert!(!LANGUAGE.is_match("Search query using GitHub search syntax"));
    }
}
