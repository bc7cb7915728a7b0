//! The `target/tool-name` rule: tool names each chosen target accepts; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// With `catalogc lint --target …`, checks each tool name against each chosen target's name
    /// rule: OpenAI `^[a-zA-Z0-9_-]{1,64}$`, Anthropic `^[a-zA-Z0-9_-]{1,128}$`, Gemini
    /// `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`, MCP `^[a-zA-Z0-9_.-]{1,128}$` (docs/providers.md
    /// cites the sources). Off without `--target`.
    ///
    /// ## Why is this bad?
    /// A provider rejects the whole request when one tool name breaks its rule, so a catalog
    /// with `billing.invoice_get` works through MCP but fails every call to OpenAI or Anthropic;
    /// `catalogc export` leaves such a tool out.
    ///
    /// ## Example
    /// ```kdl
    /// tool "billing.invoice_get" version="1.0.0" { ... }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_get" version="1.0.0" { ... }
    /// ```
    pub static RULE = Rule {
        id: "target/tool-name",
        level: Level::Error,
        summary: "tool names the chosen targets accept (`--target`)",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let name = &tool.name.value;
            for target in &cx.config.targets {
                let rule = &target.rules().name;
                if !rule.accepts(name) {
                    out.push(
                        Finding::in_tool(
                            catalog,
                            tool,
                            tool.name.span,
                            format!(
                                "{}: tool name `{name}` does not match {}",
                                target.as_str(),
                                rule.pattern
                            ),
                        )
                        .help(format!(
                            "use at most {} letters, digits, `_` and `-`, e.g. `invoice_get`",
                            rule.max
                        )),
                    );
                }
            }
        }
    }
}
