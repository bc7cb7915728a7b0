//! The `lint/allow-without-reason` rule: every `allow` in a tool says why, with `reason="…"`;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every `allow "RULE-ID"` in a tool gives a non-blank `reason="…"`. The allow
    /// still suppresses its rule; this finding asks for the missing justification.
    ///
    /// ## Why is this bad?
    /// A suppression is a decision that a rule does not apply here. Without the reason, the next
    /// reader cannot tell a deliberate exception from a silenced warning, and nobody can later
    /// check whether the exception still holds.
    ///
    /// ## Example
    /// ```kdl
    /// allow "output/unbounded-result"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// allow "output/unbounded-result" reason="Returns one row by primary key; size is fixed."
    /// ```
    pub static RULE = Rule {
        id: "lint/allow-without-reason",
        level: Level::Error,
        summary: "every `allow` in a tool says why, with `reason=\"…\"`",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            for allow in &tool.allows {
                let (span, message) = match &allow.reason {
                    None => (allow.rule.span, format!("`allow \"{}\"` gives no reason", allow.rule.value)),
                    Some(reason) if reason.value.trim().is_empty() => {
                        (reason.span, format!("`allow \"{}\"` has a blank reason", allow.rule.value))
                    }
                    Some(_) => continue,
                };
                out.push(
                    Finding::in_tool(catalog, tool, span, message)
                        .path(format!("allow.{}", allow.rule.value))
                        .help(format!("say why the rule does not apply to this tool: `allow \"{}\" reason=\"…\"`", allow.rule.value)),
                );
            }
        }
    }
}
