//! The `errors/existence-leak` rule: no tool declares both `not-found` and `permission-denied`;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::ErrorClass;

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports a tool that declares both a `not-found` and a `permission-denied` error.
    ///
    /// ## Why is this bad?
    /// When "no such invoice" and "you may not see this invoice" are different answers, anyone
    /// can learn which invoice references exist by asking for them: the difference itself leaks
    /// what the caller is not allowed to know. A resource the principal may not see should look
    /// exactly like one that does not exist.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_get" version="1.0.0" {
    ///     // …
    ///     error "INVOICE_NOT_FOUND" class="not-found"
    ///     error "INVOICE_FORBIDDEN" class="permission-denied"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_get" version="1.0.0" {
    ///     // …
    ///     error "INVOICE_NOT_FOUND" class="not-found" {
    ///         message "No invoice with this reference is visible to you."
    ///     }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "errors/existence-leak",
        level: Level::Warn,
        summary: "no tool declares both `not-found` and `permission-denied`",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let first = |class| tool.errors.iter().find(|e| e.class.value == class);
            let (Some(missing), Some(denied)) = (
                first(ErrorClass::NotFound),
                first(ErrorClass::PermissionDenied),
            ) else {
                continue;
            };
            // Point at whichever comes second: the declaration that creates the difference.
            let later = if missing.span.start > denied.span.start { missing } else { denied };
            out.push(
                Finding::in_tool(
                    catalog,
                    tool,
                    later.class.span,
                    format!(
                        "tool `{}` answers `{}` (not-found) and `{}` (permission-denied) apart, which tells a caller that a resource it may not see exists",
                        tool.name.value, missing.code.value, denied.code.value
                    ),
                )
                .help(format!(
                    "answer `{}` for resources the caller may not see, as if they did not exist, and drop `{}` (keep permission-denied only for tools the caller may not use at all, in a tool without not-found)",
                    missing.code.value, denied.code.value
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;
    use crate::model::*;

    #[test]
    fn reports_tools_with_both_classes() {
        let mut both = tool("invoice_get");
        both.errors = vec![
            error("INVOICE_NOT_FOUND", ErrorClass::NotFound, None),
            error("INVOICE_FORBIDDEN", ErrorClass::PermissionDenied, None),
        ];
        let mut denied_only = tool("invoice_list");
        denied_only.errors = vec![error("FORBIDDEN", ErrorClass::PermissionDenied, None)];
        let mut missing_only = tool("invoice_find");
        missing_only.errors = vec![error("NOT_FOUND", ErrorClass::NotFound, None)];
        let found = run(&RULE, vec![both, denied_only, missing_only]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].tool.as_deref(), Some("invoice_get"));
        assert!(found[0].message.contains("`INVOICE_NOT_FOUND` (not-found) and `INVOICE_FORBIDDEN`"));
    }
}
