//! The `errors/retry-policy` rule: an error's `retry` is one its class allows; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that an error's `retry` is one its `class` allows (catalog-format.md):
    ///
    /// | class | allowed `retry` (first is the default) |
    /// |---|---|
    /// | `invalid-argument` | `fix-arguments`, `never` |
    /// | `permission-denied` | `never` |
    /// | `not-found` | `never`, `fix-arguments` |
    /// | `conflict`, `precondition-failed`, `business-rejected` | `after-user-action`, `never` |
    /// | `rate-limited`, `unavailable` | `backoff`, `never` |
    /// | `timeout` | `query-status`, `never` |
    /// | `budget-exceeded`, `internal` | `never` |
    ///
    /// Whether `backoff` is safe for the tool is `errors/unsafe-retry`'s question.
    ///
    /// ## Why is this bad?
    /// The retry policy tells the model and the client what to do next. A `permission-denied`
    /// with `retry="backoff"` makes an agent hammer an authorization wall in a loop; an
    /// `internal` error retried repeats a bug; a `timeout` retried blindly repeats a write whose
    /// outcome is unknown.
    ///
    /// ## Example
    /// ```kdl
    /// error "PERMISSION_DENIED" class="permission-denied" retry="backoff"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// error "PERMISSION_DENIED" class="permission-denied" retry="never" {
    ///     next-step "Tell the user they lack access to invoices and who can grant it."
    /// }
    /// ```
    pub static RULE = Rule {
        id: "errors/retry-policy",
        level: Level::Error,
        summary: "an error's `retry` is one its class allows",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            for error in &tool.errors {
                let Some(retry) = &error.retry else { continue };
                let class = error.class.value;
                let allowed = class.allowed_retries();
                if allowed.contains(&retry.value) {
                    continue;
                }
                let list = allowed
                    .iter()
                    .map(|r| format!("`{}`", r.as_str()))
                    .collect::<Vec<_>>()
                    .join(" or ");
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        retry.span,
                        format!(
                            "error `{}` has `retry=\"{}\"`, which class `{}` does not allow",
                            error.code.value,
                            retry.value.as_str(),
                            class.as_str()
                        ),
                    )
                    .help(format!(
                        "write `retry=\"{}\"` (class `{}` allows {list}), or change the class if the error means something else",
                        allowed[0].as_str(),
                        class.as_str()
                    )),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;
    use crate::model::{ErrorClass, Retry};

    #[test]
    fn every_class_accepts_exactly_its_table_row() {
        for class in ErrorClass::ALL {
            for retry in Retry::ALL {
                let mut t = tool("ledger_entry_list");
                t.errors.push(error("SOME_ERROR", class, Some(retry)));
                let found = run(&RULE, vec![t]);
                assert_eq!(
                    found.is_empty(),
                    class.allowed_retries().contains(&retry),
                    "{} {}",
                    class.as_str(),
                    retry.as_str()
                );
            }
        }
    }

    #[test]
    fn reports_a_disallowed_retry_and_ignores_defaults() {
        let mut t = tool("ledger_entry_list");
        t.errors.push(error("PERMISSION_DENIED", ErrorClass::PermissionDenied, Some(Retry::Backoff)));
        t.errors.push(error("LEDGER_BUG", ErrorClass::Internal, None));
        let found = run(&RULE, vec![t]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "error `PERMISSION_DENIED` has `retry=\"backoff\"`, which class `permission-denied` does not allow"
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some("write `retry=\"never\"` (class `permission-denied` allows `never`), or change the class if the error means something else")
        );
    }
}
