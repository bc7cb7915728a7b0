//! ## What it does
//! Checks that every field name (input, output, named types, any depth) is snake_case —
//! lowercase words joined by `_`, matching `^[a-z][a-z0-9]*(_[a-z0-9]+)*$` — and at most 64
//! characters long.
//!
//! ## Why is this bad?
//! Field names become JSON Schema property names the model writes verbatim. Mixed styles in
//! one catalog (`invoiceId` here, `invoice_id` there) make the model guess the spelling, and
//! a guessed spelling is an argument the closed schema rejects. Long names cost tokens on
//! every call.
//!
//! ## Example
//! ```kdl
//! field "invoiceReference" "string" max-length=32
//! ```
//!
//! ## Use instead
//! ```kdl
//! field "invoice_reference" "string" max-length=32
//! ```

use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding, Rule};

/// The `naming/field-name` rule: field names are snake_case, at most 64 characters; the module
/// documentation explains it.
pub static RULE: Rule = Rule {
    id: "naming/field-name",
    level: Level::Error,
    summary: "field names are snake_case, at most 64 characters",
    hooks: crate::lint::Hooks::declaration(check),
    source: include_str!("field_name.rs"),
};

pub(crate) const MAX_LEN: usize = 64;

/// `^[a-z][a-z0-9]*(_[a-z0-9]+)*$`.
fn is_snake_case(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .split('_')
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let catalog = site.catalog;
    let Some(field) = site.field else { return };
    let name = &field.name.value;
    let problem = if !is_snake_case(name) {
        format!("field name `{name}` is not snake_case")
    } else if name.len() > MAX_LEN {
        format!("field name `{name}` is {} characters long, over {MAX_LEN}", name.len())
    } else {
        return;
    };
    let finding = match site.tool {
        Some(tool) => Finding::in_tool(catalog, tool, field.name.span, problem),
        None => Finding::in_catalog(catalog, field.name.span, problem),
    };
    out.push(
        finding
            .path(site.path)
            .help(format!("write it as lowercase words joined by `_`, at most {MAX_LEN} characters, e.g. `{}`", crate::names::snake_case(name))),
    );
}

#[cfg(test)]
mod tests {
    use super::is_snake_case;

    #[test]
    fn snake_case() {
        for good in ["a", "amount_minor", "line2_total", "x1"] {
            assert!(is_snake_case(good), "{good}");
        }
        for bad in ["Amount", "amountMinor", "amount-minor", "_amount", "amount_", "amount__minor", "2fa", ""] {
            assert!(!is_snake_case(bad), "{bad}");
        }
    }
}
