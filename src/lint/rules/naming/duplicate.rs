//! The `naming/duplicate` rule: tools, fields, error codes, enum values and types have unique
//! names; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding, Hooks};
use crate::model::{Catalog, Field, Span, Sp, Tool, TyKind};
use crate::FastMap;
use std::borrow::Cow;
use std::hash::BuildHasher;
use std::collections::hash_map::Entry;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that names are unique: tools across every catalog loaded together, and within their
    /// scope fields (per object), error codes (per tool), enum values (per enum) and types (per
    /// catalog).
    ///
    /// Exact duplicates are found before the rules run, and reported under this rule ID: inside one
    /// file by the lowering, which keeps only the first declaration; a tool or catalog name
    /// declared in two catalogs loaded together by the project loading, which keeps the first
    /// catalog's. Those findings are errors whatever `catalogc.kdl` says, since the duplicate is
    /// already dropped from the model. This rule's own check adds what an exact comparison
    /// misses: names in one scope that differ only by case or separators (`user_name` and
    /// `userName`, enum values `in_progress` and `In-Progress`, types `Invoice` and `INVOICE`,
    /// tools `invoice_get` and `invoice-get`). On a published tools/list (`catalogc lint
    /// FILE.json …`) enum values that differ only so are `info` (servers accept `y` and `Y`,
    /// or `-timestamp` for the descending order, on purpose), and each list is its own
    /// server: a tool name two lists share is no duplicate.
    ///
    /// ## Why is this bad?
    /// The model refers to tools, fields and values by name. Two tools with one name shadow each
    /// other in the client; two spellings of one field or enum value leave the model to pick one,
    /// and either pick is valid JSON that means something else to the server.
    ///
    /// ## Example
    /// ```kdl
    /// field "status" "string" {
    ///     enum "in_progress" "In-Progress" "done"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "status" "string" {
    ///     enum "in_progress" "done"
    /// }
    /// ```
    pub static RULE = Rule {
        id: "naming/duplicate",
        level: Level::Error,
        summary: "tools, fields, error codes, enum values and types have unique names",
        hooks: Hooks::NONE.and_catalog(names).and_declaration(values_and_objects),
    };
}

/// Case- and separator-insensitive key: `userName`, `user_name` and `USER-NAME` collide.
/// Borrowed when the name is its own key, as most names in one convention are.
fn fold(name: &str) -> Cow<'_, str> {
    let sep = |b: u8| matches!(b, b'_' | b'-' | b' ' | b'.');
    // Names are almost always ASCII, which folds byte by byte (the same result, a fraction
    // of the cost of the Unicode lowercase mapping).
    if name.is_ascii() {
        if !name.bytes().any(|b| sep(b) || b.is_ascii_uppercase()) {
            return Cow::Borrowed(name);
        }
        // Sized up front: collected from a filter, the key grew from 8 bytes a few times.
        let mut key = String::with_capacity(name.len());
        key.extend(name.bytes().filter(|&b| !sep(b)).map(|b| char::from(b.to_ascii_lowercase())));
        return Cow::Owned(key);
    }
    Cow::Owned(
        name.chars()
            .filter(|c| !matches!(c, '_' | '-' | ' ' | '.'))
            .flat_map(char::to_lowercase)
            .collect(),
    )
}

/// For each name after the first whose folded key was already seen (spelled differently),
/// call `report(name, first)`. Exact repeats are the lowering's to report.
fn near_duplicates<'a>(names: impl Iterator<Item = &'a Sp<String>>, report: impl FnMut(&'a Sp<String>, &'a str)) {
    let state = foldhash::fast::RandomState::default();
    near_duplicates_by(names, |key| state.hash_one(key), report);
}

/// [`near_duplicates`] with the hash of a key given (tests give one where every key clashes).
fn near_duplicates_by<'a>(
    names: impl Iterator<Item = &'a Sp<String>>,
    hash: impl Fn(&str) -> u64,
    mut report: impl FnMut(&'a Sp<String>, &'a str),
) {
    // Most lists are the few fields of one object, called for every object of a catalog: a
    // list of keys beats hashing them up to a few dozen names.
    let mut few: Vec<(Cow<'a, str>, &'a str)> = Vec::new();
    // Past that, the first name of each key's hash, and the keys themselves only for names
    // whose hash another key holds: holding every folded key took 80 bytes a name (an enum of
    // 850,000 values, 64 MB), a hash and a reference take 16.
    let mut firsts: FastMap<u64, &'a str> = FastMap::default();
    let mut clashes: FastMap<Cow<'a, str>, &'a str> = FastMap::default();
    for name in names {
        let key = fold(&name.value);
        let first = if firsts.is_empty() && few.len() < 32 {
            match few.iter().find(|(k, _)| *k == key) {
                Some(&(_, first)) => Some(first),
                None => {
                    few.push((key, &name.value));
                    None
                }
            }
        } else {
            for (k, first) in few.drain(..) {
                match firsts.entry(hash(&k)) {
                    Entry::Vacant(slot) => {
                        slot.insert(first);
                    }
                    Entry::Occupied(_) => {
                        clashes.insert(k, first);
                    }
                }
            }
            match firsts.entry(hash(&key)) {
                Entry::Vacant(slot) => {
                    slot.insert(&name.value);
                    None
                }
                Entry::Occupied(held) if fold(held.get()) == key => Some(*held.get()),
                Entry::Occupied(_) => match clashes.entry(key) {
                    Entry::Occupied(first) => Some(*first.get()),
                    Entry::Vacant(slot) => {
                        slot.insert(&name.value);
                        None
                    }
                },
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
fn values_and_objects(cx: &Context, site: &Site<'_, '_>, out: &mut Vec<Finding>) {
    if let TyKind::Object(o) = &site.ty.kind {
        check_fields(site.catalog, site.tool, &o.fields, site.path, out);
    }
    let enum_values = match &site.ty.kind {
        TyKind::String(s) | TyKind::Cursor(s) => s.enum_values.as_ref(),
        _ => None,
    };
    if let Some(values) = enum_values {
        near_duplicates(values.values.iter(), |value, first| {
            // On a published list the server accepts both spellings on purpose (`y` / `Y`,
            // `timestamp` / `-timestamp` for the sort order): hardening advice.
            let level = if cx.config.published { Level::Info } else { Level::Error };
            out.push(
                finding(
                    site.catalog,
                    site.tool,
                    value.span,
                    format!("enum value `{}` differs from `{first}` only by case or separators", value.value),
                )
                .path(site.path)
                .help("keep one spelling of each value; the model cannot tell which one the server expects")
                .level(level),
            );
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{fold, near_duplicates, near_duplicates_by};
    use crate::model::Sp;

    /// Every (name, first) pair reported over `names`, by the given key hash.
    fn pairs(names: &[Sp<String>], hash: impl Fn(&str) -> u64) -> Vec<(String, String)> {
        let mut out = Vec::new();
        near_duplicates_by(names.iter(), hash, |n, first| out.push((n.value.clone(), first.to_string())));
        out
    }

    /// Past 32 names keys are held as hashes: names whose different keys share a hash must
    /// still be told apart, and near duplicates found whichever key holds the hash.
    #[test]
    fn near_duplicates_are_found_whatever_keys_share_a_hash() {
        let mut names: Vec<Sp<String>> = (0..40).map(|i| Sp::new(format!("name_{i}"), Default::default())).collect();
        // Each near duplicate comes with a name that is new (its key plus `x`).
        for spelled in ["Name3", "NAME-35", "name39", "Name.0"] {
            names.push(Sp::new(spelled.to_string(), Default::default()));
            names.push(Sp::new(format!("{spelled}x"), Default::default()));
        }
        let expected: Vec<(String, String)> = [("Name3", "name_3"), ("NAME-35", "name_35"), ("name39", "name_39"), ("Name.0", "name_0")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let state = foldhash::fast::RandomState::default();
        assert_eq!(pairs(&names, |k| std::hash::BuildHasher::hash_one(&state, k)), expected);
        assert_eq!(pairs(&names, |_| 7), expected);
        assert_eq!(pairs(&names, |k| k.len() as u64), expected);
        assert_eq!(pairs(&names[..10], |_| 7), []);
        let mut reported = 0;
        near_duplicates(names.iter(), |_, _| reported += 1);
        assert_eq!(reported, 4);
    }

    #[test]
    fn folding_ignores_case_and_separators() {
        assert_eq!(fold("userName"), fold("user_name"));
        assert_eq!(fold("In-Progress"), fold("in_progress"));
        assert_ne!(fold("user_name"), fold("username2"));
        assert_eq!(fold("Straße_Ünïcode"), "straßeünïcode");
        assert_eq!(fold("A.B C-D_E"), "abcde");
    }
}
