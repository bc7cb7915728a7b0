//! The `bounds/array-unbounded` rule: arrays have `max-items`; [`RULE`] documents it.

use crate::lint::walk::{site_finding, site_span};
use crate::diag::Level;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding};
use crate::model::{Format, TyKind};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every `array` (field or nested `items`), in input and output and in named
    /// types, has `max-items`. Two bounds count as well: `unique=#true` items from a closed
    /// `enum` (or booleans) hold at most as many elements as there are values, and an array in
    /// a tool's `output` is bounded by the tool's `limits max-items`.
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) arrays of a closed `enum` (unique
    /// or not), input include/exclude or filter lists (`include_fields`, `exclude`,
    /// `statuses`, an allow-list such as `passlist`, a doc that opens with "Filters results by
    /// …", the field `paths` to return), lists of dates and the lists an object holds as its
    /// settings (its `tags` or labels, the events a callback subscribes to, the `headers` a
    /// monitor sends, a configured `…_list` such as `csp_src_list`, its option flags such as
    /// `syncOptions`, the `conditions` of a rule or segment, search `keywords`, and any list
    /// in
    /// an object of options or presentation settings such as a chart's `style.palette`) are
    /// not reported, and an output array is
    /// `info`, hardening advice: a result the server fills, not a fan-out the model chooses,
    /// whose size its author could only invent.
    ///
    /// ## Why is this bad?
    /// Without a bound the model may send thousands of elements in one call (a fan-out the
    /// server did not plan for), and a result may return more items than fit in the model's
    /// context. A stated bound also tells the model to paginate or batch.
    ///
    /// ## Example
    /// ```kdl
    /// field "invoice_references" "array" required=#true {
    ///     items "string" max-length=32
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "invoice_references" "array" required=#true max-items=50 {
    ///     items "string" max-length=32
    /// }
    /// ```
    pub static RULE = Rule {
        id: "bounds/array-unbounded",
        level: Level::Error,
        summary: "arrays have `max-items`",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

// Once per declaration: the bound is missing wherever the type is used.
fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    let TyKind::Array(a) = &site.ty.kind else {
        return;
    };
    let unique_closed = a.unique
        && match &a.items.kind {
            TyKind::String(s) => s.enum_values.as_ref().is_some_and(|e| !e.extensible),
            TyKind::Boolean => true,
            _ => false,
        };
    let result_limited = site.side == Some(Side::Output)
        && site
            .tool
            .and_then(|t| t.limits.as_ref())
            .is_some_and(|l| l.max_items.is_some());
    if a.max_items.is_some() || unique_closed || result_limited {
        return;
    }
    if cx.config.published && (closed_items(&a.items.kind) || is_filter(site, &a.items.kind) || is_setting(site)) {
        return;
    }
    let f = site_finding(site, site_span(site), format!("array `{}` has no `max-items`", site.path))
        .help("add `max-items=N`: the most elements a call may send or a result may hold");
    out.push(if cx.config.published && site.side == Some(Side::Output) { f.level(Level::Info) } else { f });
}

/// Items of a closed enum (or booleans): the values bound what a sensible call sends.
fn closed_items(items: &TyKind) -> bool {
    match items {
        TyKind::String(s) => s.enum_values.as_ref().is_some_and(|e| !e.extensible),
        TyKind::Boolean => true,
        _ => false,
    }
}

/// First words of include/exclude and filter lists: the model's selection, not a batch.
const FILTERS: &[&str] = &[
    "include", "exclude", "fields", "select", "expand", "filter", "filters", "sort", "order",
    "group", "columns", "properties", "metrics", "types", "statuses", "states", "kinds",
    "allowlist", "passlist", "blocklist", "denylist", "paths",
];

/// An input list whose name or doc says it selects or filters (`include_fields`, `exclude`,
/// `statuses`, "Filters results by location"), or a list of dates (the periods a report
/// compares).
fn is_filter(site: &Site, items: &TyKind) -> bool {
    let named = site.name_words().first().is_some_and(|w| FILTERS.contains(&w.as_str()));
    let doc = site.field.and_then(|f| f.doc.as_ref()).map_or("", |d| d.value.as_str());
    let opening: String = doc.chars().take(80).collect::<String>().to_ascii_lowercase();
    let dates = matches!(items, TyKind::Timestamp)
        || matches!(items, TyKind::String(s) if s.format.as_ref().is_some_and(|f| matches!(f.value, Format::Date | Format::DateTime)));
    site.side == Some(Side::Input) && (named || opening.contains("filter") || dates)
}

/// Last words of lists an object holds as its settings, not a batch of work: its `tags`, the
/// events a callback subscribes to (`status_callback_event`), the HTTP `headers` a monitor
/// sends, a configured `…_list` (`csp_src_list`), its option flags (`syncOptions`), the
/// conditions of a rule or segment, search `keywords`.
const SETTINGS: &[&str] = &[
    "tags", "event", "events", "headers", "list", "options", "conditions", "keywords",
];

/// Names of objects that hold options or presentation settings: every list in them is a
/// setting (a chart's `style.palette`), not a batch of work.
const SETTING_OBJECTS: &[&str] = &["style", "theme", "options", "settings", "config", "configuration", "preferences", "appearance"];

/// An input list that is one of the settings of the object the tool writes (its labels too:
/// `add_label_ids`), or a list in an object of options or presentation settings.
fn is_setting(site: &Site) -> bool {
    let leaf = site.path.trim_end_matches("[]");
    let mut segments = leaf.rsplit('.');
    let words = crate::names::words(segments.next().unwrap_or(leaf));
    // The object holding the list, without its array marks or union variant (`style`).
    let parent = segments.next().map(|p| p.split(['[', '<']).next().unwrap_or(p).to_ascii_lowercase());
    site.side == Some(Side::Input)
        && (words.last().is_some_and(|w| SETTINGS.contains(&w.as_str()))
            || words.iter().any(|w| w == "label" || w == "labels")
            || parent.is_some_and(|p| SETTING_OBJECTS.contains(&p.as_str())))
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::{Effect, TyKind};

    #[test]
    fn unique_enum_items_and_result_limits_bound_an_array() {
        use crate::model::{EnumValues, Limits, StringTy, TyKind};
        let values = EnumValues {
            values: vec![sp("a".to_string()), sp("b".to_string())],
            extensible: false,
            span: Default::default(),
        };
        let choice = TyKind::String(Box::new(StringTy {
            enum_values: Some(values),
            ..StringTy::default()
        }));
        let mut unique = array(choice.clone(), None);
        if let TyKind::Array(a) = &mut unique {
            a.unique = true;
        }
        let mut t = tool(
            "report_list",
            Effect::Read,
            vec![field("kinds", unique), field("repeats", array(choice, None))],
            Some(vec![field("reports", array(bounded_string(3), None))]),
        );
        t.limits = Some(Box::new(Limits {
            max_items: Some(sp(50)),
            max_result_bytes: None,
            timeout_ms: None,
            span: Default::default(),
        }));
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["input.repeats"]);
    }

    #[test]
    fn every_unbounded_array_once_per_declaration() {
        let ty = type_def("Batch", vec![field("ids", array(bounded_string(10), None))]);
        let t = tool(
            "batch_run",
            Effect::Update,
            vec![
                field("a", named("Batch")),
                field("b", named("Batch")),
                field("grid", array(array(int(Some(0), Some(1)), None), Some(3))),
                field("ok", array(bounded_string(3), Some(3))),
            ],
            None,
        );
        let f = check(&RULE, catalog(vec![t], vec![ty]));
        assert_eq!(paths(&f), ["input.grid[]", "Batch.ids"]);
        assert_eq!(f[1].tool, None);
    }

    #[test]
    fn a_published_list_skips_enum_filter_and_setting_lists_and_advises_on_output() {
        use crate::model::{EnumValues, Span, StringTy};
        let closed = TyKind::String(Box::new(StringTy {
            enum_values: Some(EnumValues {
                values: vec![sp("open".to_string()), sp("closed".to_string())],
                extensible: false,
                span: Span::default(),
            }),
            ..StringTy::default()
        }));
        let t = tool(
            "issue_list",
            Effect::Read,
            vec![
                field("states", array(closed, None)),
                field("include_fields", array(string(), None)),
                field("issue_ids", array(string(), None)),
                field("tags", array(string(), None)),
                field("csp_src_list", array(string(), None)),
                field("passlist", array(string(), None)),
                field("style", object(vec![field("palette", array(string(), None))])),
                field("add_label_ids", array(string(), None)),
                field("paths", array(string(), None)),
                field("status_callback_event", array(string(), None)),
                field("syncOptions", array(string(), None)),
                field("conditions", array(string(), None)),
            ],
            Some(vec![field("issues", array(string(), None))]),
        );
        let f = check_with(&RULE, vec![catalog(vec![t.clone(), ], vec![])], &published());
        assert_eq!(paths(&f), ["input.issue_ids", "output.issues"]);
        assert_eq!(f[0].level, None);
        assert_eq!(f[1].level, Some(crate::diag::Level::Info));
        // A catalog keeps every one of them.
        assert_eq!(check(&RULE, catalog(vec![t], vec![])).len(), 13);
    }
}
