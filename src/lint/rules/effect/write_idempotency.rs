//! The `effect/write-idempotency` rule: `append` and `destructive` tools declare `idempotency`;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::Effect;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags an `append` or `destructive` tool without `idempotency`. (`update` is idempotent by
    /// definition: the same arguments give the same end state; so is an `append` or `destructive`
    /// tool declared `effect "…" idempotent=#true`, such as a delete by name or an upsert by
    /// natural key, which needs no key.)
    ///
    /// ## Why is this bad?
    /// Clients and models retry after timeouts and dropped connections. Without an idempotency
    /// key a retried `append` creates a second order and a retried `destructive` call sends the
    /// payment twice.
    ///
    /// ## Example
    /// ```kdl
    /// effect "append"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// effect "append"
    /// idempotency key="idempotency_key" scope="tenant" "operation" ttl-s=86400
    /// ```
    pub static RULE = Rule {
        id: "effect/write-idempotency",
        level: Level::Error,
        summary: "`append` and `destructive` tools declare `idempotency`",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let effect = tool.effect.value;
            if matches!(effect, Effect::Append | Effect::Destructive) && tool.idempotency.is_none() && !tool.naturally_idempotent() {
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        tool.effect.span,
                        format!("`{}` tool `{}` has no `idempotency`: a retry repeats the side effect", effect.as_str(), tool.name.value),
                    )
                    .help(if crate::lint::shared::reads_idempotent(tool) {
                        "a repeated call of this write likely changes nothing (a delete by id, a state set): add `idempotent=#true` to `effect`; otherwise add `idempotency key=\"idempotency_key\" scope=\"tenant\" \"operation\"` and a required `idempotency_key` string input"
                    } else {
                        "add `idempotency key=\"idempotency_key\" scope=\"tenant\" \"operation\"` and a required `idempotency_key` string input, or `idempotent=#true` on `effect` when a repeated call changes nothing (a delete by name, an upsert by natural key)"
                    }),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::{Effect, Idempotency, Span};

    #[test]
    fn append_and_destructive_need_idempotency() {
        let mut keyed = tool("a_keyed", Effect::Destructive, vec![], None);
        keyed.idempotency = Some(Box::new(Idempotency { key: sp("k".into()), scope: vec![], ttl_s: None, span: Span::new(0, 0) }));
        let mut natural = tool("a_natural", Effect::Destructive, vec![], None);
        natural.idempotent = Some(Box::new(sp(true)));
        let mut not_natural = tool("a_not_natural", Effect::Append, vec![], None);
        not_natural.idempotent = Some(Box::new(sp(false)));
        let tools = Effect::ALL.iter().map(|e| tool(&format!("a_{}", e.as_str()), *e, vec![], None)).chain([keyed, natural, not_natural]).collect();
        let f = check(&RULE, catalog(tools, vec![]));
        let names: Vec<_> = f.iter().map(|f| f.tool.clone().unwrap_or_default()).collect();
        assert_eq!(names, ["a_append", "a_destructive", "a_not_natural"]);
    }
}
