//! ## What it does
//! Checks that names are unique: tools across every catalog loaded together, and within their
//! scope fields (per object), error codes (per tool), enum values (per enum) and types (per
//! catalog).
//!
//! Exact duplicates are found before the rules run, and reported under this rule ID: inside one
//! file by the lowering, which keeps only the first declaration; a tool or catalog name
//! declared in two catalogs loaded together by the project loading, which keeps the first
//! catalog's. Those findings are errors whatever `catalogc.kdl` says, since the duplicate is
//! already dropped from the model. This rule's own check adds what an exact comparison
//! misses: names in one scope that differ only by case or separators (`user_name` and
//! `userName`, enum values `in_progress` and `In-Progress`, types `Invoice` and `INVOICE`,
//! tools `invoice_get` and `invoice-get`).
//!
//! ## Why is this bad?
//! The model refers to tools, fields and values by name. Two tools with one name shadow each
//! other in the client; two spellings of one field or enum value leave the model to pick one,
//! and either pick is valid JSON that means something else to the server.
//!
//! ## Example
//! ```kdl
//! field "status" "string" {
//!     enum "in_progress" "In-Progress" "done"
//! }
//! ```
//!
//! ## Use instead
//! ```kdl
//! field "status" "string" {
//!     enum "in_progress" "done"
//! }
//! ```

use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding, Hooks, Rule};
use crate::model::{Catalog, Field, Span, Sp, Tool, TyKind};
use crate::FastMap;

/// The `naming/duplicate` rule: tools, fields, error codes, enum values and types have unique
/// names; the module documentation explains it.
pub static RULE: Rule = Rule {
    id: "naming/duplicate",
    level: Level::Error,
    summary: "tools, fields, error codes, enum values and types have unique names",
    hooks: Hooks::NONE.and_catalog(names).and_declaration(values_and_objects),
    source: include_str!("duplicate.rs"),
};

/// Case- and separator-insensitive key: `userName`, `user_name` and `USER-NAME` collide.
fn fold(name: &str) -> String {
    // Names are almost always ASCII, which folds byte by byte (the same result, a fraction
    // of the cost of the Unicode lowercase mapping).
    if name.is_ascii() {
        let kept = name.bytes().filter(|b| !matches!(b, b'_' | b'-' | b' ' | b'.'));
        return kept.map(|b| char::from(b.to_ascii_lowercase())).collect();
    }
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' ' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// For each name after the first whose folded key was already seen (spelled differently),
/// call `report(name, first)`. Exact repeats are the lowering's to report.
fn near_duplicates<'a>(names: impl Iterator<Item = &'a Sp<String>>, mut report: impl FnMut(&'a Sp<String>, &'a str)) {
    let names: Vec<&'a Sp<String>> = names.collect();
    // Most lists are the few fields of one object, called for every object of a catalog: a
    // list of keys beats hashing them up to a few dozen names.
    let small = names.len() <= 32;
    let mut few: Vec<(String, &'a str)> = Vec::new();
    let mut many: FastMap<String, &'a str> = FastMap::default();
    for name in names {
        let key = fold(&name.value);
        let first = if small {
            match few.iter().find(|(k, _)| *k == key) {
                Some(&(_, first)) => Some(first),
                None => {
                    few.push((key, &name.value));
                    None
                }
            }
        } else {
            match many.entry(key) {
                std::collections::hash_map::Entry::Occupied(first) => Some(*first.get()),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(&name.value);
                    None
                }
            }
        };
        if let Some(first) = first
            && first != name.value
        {
            report(name, first)
        }
    }
}

fn finding(catalog: &Catalog, tool: Option<&Tool>, span: Span, message: String) -> Finding {
    match tool {
        Some(tool) => Finding::in_tool(catalog, tool, span, message),
        None => Finding::in_catalog(catalog, span, message),
    }
}

fn check_fields(catalog: &Catalog, tool: Option<&Tool>, fields: &[Field], parent: &str, out: &mut Vec<Finding>) {
    near_duplicates(fields.iter().map(|f| &f.name), |name, first| {
        out.push(
            finding(catalog, tool, name.span, format!("field `{}` differs from field `{first}` only by case or separators", name.value))
                .path(format!("{parent}.{}", name.value))
                .help(format!("use one spelling: rename or remove `{}`", name.value)),
        );
    });
}

/// Tools, types, error codes and the fields of tool sides and named types, before the walk's
/// sites.
fn names(_: &Context, catalog: &Catalog, out: &mut Vec<Finding>) {
    near_duplicates(catalog.tools.iter().map(|t| &t.name), |name, first| {
        if let Some(tool) = catalog.tool(&name.value) {
            out.push(
                Finding::in_tool(catalog, tool, name.span, format!("tool `{}` differs from tool `{first}` only by case or separators", name.value))
                    .help("give the tools clearly different names"),
            );
        }
    });
    near_duplicates(catalog.types.iter().map(|t| &t.name), |name, first| {
        out.push(
            Finding::in_catalog(catalog, name.span, format!("type `{}` differs from type `{first}` only by case or separators", name.value))
                .path(name.value.clone())
                .help(format!("use one spelling: rename or remove `{}`", name.value)),
        );
    });
    for tool in &catalog.tools {
        near_duplicates(tool.errors.iter().map(|e| &e.code), |code, first| {
            out.push(
                Finding::in_tool(catalog, tool, code.span, format!("error code `{}` differs from `{first}` only by case or separators", code.value))
                    .path(format!("errors.{}", code.value))
                    .help("declare each error code once, in one spelling"),
            );
        });
        check_fields(catalog, Some(tool), &tool.input.fields, "input", out);
        if let Some(output) = &tool.output {
            check_fields(catalog, Some(tool), &output.fields, "output", out);
        }
    }
    for ty in &catalog.types {
        check_fields(catalog, None, &ty.fields, &ty.name.value, out);
    }
}

/// Objects declared inside fields, and enum values.
fn values_and_objects(_: &Context, site: &Site<'_, '_>, out: &mut Vec<Finding>) {
    if let TyKind::Object(o) = &site.ty.kind {
        check_fields(site.catalog, site.tool, &o.fields, site.path, out);
    }
    let enum_values = match &site.ty.kind {
        TyKind::String(s) | TyKind::Cursor(s) => s.enum_values.as_ref(),
        _ => None,
    };
    if let Some(values) = enum_values {
        near_duplicates(values.values.iter(), |value, first| {
            out.push(
                finding(
                    site.catalog,
                    site.tool,
                    value.span,
                    format!("enum value `{}` differs from `{first}` only by case or separators", value.value),
                )
                .path(site.path)
                .help("keep one spelling of each value; the model cannot tell which one the server expects"),
            );
        });
    }
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn folding_ignores_case_and_separators() {
        assert_eq!(fold("userName"), fold("user_name"));
        assert_eq!(fold("In-Progress"), fold("in_progress"));
        assert_ne!(fold("user_name"), fold("username2"));
        assert_eq!(fold("Straße_Ünïcode"), "straßeünïcode");
        assert_eq!(fold("A.B C-D_E"), "abcde");
    }
}
