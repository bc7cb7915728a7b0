//! ## What it does
//! Checks that no object (`input`, `output`, an object field, a named `type`) declares more
//! than 30 fields (configurable: `max-fields`). Counted per declaration; fields of a named
//! type used as a field count as one.
//!
//! ## Why is this bad?
//! A tool with dozens of parameters is several tools in one: the model fills the wrong
//! subset, mixes modes, and the description no longer fits its budget.
//!
//! ## Example
//! ```kdl
//! input {
//!     field "f1" "boolean"
//!     // ... 30 more fields
//! }
//! ```
//!
//! ## Use instead
//! ```kdl
//! // split by task: one tool per mode, each with the few fields it needs
//! input {
//!     field "f1" "boolean"
//! }
//! ```

use super::site_finding;
use crate::diag::Level;
use crate::lint::walk;
use crate::lint::{Context, Finding, Rule};
use crate::model::{Object, TyKind};

/// The `bounds/field-count` rule: objects have at most 30 fields (configurable); the module
/// documentation explains it.
pub static RULE: Rule = Rule {
    id: "bounds/field-count",
    level: Level::Warn,
    summary: "objects have at most 30 fields (configurable)",
    hooks: crate::lint::Hooks::project(check),
    source: include_str!("field_count.rs"),
};

const HELP: &str = "split the tool by task, or group related fields into a named type";

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let max = cx.config.thresholds.max_fields;
    let message = |what: &str, n: usize| format!("{what} has {n} fields, more than {max}");
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let sides = [("input", Some(&tool.input)), ("output", tool.output.as_ref())];
            for (name, object) in sides {
                let Some(Object { fields, span }) = object else { continue };
                if fields.len() > max {
                    out.push(
                        Finding::in_tool(catalog, tool, *span, message(&format!("`{name}`"), fields.len()))
                            .path(name)
                            .help(HELP),
                    );
                }
            }
        }
        for ty in &catalog.types {
            if ty.fields.len() > max {
                out.push(
                    Finding::in_catalog(catalog, ty.name.span, message(&format!("type `{}`", ty.name.value), ty.fields.len()))
                        .path(ty.name.value.as_str())
                        .help(HELP),
                );
            }
        }
        walk::declarations(catalog, &mut |site| {
            let TyKind::Object(o) = &site.ty.kind else { return };
            if o.fields.len() > max {
                let span = site.field.map(|f| f.name.span).unwrap_or(site.ty.span);
                out.push(
                    site_finding(site, span, message(&format!("object `{}`", site.path), o.fields.len()))
                        .help(HELP),
                );
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::RULE;
    use crate::lint::Config;
    use crate::model::{Effect, TyKind};

    #[test]
    fn counts_each_object_declaration() {
        let three = || (0..3).map(|i| field(&format!("f{i}"), TyKind::Boolean)).collect::<Vec<_>>();
        let t = tool(
            "a_b",
            Effect::Read,
            three(),
            Some(vec![field("nested", object(three())), field("two", object(three()[..2].to_vec()))]),
        );
        let ty = type_def("Wide", three());
        let mut config = Config::default();
        config.thresholds.max_fields = 2;
        let f = check_with(&RULE, vec![catalog(vec![t], vec![ty])], &config);
        assert_eq!(paths(&f), ["input", "Wide", "output.nested"]);
        let f = check(&RULE, catalog(vec![tool("a_c", Effect::Read, three(), None)], vec![]));
        assert!(f.is_empty());
    }
}
