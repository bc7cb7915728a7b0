//! The `effect/status-by-key` rule: the `on-timeout "query-status"` tool takes the write's
//! idempotency key; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::{TimeoutStrategy, Tool, TyKind};
use std::collections::HashMap;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that the status tool a write recovers through after a timeout
    /// (`on-timeout "query-status" tool="STATUS"`) can find the operation by the write's
    /// idempotency key: when the write declares `idempotency key="FIELD"`, `STATUS` must have
    /// an input field of that name that is a `string`, as the key is. The status tool is looked
    /// up in every catalog loaded together (one that exists nowhere is
    /// `selection/unknown-tool`'s finding).
    ///
    /// ## Why is this bad?
    /// After a timeout the model has no result, so nothing that the result would have carried
    /// (a transfer number, a reminder id): the one thing it holds that names the operation is
    /// the key it sent. A status tool that cannot be asked by that key can only answer about the
    /// resource as a whole, and the model cannot tell whether *this* call took effect, which is
    /// what decides between telling the user it worked and a retry that would act twice.
    ///
    /// ## Example
    /// ```kdl
    /// tool "note_delete" {
    ///     idempotency key="idempotency_key" scope="tenant" "operation"
    ///     on-timeout "query-status" tool="note_get"
    /// }
    /// tool "note_get" {
    ///     input {
    ///         field "note_reference" "string" required=#true max-length=32
    ///     }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "note_get" {
    ///     input {
    ///         field "note_reference" "string" required=#true max-length=32
    ///         field "idempotency_key" "string" min-length=16 max-length=128 {
    ///             doc "The key of a change that timed out: the answer says whether it happened."
    ///         }
    ///     }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "effect/status-by-key",
        level: Level::Error,
        summary: "the `on-timeout \"query-status\"` tool accepts the write's idempotency key",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// Whether `status` has a string input field named `key`.
fn takes_key(status: &Tool, key: &str) -> bool {
    status
        .input
        .fields
        .iter()
        .any(|f| f.name.value == key && matches!(f.ty.kind, TyKind::String(_)))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    // Indexed once: a tool may recover through a tool of another catalog.
    let mut tools: HashMap<&str, &Tool> = HashMap::new();
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            tools.entry(tool.name.value.as_str()).or_insert(tool);
        }
    }
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let (Some(on_timeout), Some(idem)) = (&tool.on_timeout, &tool.idempotency) else {
                continue;
            };
            let Some(target) = &on_timeout.tool else { continue };
            if on_timeout.strategy.value != TimeoutStrategy::QueryStatus {
                continue;
            }
            let key = &idem.key.value;
            let Some(status) = tools.get(target.value.as_str()) else { continue };
            if takes_key(status, key) {
                continue;
            }
            out.push(
                Finding::in_tool(
                    catalog,
                    tool,
                    target.span,
                    format!("`on-timeout` recovers through `{}`, which cannot be asked by the idempotency key `{key}`", target.value),
                )
                .help(format!(
                    "add `field \"{key}\" \"string\" min-length=16 max-length=128` to the input of `{}`, answering whether the call with that key took effect",
                    target.value
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::lint::Config;
    use crate::model::{Effect, Idempotency, OnTimeout, Span, TimeoutStrategy, Tool};

    fn write(name: &str, status: &str, keyed: bool) -> Tool {
        let mut t = tool(name, Effect::Destructive, vec![], None);
        t.on_timeout = Some(Box::new(OnTimeout {
            strategy: sp(TimeoutStrategy::QueryStatus),
            tool: Some(sp(status.to_string())),
            span: Span::new(0, 0),
        }));
        if keyed {
            t.idempotency = Some(Box::new(Idempotency { key: sp("idempotency_key".into()), scope: vec![], ttl_s: None, span: Span::new(0, 0) }));
        }
        t
    }

    #[test]
    fn the_status_tool_of_any_catalog_takes_the_key_as_a_string() {
        let a = catalog(
            vec![
                write("pay_ok", "status_by_key", true),
                write("pay_no_field", "status_by_reference", true),
                write("pay_wrong_type", "status_by_number", true),
                write("pay_unkeyed", "status_by_reference", false),
                write("pay_unknown", "nowhere", true),
            ],
            vec![],
        );
        let b = catalog(
            vec![
                tool("status_by_key", Effect::Read, vec![field("idempotency_key", bounded_string(128))], None),
                tool("status_by_reference", Effect::Read, vec![field("reference", bounded_string(32))], None),
                tool("status_by_number", Effect::Read, vec![field("idempotency_key", int(Some(0), Some(9)))], None),
            ],
            vec![],
        );
        let f = check_with(&RULE, vec![a, b], &Config::default());
        let names: Vec<_> = f.iter().map(|f| f.tool.clone().unwrap_or_default()).collect();
        assert_eq!(names, ["pay_no_field", "pay_wrong_type"]);
    }
}
