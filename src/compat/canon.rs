//! Order-insensitive contract hashes for the version check. The published hashes
//! ([`crate::contract::Artifacts`]) keep declaration order, because schemas list properties as
//! declared; but reordering fields, errors, enum values or examples is not a change
//! (docs/compatibility.md), so `breaking` hashes a copy of each tool with every such list sorted.
//! It compares what those hashes are taken over first ([`Comparable`]): an unchanged tool's
//! inputs are equal byte for byte, so only the tools whose inputs differ are canonicalised
//! and hashed.

use crate::contract::{HashInputs, TemplateError, Templates, ToolHashes};
use crate::model::{Catalog, Field, Tool, Ty, TyKind};
use crate::{FastMap, FastSet};
use std::sync::OnceLock;

fn sort_ty(ty: &mut Ty) {
    match &mut ty.kind {
        // The model holds no enum value twice, so no two compare equal and an unstable sort
        // (which needs no buffer: a stable one took half an 850,000-value list) orders them
        // as a stable one would.
        TyKind::String(s) | TyKind::Cursor(s) => {
            if let Some(e) = &mut s.enum_values {
                e.values.sort_unstable_by(|a, b| a.value.cmp(&b.value));
            }
        }
        TyKind::Integer(n) | TyKind::Number(n) => {
            if let Some(e) = &mut n.enum_values {
                e.values
                    .sort_unstable_by(|a, b| a.value.as_f64().total_cmp(&b.value.as_f64()));
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

/// The named types `tool` uses, directly or through other types, in declaration order.
///
/// Linear in the catalog's types plus the fields walked: names resolve through an index
/// built once (and only when the tool names a type at all), each type is walked once, and
/// from an explicit stack, so a long chain takes no call stack. A list of seen names and a
/// scan of the catalog per use made a tool using n of N types cost n·N.
fn used_types(cat: &Catalog, tool: &Tool) -> Vec<crate::model::TypeDef> {
    let mut index: Option<FastMap<&str, &crate::model::TypeDef>> = None;
    let mut seen: FastSet<&str> = FastSet::default();
    let mut stack: Vec<&Ty> = Vec::new();
    let mut push = |t| stack.push(t);
    tool.input.each_ty(&mut push);
    tool.output.iter().for_each(|o| o.each_ty(&mut push));
    while let Some(ty) = stack.pop() {
        match &ty.kind {
            TyKind::Named(n) if seen.insert(&n.value) => {
                // With duplicate names, the first declaration is the one used.
                let index = index.get_or_insert_with(|| {
                    let mut index = FastMap::default();
                    for t in cat.types.iter().rev() {
                        index.insert(t.name.value.as_str(), t);
                    }
                    index
                });
                if let Some(t) = index.get(n.value.as_str()) {
                    stack.extend(t.fields.iter().map(|f| &f.ty));
                }
            }
            _ => ty.each_child(&mut |c| stack.push(c)),
        }
    }
    if seen.is_empty() {
        return Vec::new();
    }
    cat.types
        .iter()
        .filter(|t| seen.contains(t.name.value.as_str()))
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
        left_out: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Effect, TypeDef};
    use crate::testing::{catalog_with, sp, tool_with};

    fn named(name: &str) -> TyKind {
        TyKind::Named(sp(name.to_string()))
    }

    fn type_def(name: &str, fields: Vec<Field>) -> TypeDef {
        TypeDef {
            name: sp(name.to_string()),
            doc: None,
            fields,
            span: Default::default(),
        }
    }

    /// A chain of 30,000 types behind 30,000 unused ones: the old walk scanned the catalog
    /// for each use, its list of seen names for each type and that list again for each
    /// type of the catalog (about 3·10⁹ comparisons, and 30,000 nested calls), which no
    /// test run finishes; a linear walk takes milliseconds.
    #[test]
    fn a_long_chain_among_many_types_is_collected_in_linear_time() {
        let n = 30_000;
        let mut types: Vec<TypeDef> = (0..n)
            .map(|i| {
                type_def(
                    &format!("Unused{i}"),
                    vec![Field::new("x", TyKind::Boolean)],
                )
            })
            .collect();
        types.extend((0..n).map(|i| {
            let next = if i + 1 == n {
                TyKind::Boolean
            } else {
                named(&format!("T{}", i + 1))
            };
            type_def(&format!("T{i}"), vec![Field::new("next", next)])
        }));
        let tool = tool_with(
            "t",
            Effect::Read,
            vec![Field::new("root", named("T0"))],
            None,
        );
        let cat = catalog_with("c", vec![tool], types);
        let used = used_types(&cat, &cat.tools[0]);
        assert_eq!(used.len(), n);
        assert!(used.iter().all(|t| t.name.value.starts_with('T')));
        assert_eq!(used[0].name.value, "T0");
        assert_eq!(used[n - 1].name.value, format!("T{}", n - 1));
    }

    /// Types reached through array items, an open object's extras, other types and the output
    /// are used;
    /// a name declared twice takes every declaration (the model keeps both) but is walked
    /// through the first only.
    #[test]
    fn every_way_of_reaching_a_type_counts_and_the_first_declaration_is_walked() {
        let array = TyKind::Array(Box::new(crate::model::ArrayTy {
            min_items: None,
            max_items: None,
            unique: false,
            items: Box::new(crate::model::Ty::new(named("A"))),
            items_nullable: false,
        }));
        let open = TyKind::Object(crate::model::Object {
            extra: Some(Box::new(crate::model::Extra {
                values: Box::new(crate::model::Ty::new(named("Extra"))),
                nullable: false,
                min_entries: None,
                max_entries: None,
            })),
            ..Default::default()
        });
        let types = vec![
            type_def("Extra", vec![]),
            type_def(
                "A",
                vec![Field::new("b", named("B")), Field::new("open", open)],
            ),
            type_def("B", vec![]),
            type_def("Dup", vec![]),
            type_def("Dup", vec![Field::new("c", named("C"))]),
            type_def("C", vec![]),
            type_def("Out", vec![Field::new("d", named("Dup"))]),
            type_def("Unused", vec![]),
        ];
        let tool = tool_with(
            "t",
            Effect::Read,
            vec![Field::new("list", array)],
            Some(vec![Field::new("o", named("Out"))]),
        );
        let cat = catalog_with("c", vec![tool], types);
        let names: Vec<String> = used_types(&cat, &cat.tools[0])
            .into_iter()
            .map(|t| t.name.value)
            .collect();
        assert_eq!(names, ["Extra", "A", "B", "Dup", "Dup", "Out"]);
    }
}
