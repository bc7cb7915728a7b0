//! The `bounds/offset-pagination` rule: input fields `offset`, `page`, `skip`: paginate with a
//! `cursor`; [`RULE`] documents it.

use crate::lint::walk::site_finding;
use crate::diag::Level;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags input fields named like offset pagination: `offset`, `page`, `skip`, `page_number`
    /// (compared by words, so `pageNumber` and `PAGE-NUMBER` match; `page_size` and
    /// `page_token` do not).
    ///
    /// ## Why is this bad?
    /// Offsets and page numbers ask the model to do arithmetic across calls and silently skip or
    /// repeat items when the data changes between calls. An opaque `cursor` from the previous
    /// result is stable and cannot be invented by the model.
    ///
    /// ## Example
    /// ```kdl
    /// input {
    ///     field "offset" "integer" min=0 max=10000
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// input {
    ///     field "cursor" "cursor" { doc "Opaque cursor from a previous next_cursor." }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "bounds/offset-pagination",
        level: Level::Warn,
        summary: "input fields `offset`, `page`, `skip`: paginate with a `cursor`",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

fn is_offset_name(w: &[String]) -> bool {
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    matches!(w.as_slice(), ["offset"] | ["page"] | ["skip"] | ["page", "number"])
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    if site.side != Some(Side::Input) {
        return;
    }
    let Some(field) = site.field else { return };
    if !is_offset_name(site.name_words()) {
        return;
    }
    out.push(
        site_finding(
            site,
            field.name.span,
            format!("input field `{}` paginates by offset", field.name.value),
        )
        .help("take a `cursor` field (type \"cursor\") and return `next_cursor` in the output"),
    );
}

#[cfg(test)]
mod tests {
    use crate::names::words;
    use super::is_offset_name;

    #[test]
    fn offset_names_by_words() {
        for name in ["offset", "page", "skip", "pageNumber", "PAGE-NUMBER", "Offset"] {
            assert!(is_offset_name(&words(name)), "{name}");
        }
        for name in ["page_size", "page_token", "offset_minutes", "skip_validation", "pages"] {
            assert!(!is_offset_name(&words(name)), "{name}");
        }
    }
}
