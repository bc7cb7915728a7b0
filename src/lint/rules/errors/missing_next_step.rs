//! The `errors/missing-next-step` rule: an error that is never retried says what to do next
//! (`next-step`); [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::Retry;

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports an error whose effective retry policy is `never` (written, or the default of
    /// `permission-denied`, `not-found`, `budget-exceeded` and `internal`) and that has no
    /// (non-blank) `next-step`.
    ///
    /// ## Why is this bad?
    /// `retry="never"` tells the model that trying again is useless, and nothing else: without a
    /// next step it apologises vaguely or invents a workaround. A next step ("Ask the user for
    /// the invoice reference", "Tell the user who can grant access") turns a dead end into
    /// something the model can act on.
    ///
    /// ## Example
    /// ```kdl
    /// error "PERMISSION_DENIED" class="permission-denied"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// error "PERMISSION_DENIED" class="permission-denied" {
    ///     next-step "Tell the user they lack billing access; an administrator can grant it."
    /// }
    /// ```
    pub static RULE = Rule {
        id: "errors/missing-next-step",
        level: Level::Info,
        summary: "an error that is never retried says what to do next (`next-step`)",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            for error in &tool.errors {
                let has_step = error
                    .next_step
                    .as_ref()
                    .is_some_and(|s| !s.value.trim().is_empty());
                if error.retry() != Retry::Never || has_step {
                    continue;
                }
                let why = if error.retry.is_some() {
                    "has `retry=\"never\"`"
                } else {
                    "is never retried (the default of its class)"
                };
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        error.code.span,
                        format!("error `{}` {why} and has no `next-step`", error.code.value),
                    )
                    .help("add `next-step \"…\"` saying what the model should do instead: ask the user for something, tell them who can help, or use another tool"),
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

    #[test]
    fn reports_never_retried_errors_without_next_step() {
        let mut t = tool("invoice_get");
        let mut with_step = error("FORBIDDEN", ErrorClass::PermissionDenied, None);
        with_step.next_step = s("Tell the user who can grant access.");
        let mut blank_step = error("GONE", ErrorClass::NotFound, Some(Retry::Never));
        blank_step.next_step = s(" ");
        t.errors = vec![
            error("BUG", ErrorClass::Internal, None),
            with_step,
            blank_step,
            error("BAD_STATUS", ErrorClass::InvalidArgument, None),
            error("BAD_REFERENCE", ErrorClass::InvalidArgument, Some(Retry::Never)),
            error("DOWN", ErrorClass::Unavailable, None),
        ];
        let found = run(&RULE, vec![t]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "error `BUG` is never retried (the default of its class) and has no `next-step`",
                "error `GONE` has `retry=\"never\"` and has no `next-step`",
                "error `BAD_REFERENCE` has `retry=\"never\"` and has no `next-step`",
            ]
        );
    }
}
