//! The `selection/effect-wording` rule: a summary's leading verb agrees with the effect (no write
//! verb on a read tool, and back); [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::rules::selection::stem;
use crate::lint::text::sub_span;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that the first word of a tool's `summary` agrees with its `effect`: a read-class
    /// tool (`read`, `external-read`, `preview`) must not lead with a write verb (create, delete,
    /// update, send, pay, transfer, cancel, remove, submit), and a write-class tool (`append`,
    /// `update`, `destructive`) must not lead with a read verb (get, list, search, show, find).
    /// Verb forms with `-s` / `-es` (`Creates`, `Searches`) count as the verb.
    ///
    /// ## Why is this bad?
    /// The model reads the summary, not the effect class: a read tool summarised as "Send a
    /// reminder" is picked to send reminders (and does nothing), and a write tool summarised as
    /// "Get a new token" is picked for a harmless look-up and changes state. The mismatch also
    /// often means the `effect` itself is wrong, which decides the MCP safety hints clients act
    /// on.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_reminder_preview" version="1.0.0" {
    ///     summary "Send a payment reminder for one overdue invoice."
    ///     effect "preview"
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_reminder_preview" version="1.0.0" {
    ///     summary "Preview the payment reminder one overdue invoice would get, without sending it."
    ///     effect "preview"
    ///     // …
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/effect-wording",
        level: Level::Warn,
        summary: "a summary's leading verb agrees with the effect (no write verb on a read tool, and back)",
        hooks: crate::lint::Hooks::project(check),
    };
}

const WRITE_VERBS: &[&str] = &[
    "cancel", "create", "delete", "pay", "remove", "send", "submit", "transfer", "update",
];
const READ_VERBS: &[&str] = &["find", "get", "list", "search", "show"];

/// The summary's first word as a base verb, with its byte range in the summary.
fn leading_verb(summary: &str) -> Option<(String, std::ops::Range<usize>)> {
    let start = summary.find(|c: char| c.is_alphanumeric())?;
    let len = summary[start..]
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(summary.len() - start);
    let word = summary[start..start + len].to_lowercase();
    Some((stem(&word), start..start + len))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let Some(summary) = &tool.summary else { continue };
            let Some((verb, range)) = leading_verb(&summary.value) else { continue };
            let effect = tool.effect.value;
            let (list, kind, other) = if effect.is_read_class() {
                (WRITE_VERBS, "read-class", "write")
            } else {
                (READ_VERBS, "write-class", "read")
            };
            if !list.contains(&verb.as_str()) {
                continue;
            }
            let word = &summary.value[range.clone()];
            out.push(
                Finding::in_tool(
                    catalog,
                    tool,
                    sub_span(cx, catalog.file, summary, range),
                    format!(
                        "the summary of {kind} tool `{}` (effect `{}`) leads with the {other} verb `{word}`",
                        tool.name.value,
                        effect.as_str()
                    ),
                )
                .help(if effect.is_read_class() {
                    "lead the summary with what the tool reads or computes (`List…`, `Preview…`), or fix the `effect` if the tool does write"
                } else {
                    "lead the summary with the change the tool makes (`Create…`, `Send…`), or fix the `effect` if the tool only reads"
                }),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testkit::texts::*;
    use crate::model::Effect;

    #[test]
    fn finds_the_leading_verb() {
        assert_eq!(leading_verb("  Creates an invoice.").map(|v| v.0), Some("create".into()));
        assert_eq!(leading_verb("Searches invoices").map(|v| v.0), Some("search".into()));
        assert_eq!(leading_verb("\"List\" invoices").map(|v| (v.0, v.1)), Some(("list".into(), 1..5)));
        assert_eq!(leading_verb("…"), None);
    }

    #[test]
    fn reports_mismatches_both_ways() {
        let mut read = tool("reminder_preview");
        read.effect = sp(Effect::Preview);
        read.summary = s("Sends a payment reminder.");
        let mut write = tool("token_create");
        write.effect = sp(Effect::Append);
        write.summary = s("Get a new access token.");
        let mut fine_read = tool("invoice_list");
        fine_read.summary = s("List invoices, created or updated.");
        let mut fine_write = tool("invoice_create");
        fine_write.effect = sp(Effect::Append);
        fine_write.summary = s("Create an invoice; lists nothing.");
        let mut other = tool("invoice_remind");
        other.effect = sp(Effect::Destructive);
        other.summary = s("Listing is not what this does: remind a customer.");
        let found = run(&RULE, vec![read, write, fine_read, fine_write, other]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "the summary of read-class tool `reminder_preview` (effect `preview`) leads with the write verb `Sends`",
                "the summary of write-class tool `token_create` (effect `append`) leads with the read verb `Get`",
            ]
        );
    }
}
