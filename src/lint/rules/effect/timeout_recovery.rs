//! The `effect/timeout-recovery` rule: `destructive`/`append` tools declare `on-timeout`,
//! recovering through a read tool; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::{Effect, TimeoutStrategy};
use std::collections::HashMap;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that the outcome of a write can be recovered after a timeout:
    /// - a `destructive` or `append` tool must declare `on-timeout`, unless its effect is declared
    ///   `idempotent=#true` (calling again is then the recovery, as for `update`);
    /// - `on-timeout "query-status"` must name, with `tool=`, a read-class tool (`read`,
    ///   `external-read`, `preview`), looked up in every catalog loaded together (a name that
    ///   exists nowhere is `selection/unknown-tool`'s finding, not this rule's);
    /// - `on-timeout "retry-with-key"` needs the tool's `idempotency`, or there is no key to
    ///   retry with.
    ///
    /// ## Why is this bad?
    /// After a timeout the outcome is unknown. Without a stated recovery the model either gives
    /// up on a write that happened or repeats one that did; a "status" tool that itself writes
    /// turns the recovery into a second side effect.
    ///
    /// ## Example
    /// ```kdl
    /// effect "destructive"
    /// on-timeout "query-status" tool="payment_transfer_submit"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// effect "destructive"
    /// on-timeout "query-status" tool="payment_transfer_status"
    /// ```
    pub static RULE = Rule {
        id: "effect/timeout-recovery",
        level: Level::Error,
        summary: "`destructive`/`append` tools declare `on-timeout`, recovering through a read tool",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    // Indexed once: tools may recover through a tool of another catalog.
    let mut effects: HashMap<&str, Effect> = HashMap::new();
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            effects.entry(tool.name.value.as_str()).or_insert(tool.effect.value);
        }
    }
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let name = &tool.name.value;
            let Some(on_timeout) = &tool.on_timeout else {
                // A naturally idempotent write recovers by calling again, like `update`.
                if matches!(tool.effect.value, Effect::Append | Effect::Destructive) && !tool.naturally_idempotent() {
                    out.push(
                        Finding::in_tool(
                            catalog,
                            tool,
                            tool.effect.span,
                            format!("`{}` tool `{name}` has no `on-timeout`", tool.effect.value.as_str()),
                        )
                        .help(if crate::lint::shared::reads_idempotent(tool) {
                            "a repeated call of this write likely changes nothing (a delete by id, a state set): add `idempotent=#true` to `effect`, and a timeout is recovered by calling again; otherwise add `on-timeout \"query-status\" tool=\"<read tool>\"`, or `on-timeout \"retry-with-key\"` with `idempotency`"
                        } else {
                            "add `on-timeout \"query-status\" tool=\"<read tool>\"`, or `on-timeout \"retry-with-key\"` with `idempotency`"
                        }),
                    );
                }
                continue;
            };
            match (&on_timeout.strategy.value, &on_timeout.tool) {
                (_, Some(target)) => {
                    if let Some(effect) = effects.get(target.value.as_str())
                        && !effect.is_read_class()
                    {
                        out.push(
                            Finding::in_tool(
                                catalog,
                                tool,
                                target.span,
                                format!("`on-timeout` recovers through `{}`, a `{}` tool: querying the status would write", target.value, effect.as_str()),
                            )
                            .help("name a read-class tool (`read`, `external-read`, `preview`) that reports the outcome"),
                        );
                    }
                }
                (TimeoutStrategy::QueryStatus, None) => out.push(
                    Finding::in_tool(catalog, tool, on_timeout.strategy.span, "`on-timeout \"query-status\"` names no tool to query")
                        .help("add `tool=\"<read tool>\"` naming the tool that reports the outcome"),
                ),
                (TimeoutStrategy::RetryWithKey, None) => {}
            }
            if on_timeout.strategy.value == TimeoutStrategy::RetryWithKey && tool.idempotency.is_none() {
                out.push(
                    Finding::in_tool(catalog, tool, on_timeout.strategy.span, format!("`on-timeout \"retry-with-key\"` but tool `{name}` has no `idempotency` key"))
                        .help("add `idempotency key=\"idempotency_key\" ...`, or recover with `on-timeout \"query-status\" tool=...`"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::lint::Config;
    use crate::model::{Effect, Idempotency, OnTimeout, Span, TimeoutStrategy, Tool};

    fn on(strategy: TimeoutStrategy, target: Option<&str>) -> Option<OnTimeout> {
        Some(OnTimeout { strategy: sp(strategy), tool: target.map(|t| sp(t.to_string())), span: Span::new(0, 0) })
    }

    fn write(name: &str, effect: Effect, on_timeout: Option<OnTimeout>) -> Tool {
        let mut t = tool(name, effect, vec![], None);
        t.on_timeout = on_timeout.map(Box::new);
        t
    }

    #[test]
    fn writes_need_recovery_through_a_read_tool_of_any_catalog() {
        use TimeoutStrategy::*;
        let mut keyed = write("pay_retry", Effect::Destructive, on(RetryWithKey, None));
        keyed.idempotency = Some(Box::new(Idempotency { key: sp("k".into()), scope: vec![], ttl_s: None, span: Span::new(0, 0) }));
        let mut natural = write("file_delete", Effect::Destructive, None);
        natural.idempotent = Some(Box::new(sp(true)));
        let a = catalog(
            vec![
                write("pay_none", Effect::Destructive, None),
                write("note_none", Effect::Append, None),
                write("doc_update", Effect::Update, None),
                write("pay_ok", Effect::Destructive, on(QueryStatus, Some("pay_status"))),
                write("pay_bad", Effect::Append, on(QueryStatus, Some("doc_update"))),
                write("pay_elsewhere", Effect::Append, on(QueryStatus, Some("other_write"))),
                write("pay_unknown", Effect::Append, on(QueryStatus, Some("nowhere"))),
                write("pay_notool", Effect::Append, on(QueryStatus, None)),
                write("pay_nokey", Effect::Append, on(RetryWithKey, None)),
                keyed,
                natural,
            ],
            vec![],
        );
        let b = catalog(
            vec![write("pay_status", Effect::Read, None), write("other_write", Effect::Update, None)],
            vec![],
        );
        let f = check_with(&RULE, vec![a, b], &Config::default());
        let names: Vec<_> = f.iter().map(|f| f.tool.clone().unwrap_or_default()).collect();
        assert_eq!(names, ["pay_none", "note_none", "pay_bad", "pay_elsewhere", "pay_notool", "pay_nokey"]);
    }
}
