//! The `target/description-length` rule: descriptions within each chosen target's limit; [`RULE`]
//! documents it.

use crate::contract::targets::{Refusal, refusals};
use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// With `catalogc lint --target …`, checks the length of each tool's rendered description
    /// (what `export` sends) against each chosen target's limit: OpenAI takes at most 1024
    /// characters; Anthropic, Gemini and MCP state no limit. Off without `--target`.
    ///
    /// ## Why is this bad?
    /// OpenAI rejects the whole request (`string_above_max_length`) when one tool description is
    /// longer, so every call fails, not just the long tool's; `catalogc export openai` leaves
    /// such a tool out.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List invoices. (…one thousand more characters of detail…)"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List open or overdue invoices, oldest due date first."
    /// }
    /// ```
    pub static RULE = Rule {
        id: "target/description-length",
        level: Level::Error,
        summary: "descriptions within the chosen targets' length limits (`--target`)",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (ci, catalog) in cx.project.catalogs.iter().enumerate() {
        for (ti, tool) in catalog.tools.iter().enumerate() {
            let description = cx.description(ci, ti);
            for target in &cx.config.targets {
                for r in refusals(*target, tool, description) {
                    let Refusal::Description(len) = r else { continue };
                    let max = target.rules().description_max.unwrap_or_default();
                    let span = tool.summary.as_ref().map_or(tool.name.span, |s| s.span);
                    out.push(
                        Finding::in_tool(
                            catalog,
                            tool,
                            span,
                            format!(
                                "{}: the description has {len} characters, over its limit of {max}",
                                target.as_str()
                            ),
                        )
                        .help("shorten the summary, when and when-not texts; field details belong in field docs"),
                    );
                }
            }
        }
    }
}
