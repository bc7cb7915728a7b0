//! The `errors/undeclared` rule: every tool declares the errors it can return; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports a tool that declares no `error` at all.
    ///
    /// ## Why is this bad?
    /// Every tool can fail. Without declared errors, callers and the model cannot tell a wrong
    /// argument from a missing resource or an outage, so they cannot decide whether to fix the
    /// arguments, ask the user, wait, or give up, and the generated code has no error codes to
    /// match on.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_get" version="1.0.0" {
    ///     // … no error
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_get" version="1.0.0" {
    ///     // …
    ///     error "INVOICE_NOT_FOUND" class="not-found" {
    ///         next-step "Ask the user to check the invoice reference."
    ///     }
    ///     error "BILLING_UNAVAILABLE" class="unavailable" retry="backoff"
    /// }
    /// ```
    pub static RULE = Rule {
        id: "errors/undeclared",
        level: Level::Info,
        summary: "every tool declares the errors it can return",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            if !tool.errors.is_empty() {
                continue;
            }
            out.push(
                Finding::in_tool(
                    catalog,
                    tool,
                    tool.name.span,
                    format!("tool `{}` declares no error", tool.name.value),
                )
                .help("declare the ways it fails, e.g. `error \"INVOICE_NOT_FOUND\" class=\"not-found\"` and `error \"BILLING_UNAVAILABLE\" class=\"unavailable\" retry=\"backoff\"`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;
    use crate::model::ErrorClass;

    #[test]
    fn reports_tools_without_errors() {
        let mut with = tool("invoice_get");
        with.errors.push(error("NOT_FOUND", ErrorClass::NotFound, None));
        let found = run(&RULE, vec![with, tool("invoice_list")]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(messages, ["tool `invoice_list` declares no error"]);
    }
}
