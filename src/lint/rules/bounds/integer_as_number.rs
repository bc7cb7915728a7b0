//! The `bounds/integer-as-number` rule: whole quantities are `integer`, not `number`; [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::text::pattern;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::TyKind;
use regex::Regex;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags input fields, at any depth, typed `number` that hold a whole quantity: the last word
    /// of the name is `limit`, `page`, `count`, `number`, `num`, `index`, `offset`, `line`,
    /// `lines`, `id`, `port`, `steps`, `size`, `depth`, `retries`, `attempts`, `tokens`,
    /// `items`, `results`, `days`, `hours`, `minutes`, `weeks`, `months` or `years`
    /// (`per_page`, `pullNumber`, `startLine`, `maxTokens`), or the doc says so ("number of …",
    /// "page number", "issue number", "in pixels", "N lines"). Fractional quantities —
    /// `percentage`, `threshold`, `duration`, `seconds`, amounts — are not flagged.
    ///
    /// ## Why is this bad?
    /// A `number` accepts `2.5`. The model does send fractions when the schema allows them (half a
    /// page, a limit of `10.0` that a strict server rejects, `1e2`), and a server that truncates
    /// them silently reads another page or another issue than the one asked for. `integer` says
    /// what the server accepts, and validation rejects the rest before the call.
    ///
    /// ## Example
    /// ```kdl
    /// field "per_page" "number" min=1 max=100 { doc "Results per page." }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "per_page" "integer" min=1 max=100 { doc "Results per page." }
    /// ```
    pub static RULE = Rule {
        id: "bounds/integer-as-number",
        level: Level::Warn,
        summary: "whole quantities (limits, pages, counts, issue numbers, ids) are `integer`, not `number`",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

/// Last words of names that count or number things.
const WHOLE: &[&str] = &[
    "limit", "page", "count", "number", "num", "index", "offset", "line", "lines", "id", "port",
    "steps", "size", "depth", "retries", "attempts", "tokens", "items", "results", "days",
    "hours", "minutes", "weeks", "months", "years",
];

static WHOLE_DOC: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\bnumber\s+of\b|\b(?:page|issue|pull\s+request|milestone|discussion|alert|finding|line|project|port)\s+number\b|\bin\s+pixels\b|\bN\s+(?:lines|items|results|entries)\b")
});

fn is_whole(w: &[String], doc: Option<&str>) -> bool {
    w.last().is_some_and(|l| WHOLE.contains(&l.as_str())) || doc.is_some_and(|d| WHOLE_DOC.is_match(d))
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    if site.side != Some(Side::Input) || !matches!(site.ty.kind, TyKind::Number(_)) {
        return;
    }
    let Some(field) = site.field else { return };
    let name = &field.name.value;
    if !is_whole(site.name_words(), field.doc.as_ref().map(|d| d.value.as_str())) {
        return;
    }
    out.push(
        site_finding(site, site.ty.span, format!("input field `{}` counts whole things but is typed `number`, which accepts fractions", site.path))
            .help(format!("declare `{name}` as `integer` (keep its bounds): `field \"{name}\" \"integer\" …`")),
    );
}

#[cfg(test)]
mod tests {
    use crate::names::words;
    use super::{RULE, is_whole};
    use crate::lint::testkit::sites::*;
    use crate::model::{Effect, TyKind};

    #[test]
    fn names_and_docs_of_whole_quantities() {
        for name in ["limit", "perPage", "per_page", "issue_number", "pullNumber", "startLine", "maxTokens", "dashboardId", "tail_lines", "days"] {
            assert!(is_whole(&words(name), None), "{name}");
        }
        assert!(is_whole(&words("milestone"), Some("Milestone number")));
        assert!(is_whole(&words("tail"), Some("Returns only the last N lines of the file")));
        assert!(is_whole(&words("width"), Some("Width in pixels (default: 800)")));
        for name in ["rollout_percentage", "confidence_threshold", "duration", "a", "number_value", "surveyPopupDelaySeconds", "amount"] {
            assert!(!is_whole(&words(name), Some("First number")), "{name}");
        }
    }

    #[test]
    fn only_input_numbers() {
        let num = TyKind::Number(Box::default());
        let t = tool(
            "issue_list",
            Effect::Read,
            vec![field("page", num.clone()), field("per_page", int(Some(1), Some(9)))],
            Some(vec![field("count", num)]),
        );
        assert_eq!(paths(&check(&RULE, catalog(vec![t], vec![]))), ["input.page"]);
    }
}
