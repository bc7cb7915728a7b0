//! The `bounds/array-unbounded` rule: arrays have `max-items`; [`RULE`] documents it.

use crate::lint::walk::{site_finding, site_span};
use crate::diag::Level;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding};
use crate::model::TyKind;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every `array` (field or nested `items`), in input and output and in named
    /// types, has `max-items`. Two bounds count as well: `unique=#true` items from a closed
    /// `enum` (or booleans) hold at most as many elements as there are values, and an array in
    /// a tool's `output` is bounded by the tool's `limits max-items`.
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
fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
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
    out.push(
        site_finding(site, site_span(site), format!("array `{}` has no `max-items`", site.path))
            .help("add `max-items=N`: the most elements a call may send or a result may hold"),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::Effect;

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
}
