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
    /// bound (`max` or `exclusive-max`). Output numbers are not checked.
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) some numbers have no range the
    /// author could state, and are not checked:
    /// - identifiers: a name ending in `id`, `ids`, `number`, `pid`, `uid`, `gid`, `msgid` or
    ///   `reqid` (`run_id`, `issue_number`, the items of `tag_ids`), or a doc whose first
    ///   clause ends in "ID" or "IDs" ("Objective ID", "list of selected option IDs") or names
    ///   them in its first words ("Order IDs to delete", but not "Maximum number of IDs to
    ///   return"): any positive value names something;
    /// - points in time: a name ending in `timestamp`, `epoch`, `since`, `until`, `before` or
    ///   `after`, or a doc that says "Unix time" or "epoch", or whose first clause says
    ///   "timestamp": every value is a moment;
    /// - positions in the data that have their lower bound: a name ending in `page`, `pages`,
    ///   `pageno`, `offset`, `skip`, `index`, `line`, `position`, `x` or `y`, or starting with
    ///   `start` (`start_line`, `startChar`), but not a size such as `per_page`: the upper
    ///   end is the data's length or the screen's size, which no bound the author could
    ///   write would state;
    /// - ordering keys (`sort_order`, `displayOrder`, `sequence`), whose every value orders;
    /// - the numbers of a `data` list (`data[].value`, `series[].data[]`, a chart's or a
    ///   table's points): the values a tool stores or draws are the user's data, whose whole
    ///   range is valid.
    ///
    /// The items of an array are named and documented by the array field.
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
    if cx.config.published && published_exempt(site, n) {
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

/// On a published list, a number whose range no bound the author could write would state:
/// an identifier, a point in time, an ordering key, a point of the user's data, or a
/// position in the data that already has its lower bound.
fn published_exempt(site: &Site, n: &NumTy) -> bool {
    // An array's items are named and documented by the array field.
    let owner = site.owner();
    let owned;
    let words: &[String] = match (site.field, owner) {
        (Some(_), _) => site.name_words(),
        (None, Some(f)) => {
            owned = crate::names::words(&f.name.value);
            &owned
        }
        (None, None) => &[],
    };
    let doc = owner.and_then(|f| f.doc.as_ref()).map(|d| d.value.as_str());
    if identifier(words, doc) || instant(words, doc) || ordering_key(words) || in_data_list(site.path) {
        return true;
    }
    position(words) && (n.min.is_some() || n.exclusive_min.is_some())
}

/// An identifier (`issue_number`, `run_id`, `tag_ids`, `msgid`, a field documented as
/// "Objective ID" or "Order IDs to delete"): any positive value names something.
fn identifier(words: &[String], doc: Option<&str>) -> bool {
    let named = matches!(
        words.last().map(String::as_str),
        Some("id" | "ids" | "number" | "pid" | "uid" | "gid" | "msgid" | "reqid")
    );
    // The doc's first clause ends in IDs ("Objective ID", "Iteration ID (null to unset)",
    // "Answer for a question — list of selected option IDs") or names them in its first
    // words ("Order IDs to delete"), but not as a count of them ("Maximum number of IDs to
    // return").
    let documented = doc.is_some_and(|d| {
        let clause = d.split(['(', '.', ',', ';', ':']).next().unwrap_or(d);
        let all: Vec<&str> = clause.split_whitespace().collect();
        let is_id = |w: &&str| matches!(*w, "ID" | "IDs" | "Id" | "Ids" | "id" | "ids");
        if all.last().is_some_and(is_id) {
            return true;
        }
        let words = &all[..all.len().min(6)];
        let at = words.iter().position(is_id);
        at.is_some_and(|at| {
            !words[..at].iter().any(|w| {
                matches!(
                    w.to_ascii_lowercase().as_str(),
                    "max" | "maximum" | "min" | "minimum" | "number" | "count" | "how" | "limit" | "size"
                )
            })
        })
    });
    named || documented
}

/// A point in time given as a number (a Unix time, an epoch timestamp, a `since` or
/// `before` bound): every value is a moment.
fn instant(words: &[String], doc: Option<&str>) -> bool {
    let named = matches!(
        words.last().map(String::as_str),
        Some("timestamp" | "epoch" | "since" | "until" | "before" | "after")
    );
    // "Unix time" and "epoch" say so wherever they stand; "timestamp" only in the doc's first
    // clause ("Timestamp to list deployments from"), not in prose about other values.
    let documented = doc.is_some_and(|d| {
        let lower = d.to_ascii_lowercase();
        let clause = lower.split(['(', '.', ',', ';', ':']).next().unwrap_or_default();
        lower.contains("unix time") || lower.contains("epoch") || clause.split_whitespace().any(|w| w == "timestamp")
    });
    named || documented
}

/// A position in the data (`page`, `offset`, `start_line`, `startChar`, a screen's `x`),
/// not a size such as `per_page`: the data's own length is its upper end.
fn position(words: &[String]) -> bool {
    let last = matches!(
        words.last().map(String::as_str),
        Some("page" | "pages" | "pageno" | "offset" | "skip" | "index" | "line" | "position" | "x" | "y")
    );
    let start = words.len() > 1 && words.first().is_some_and(|w| w == "start");
    (last || start) && !words.iter().any(|w| w == "per")
}

/// A key that orders records (`sort_order`, `displayOrder`, `sequence`): every value orders.
fn ordering_key(words: &[String]) -> bool {
    match words {
        [.., a, b] if (a == "sort" || a == "display") && b == "order" => true,
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

    fn documented(name: &str, kind: TyKind, doc: &str) -> crate::model::Field {
        let mut f = field(name, kind);
        f.doc = Some(sp(doc.to_string()));
        f
    }

    #[test]
    fn a_published_list_names_items_by_their_array_and_reads_ids_and_times_from_docs() {
        let t = tool(
            "story_update",
            Effect::Update,
            vec![
                field("tag_ids", array(int(None, None), Some(10))),
                field("pages", array(int(Some(1), None), Some(10))),
                field("sizes", array(int(None, None), Some(10))),
                field("msgid", int(None, None)),
                documented("objective", int(None, None), "Objective ID (null to unset)"),
                documented("deadline", int(None, None), "Deadline of the task (Unix time)"),
                documented("estimate", int(None, None), "Point estimate"),
                field("x", int(Some(0), None)),
                field("y", int(None, None)),
                field("startChar", int(Some(0), None)),
                field("displayOrder", int(None, None)),
                documented("delete", array(int(None, None), Some(10)), "Order IDs to delete"),
                documented("limit", int(None, None), "Maximum number of IDs to return"),
                documented("from", int(None, None), "Timestamp to list deployments from"),
                field("since", int(None, None)),
                field("unitAmount", int(None, None)),
                documented("max_tokens", int(Some(100), None), "Target budget in tokens. Occurrences show id_timestamp or id_only."),
            ],
            None,
        );
        let f = check_with(&RULE, vec![catalog(vec![t.clone()], vec![])], &published());
        assert_eq!(
            paths(&f),
            ["input.sizes[]", "input.estimate", "input.y", "input.limit", "input.unitAmount", "input.max_tokens"]
        );
        assert_eq!(check(&RULE, catalog(vec![t], vec![])).len(), 17);
    }
}
