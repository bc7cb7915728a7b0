//! The `naming/vague-name` rule: tool names name a resource, not only generic words or
//! infrastructure; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that a tool name says which resource it acts on. A name built only from generic
    /// words (`process`, `handle`, `manage`, `do`, `run`, `execute`, `data`, `request`, `query`,
    /// `exec`, `shell`, `command`, `call`, `invoke`, `tool`, `util`, `helper`, `misc`, optionally
    /// with a weak verb such as `get` or `fetch`: `get_data`, `run_command`) is vague; a name that
    /// only exposes general infrastructure (`http_request`, `run_sql`, `shell_exec`, `fetch_url`:
    /// words among `http`, `sql`, `shell`, `url`, `bash`, `curl`, `eval` with a generic verb) is
    /// a general-purpose capability disguised as a tool.
    ///
    /// ## Why is this bad?
    /// The model picks tools by name first. `process_data` matches every request a little and
    /// none well, so the model calls it for the wrong task. An infrastructure tool (`run_sql`)
    /// hands the model an open door: whatever the user talks it into, the tool will do, and no
    /// schema, bound or permission check can describe what it is for.
    ///
    /// ## Example
    /// ```kdl
    /// tool "run_sql" version="1.0.0" { ... }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list_overdue" version="1.0.0" { ... }
    /// ```
    pub static RULE = Rule {
        id: "naming/vague-name",
        level: Level::Error,
        summary: "tool names name a resource, not only generic words or infrastructure",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// Words that say nothing about the resource or the business action.
const GENERIC: &[&str] = &[
    "process", "handle", "manage", "do", "run", "execute", "data", "request", "query", "exec",
    "shell", "command", "call", "invoke", "tool", "util", "utils", "helper", "misc",
];

/// Verbs that are fine next to a resource (`invoice_get`) but add nothing to generic words.
const WEAK: &[&str] = &["get", "set", "fetch", "send", "make", "perform", "do", "api"];

/// General infrastructure: with only generic or weak words beside them, the tool is a
/// general-purpose capability.
const INFRA: &[&str] = &["http", "https", "sql", "shell", "url", "bash", "curl", "eval", "cmd"];

#[derive(Debug, PartialEq)]
pub(crate) enum Vague {
    Generic,
    Infrastructure,
}

pub(crate) fn classify(name: &str) -> Option<Vague> {
    let words: Vec<String> = crate::names::words(name);
    if words.is_empty() {
        return None;
    }
    let known = |w: &str| GENERIC.contains(&w) || WEAK.contains(&w) || INFRA.contains(&w);
    if !words.iter().all(|w| known(w)) {
        return None;
    }
    if words.iter().any(|w| INFRA.contains(&w.as_str())) {
        Some(Vague::Infrastructure)
    } else if words.iter().any(|w| GENERIC.contains(&w.as_str())) {
        Some(Vague::Generic)
    } else {
        None
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let name = &tool.name.value;
            let (message, help) = match classify(name) {
                None => continue,
                Some(Vague::Generic) => (
                    format!("tool name `{name}` is built only from generic words and names no resource"),
                    "name the resource and the business action, e.g. `invoice_send_reminder`",
                ),
                Some(Vague::Infrastructure) => (
                    format!("tool name `{name}` exposes general infrastructure rather than one business action"),
                    "expose the specific actions the model needs as their own tools (`invoice_list_overdue`), not a general-purpose capability",
                ),
            };
            out.push(Finding::in_tool(catalog, tool, tool.name.span, message).help(help));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Vague, classify};

    #[test]
    fn flags_generic_names() {
        for name in ["process_data", "get_data", "run_command", "handle_request", "do_it_tool", "misc_util"] {
            let expected = if name == "do_it_tool" { None } else { Some(Vague::Generic) };
            assert_eq!(classify(name), expected, "{name}");
        }
        assert_eq!(classify("execute"), Some(Vague::Generic));
    }

    #[test]
    fn flags_infrastructure() {
        for name in ["http_request", "run_sql", "shell_exec", "fetch_url", "sql_query", "runSql"] {
            assert_eq!(classify(name), Some(Vague::Infrastructure), "{name}");
        }
    }

    #[test]
    fn accepts_named_resources() {
        for name in ["invoice_get", "invoice_url_get", "report_run", "payment_transfer_submit", "data_export_schedule"] {
            assert_eq!(classify(name), None, "{name}");
        }
    }
}
