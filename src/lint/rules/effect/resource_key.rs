//! The `effect/resource-key` rule: `resource key=` is on a write tool and names a required,
//! top-level scalar input field; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::{Catalog, Field, Resource, Tool, TyKind};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that `resource key="FIELD"` is declared on a write tool (any effect but
    /// `read`, `external-read` and `preview`) and names a top-level input field that is
    /// `required=#true` and a scalar: `string`, `integer`, `number`, `boolean`, `timestamp`
    /// or `cursor`.
    ///
    /// ## Why is this bad?
    /// The server runs the writes on one resource value one at a time, keyed by that
    /// field's value. A key naming no field, an optional field or a structured one leaves
    /// calls without a value, and they are not serialized at all: the writes the
    /// declaration promises to keep apart race after all. On a read-only tool the
    /// declaration only slows reads down, which never need it.
    ///
    /// ## Example
    /// ```kdl
    /// effect "update"
    /// resource key="invoice"
    /// input {
    ///     field "invoice_reference" "string" required=#true max-length=32
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// effect "update"
    /// resource key="invoice_reference"
    /// input {
    ///     field "invoice_reference" "string" required=#true max-length=32
    /// }
    /// ```
    pub static RULE = Rule {
        id: "effect/resource-key",
        level: Level::Error,
        summary: "`resource key=` is on a write tool and names a required scalar input field",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// What is wrong with the resource field, if anything.
fn problem(field: Option<&Field>) -> Option<&'static str> {
    let kind = &field?.ty.kind;
    let scalar = matches!(
        kind,
        TyKind::String(_) | TyKind::Integer(_) | TyKind::Number(_) | TyKind::Boolean | TyKind::Timestamp | TyKind::Cursor(_)
    );
    if !scalar {
        Some("names a field that is not a scalar")
    } else if !field?.required {
        Some("names an optional field")
    } else {
        None
    }
}

/// The finding for `tool`'s `resource`, if it has a problem: on a read, or its field's.
fn finding(catalog: &Catalog, tool: &Tool, resource: &Resource) -> Option<Finding> {
    let key = &resource.key.value;
    if !tool.effect.value.is_write() {
        let effect = tool.effect.value.as_str();
        return Some(
            Finding::in_tool(catalog, tool, resource.span, format!("`resource key=\"{key}\"` on a `{effect}` tool"))
                .help("remove `resource`: only writes are serialized, reads always run in parallel"),
        );
    }
    let field = tool.input.fields.iter().find(|f| &f.name.value == key);
    let why = if field.is_none() { "names no top-level input field" } else { problem(field)? };
    let example = format!("field \"{key}\" \"string\" required=#true max-length=64");
    Some(
        Finding::in_tool(catalog, tool, resource.key.span, format!("`resource key=\"{key}\"` {why}"))
            .help(format!("name a top-level required input field of a scalar type, e.g. `{example}`")),
    )
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let tools = cx.project.catalogs.iter().flat_map(|c| c.tools.iter().map(move |t| (c, t)));
    for (catalog, tool) in tools {
        if let Some(f) = tool.resource.as_deref().and_then(|r| finding(catalog, tool, r)) {
            out.push(f);
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
        for ok in [required("k", bounded_string(128)), required("k", int(Some(0), Some(9))), required("k", TyKind::Boolean)] {
            assert_eq!(problem(Some(&ok)), None);
        }
        assert_eq!(problem(Some(&field("k", bounded_string(128)))), Some("names an optional field"));
        assert_eq!(problem(Some(&required("k", TyKind::Json))), Some("names a field that is not a scalar"));
    }
}
