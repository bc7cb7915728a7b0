//! The `effect/pointless` rule: no `idempotency`, `confirm` or `on-timeout` on read-class tools;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::Span;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags `idempotency`, `confirm` or `on-timeout` on a read-class tool (`read`,
    /// `external-read`, `preview`).
    ///
    /// ## Why is this bad?
    /// They protect side effects a read-class tool does not have. Either the effect is wrong (the
    /// tool does write: fix the `effect`, which also changes its MCP annotations) or the block is
    /// noise that makes clients ask the user to confirm a harmless read.
    ///
    /// ## Example
    /// ```kdl
    /// effect "read"
    /// confirm digest="arguments"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// effect "read"
    /// ```
    pub static RULE = Rule {
        id: "effect/pointless",
        level: Level::Warn,
        summary: "no `idempotency`, `confirm` or `on-timeout` on read-class tools",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let effect = tool.effect.value;
            if !effect.is_read_class() {
                continue;
            }
            let blocks: [(&str, Option<Span>); 3] = [
                ("idempotency", tool.idempotency.as_ref().map(|i| i.span)),
                ("confirm", tool.confirm.as_ref().map(|c| c.span)),
                ("on-timeout", tool.on_timeout.as_ref().map(|o| o.span)),
            ];
            for (block, span) in blocks {
                let Some(span) = span else { continue };
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        span,
                        format!("`{block}` on `{}` tool `{}` protects a side effect it does not have", effect.as_str(), tool.name.value),
                    )
                    .help(format!("remove `{block}`, or fix `effect` if the tool writes")),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::{Confirm, ConfirmDigest, Effect, Idempotency, OnTimeout, Span, TimeoutStrategy};

    #[test]
    fn each_block_on_each_read_class_effect() {
        let tools = Effect::ALL
            .iter()
            .map(|e| {
                let mut t = tool(&format!("a_{}", e.as_str()), *e, vec![], None);
                t.idempotency = Some(Box::new(Idempotency { key: sp("k".into()), scope: vec![], ttl_s: None, span: Span::new(1, 2) }));
                t.confirm = Some(Box::new(Confirm { digest: sp(ConfirmDigest::Arguments), span: Span::new(3, 4) }));
                t.on_timeout = Some(Box::new(OnTimeout { strategy: sp(TimeoutStrategy::RetryWithKey), tool: None, span: Span::new(5, 6) }));
                t
            })
            .collect();
        let f = check(&RULE, catalog(tools, vec![]));
        assert_eq!(f.len(), 9);
        assert!(f.iter().all(|f| ["a_read", "a_external-read", "a_preview"].contains(&f.tool.as_deref().unwrap_or(""))));
    }
}
