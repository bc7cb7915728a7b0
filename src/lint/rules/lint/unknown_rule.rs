//! The `lint/unknown-rule` rule: every `allow` in a tool names an existing rule ID; [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every `allow "RULE-ID"` in a tool names a rule that exists, spelled exactly as
    /// `catalogc rules` lists it (`category/name`), and suggests the closest rule ID otherwise.
    ///
    /// ## Why is this bad?
    /// An allow with a misspelled rule ID suppresses nothing, while its author believes the
    /// exception is recorded; a category name (`allow "bounds"`) is not accepted either, so one
    /// allow never hides a whole family of rules.
    ///
    /// ## Example
    /// ```kdl
    /// allow "output/unbounded-results" reason="Returns one row by primary key."
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// allow "output/unbounded-result" reason="Returns one row by primary key."
    /// ```
    pub static RULE = Rule {
        id: "lint/unknown-rule",
        level: Level::Error,
        summary: "every `allow` in a tool names an existing rule ID",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            for allow in &tool.allows {
                let id = &allow.rule.value;
                if crate::lint::rule(id).is_some() {
                    continue;
                }
                let help = match crate::lint::did_you_mean(id, crate::lint::registry().map(|r| r.id)) {
                    Some(best) => format!("did you mean `{best}`? `catalogc rules` lists every rule ID"),
                    None => "name one rule as `category/name`; `catalogc rules` lists every rule ID".to_string(),
                };
                out.push(
                    Finding::in_tool(catalog, tool, allow.rule.span, format!("`allow` names unknown rule `{id}`"))
                        .path(format!("allow.{id}"))
                        .help(help),
                );
            }
        }
    }
}
