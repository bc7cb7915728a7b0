//! The `naming/error-code` rule: error codes are UPPER_SNAKE_CASE; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every error code is UPPER_SNAKE_CASE: uppercase words joined by `_`, matching
    /// `^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`.
    ///
    /// ## Why is this bad?
    /// Error codes are the stable identifiers callers and the model branch on. A single style
    /// keeps them recognizable as codes inside tool results and logs, and keeps clients from
    /// matching `InvalidStatus` in one tool and `INVALID_STATUS` in another.
    ///
    /// ## Example
    /// ```kdl
    /// error "invalidStatus" class="invalid-argument"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// error "INVALID_STATUS" class="invalid-argument"
    /// ```
    pub static RULE = Rule {
        id: "naming/error-code",
        level: Level::Error,
        summary: "error codes are UPPER_SNAKE_CASE",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// `^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`.
fn is_upper_snake(code: &str) -> bool {
    code.starts_with(|c: char| c.is_ascii_uppercase())
        && code
            .split('_')
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            for error in &tool.errors {
                let code = &error.code.value;
                if is_upper_snake(code) {
                    continue;
                }
                let fixed = crate::names::screaming_snake_case(code);
                out.push(
                    Finding::in_tool(catalog, tool, error.code.span, format!("error code `{code}` is not UPPER_SNAKE_CASE"))
                        .path(format!("errors.{code}"))
                        .help(format!("write it as uppercase words joined by `_`, e.g. `{fixed}`")),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_upper_snake;

    #[test]
    fn upper_snake_case() {
        for good in ["NOT_FOUND", "E1", "HTTP_502_UPSTREAM"] {
            assert!(is_upper_snake(good), "{good}");
        }
        for bad in ["notFound", "Not_Found", "NOT-FOUND", "_NOT", "NOT__FOUND", "1ERROR", "not_found"] {
            assert!(!is_upper_snake(bad), "{bad}");
        }
    }
}
