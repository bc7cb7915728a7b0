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

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let name = &tool.name.value;
            let (message, help) = match crate::lint::shared::vague_name(name) {
                None => continue,
                Some(crate::lint::shared::Vague::Generic) => (
                    format!("tool name `{name}` is built only from generic words and names no resource"),
                    "name the resource and the business action, e.g. `invoice_send_reminder`",
                ),
                Some(crate::lint::shared::Vague::Infrastructure) => (
                    format!("tool name `{name}` exposes general infrastructure rather than one business action"),
                    "expose the specific actions the model needs as their own tools (`invoice_list_overdue`), not a general-purpose capability",
                ),
            };
            out.push(Finding::in_tool(catalog, tool, tool.name.span, message).help(help));
        }
    }
}
