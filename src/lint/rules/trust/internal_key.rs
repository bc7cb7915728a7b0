//! ## What it does
//! Flags input fields, at any depth, named `id` or ending in the word `id` (`order_id`,
//! `orderId`) of type `integer`, and arrays of integers named `ids` or `…_ids`.
//!
//! ## Why is this bad?
//! An integer database key is something the user never sees and the model cannot know, so it
//! guesses or enumerates (`order_id=1, 2, 3…`), which also invites insecure direct object
//! references. Accept a reference the user knows (`order_reference`, an invoice number) or
//! an opaque string identifier returned by another tool.
//!
//! ## Example
//! ```kdl
//! field "order_id" "integer" required=#true min=1 max=2147483647
//! ```
//!
//! ## Use instead
//! ```kdl
//! field "order_reference" "string" required=#true max-length=32 pattern="^ORD-[0-9]+$"
//! ```

use crate::names::words;
use crate::diag::Level;
use crate::lint::walk::site_finding;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding, Rule};
use crate::model::TyKind;

/// The `trust/internal-key` rule: input `id` / `*_id` fields are not integer database keys; the
/// module documentation explains it.
pub static RULE: Rule = Rule {
    id: "trust/internal-key",
    level: Level::Warn,
    summary: "input `id` / `*_id` fields are not integer database keys",
    hooks: crate::lint::Hooks::use_site(check),
    source: include_str!("internal_key.rs"),
};

fn is_integer_key(name: &str, kind: &TyKind) -> bool {
    let w = words(name);
    match (w.last().map(String::as_str), kind) {
        (Some("id"), TyKind::Integer(_)) => true,
        (Some("ids"), TyKind::Array(a)) => matches!(a.items.kind, TyKind::Integer(_)),
        _ => false,
    }
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    if site.side != Some(Side::Input) {
        return;
    }
    let Some(field) = site.field else { return };
    if !is_integer_key(&field.name.value, &site.ty.kind) {
        return;
    }
    out.push(
        site_finding(site, field.name.span, format!("input field `{}` takes an integer key", site.path))
            .help("take a reference the user knows (`order_reference`) or an opaque string id another tool returned"),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::is_integer_key;

    #[test]
    fn integer_ids_only() {
        let i = int(Some(1), Some(9));
        assert!(is_integer_key("id", &i));
        assert!(is_integer_key("order_id", &i));
        assert!(is_integer_key("orderId", &i));
        assert!(is_integer_key("order_ids", &array(i.clone(), Some(3))));
        assert!(!is_integer_key("order_id", &bounded_string(9)));
        assert!(!is_integer_key("order_ids", &array(bounded_string(9), Some(3))));
        assert!(!is_integer_key("paid", &i));
        assert!(!is_integer_key("identity_count", &i));
        assert!(!is_integer_key("ids", &i));
    }
}
