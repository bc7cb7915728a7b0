//! The `bounds/number-unbounded` rule: input integers and numbers have a lower and an upper bound;
//! [`RULE`] documents it.

use crate::lint::walk::{site_finding, site_span};
use crate::diag::Level;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding};
use crate::model::{NumTy, TyKind};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every `integer` or `number` of a tool's input (at any depth, array items and
    /// named types included) has both a lower bound (`min` or `exclusive-min`) and an upper
    /// bound (`max` or `exclusive-max`). Output numbers are not checked. On a published
    /// tools/list (`catalogc lint FILE.json`) identifiers (a name ending in `id`, `ids`,
    /// `number` or `pid`: `run_id`, `issue_number`, a process id) are not checked: any
    /// positive value names something; nor is a position in the data (a `page`, `offset`,
    /// `skip`, `index`, `line` or `position`, not a size such as `per_page`) that has a lower
    /// bound: its upper end is the data's length, which no bound the author could write would
    /// state; nor an ordering key (`sort_order`, `sequence`), whose every value orders; nor
    /// the numbers of a `data` list (`data[].value`, `series[].data[]`, a chart's or a
    /// table's points): the values a tool stores or draws are the user's data, whose whole
    /// range is valid.
    ///
    /// ## Why is this bad?
    /// The model produces numbers that fit the schema but not the intent: a negative quantity, a
    /// page size of 1,000,000, a transfer of 10^15 cents. A bound on both sides lets the client
    /// and the server reject them before anything happens, and tells the model the sane range.
    ///
    /// ## Example
    /// ```kdl
    /// field "page_size" "integer" { doc "How many invoices to return." }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "page_size" "integer" min=1 max=50 { doc "How many invoices to return." }
    /// ```
    pub static RULE = Rule {
        id: "bounds/number-unbounded",
        level: Level::Error,
        summary: "input integers and numbers have a lower and an upper bound",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

/// The missing sides, or `None` when bounded on both.
fn missing(n: &NumTy) -> Option<&'static str> {
    // An `enum` lists every value: bounded on both sides.
    if n.enum_values.is_some() {
        return None;
    }
    let lower = n.min.is_some() || n.exclusive_min.is_some();
    let upper = n.max.is_some() || n.exclusive_max.is_some();
    match (lower, upper) {
        (true, true) => None,
        (false, true) => Some("no lower bound (`min` or `exclusive-min`)"),
        (true, false) => Some("no upper bound (`max` or `exclusive-max`)"),
        (false, false) => Some("neither a lower nor an upper bound"),
    }
}

fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    if site.side != Some(Side::Input) {
        return;
    }
    let n = match &site.ty.kind {
        TyKind::Integer(n) | TyKind::Number(n) => n,
        _ => return,
    };
    if crate::lint::has_const(site) {
        return;
    }
    let Some(what) = missing(n) else { return };
    // An identifier (`issue_number`, `run_id`): any positive value names something, so on a
    // published list there is no range to state.
    let id = matches!(site.name_words().last().map(String::as_str), Some("id" | "ids" | "number" | "pid"));
    if cx.config.published && (id || ordering_key(site.name_words()) || in_data_list(site.path)) {
        return;
    }
    // A position in the data (`page`, `offset`, `start_line`) bounded below: the data's own
    // length is its upper end.
    let w = site.name_words();
    let position = matches!(w.last().map(String::as_str), Some("page" | "offset" | "skip" | "index" | "line" | "position"))
        // `per_page` is a page size.
        && !w.iter().any(|w| w == "per");
    if cx.config.published && position && (n.min.is_some() || n.exclusive_min.is_some()) {
        return;
    }
    out.push(
        site_finding(
            site,
            site_span(site),
            format!("input {} `{}` has {what}", site.ty.kind.keyword(), site.path),
        )
        .help("add `min=`/`max=` (or `exclusive-min=`/`exclusive-max=`) with the range a sane call uses"),
    );
}

/// A key that orders records (`sort_order`, `sortOrder`, `sequence`): every value orders.
fn ordering_key(words: &[String]) -> bool {
    match words {
        [.., a, b] if a == "sort" && b == "order" => true,
        [.., last] => last == "sequence",
        [] => false,
    }
}

/// A number in the items of a `data` list (`input.data[].value`, `input.series[].data[]`):
/// a point of the user's data, not a parameter of the call.
fn in_data_list(path: &str) -> bool {
    path.split('.').any(|segment| segment.starts_with("data[]"))
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::{Effect, Num, NumTy, TyKind};

    #[test]
    fn needs_both_sides_in_input_only() {
        let excl = TyKind::Number(Box::new(NumTy {
            exclusive_min: Some(sp(Num::Int(0))),
            exclusive_max: Some(sp(Num::Float(1.5))),
            ..NumTy::default()
        }));
        let t = tool(
            "stock_move",
            Effect::Update,
            vec![
                field("quantity", int(Some(1), Some(100))),
                field("ratio", excl),
                field("floor", int(Some(0), None)),
                field("ceiling", int(None, Some(9))),
                field("free", int(None, None)),
                field("counts", array(int(None, None), Some(4))),
            ],
            Some(vec![field("total", int(None, None))]),
        );
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["input.floor", "input.ceiling", "input.free", "input.counts[]"]);
        assert!(f[0].message.contains("upper bound"), "{}", f[0].message);
        assert!(f[1].message.contains("lower bound"), "{}", f[1].message);
    }

    #[test]
    fn a_published_list_skips_identifiers_positions_ordering_keys_and_data_points() {
        let t = tool(
            "issue_list",
            Effect::Read,
            vec![
                field("page", int(Some(1), None)),
                field("start_line", int(Some(1), None)),
                field("offset", int(None, None)),
                field("issue_number", int(None, None)),
                field("per_page", int(Some(1), None)),
                field("pid", int(None, None)),
                field("sort_order", int(None, None)),
                field("data", array(object(vec![field("value", int(None, None))]), Some(100))),
            ],
            None,
        );
        let f = check_with(&RULE, vec![catalog(vec![t.clone()], vec![])], &published());
        assert_eq!(paths(&f), ["input.offset", "input.per_page"]);
        assert_eq!(check(&RULE, catalog(vec![t], vec![])).len(), 8);
    }
}
