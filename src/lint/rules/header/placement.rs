//! The `header/placement` rule: `header=` only on string, integer and boolean input fields outside
//! arrays; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::{Num, NumTy, TyKind};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks where `header=` is written. MCP 2026-07-28 allows `x-mcp-header` only on an input
    /// property of type string, integer or boolean, reached from the input object through
    /// object properties alone. So `header=` is reported on:
    /// - an output field (only arguments travel in request headers);
    /// - a field inside an array's items (an array has no single value to mirror);
    /// - a field of type `number`, `array`, `object` or a named type;
    /// - an `integer` field whose bounds admit values outside JavaScript's safe range
    ///   (±(2^53 − 1)), or that has no bound on a side.
    ///
    /// `string`, `cursor` and `timestamp` fields are strings and may carry a header.
    ///
    /// ## Why is this bad?
    /// Clients drop a tool whose `x-mcp-header` sits where the rules forbid it, so the model
    /// never sees the tool; a header on an output field is never sent at all.
    ///
    /// ## Example
    /// ```kdl
    /// input {
    ///     field "lines" "array" max-items=10 {
    ///         items "object" {
    ///             field "sku" "string" max-length=32 header="Sku"
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// input {
    ///     field "warehouse" "string" required=#true max-length=16 header="Warehouse"
    /// }
    /// ```
    pub static RULE = Rule {
        id: "header/placement",
        level: Level::Error,
        summary: "`header=` only on string, integer or boolean input fields outside arrays",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

/// 2^53 − 1: the largest integer a JavaScript client holds exactly.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn within_safe_range(n: &NumTy) -> bool {
    let inside = |b: Option<&crate::model::Sp<Num>>| {
        b.is_some_and(|b| b.value.as_f64().abs() <= SAFE_INTEGER)
    };
    let lower = n.min.as_ref().or(n.exclusive_min.as_ref());
    let upper = n.max.as_ref().or(n.exclusive_max.as_ref());
    inside(lower) && inside(upper)
}

fn problem(site: &Site) -> Option<String> {
    if site.side == Some(Side::Output) {
        return Some("is an output field: only arguments are sent in request headers".into());
    }
    if site.path.contains("[]") {
        return Some("is inside an array's items: there is no single value to mirror".into());
    }
    match &site.ty.kind {
        TyKind::String(_) | TyKind::Cursor(_) | TyKind::Timestamp | TyKind::Boolean => None,
        TyKind::Integer(n) if within_safe_range(n) => None,
        TyKind::Integer(_) => Some(
            "is an integer that may exceed JavaScript's safe range: bound it within ±(2^53 − 1)"
                .into(),
        ),
        TyKind::Named(n) => Some(format!(
            "is an object of type `{}`: only string, integer and boolean fields may be mirrored",
            n.value
        )),
        other => Some(format!(
            "is {} `{}`: only string, integer and boolean fields may be mirrored",
            if other.keyword().starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" },
            other.keyword()
        )),
    }
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let Some(h) = site.field.and_then(|f| f.header.as_ref()) else {
        return;
    };
    let Some(why) = problem(site) else { return };
    out.push(
        site_finding(site, h.span, format!("`header=\"{}\"` on `{}`: the field {why}", h.value, site.path))
            .help("mirror a top-level (or nested object) string, integer or boolean input field, or remove `header=`"),
    );
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::sites::*;
    use crate::model::{Effect, Field, TyKind};

    fn h(name: &str, kind: TyKind) -> Field {
        headed(name, kind, &format!("H-{name}"))
    }

    #[test]
    fn only_primitive_input_fields_outside_arrays() {
        let t = tool(
            "region_get",
            Effect::Read,
            vec![
                h("region", bounded_string(16)),
                h("count", int(Some(0), Some(10))),
                h("flag", TyKind::Boolean),
                h("huge", int(Some(0), Some(i64::MAX))),
                h("open", int(Some(0), None)),
                h("ratio", TyKind::Number(Default::default())),
                field("nested", object(vec![h("inner", bounded_string(4))])),
                field("lines", array(object(vec![h("sku", bounded_string(4))]), Some(3))),
                h("place", named("Place")),
            ],
            Some(vec![h("status", bounded_string(8))]),
        );
        let place = type_def("Place", vec![]);
        let f = check(&RULE, catalog(vec![t], vec![place]));
        assert_eq!(
            paths(&f),
            [
                "input.huge",
                "input.open",
                "input.ratio",
                "input.lines[].sku",
                "input.place",
                "output.status"
            ]
        );
    }
}
