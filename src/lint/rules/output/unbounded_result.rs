//! ## What it does
//! Flags a tool without `limits max-result-bytes=N`.
//!
//! ## Why is this bad?
//! A result with no size limit can fill the model's context window in one call, push out the
//! conversation, and cost more than the whole task; the server has no stated point at which
//! to truncate or paginate.
//!
//! ## Example
//! ```kdl
//! limits max-items=50 timeout-ms=5000
//! ```
//!
//! ## Use instead
//! ```kdl
//! limits max-items=50 max-result-bytes=65536 timeout-ms=5000
//! ```

use crate::diag::Level;
use crate::lint::{Context, Finding, Rule};

/// The `output/unbounded-result` rule: tools state `limits max-result-bytes`; the module
/// documentation explains it.
pub static RULE: Rule = Rule {
    id: "output/unbounded-result",
    level: Level::Warn,
    summary: "tools state `limits max-result-bytes`",
    hooks: crate::lint::Hooks::project(check),
    source: include_str!("unbounded_result.rs"),
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let span = match &tool.limits {
                Some(l) if l.max_result_bytes.is_some() => continue,
                Some(l) => l.span,
                None => tool.name.span,
            };
            out.push(
                Finding::in_tool(catalog, tool, span, format!("tool `{}` has no `limits max-result-bytes`", tool.name.value))
                    .help("add `limits max-result-bytes=N` (e.g. 65536) and truncate or paginate results above it"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::{Effect, Limits, Span};

    #[test]
    fn needs_max_result_bytes() {
        let limits = |bytes: Option<u64>| Limits { max_items: None, max_result_bytes: bytes.map(sp), timeout_ms: None, span: Span::new(3, 9) };
        let mut a = tool("a_none", Effect::Read, vec![], None);
        let mut b = tool("a_other", Effect::Read, vec![], None);
        let mut c = tool("a_ok", Effect::Read, vec![], None);
        a.limits = None;
        b.limits = Some(limits(None));
        c.limits = Some(limits(Some(1024)));
        let f = check(&RULE, catalog(vec![a, b, c], vec![]));
        let tools: Vec<_> = f.iter().map(|f| f.tool.clone().unwrap_or_default()).collect();
        assert_eq!(tools, ["a_none", "a_other"]);
        assert_eq!(f[1].span, Span::new(3, 9));
    }
}
