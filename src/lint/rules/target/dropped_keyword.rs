//! The `target/dropped-keyword` rule: input constraints a chosen target drops; [`RULE`] documents
//! it.

use crate::contract::targets::{Target, convert};
use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// With `catalogc lint --target …`, lists per tool and chosen target the input constraints
    /// the target's tool definition cannot carry, exactly those `catalogc export` drops: OpenAI
    /// strict mode has no `minLength`, `maxLength`, `uniqueItems`, `default` or formats other than
    /// its nine; Gemini's schema has no `additionalProperties`, `multipleOf`, `uniqueItems`,
    /// exclusive bounds on numbers, or formats other than `date-time`. Anthropic and MCP take
    /// the schema whole. Off without `--target`.
    ///
    /// ## Why is this bad?
    /// The model on that target no longer sees the constraint, so it sends arguments the server
    /// rejects (a 40-character reference where 32 is the limit) and needs another turn. The server
    /// still enforces the contract; the finding says where a model will learn it the hard way.
    ///
    /// ## Example
    /// ```kdl
    /// field "invoice_reference" "string" required=#true min-length=8 max-length=32
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "invoice_reference" "string" required=#true pattern="^INV-[0-9]{4,28}$" max-length=32
    /// ```
    pub static RULE = Rule {
        id: "target/dropped-keyword",
        level: Level::Warn,
        summary: "input constraints a chosen target's definition drops (`--target`)",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for (ci, catalog) in cx.project.catalogs.iter().enumerate() {
        for (ti, tool) in catalog.tools.iter().enumerate() {
            let Some(contract) = cx.artifacts.tool(ci, ti) else {
                continue;
            };
            for target in &cx.config.targets {
                if *target == Target::Mcp {
                    continue;
                }
                let (_, losses) = convert(*target, &contract.input_schema_value());
                if losses.is_empty() {
                    continue;
                }
                let list: Vec<String> = losses
                    .iter()
                    .map(|l| format!("{} `{}`", l.dotted("input"), l.keyword))
                    .collect();
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        tool.name.span,
                        format!(
                            "{}: the {} loses {}",
                            target.as_str(),
                            target.rules().what,
                            list.join(", ")
                        ),
                    )
                    .help("state the constraint in the field's doc too, so the model reads it; the server still enforces it"),
                );
            }
        }
    }
}
