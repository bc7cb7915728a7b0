//! The `bounds/prose-enum` rule: a closed set of values is an `enum`, not a sentence;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::text::pattern;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::TyKind;
use regex::Regex;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags an input string without `enum` whose doc lists its allowed values in prose: a
    /// phrase that closes the set (`Valid values:`, `Allowed values are`, `Must be one of:`,
    /// `Options are:`, `one of:`) followed by at least two quoted values (`'add'`, `"ALL"`,
    /// `` `enforced` ``). Values given as examples (`e.g.`, `such as`) are not a closed set and
    /// are not reported, nor are the values of a filter or query expression the field holds.
    ///
    /// ## Why is this bad?
    /// The schema says any string goes, so nothing checks the value before the server does:
    /// a model that writes `report-only` for `report_only`, or a value in the wrong case, gets
    /// a run-time error instead of a validation message, and clients cannot offer the values
    /// as choices. An `enum` states the same set where validators, generated code and models
    /// read it.
    ///
    /// ## Example
    /// ```kdl
    /// field "csp_mode" "string" {
    ///     doc "Content Security Policy mode. Valid values: `enforced`, `report_only`, `disabled`."
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "csp_mode" "string" {
    ///     doc "Content Security Policy mode."
    ///     enum "enforced" "report_only" "disabled"
    /// }
    /// ```
    pub static RULE = Rule {
        id: "bounds/prose-enum",
        level: Level::Warn,
        summary: "a closed set of allowed values is an `enum`, not a list in the doc",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

/// A phrase that says the values after it are all there are.
static CLOSED: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\b(?:(?:valid|allowed|possible|accepted|supported|permitted)\s+(?:values|options)|must\s+be\s+(?:one\s+of|either)|options\s+are|one\s+of\s*:)(?:\s+(?:are|is|include))?\s*:?")
});

/// One quoted value: ``x``, `x`, 'x', "x" (or ``"x"``).
static QUOTED: LazyLock<Regex> = LazyLock::new(|| pattern(r#"[`'"]{1,3}([\w.$-]+)[`'"]{1,3}"#));

/// What may stand between two values of one list: a separator (`,`, `|`, `/`, `or`), or the
/// end of one bullet's text and the next bullet (`- `, `* `, `2.`).
static BETWEEN: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"^\s*(?:,|\||/|,?\s*or|,?\s*and)?\s*$|(?:^|\s)(?:[-*\x{2022}]|\d+[.)])\s*$")
});

/// Field names whose value is an expression in a filter or query language: values its doc
/// lists belong to a part of the expression, not to the field.
const EXPRESSIONS: &[&str] = &["filter", "query", "q", "search", "expression", "expr"];

/// The values listed after a closing phrase of `doc`, when there are at least two: the quoted
/// values that follow each other with only a separator or a new bullet between them.
fn listed_values(doc: &str) -> Option<Vec<String>> {
    let at = CLOSED.find(doc)?;
    let rest = &doc[at.end()..];
    let mut values: Vec<String> = Vec::new();
    let mut end = None;
    for c in QUOTED.captures_iter(rest) {
        let (Some(whole), Some(value)) = (c.get(0), c.get(1)) else { continue };
        if let Some(end) = end {
            let gap = rest[end..whole.start()].trim_end_matches(['`', '\'', '"']);
            if !BETWEEN.is_match(gap) {
                break;
            }
        } else if !rest[..whole.start()].trim_start_matches([':', ' ']).trim().is_empty()
            && !BETWEEN.is_match(&rest[..whole.start()])
        {
            return None;
        }
        end = Some(whole.end());
        if !values.iter().any(|v| v == value.as_str()) {
            values.push(value.as_str().to_string());
        }
    }
    (values.len() >= 2).then_some(values)
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let Some(field) = site.field else { return };
    if site.side == Some(Side::Output) || !std::ptr::eq(&field.ty, site.ty) {
        return;
    }
    let TyKind::String(s) = &field.ty.kind else { return };
    if s.enum_values.is_some() || field.constant.is_some() {
        return;
    }
    if site.name_words().iter().any(|w| EXPRESSIONS.contains(&w.as_str())) {
        return;
    }
    let Some(doc) = &field.doc else { return };
    let Some(values) = listed_values(&doc.value) else { return };
    let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    out.push(
        site_finding(
            site,
            field.name.span,
            format!("field `{}` lists its allowed values only in its doc ({}): the schema accepts any string", site.path, values.join(", ")),
        )
        .help(format!("declare the set as the field's enum (`enum {}`; in a published schema `\"enum\": [{}]`) and keep the doc for what each value means", quoted.join(" "), quoted.join(", "))),
    );
}

#[cfg(test)]
mod tests {
    use super::listed_values;

    #[test]
    fn closed_sets_in_prose() {
        let v = |d: &str| listed_values(d);
        assert_eq!(
            v("CSP mode. Valid values: ``enforced``, ``report_only``, ``disabled``."),
            Some(vec!["enforced".into(), "report_only".into(), "disabled".into()])
        );
        assert_eq!(
            v("The action. Options are: - 'add' - add one. - 'remove' - remove one."),
            Some(vec!["add".into(), "remove".into()])
        );
        assert_eq!(v("Must be one of: \"ALL_USERS\", \"ADMINS_ONLY\""), Some(vec!["ALL_USERS".into(), "ADMINS_ONLY".into()]));
        for open in [
            "The size (e.g., 'small', 'medium', 'large').",
            "Relative window, such as `24h` or `7d`.",
            "Valid values: `enforced`.",
            "One of the projects you own: 'a' or 'b'.",
        ] {
            assert_eq!(v(open), None, "{open}");
        }
    }
}
