//! The `selection/tautology` rule: a summary says more than the tool name (not only its words and
//! stop words); [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::rules::selection::{is_stop_word, stem, words};
use crate::lint::{Context, Finding};
use std::collections::HashSet;

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports a `summary` that only restates the tool's name: every word of it, apart from stop
    /// words ("the", "a", "of", "tool", …), is a word of the name. Words are compared lower-cased
    /// with plural and `-s` / `-es` endings stripped, so "Lists invoices." restates
    /// `invoice_list`.
    ///
    /// ## Why is this bad?
    /// The model already has the name. A summary that repeats it tells the model nothing about
    /// what the tool returns, for whom, or how it differs from its neighbours, and wastes the one
    /// sentence it reads to decide.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List the invoices."
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List open or overdue invoices of the authenticated tenant, oldest due first."
    ///     // …
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/tautology",
        level: Level::Warn,
        summary: "a summary says more than the tool name (not only its words and stop words)",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// Whether the summary's content words are all words of the name.
fn restates(name: &str, summary: &str) -> bool {
    let name_words: HashSet<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
        .collect();
    words(summary)
        .filter(|w| !is_stop_word(w))
        .all(|w| name_words.contains(&stem(&w)))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let Some(summary) = &tool.summary else { continue };
            // A blank summary is `selection/missing-text`'s to report.
            if summary.value.trim().is_empty() || !restates(&tool.name.value, &summary.value) {
                continue;
            }
            out.push(
                Finding::in_tool(
                    catalog,
                    tool,
                    summary.span,
                    format!(
                        "the summary of tool `{}` only restates its name",
                        tool.name.value
                    ),
                )
                .help("say what the tool returns or changes, for whom, and what sets it apart: filters, order, scope"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testkit::texts::*;

    #[test]
    fn restating_summaries() {
        assert!(restates("invoice_list", "List the invoices."));
        assert!(restates("invoice_list", "Lists invoices"));
        assert!(restates("invoice_list", "Invoice list tool."));
        assert!(restates("invoice_get", "Gets an invoice"));
        assert!(!restates("invoice_list", "List overdue invoices."));
        assert!(!restates("invoice_list", "List invoices of the authenticated tenant."));
    }

    #[test]
    fn reports_only_restating_non_blank_summaries() {
        let mut a = tool("ledger_entry_list");
        a.summary = s("List the ledger entries.");
        let mut b = tool("ledger_entry_get");
        b.summary = s("  ");
        let found = run(&RULE, vec![a, b, tool("ledger_entry_find")]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(messages, ["the summary of tool `ledger_entry_list` only restates its name"]);
    }
}
