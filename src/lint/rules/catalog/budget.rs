//! The `catalog/budget` rule: rendered tools/list JSON stays within the byte budget per tool and
//! per catalog; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Measures what the model reads before it can pick a tool: the `tools/list` JSON that
    /// catalogc renders (name, title, description, input and output schema, annotations), per
    /// tool and per catalog, and warns when it is over budget (defaults: 4 KiB per tool, 32 KiB
    /// per catalog; `budget-tool-bytes` and `budget-catalog-bytes` in `catalogc.kdl`).
    ///
    /// The defaults come from the 797 tools of 39 public MCP servers (tests/corpus/,
    /// docs/corpus.md): 4 KiB is the 95th percentile of their rendered tool definitions (the
    /// largest is 7,298 bytes), 32 KiB the 74th percentile of their 39 servers' rendered
    /// tools/list (ten are over, the largest 156,606 bytes); `tests/corpus.rs` recomputes both
    /// and fails when one moves.
    ///
    /// Sizes are bytes of the compact JSON encoding. The token figure is an estimate: bytes ÷ 4,
    /// rounded up, the usual rule of thumb for English text and JSON with common BPE tokenizers
    /// (real counts vary by model, typically within ±30%).
    ///
    /// ## Why is this bad?
    /// Every tool definition is sent to the model on every turn, before the user's request. A
    /// large list crowds out the conversation, costs tokens on every call, and measurably lowers
    /// how well the model picks among tools. A single oversized tool is usually a schema that
    /// should be split, or a description that says too much.
    ///
    /// ## Example
    /// ```kdl
    /// // catalogc.kdl
    /// lint {
    ///     thresholds {
    ///         budget-tool-bytes 256
    ///     }
    /// }
    /// // a tool whose rendered definition is 1,200 bytes is reported
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // Split the tool, shorten its texts and docs, or raise the budget deliberately:
    /// lint {
    ///     thresholds {
    ///         budget-tool-bytes 2048
    ///     }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "catalog/budget",
        level: Level::Warn,
        summary: "rendered tools/list JSON stays within the byte budget per tool and per catalog",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// The documented estimate: one token per four bytes, rounded up.
pub fn estimate_tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let t = &cx.config.thresholds;
    for (ci, catalog) in cx.project.catalogs.iter().enumerate() {
        // `{"tools":[` … `]}` around the comma-separated definitions.
        let mut catalog_bytes = r#"{"tools":[]}"#.len();
        for (i, tool) in catalog.tools.iter().enumerate() {
            let bytes = cx.artifacts.definition_len(ci, i).unwrap_or(0);
            catalog_bytes += bytes + usize::from(i > 0);
            if bytes > t.budget_tool_bytes {
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        tool.name.span,
                        format!(
                            "tool `{}` renders to {bytes} bytes of tools/list JSON (≈{} tokens), over the budget of {} bytes",
                            tool.name.value,
                            estimate_tokens(bytes),
                            t.budget_tool_bytes
                        ),
                    )
                    .help("shorten its texts and field docs, or split it into narrower tools; raise `budget-tool-bytes` in catalogc.kdl only deliberately"),
                );
            }
        }
        if catalog_bytes > t.budget_catalog_bytes {
            out.push(
                Finding::in_catalog(
                    catalog,
                    catalog.name.span,
                    format!(
                        "catalog `{}` renders to {catalog_bytes} bytes of tools/list JSON (≈{} tokens) for {} tools, over the budget of {} bytes",
                        catalog.name.value,
                        estimate_tokens(catalog_bytes),
                        catalog.tools.len(),
                        t.budget_catalog_bytes
                    ),
                )
                .help("split the catalog into servers the client connects as needed, or trim tool texts; raise `budget-catalog-bytes` in catalogc.kdl only deliberately"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::estimate_tokens;

    #[test]
    fn token_estimate_rounds_up() {
        assert_eq!(estimate_tokens(0), 0);
        assert_eq!(estimate_tokens(4), 1);
        assert_eq!(estimate_tokens(5), 2);
        assert_eq!(estimate_tokens(4096), 1024);
    }
}
