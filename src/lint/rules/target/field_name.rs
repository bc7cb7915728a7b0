//! The `target/field-name` rule: input field names each chosen target accepts; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// With `catalogc lint --target …`, checks the names of each tool's input fields (the
    /// top-level properties of its input schema) against each chosen target's property-name rule:
    /// Anthropic `^[a-zA-Z0-9_.-]{1,64}$`, Gemini `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`; OpenAI and
    /// MCP state none (docs/providers.md cites the sources). Off without `--target`.
    ///
    /// ## Why is this bad?
    /// Anthropic rejects the whole request when one tool's input has a property key outside its
    /// pattern, and Gemini's parameter names must start with a letter or `_`: a field such as
    /// `2fa_code` works through MCP but breaks every call on those providers; `catalogc export`
    /// leaves such a tool out.
    ///
    /// ## Example
    /// ```kdl
    /// field "2fa_code" "string" required=#true max-length=6
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "second_factor_code" "string" required=#true max-length=6
    /// ```
    pub static RULE = Rule {
        id: "target/field-name",
        level: Level::Error,
        summary: "input field names the chosen targets accept (`--target`)",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            for field in &tool.input.fields {
                let name = &field.name.value;
                for target in &cx.config.targets {
                    let Some(rule) = &target.rules().field_name else {
                        continue;
                    };
                    if !rule.accepts(name) {
                        out.push(
                            Finding::in_tool(
                                catalog,
                                tool,
                                field.name.span,
                                format!(
                                    "{}: input field name `{name}` does not match {}",
                                    target.as_str(),
                                    rule.pattern
                                ),
                            )
                            .path(format!("input.{name}"))
                            .help("start with a letter and use letters, digits and `_`, e.g. `second_factor_code`"),
                        );
                    }
                }
            }
        }
    }
}
