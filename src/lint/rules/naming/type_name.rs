//! The `naming/type-name` rule: type names are PascalCase; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every named `type` is PascalCase: starts with an uppercase letter, holds only
    /// letters and digits and, when it has more than one letter, a lowercase one (`Invoice`,
    /// `LineItem`, `Iso3166Country`, `V2`; not `INVOICE`).
    ///
    /// ## Why is this bad?
    /// Type names appear in generated code and documentation beside field names. PascalCase keeps
    /// the two apart at a glance (`items "LineItem"` is a type, `line_item` a field), and matches
    /// the generated Rust struct names, so nothing is renamed on the way.
    ///
    /// ## Example
    /// ```kdl
    /// type "line_item" { ... }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// type "LineItem" { ... }
    /// ```
    pub static RULE = Rule {
        id: "naming/type-name",
        level: Level::Error,
        summary: "type names are PascalCase",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// PascalCase: an uppercase ASCII letter first, ASCII letters and digits only, and a
/// lowercase letter unless the uppercase first is the only letter: `T0` and `V2` are one
/// capitalized word each (PascalCase of them is themselves), `INVOICE` is shouting.
pub(crate) fn is_pascal_case(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
        && (name.bytes().any(|b| b.is_ascii_lowercase())
            || name.bytes().filter(u8::is_ascii_alphabetic).count() == 1)
}

fn pascal_case(name: &str) -> String {
    crate::names::words(name)
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The fix, with the name rewritten when that gives a PascalCase name (`1Thing` does not
/// become one by capitalizing).
fn help(name: &str) -> String {
    let fixed = pascal_case(name);
    if is_pascal_case(&fixed) {
        format!("capitalize each word and drop separators, e.g. `{fixed}`")
    } else {
        "start the name with an uppercase letter and use only letters and digits".to_string()
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for ty in &catalog.types {
            let name = &ty.name.value;
            if is_pascal_case(name) {
                continue;
            }
            out.push(
                Finding::in_catalog(catalog, ty.name.span, format!("type name `{name}` is not PascalCase"))
                    .path(name.clone())
                    .help(help(name)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{help, is_pascal_case, pascal_case};

    #[test]
    fn pascal() {
        for good in ["Invoice", "LineItem", "Iso3166Country", "Ab", "T0", "V2", "X"] {
            assert!(is_pascal_case(good), "{good}");
        }
        for bad in ["invoice", "line_item", "Line_Item", "INVOICE", "Line-Item", "1Thing", "", "ID", "T0X"] {
            assert!(!is_pascal_case(bad), "{bad}");
            // A finding never suggests the name it is on.
            assert!(!help(bad).contains(&format!("`{bad}`")), "{bad}");
        }
        assert_eq!(pascal_case("line_item"), "LineItem");
        assert_eq!(pascal_case("INVOICE"), "Invoice");
    }
}
