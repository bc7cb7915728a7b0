//! The `effect/idempotency-key` rule: `idempotency key=` names a required, bounded string input
//! field; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::string_is_bounded;
use crate::lint::{Context, Finding};
use crate::model::{Field, TyKind};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that `idempotency key="FIELD"` names a top-level input field that is
    /// `required=#true` and a bounded `string` (with `max-length`, an `enum` or a bounded
    /// `format` such as `uuid`).
    ///
    /// ## Why is this bad?
    /// A key that names no field, or an optional one, means calls arrive without a key and
    /// retries are not deduplicated after all; an unbounded key lets a caller store arbitrary
    /// data in the deduplication table.
    ///
    /// ## Example
    /// ```kdl
    /// idempotency key="request_id" scope="tenant"
    /// input {
    ///     field "idempotency_key" "string" max-length=128
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// idempotency key="idempotency_key" scope="tenant"
    /// input {
    ///     field "idempotency_key" "string" required=#true min-length=16 max-length=128
    /// }
    /// ```
    pub static RULE = Rule {
        id: "effect/idempotency-key",
        level: Level::Error,
        summary: "`idempotency key=` names a required, bounded string input field",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// What is wrong with the key field, if anything.
fn problem(field: Option<&Field>) -> Option<&'static str> {
    let Some(field) = field else {
        return Some("names no input field");
    };
    match &field.ty.kind {
        TyKind::String(s) if string_is_bounded(s) => {}
        TyKind::String(_) => return Some("names an unbounded string field"),
        _ => return Some("names a field that is not a string"),
    }
    if !field.required {
        return Some("names an optional field");
    }
    None
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let Some(idem) = &tool.idempotency else { continue };
            let key = &idem.key.value;
            let field = tool.input.fields.iter().find(|f| &f.name.value == key);
            let Some(why) = problem(field) else { continue };
            out.push(
                Finding::in_tool(catalog, tool, idem.key.span, format!("`idempotency key=\"{key}\"` {why}"))
                    .help(format!("declare `field \"{key}\" \"string\" required=#true min-length=16 max-length=128` in `input`")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::problem;
    use crate::model::TyKind;

    #[test]
    fn key_field_shape() {
        let required = |kind| {
            let mut f = field("k", kind);
            f.required = true;
            f
        };
        assert_eq!(problem(Some(&required(bounded_string(128)))), None);
        assert_eq!(problem(None), Some("names no input field"));
        assert_eq!(problem(Some(&field("k", bounded_string(128)))), Some("names an optional field"));
        assert_eq!(problem(Some(&required(string()))), Some("names an unbounded string field"));
        assert_eq!(problem(Some(&required(int(Some(0), Some(9))))), Some("names a field that is not a string"));
        assert_eq!(problem(Some(&required(TyKind::Cursor(Default::default())))), Some("names a field that is not a string"));
    }
}
