//! ## What it does
//! Checks that every named `type` is used by some tool, directly (`field "x" "Invoice"`,
//! `items "Invoice"`) or through another type that a tool uses. A type used only by other
//! unused types is unused too.
//!
//! ## Why is this bad?
//! An unused type is dead text: it is not part of any schema the model or a client sees, yet
//! readers of the catalog assume it is, and it drifts out of date unnoticed. Usually it is a
//! leftover of a removed tool or a field that was meant to use it.
//!
//! ## Example
//! ```kdl
//! type "LegacyInvoice" {
//!     field "number" "string" max-length=32 { doc "Old invoice number." }
//! }
//! ```
//!
//! ## Use instead
//! ```kdl
//! // Remove the type, or use it from a tool:
//! field "invoice" "LegacyInvoice" { doc "The invoice." }
//! ```

use crate::diag::Level;
use crate::lint::{Context, Finding, Rule, walk};
use crate::model::TyKind;
use std::collections::BTreeSet;

pub static RULE: Rule = Rule {
    id: "catalog/unused-type",
    level: Level::Warn,
    summary: "every named type is used by a tool",
    check,
    source: include_str!("unused_type.rs"),
};

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        // The resolving walker enters named types where tools use them, so every type reached
        // from a tool, at any depth, is seen once per use.
        let mut used = BTreeSet::new();
        for tool in &catalog.tools {
            walk::tool_fields(catalog, tool, &mut |site| {
                if let TyKind::Named(name) = &site.ty.kind {
                    used.insert(name.value.clone());
                }
            });
        }
        for ty in &catalog.types {
            if used.contains(&ty.name.value) {
                continue;
            }
            out.push(
                Finding::in_catalog(catalog, ty.name.span, format!("type `{}` is not used by any tool", ty.name.value))
                    .path(ty.name.value.clone())
                    .help("remove the type, or use it as the type of a field or of an array's `items`"),
            );
        }
    }
}
