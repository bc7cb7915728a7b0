//! The `effect/destructive-confirm` rule: `destructive` tools declare `confirm`; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::{Effect, InputKind, Tool};

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags a `destructive` tool without `confirm` and without
    /// `needs-input "NAME" kind="confirmation"`: a tool that asks the user through an MCP
    /// elicitation round trip (input required) before it acts is confirmed too.
    ///
    /// ## Why is this bad?
    /// A destructive call (delete, payment, message) cannot be undone. `confirm` makes the client
    /// show the exact arguments to the user and bind their approval to a digest of them, so the
    /// model cannot change the amount or recipient between approval and call.
    ///
    /// ## Example
    /// ```kdl
    /// effect "destructive"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// effect "destructive"
    /// confirm digest="arguments+resource-version"
    /// ```
    pub static RULE = Rule {
        id: "effect/destructive-confirm",
        level: Level::Error,
        summary: "`destructive` tools declare `confirm`",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// `confirm`, or a confirmation the tool asks for itself during the call.
fn confirmed(tool: &Tool) -> bool {
    tool.confirm.is_some() || tool.needs_input.iter().any(|n| n.kind.value == InputKind::Confirmation)
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            if tool.effect.value == Effect::Destructive && !confirmed(tool) {
                out.push(
                    Finding::in_tool(catalog, tool, tool.effect.span, format!("destructive tool `{}` has no `confirm`", tool.name.value))
                        .help("add `confirm digest=\"arguments\"` (or `\"arguments+resource-version\"`) so the user approves the exact call, or `needs-input \"approval\" kind=\"confirmation\"` when the tool asks the user itself"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::{Confirm, ConfirmDigest, Effect, InputKind, NeedsInput, Span};

    #[test]
    fn destructive_only() {
        let mut confirmed = tool("a_ok", Effect::Destructive, vec![], None);
        confirmed.confirm = Some(Box::new(Confirm { digest: sp(ConfirmDigest::Arguments), span: Span::new(0, 0) }));
        let need = |name: &str, kind| {
            let mut t = tool(name, Effect::Destructive, vec![], None);
            t.needs_input = vec![NeedsInput { name: sp("approval".into()), kind: sp(kind), doc: None, span: Span::new(0, 0) }];
            t
        };
        let tools = Effect::ALL
            .iter()
            .map(|e| tool(&format!("a_{}", e.as_str()), *e, vec![], None))
            .chain([confirmed, need("a_elicited", InputKind::Confirmation), need("a_asks_text", InputKind::Text)])
            .collect();
        let f = check(&RULE, catalog(tools, vec![]));
        let names: Vec<_> = f.iter().map(|f| f.tool.clone().unwrap_or_default()).collect();
        assert_eq!(names, ["a_destructive", "a_asks_text"]);
    }
}
