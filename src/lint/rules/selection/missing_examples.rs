//! The `selection/missing-examples` rule: every tool has a `call` and a `no-call` example; [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports a tool without at least one `call` example (a request the tool is for) and one
    /// `no-call` example (a request it is not for) in its `examples` block.
    ///
    /// ## Why is this bad?
    /// Examples are how the catalog's routing is tested: a `call` example shows what requests
    /// should pick the tool, a `no-call` example what should not. Without both, nobody can check
    /// that the model picks this tool for the right requests, and a change to the texts can break
    /// selection unnoticed.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     // …
    ///     examples { call "Which of our invoices are overdue?" }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     // …
    ///     examples {
    ///         call "Which of our invoices are overdue?"
    ///         no-call "How do refunds work?"
    ///     }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/missing-examples",
        level: Level::Info,
        summary: "every tool has a `call` and a `no-call` example",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let ex = &tool.examples;
            let missing = match (ex.calls.is_empty(), ex.no_calls.is_empty()) {
                (false, false) => continue,
                (true, true) => "no `call` and no `no-call` example",
                (true, false) => "no `call` example",
                (false, true) => "no `no-call` example",
            };
            out.push(
                Finding::in_tool(
                    catalog,
                    tool,
                    tool.name.span,
                    format!("tool `{}` has {missing}", tool.name.value),
                )
                .help("add `examples { call \"a request this tool is for\"; no-call \"a request it is not for\" }`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;

    #[test]
    fn reports_each_missing_kind() {
        let none = tool("ledger_entry_list");
        let mut calls_only = tool("ledger_entry_get");
        calls_only.examples.calls.push(sp("Show entry 7".into()));
        let mut no_calls_only = tool("ledger_entry_find");
        no_calls_only.examples.no_calls.push(sp("Pay it".into()));
        let mut both = tool("ledger_entry_sum");
        both.examples.calls.push(sp("Total?".into()));
        both.examples.no_calls.push(sp("Pay it".into()));
        let found = run(&RULE, vec![none, calls_only, no_calls_only, both]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "tool `ledger_entry_list` has no `call` and no `no-call` example",
                "tool `ledger_entry_get` has no `no-call` example",
                "tool `ledger_entry_find` has no `call` example",
            ]
        );
    }
}
