//! The `errors/unsafe-retry` rule: `retry="backoff"` (written or by class default) only on a tool
//! safe to retry; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::Retry;

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports an error whose retry policy is `backoff` on a tool that is not safe to retry: an
    /// `append` or `destructive` tool without `idempotency`. Both an explicit `retry="backoff"`
    /// and the class default count: `rate-limited` and `unavailable` default to `backoff`, so an
    /// error of those classes without `retry=` on such a tool is reported too (the client would
    /// retry it all the same).
    ///
    /// The check does not spare `rate-limited`: a throttled call usually did nothing, but the
    /// catalog cannot prove that for every gateway in front of the server, and the cure is the
    /// same: `idempotency`, or `retry="never"`.
    ///
    /// ## Why is this bad?
    /// `backoff` tells clients and agents to send the same call again after a pause. For a tool
    /// that appends or destroys without an idempotency key, a call that failed midway may already
    /// have taken effect: retrying it sends the payment or the message twice.
    ///
    /// ## Example
    /// ```kdl
    /// tool "reminder_send" version="1.0.0" {
    ///     effect "destructive"
    ///     // … no idempotency
    ///     error "MAIL_UNAVAILABLE" class="unavailable" retry="backoff"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "reminder_send" version="1.0.0" {
    ///     effect "destructive"
    ///     idempotency key="idempotency_key" scope="tenant" ttl-s=86400
    ///     // …
    ///     error "MAIL_UNAVAILABLE" class="unavailable" retry="backoff"
    /// }
    /// ```
    pub static RULE = Rule {
        id: "errors/unsafe-retry",
        level: Level::Error,
        summary: "`retry=\"backoff\"` (written or by class default) only on a tool safe to retry",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            if tool.safe_to_retry() {
                continue;
            }
            for error in &tool.errors {
                if error.retry() != Retry::Backoff {
                    continue;
                }
                let (span, how) = match &error.retry {
                    Some(r) => (r.span, "has `retry=\"backoff\"`"),
                    None => (
                        error.class.span,
                        "retries with `backoff` (the default of its class)",
                    ),
                };
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        span,
                        format!(
                            "error `{}` {how}, but tool `{}` (effect `{}`, no `idempotency`) is not safe to retry",
                            error.code.value,
                            tool.name.value,
                            tool.effect.value.as_str()
                        ),
                    )
                    .help("add `idempotency key=\"…\"` to the tool so a retry cannot repeat the effect, or write `retry=\"never\"` on this error"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;
    use crate::model::*;

    fn with_errors(name: &str, effect: Effect, errors: Vec<ErrorDef>) -> Tool {
        let mut t = tool(name);
        t.effect = sp(effect);
        t.errors = errors;
        t
    }

    #[test]
    fn reports_explicit_and_default_backoff_on_unsafe_tools_only() {
        let unsafe_errors = || {
            vec![
                error("MAIL_DOWN", ErrorClass::Unavailable, Some(Retry::Backoff)),
                error("THROTTLED", ErrorClass::RateLimited, None),
                error("MAIL_GONE", ErrorClass::Unavailable, Some(Retry::Never)),
                error("BAD_ADDRESS", ErrorClass::InvalidArgument, None),
            ]
        };
        let mut keyed = with_errors("payment_send", Effect::Destructive, unsafe_errors());
        keyed.idempotency = Some(Box::new(Idempotency {
            key: sp("idempotency_key".into()),
            scope: vec![],
            ttl_s: None,
            span: Span::default(),
        }));
        let found = run(
            &RULE,
            vec![
                with_errors("reminder_send", Effect::Destructive, unsafe_errors()),
                with_errors("note_append", Effect::Append, unsafe_errors()),
                with_errors("note_update", Effect::Update, unsafe_errors()),
                with_errors("note_list", Effect::Read, unsafe_errors()),
                keyed,
            ],
        );
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "error `MAIL_DOWN` has `retry=\"backoff\"`, but tool `reminder_send` (effect `destructive`, no `idempotency`) is not safe to retry",
                "error `THROTTLED` retries with `backoff` (the default of its class), but tool `reminder_send` (effect `destructive`, no `idempotency`) is not safe to retry",
                "error `MAIL_DOWN` has `retry=\"backoff\"`, but tool `note_append` (effect `append`, no `idempotency`) is not safe to retry",
                "error `THROTTLED` retries with `backoff` (the default of its class), but tool `note_append` (effect `append`, no `idempotency`) is not safe to retry",
            ]
        );
    }
}
