//! The `lint/unused-allow` rule: every `allow` in a tool suppresses a finding; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every `allow "RULE-ID"` in a tool suppresses at least one finding of that
    /// rule for that tool. An allow suppresses nothing when the rule no longer fires there (the
    /// problem was fixed), when the same rule is allowed twice in one tool, when the rule is
    /// turned off in `catalogc.kdl`, or when it names a `lint/…` rule (those cannot be allowed
    /// per tool).
    ///
    /// The linter decides this after all other rules ran, since only then is it known which
    /// allows matched a finding; allows of rules that do not run at all are reported directly.
    ///
    /// ## Why is this bad?
    /// A stale allow is a standing exception that nobody needs: when the problem comes back, it
    /// is silenced without anyone deciding so again.
    ///
    /// ## Example
    /// ```kdl
    /// // the tool has `limits max-result-bytes=…`, so the rule no longer fires
    /// allow "output/unbounded-result" reason="Returns one row."
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // remove the allow
    /// ```
    pub static RULE = Rule {
        id: "lint/unused-allow",
        level: Level::Warn,
        summary: "every `allow` in a tool suppresses a finding",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// The allows that cannot suppress anything whatever the other rules find. The rest are
/// reported by [`crate::lint::suppress`] once the findings are known.
fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            for allow in &tool.allows {
                let id = &allow.rule.value;
                let Some(rule) = crate::lint::rule(id) else { continue };
                let (message, help) = if rule.category() == "lint" {
                    (
                        format!("`allow \"{id}\"` has no effect: `lint/…` rules cannot be allowed in a tool"),
                        format!("remove the allow; set the level of `{id}` in catalogc.kdl if you must"),
                    )
                } else if cx.config.level_for(rule).is_none() {
                    (
                        format!("`allow \"{id}\"` suppresses nothing: the rule is turned off in the configuration"),
                        "remove the allow".to_string(),
                    )
                } else {
                    continue;
                };
                out.push(Finding::in_tool(catalog, tool, allow.rule.span, message).path(format!("allow.{id}")).help(help));
            }
        }
    }
}
