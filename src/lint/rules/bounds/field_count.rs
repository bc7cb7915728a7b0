//! The `bounds/field-count` rule: objects have at most 30 fields (configurable); [`RULE`] documents
//! it.

use crate::lint::walk::site_finding;
use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding, Hooks};
use crate::model::{Catalog, Object, TyKind};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that no object (`input`, `output`, an object field, a named `type`) declares more
    /// than 30 fields (configurable: `max-fields`). Counted per declaration; fields of a named
    /// type used as a field count as one.
    ///
    /// 30 is the 99th percentile of the objects of the 797 tools of 39 public MCP servers
    /// (tests/corpus/: 1,115 objects with fields, one of 31, the rest 29 or fewer);
    /// `tests/corpus.rs` recomputes it. A published tool rarely needs more, and the few that come close are several tools in
    /// one.
    ///
    /// ## Why is this bad?
    /// A tool with dozens of parameters is several tools in one: the model fills the wrong
    /// subset, mixes modes, and the description no longer fits its budget.
    ///
    /// ## Example
    /// ```kdl
    /// input {
    ///     field "f1" "boolean"
    ///     // ... 30 more fields
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // split by task: one tool per mode, each with the few fields it needs
    /// input {
    ///     field "f1" "boolean"
    /// }
    /// ```
    pub static RULE = Rule {
        id: "bounds/field-count",
        level: Level::Warn,
        summary: "objects have at most 30 fields (configurable)",
        hooks: Hooks::NONE.and_catalog(sides_and_types).and_declaration(objects),
    };
}

const HELP: &str = "split the tool by task, or group related fields into a named type";

fn message(what: &str, n: usize, max: usize) -> String {
    format!("{what} has {n} fields, more than {max}")
}

/// Tools' inputs and outputs and named types, before the object fields the walk visits.
fn sides_and_types(cx: &Context, catalog: &Catalog, out: &mut Vec<Finding>) {
    let max = cx.config.thresholds.max_fields;
    for tool in &catalog.tools {
        let sides = [("input", Some(&tool.input)), ("output", tool.output.as_ref())];
        for (name, object) in sides {
            let Some(Object { fields, span, .. }) = object else { continue };
            if fields.len() > max {
                out.push(
                    Finding::in_tool(catalog, tool, *span, message(&format!("`{name}`"), fields.len(), max))
                        .path(name)
                        .help(HELP),
                );
            }
        }
    }
    for ty in &catalog.types {
        if ty.fields.len() > max {
            out.push(
                Finding::in_catalog(catalog, ty.name.span, message(&format!("type `{}`", ty.name.value), ty.fields.len(), max))
                    .path(ty.name.value.as_str())
                    .help(HELP),
            );
        }
    }
}

fn objects(cx: &Context, site: &Site<'_, '_>, out: &mut Vec<Finding>) {
    let max = cx.config.thresholds.max_fields;
    let TyKind::Object(o) = &site.ty.kind else { return };
    if o.fields.len() > max {
        let span = site.field.map(|f| f.name.span).unwrap_or(site.ty.span);
        out.push(
            site_finding(site, span, message(&format!("object `{}`", site.path), o.fields.len(), max))
                .help(HELP),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
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
