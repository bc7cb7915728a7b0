//! The `selection/doc-contradiction` rule: a field's doc agrees with its schema (required,
//! default, type); [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::text::pattern;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::{Literal, TyKind};
use regex::Regex;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags an input field whose doc says something its schema contradicts:
    ///
    /// - the field is `required`, but its doc starts with `Optional` or says what happens `if
    ///   not provided` (`if omitted`, `if not specified`, `leave empty to …`);
    /// - the field has a `default`, but its doc names another one (`Defaults to 20` beside
    ///   `default=50`; booleans, numbers and quoted strings are compared);
    /// - the field is a plain string, but its doc says it is a list or an array (`A list of
    ///   label names`), without saying how the items are joined (`comma-separated`).
    ///
    /// ## Why is this bad?
    /// The model reads both and has to pick one. Told a required field is optional, it leaves
    /// it out and the call fails validation; told the wrong default, it omits an argument and
    /// gets another result than it expected; told a string is a list, it sends a JSON array
    /// that the schema rejects. Whichever half is right, the other misleads every caller.
    ///
    /// ## Example
    /// ```kdl
    /// field "page_size" "integer" min=1 max=100 default=50 {
    ///     doc "Results per page. Defaults to 20."
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "page_size" "integer" min=1 max=100 default=20 {
    ///     doc "Results per page."
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/doc-contradiction",
        level: Level::Warn,
        summary: "a field's doc agrees with its schema: required, default and type",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

/// A doc that says the field may be left out.
static OPTIONAL: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)^\W*optional\b|\bif\s+(?:not\s+(?:provided|specified|given|set|supplied)|omitted)\b|\bwhen\s+omitted\b|\bleave\s+(?:it\s+)?(?:empty|blank)\s+to\b")
});

/// The default a doc names.
static DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r#"(?i)\bdefaults?\s*(?:to|is|:|=)\s*(?:`|'|")?([A-Za-z0-9_.-]+)"#)
});

/// A doc that says the value is a list.
static LIST: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)^\W*(?:(?:a|an|the)\s+)?(?:list|array)\s+of\b|^\W*json\s+array\b"));

/// A doc that says how a list is written into one string.
static JOINED: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)comma|separated|delimited|joined|\bjson\b"));

/// The literal a doc's default word stands for, when it is one that can be compared.
fn doc_literal(word: &str) -> Option<Literal> {
    match word.to_lowercase().as_str() {
        "true" => Some(Literal::Bool(true)),
        "false" => Some(Literal::Bool(false)),
        _ => word.parse::<i64>().ok().map(Literal::Int),
    }
}

/// Whether the schema's `default` and the doc's disagree.
fn defaults_differ(schema: &Literal, doc: &str) -> Option<String> {
    let word = DEFAULT.captures(doc)?.get(1)?.as_str().trim_end_matches('.');
    let differs = match (schema, doc_literal(word)) {
        (Literal::Bool(a), Some(Literal::Bool(b))) => *a != b,
        (Literal::Int(a), Some(Literal::Int(b))) => *a != b,
        (Literal::Float(a), Some(Literal::Int(b))) => *a != b as f64,
        (Literal::String(a), None) => {
            let quoted = doc.contains(&format!("`{word}`")) || doc.contains(&format!("'{word}'")) || doc.contains(&format!("\"{word}\""));
            quoted && a != word
        }
        _ => false,
    };
    differs.then(|| word.to_string())
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let Some(field) = site.field else { return };
    if site.side == Some(Side::Output) || !std::ptr::eq(&field.ty, site.ty) {
        return;
    }
    let Some(doc) = &field.doc else { return };
    let doc = doc.value.as_str();
    let span = field.name.span;
    let path = site.path;
    if field.required && OPTIONAL.is_match(doc) {
        let message = format!("field `{path}` is required, but its doc says it may be left out");
        out.push(site_finding(site, span, message).help("make the field optional (with the default the doc describes), or take the optional wording out of the doc"));
    }
    if let Some(default) = &field.default
        && let Some(word) = defaults_differ(&default.value, doc)
    {
        let message = format!("field `{path}` has a default other than the `{word}` its doc names");
        out.push(site_finding(site, span, message).help("make the schema's `default` and the doc name the same value, or drop the default from the doc: the schema's is the one clients show"));
    }
    if let TyKind::String(s) = &field.ty.kind
        && s.enum_values.is_none()
        && s.format.is_none()
        && s.pattern.is_none()
        && LIST.is_match(doc)
        && !JOINED.is_match(doc)
    {
        let message = format!("field `{path}` is a string, but its doc says it is a list");
        out.push(site_finding(site, span, message).help("make it an `array` of strings, or say in the doc how the items are joined (`comma-separated`)"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_against_schemas() {
        assert!(OPTIONAL.is_match("Optional. The branch to use."));
        assert!(OPTIONAL.is_match("The branch; the default branch if not provided."));
        assert!(!OPTIONAL.is_match("The policy. - name (str, required) - status (str, optional)"));
        assert_eq!(defaults_differ(&Literal::Int(50), "Results per page. Defaults to 20."), Some("20".into()));
        assert_eq!(defaults_differ(&Literal::Int(20), "Results per page (default: 20)."), None);
        assert_eq!(defaults_differ(&Literal::Bool(false), "Default: True."), Some("True".into()));
        assert_eq!(defaults_differ(&Literal::String("asc".into()), "Order; defaults to `desc`."), Some("desc".into()));
        assert_eq!(defaults_differ(&Literal::String("main".into()), "Defaults to main region."), None);
        assert!(LIST.is_match("A list of label names."));
        assert!(JOINED.is_match("A comma-separated list of names."));
        assert!(!LIST.is_match("The list's name."));
    }
}
