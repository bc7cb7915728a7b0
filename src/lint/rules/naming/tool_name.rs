//! ## What it does
//! Checks that a tool name is snake_case words joined by `_`, a resource and an action
//! (`invoice_list_overdue`), matching `^[a-z][a-z0-9]*(_[a-z0-9]+)+$`, 3 to 64 characters.
//!
//! ## Why is this bad?
//! The model chooses tools by name first. A name without a resource and an action
//! (`invoices`, `doIt`) says little about what the tool does, and a name outside the
//! strictest common client limit (64 characters, `[A-Za-z0-9_.-]`) is rejected or mangled by
//! some MCP clients.
//!
//! ## Example
//! ```kdl
//! tool "InvoiceList" version="1.0.0" { ... }
//! ```
//!
//! ## Use instead
//! ```kdl
//! tool "invoice_list" version="1.0.0" { ... }
//! ```

use crate::diag::Level;
use crate::lint::{Context, Finding, Rule};

/// The `naming/tool-name` rule: tool names are snake_case `resource_action`, 3–64 characters; the
/// module documentation explains it.
pub static RULE: Rule = Rule {
    id: "naming/tool-name",
    level: Level::Error,
    summary: "tool names are snake_case `resource_action`, 3–64 characters",
    hooks: crate::lint::Hooks::project(check),
    source: include_str!("tool_name.rs"),
};

/// `^[a-z][a-z0-9]*(_[a-z0-9]+)+$`: at least two non-empty words.
fn is_valid(name: &str) -> bool {
    let mut words = name.split('_');
    let first_ok = words
        .next()
        .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase()));
    let rest: Vec<&str> = words.collect();
    first_ok
        && !rest.is_empty()
        && name
            .split('_')
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
        && (3..=64).contains(&name.len())
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let name = &tool.name.value;
            if !is_valid(name) {
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        tool.name.span,
                        format!("tool name `{name}` is not snake_case `resource_action` of 3–64 characters"),
                    )
                    .help("name the resource and the action in lowercase words joined by `_`, e.g. `invoice_list`"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    #[test]
    fn accepts_resource_action_names() {
        assert!(is_valid("invoice_list"));
        assert!(is_valid("invoice_list_overdue2"));
        assert!(is_valid("a_b"));
    }

    #[test]
    fn rejects_other_shapes() {
        for bad in ["invoices", "InvoiceList", "invoice-list", "_invoice", "invoice_", "invoice__list", "1_list", "x", &"a_".repeat(40)] {
            assert!(!is_valid(bad), "{bad}");
        }
    }
}
