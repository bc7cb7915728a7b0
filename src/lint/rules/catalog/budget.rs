//! ## What it does
//! Measures what the model reads before it can pick a tool: the `tools/list` JSON that
//! catalogc renders (name, title, description, input and output schema, annotations), per
//! tool and per catalog, and warns when it is over budget (defaults: 4 KiB per tool, 32 KiB
//! per catalog; `budget-tool-bytes` and `budget-catalog-bytes` in `catalogc.kdl`).
//!
//! Sizes are bytes of the compact JSON encoding. The token figure is an estimate: bytes ÷ 4,
//! rounded up, the usual rule of thumb for English text and JSON with common BPE tokenizers
//! (real counts vary by model, typically within ±30%).
//!
//! ## Why is this bad?
//! Every tool definition is sent to the model on every turn, before the user's request. A
//! large list crowds out the conversation, costs tokens on every call, and measurably lowers
//! how well the model picks among tools. A single oversized tool is usually a schema that
//! should be split, or a description that says too much.
//!
//! ## Example
//! ```kdl
//! // catalogc.kdl
//! lint {
//!     thresholds {
//!         budget-tool-bytes 256
//!     }
//! }
//! // a tool whose rendered definition is 1,200 bytes is reported
//! ```
//!
//! ## Use instead
//! ```kdl
//! // Split the tool, shorten its texts and docs, or raise the budget deliberately:
//! lint {
//!     thresholds {
//!         budget-tool-bytes 2048
//!     }
//! }
//! ```

use crate::diag::Level;
use crate::lint::{Context, Finding, Rule};

/// The `catalog/budget` rule: rendered tools/list JSON stays within the byte budget per tool and
/// per catalog; the module documentation explains it.
pub static RULE: Rule = Rule {
    id: "catalog/budget",
    level: Level::Warn,
    summary: "rendered tools/list JSON stays within the byte budget per tool and per catalog",
    hooks: crate::lint::Hooks::project(check),
    source: include_str!("budget.rs"),
};

/// The documented estimate: one token per four bytes, rounded up.
pub fn estimate_tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// The length of `value` as compact JSON (what `serde_json::to_string` would return),
/// computed from the value: the definitions of a large catalog are megabytes of JSON that
/// this rule only measures, and running the serializer into a counting sink cost six times
/// more than adding up the lengths.
fn json_len(value: &serde_json::Value) -> usize {
    use serde_json::Value;
    match value {
        Value::Null => 4,
        Value::Bool(b) => if *b { 4 } else { 5 },
        // Few numbers in a definition (bounds): formatted as serde_json formats them.
        Value::Number(n) => n.to_string().len(),
        Value::String(s) => string_len(s),
        Value::Array(items) => 2 + items.len().saturating_sub(1) + items.iter().map(json_len).sum::<usize>(),
        Value::Object(map) => {
            2 + map.len().saturating_sub(1) + map.iter().map(|(k, v)| string_len(k) + 1 + json_len(v)).sum::<usize>()
        }
    }
}

/// A JSON string's length with its quotes, escaped as serde_json escapes: `"`, `\\` and the
/// short control escapes take two bytes, other control characters six (`\u001f`). The runs
/// between such bytes are skipped eight bytes at a time: the definitions' texts are most of
/// their bytes.
fn string_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let (mut len, mut i) = (2, 0);
    loop {
        let j = crate::syntax::next_special(bytes, i, 0x20, b"\"\\");
        len += j - i;
        let Some(&b) = bytes.get(j) else {
            return len;
        };
        len += match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0C => 2,
            0x00..=0x1F => 6,
            // Non-ASCII bytes stop the scan too; they are written as they are.
            _ => 1,
        };
        i = j + 1;
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let t = &cx.config.thresholds;
    for (ci, catalog) in cx.project.catalogs.iter().enumerate() {
        // `{"tools":[` … `]}` around the comma-separated definitions.
        let mut catalog_bytes = r#"{"tools":[]}"#.len();
        for (i, tool) in catalog.tools.iter().enumerate() {
            let bytes = cx
                .artifacts
                .tool(ci, i)
                .map_or(0, |c| json_len(&c.definition));
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
    use super::{estimate_tokens, json_len};
    use serde_json::json;

    #[test]
    fn json_len_is_the_compact_texts_length() {
        let v = json!({"name": "a\"b", "n": [1, 2.5, null, -7, 1e300], "s": "é\u{1}", "e": {}, "a": [], "t": true, "f": false});
        assert_eq!(json_len(&v), v.to_string().len());
        // Every byte that serde_json escapes, and the key side of an object.
        let all: String = (0u8..0x80).map(char::from).collect();
        let v = json!({ all.clone(): [all, "\u{7f}\u{2028}🦀"] });
        assert_eq!(json_len(&v), v.to_string().len());
    }

    #[test]
    fn token_estimate_rounds_up() {
        assert_eq!(estimate_tokens(0), 0);
        assert_eq!(estimate_tokens(4), 1);
        assert_eq!(estimate_tokens(5), 2);
        assert_eq!(estimate_tokens(4096), 1024);
    }
}
