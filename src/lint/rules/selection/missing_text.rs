//! The `selection/missing-text` rule: every tool has a non-blank `summary`, `when` and `when-not`;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every tool has a `summary`, a `when` and a `when-not`, and that none of them is
    /// blank.
    ///
    /// ## Why is this bad?
    /// These three texts are what the model reads to choose a tool. Without a summary it guesses
    /// what the tool does from its name; without `when` it does not know the situations the tool
    /// is for; without `when-not` it cannot tell this tool from its neighbours, and picks the
    /// wrong one.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List open or overdue invoices of the authenticated tenant."
    ///     when "  "
    ///     effect "read"
    ///     input
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List open or overdue invoices of the authenticated tenant."
    ///     when "Use to look up invoices of the current tenant by status."
    ///     when-not "Not for payments; use payment_list for those."
    ///     effect "read"
    ///     input
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/missing-text",
        level: Level::Error,
        summary: "every tool has a non-blank `summary`, `when` and `when-not`",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let name = &tool.name.value;
            for (child, text, hint) in [
                ("summary", &tool.summary, "what the tool does, in one sentence"),
                ("when", &tool.when, "the situations the tool is for"),
                (
                    "when-not",
                    &tool.when_not,
                    "when not to use it, naming the tool to use instead",
                ),
            ] {
                match text {
                    None => out.push(
                        Finding::in_tool(
                            catalog,
                            tool,
                            tool.name.span,
                            format!("tool `{name}` has no `{child}`"),
                        )
                        .help(format!("add `{child} \"…\"` saying {hint}")),
                    ),
                    Some(t) if t.value.trim().is_empty() => out.push(
                        Finding::in_tool(
                            catalog,
                            tool,
                            t.span,
                            format!("the `{child}` of tool `{name}` is blank"),
                        )
                        .help(format!("write {hint}")),
                    ),
                    Some(_) => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;

    #[test]
    fn reports_missing_and_blank_texts() {
        let mut t = tool("ledger_entry_list");
        t.when = None;
        t.when_not = s(" \n\t");
        let found = run(&RULE, vec![t, tool("ledger_entry_get")]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "tool `ledger_entry_list` has no `when`",
                "the `when-not` of tool `ledger_entry_list` is blank"
            ]
        );
        assert!(found.iter().all(|f| f.help.is_some()));
    }
}
