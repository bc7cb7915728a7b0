//! Order-insensitive contract hashes for the version check. The published hashes
//! ([`crate::contract::Artifacts`]) keep declaration order, because schemas list properties as
//! declared; but reordering fields, errors, enum values or examples is not a change
//! (docs/compatibility.md), so `breaking` hashes a copy of each tool with every such list sorted.
//! It compares what those hashes are taken over first ([`Comparable`]): canonicalising and
//! hashing every tool of both sides was most of its time, and an unchanged tool's inputs are
//! equal byte for byte.

use crate::contract::{HashInputs, TemplateError, Templates, ToolHashes};
use crate::model::{Catalog, Field, Tool, Ty, TyKind};
use std::sync::OnceLock;

fn sort_ty(ty: &mut Ty) {
    match &mut ty.kind {
        TyKind::String(s) | TyKind::Cursor(s) => {
            if let Some(e) = &mut s.enum_values {
                e.values.sort_by(|a, b| a.value.cmp(&b.value));
            }
        }
        TyKind::Integer(n) | TyKind::Number(n) => {
            if let Some(e) = &mut n.enum_values {
                e.values
                    .sort_by(|a, b| a.value.as_f64().total_cmp(&b.value.as_f64()));
            }
        }
        TyKind::Array(a) => sort_ty(&mut a.items),
        TyKind::Map(m) => sort_ty(&mut m.values),
        TyKind::Object(o) => sort_fields(&mut o.fields),
        TyKind::Union(u) => u
            .variants
            .iter_mut()
            .for_each(|v| sort_fields(&mut v.fields.fields)),
        _ => {}
    }
}

fn sort_fields(fields: &mut [Field]) {
    fields.sort_by(|a, b| a.name.value.cmp(&b.name.value));
    for f in fields {
        sort_ty(&mut f.ty);
    }
}

/// The named types `tool` uses, directly or through other types.
fn used_types(cat: &Catalog, tool: &Tool) -> Vec<crate::model::TypeDef> {
    fn walk<'a>(cat: &'a Catalog, fields: &'a [Field], seen: &mut Vec<&'a str>) {
        for f in fields {
            let mut ty = &f.ty;
            loop {
                match &ty.kind {
                    TyKind::Array(a) => ty = &a.items,
                    TyKind::Map(m) => ty = &m.values,
                    _ => break,
                }
            }
            match &ty.kind {
                TyKind::Object(o) => walk(cat, &o.fields, seen),
                TyKind::Union(u) => u
                    .variants
                    .iter()
                    .for_each(|v| walk(cat, &v.fields.fields, seen)),
                TyKind::Named(n) if !seen.contains(&n.value.as_str()) => {
                    seen.push(&n.value);
                    if let Some(t) = cat.type_def(&n.value) {
                        walk(cat, &t.fields, seen);
                    }
                }
                _ => {}
            }
        }
    }
    let mut seen = Vec::new();
    walk(cat, &tool.input.fields, &mut seen);
    if let Some(o) = &tool.output {
        walk(cat, &o.fields, &mut seen);
    }
    cat.types
        .iter()
        .filter(|t| seen.contains(&t.name.value.as_str()))
        .cloned()
        .collect()
}

/// What the hashes of `tool` are taken over with every order-only difference removed, its
/// description rendered from the run's `templates` (the description never depends on the
/// orders removed here).
fn order_insensitive_inputs(
    cat: &Catalog,
    tool: &Tool,
    templates: &Templates,
) -> Result<HashInputs, TemplateError> {
    // Only the types matter to a tool's hashes; cloning the tools too would make hashing a
    // whole catalog quadratic.
    let mut cat = Catalog {
        file: cat.file,
        name: cat.name.clone(),
        version: cat.version.clone(),
        summary: cat.summary.clone(),
        types: used_types(cat, tool),
        tools: Vec::new(),
        span: cat.span,
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
    HashInputs::of(&cat, &t, templates)
}

/// The hashes of `tool` with every order-only difference removed (see
/// `order_insensitive_inputs`).
pub fn order_insensitive_hashes(
    cat: &Catalog,
    tool: &Tool,
    templates: &Templates,
) -> Result<ToolHashes, TemplateError> {
    Ok(order_insensitive_inputs(cat, tool, templates)?.hashes())
}

/// A tool's order-insensitive contract as `breaking` compares it: equal exactly when the
/// [`order_insensitive_hashes`] are. Most tools of a pull request are unchanged, and their
/// written inputs are equal byte for byte, which settles it without canonicalising and
/// hashing; only inputs that differ (a schema may differ in text and not in canonical form)
/// are hashed, once, on first comparison.
#[derive(Debug)]
pub struct Comparable {
    inputs: HashInputs,
    hashes: OnceLock<ToolHashes>,
}

impl Comparable {
    /// The comparable contract of `tool` of `cat` (see `order_insensitive_inputs`).
    pub fn of(cat: &Catalog, tool: &Tool, templates: &Templates) -> Result<Self, TemplateError> {
        Ok(Comparable {
            inputs: order_insensitive_inputs(cat, tool, templates)?,
            hashes: OnceLock::new(),
        })
    }

    /// The [`order_insensitive_hashes`], computed on first use.
    pub fn hashes(&self) -> &ToolHashes {
        self.hashes.get_or_init(|| self.inputs.hashes())
    }
}

impl PartialEq for Comparable {
    fn eq(&self, other: &Self) -> bool {
        self.inputs == other.inputs || self.hashes() == other.hashes()
    }
}
