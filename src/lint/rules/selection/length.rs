//! The `selection/length` rule: summary ≤ 560, when / when-not ≤ 300, description ≤ 1024
//! characters; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks the length of the texts the model reads, in characters: `summary` at most 560,
    /// `when` and `when-not` at most 300 each, and the tool's model-facing description (as
    /// `templates/description.j2` renders it: title, summary, when, when-not, the effect in words,
    /// limits, timeout and deprecation sentences) at most 1024. The limits are set in `catalogc.kdl`,
    /// `thresholds { summary-max 560; when-max 300; description-max 1024 }`.
    ///
    /// The defaults come from the descriptions of 797 tools of 39 public MCP servers
    /// (tests/corpus/, docs/corpus.md): 560 characters is their 90th percentile, so a summary
    /// longer than 9 in 10 whole published descriptions is reported; 1024 is their 94th
    /// percentile as catalogc renders them (the effect sentence added), and the length some
    /// clients cut at; 300 is above every `when` / `when-not` the corpus states (the 62 that
    /// import split off descriptions saying when to use a tool, the longest 177 characters: the
    /// 100th percentile), since one sentence of guidance has no business being longer.
    /// `tests/corpus.rs` recomputes these percentiles and fails when one moves.
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) only the whole description is
    /// measured: the server wrote one text, which import splits into summary, when and
    /// when-not, and a description of 560 to 1024 characters reaches the model whole.
    ///
    /// ## Why is this bad?
    /// Every tool's description is sent to the model on every turn: long texts cost tokens for
    /// every conversation, push other tools out of the model's attention, and some clients cut
    /// descriptions at 1024 characters, losing the end (often the when-not).
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List invoices. This tool lists invoices, which are the documents we send to customers when they owe us money, and it can filter them by status, and it returns them in pages, and each page holds up to fifty invoices, sorted by due date, oldest first."
    ///     when "Use to look up invoices by status."
    ///     when-not "Not for payments; use payment_list."
    ///     effect "read"
    ///     input
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List open or overdue invoices, oldest due date first."
    ///     when "Use to look up invoices by status."
    ///     when-not "Not for payments; use payment_list."
    ///     effect "read"
    ///     input
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/length",
        level: Level::Warn,
        summary: "summary ≤ 560, when / when-not ≤ 300, description ≤ 1024 characters",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let th = &cx.config.thresholds;
    for (ci, catalog) in cx.project.catalogs.iter().enumerate() {
        for (ti, tool) in catalog.tools.iter().enumerate() {
            // A published list has one description, split by import: only its whole length
            // is the server's.
            let texts = if cx.config.published {
                [].as_slice()
            } else {
                &[
                    ("summary", &tool.summary, th.summary_max),
                    ("when", &tool.when, th.when_max),
                    ("when-not", &tool.when_not, th.when_max),
                ]
            };
            for &(child, text, max) in texts {
                let Some(t) = text else { continue };
                let n = t.value.chars().count();
                if n > max {
                    out.push(
                        Finding::in_tool(
                            catalog,
                            tool,
                            t.span,
                            format!(
                                "the `{child}` of tool `{}` is {n} characters long, over {max}",
                                tool.name.value
                            ),
                        )
                        .help(format!(
                            "shorten the `{child}` to at most {max} characters: one sentence, what matters for choosing the tool"
                        )),
                    );
                }
            }
            let n = cx.description(ci, ti).chars().count();
            if n > th.description_max {
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        tool.name.span,
                        format!(
                            "the rendered description of tool `{}` is {n} characters long, over {}",
                            tool.name.value, th.description_max
                        ),
                    )
                    .help(format!(
                        "shorten summary, when and when-not so the description stays within {} characters",
                        th.description_max
                    )),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;

    #[test]
    fn reports_each_text_over_its_limit_and_the_total() {
        let mut long = tool("ledger_entry_list");
        long.summary = s(&"é".repeat(561));
        long.when = s(&"w".repeat(301));
        long.when_not = s(&"n".repeat(600));
        let mut edge = tool("ledger_entry_get");
        // Exactly at the limits: characters, not bytes.
        edge.summary = s(&"é".repeat(560));
        // `when-not` shares the limit of `when`; both at 300 would push the whole
        // description over its own limit.
        edge.when = s(&"w".repeat(300));
        edge.when_not = s("Not for one entry.");
        let n = crate::testing::contract(&catalog("test", vec![]), &long)
            .description
            .chars()
            .count();
        assert!(n > 561 + 301 + 600, "the description holds the three texts: {n}");
        let description =
            format!("the rendered description of tool `ledger_entry_list` is {n} characters long, over 1024");
        let found = run(&RULE, vec![long, edge]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "the `summary` of tool `ledger_entry_list` is 561 characters long, over 560",
                "the `when` of tool `ledger_entry_list` is 301 characters long, over 300",
                "the `when-not` of tool `ledger_entry_list` is 600 characters long, over 300",
                &description,
            ]
        );
    }

    #[test]
    fn a_published_list_measures_only_the_whole_description() {
        let mut summary_only = tool("ledger_entry_get");
        summary_only.summary = s(&"a".repeat(700));
        let mut whole = tool("ledger_entry_list");
        whole.summary = s(&"a".repeat(1100));
        let project = crate::model::Project { catalogs: vec![catalog("test", vec![summary_only, whole])] };
        let found = run_with(&RULE, &project, &crate::lint::testkit::sites::published());
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].starts_with("the rendered description of tool `ledger_entry_list`"), "{messages:?}");
    }
}
