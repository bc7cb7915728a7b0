//! Order-insensitive contract hashes for the version check. The published hashes
//! (`hash::tool_hashes`) keep declaration order, because schemas list properties as
//! declared; but reordering fields, errors, enum values or examples is not a change
//! (compat.md), so `breaking` hashes a copy of each tool with every such list sorted.

use crate::hash::{ToolHashes, tool_hashes};
use crate::model::{Catalog, Field, Tool, Ty, TyKind};

fn sort_ty(ty: &mut Ty) {
    match &mut ty.kind {
        TyKind::String(s) | TyKind::Cursor(s) => {
            if let Some(e) = &mut s.enum_values {
                e.values.sort_by(|a, b| a.value.cmp(&b.value));
            }
        }
        TyKind::Array(a) => sort_ty(&mut a.items),
        TyKind::Object(o) => sort_fields(&mut o.fields),
        _ => {}
    }
}

fn sort_fields(fields: &mut [Field]) {
    fields.sort_by(|a, b| a.name.value.cmp(&b.name.value));
    for f in fields {
        sort_ty(&mut f.ty);
    }
}

/// The hashes of `tool` with every order-only difference removed.
pub fn order_insensitive_hashes(cat: &Catalog, tool: &Tool) -> ToolHashes {
    let mut cat = Catalog {
        tools: Vec::new(),
        ..cat.clone()
    };
    cat.types.sort_by(|a, b| a.name.value.cmp(&b.name.value));
    for t in &mut cat.types {
        sort_fields(&mut t.fields);
    }
    let mut t = tool.clone();
    sort_fields(&mut t.input.fields);
    if let Some(o) = &mut t.output {
        sort_fields(&mut o.fields);
    }
    t.errors.sort_by(|a, b| a.code.value.cmp(&b.code.value));
    t.needs_input
        .sort_by(|a, b| a.name.value.cmp(&b.name.value));
    if let Some(i) = &mut t.idempotency {
        i.scope.sort_by(|a, b| a.value.cmp(&b.value));
    }
    for list in [
        &mut t.examples.calls,
        &mut t.examples.no_calls,
        &mut t.examples.confusables,
    ] {
        list.sort_by(|a, b| a.value.cmp(&b.value));
    }
    tool_hashes(&cat, &t)
}
