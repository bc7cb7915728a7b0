//! The `bounds/pseudo-bound` rule: no bound at a representation limit (2^53−1 and the like);
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::{Num, Sp, TyKind};

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags bounds that bound nothing: a `min`, `max`, `exclusive-min` or `exclusive-max` whose
    /// magnitude is at least 2^53−1 (9007199254740991, JavaScript's `Number.MAX_SAFE_INTEGER`,
    /// which schema generators such as zod write for every `.int()`; also `i64` and `u64`
    /// limits), and a `max-length` or `max-items` of at least 2^31−1 (2147483647). Such a bound
    /// satisfies `bounds/number-unbounded`, `bounds/string-unbounded` and
    /// `bounds/array-unbounded` on paper while accepting anything. The limits are the
    /// representation limits of the numbers themselves, not a percentile: no real quantity of the
    /// corpus's 797 tools comes near them except these generated ones.
    ///
    /// In input the finding is an error, like the missing bound it hides; in output a warning.
    ///
    /// ## Why is this bad?
    /// A bound exists to say what the server accepts and to stop the model from sending what it
    /// does not (a retry count of nine quadrillion, an interval of 285 million years). A bound at
    /// the type's own limit says nothing, so the model gets no guidance and the server gets no
    /// protection, while every linter and reviewer sees a bounded field.
    ///
    /// ## Example
    /// ```kdl
    /// field "interval_seconds" "integer" min=60 max=9007199254740991
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "interval_seconds" "integer" min=60 max=86400 { doc "Check interval, at most a day." }
    /// ```
    pub static RULE = Rule {
        id: "bounds/pseudo-bound",
        level: Level::Error,
        summary: "no bound at a representation limit (2^53−1, 2^31−1 lengths) that bounds nothing",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

/// 2^53 − 1: the largest integer a JSON parser in JavaScript keeps exact.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;
/// 2^31 − 1: the largest length or count a signed 32-bit integer holds.
const INT32_MAX: u64 = 2_147_483_647;

fn pseudo_number(n: &Sp<Num>) -> bool {
    n.value.as_f64().abs() >= SAFE_INTEGER
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let name = site.field.map_or("items", |f| f.name.value.as_str());
    let mut found: Vec<(&str, String)> = Vec::new();
    match &site.ty.kind {
        TyKind::Integer(n) | TyKind::Number(n) => {
            for (key, b) in [("min", &n.min), ("max", &n.max), ("exclusive-min", &n.exclusive_min), ("exclusive-max", &n.exclusive_max)] {
                if let Some(b) = b.as_ref().filter(|b| pseudo_number(b)) {
                    let v = match b.value {
                        Num::Int(i) => i.to_string(),
                        Num::Float(f) => f.to_string(),
                    };
                    found.push((key, v));
                }
            }
        }
        TyKind::String(s) | TyKind::Cursor(s) => {
            if let Some(m) = s.max_length.as_ref().filter(|m| m.value >= INT32_MAX) {
                found.push(("max-length", m.value.to_string()));
            }
        }
        TyKind::Array(a) => {
            if let Some(m) = a.max_items.as_ref().filter(|m| m.value >= INT32_MAX) {
                found.push(("max-items", m.value.to_string()));
            }
        }
        _ => {}
    }
    if found.is_empty() {
        return;
    }
    let level = if site.side == Some(Side::Input) { Level::Error } else { Level::Warn };
    let written: Vec<String> = found.iter().map(|(k, v)| format!("`{k}={v}`")).collect();
    let keys: Vec<String> = found.iter().map(|(k, _)| format!("`{k}`")).collect();
    let (a, these) = if found.len() == 1 { ("a representation limit that bounds", "it") } else { ("representation limits that bound", "them") };
    out.push(
        site_finding(site, site.ty.span, format!("`{}` has {}, {a} nothing", site.path, written.join(" and ")))
            .help(format!("set {} of `{name}` to what the server really accepts (what its storage, the upstream API or the use allows) and say {these} in the doc", keys.join(" and ")))
            .level(level),
    );
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::sites::*;
    use crate::model::Effect;

    #[test]
    fn limits_of_numbers_lengths_and_items() {
        let t = tool(
            "monitor_create",
            Effect::Append,
            vec![
                field("interval_seconds", int(Some(60), Some(9_007_199_254_740_991))),
                field("floor", int(Some(-9_223_372_036_854_775_808), Some(5))),
                field("retries", int(Some(0), Some(2_147_483_647))),
                field("name", bounded_string(2_147_483_647)),
                field("tags", array(bounded_string(8), Some(4_294_967_295))),
                field("note", bounded_string(500)),
            ],
            Some(vec![field("count", int(Some(0), Some(9_007_199_254_740_991)))]),
        );
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["input.interval_seconds", "input.floor", "input.name", "input.tags", "output.count"]);
        assert_eq!(f[4].level, Some(crate::diag::Level::Warn));
        let two = tool("thread_get", Effect::Read, vec![field("thread", int(Some(-9_007_199_254_740_991), Some(9_007_199_254_740_991)))], None);
        let f = check(&RULE, catalog(vec![two], vec![]));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].message, "`input.thread` has `min=-9007199254740991` and `max=9007199254740991`, representation limits that bound nothing");
    }
}
