//! The `bounds/depth` rule: objects nest at most 5 levels deep (configurable); [`RULE`] documents
//! it.

use crate::lint::walk::{site_finding, site_span};
use crate::diag::Level;
use crate::lint::walk::{self, Side, Site};
use crate::lint::{Context, Finding};
use crate::model::TyKind;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that objects are nested at most 5 levels deep (configurable: `max-depth`), counting
    /// through named types and array items: the fields of `input`/`output` are at depth 1, the
    /// fields of an object field of `input` at depth 2, and so on. Reported once, at the object
    /// whose fields would be too deep.
    ///
    /// 5 is the deepest nesting of the 797 tools of 39 public MCP servers (tests/corpus/: the
    /// 100th percentile; `tests/corpus.rs` recomputes it): real tools never go deeper.
    ///
    /// Also reports a tool side that expands to more than 10,000 type sites through named types
    /// (types that use other types several times each, level after level, multiply): the linter
    /// stops entering named types there, so the rules that check fields per use see only part of
    /// that side.
    ///
    /// ## Why is this bad?
    /// Models fill deep structures badly: they drop required inner fields, put values at the
    /// wrong level, and spend many tokens on nesting. Some clients also flatten or reject deep
    /// schemas.
    ///
    /// ## Example
    /// ```kdl
    /// field "a" "object" { field "b" "object" { field "c" "object" {
    ///     field "d" "object" { field "e" "object" { field "f" "string" max-length=8 } } } } }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "a" "object" { field "b" "object" { field "c" "object" {
    ///     field "d" "object" { field "e_f" "string" max-length=8 } } } }
    /// ```
    pub static RULE = Rule {
        id: "bounds/depth",
        level: Level::Error,
        summary: "objects nest at most 5 levels deep (configurable)",
        hooks: crate::lint::Hooks {
            project: Some(expansion),
            ..crate::lint::Hooks::use_site(check)
        },
    };
}

/// Tool sides whose named types expand past what the walker visits.
fn expansion(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        let types = walk::Types::new(catalog);
        for tool in &catalog.tools {
            for side in [Side::Input, Side::Output] {
                if walk::tool_side(&types, tool, side, &mut |_| {}) {
                    continue;
                }
                let span = tool.object(side).map_or(tool.name.span, |o| o.span);
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        span,
                        format!(
                            "`{}` expands to more than {} fields through its named types; the fields past that are not checked",
                            side.as_str(),
                            walk::MAX_USE_SITES
                        ),
                    )
                    .path(side.as_str())
                    .help("use each named type once per level, or flatten the types: a type that uses another several times, level after level, multiplies"),
                );
            }
        }
    }
}

// Per use: a named type adds its depth to wherever it is used.
fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    // A limit below 1 would flag the input itself; treat it as 1.
    let max = cx.config.thresholds.max_depth.max(1);
    {
        {
            {
                {
                    if site.depth != max {
                        return;
                    }
                    let has_fields = match &site.ty.kind {
                        TyKind::Object(o) => !o.fields.is_empty(),
                        TyKind::Named(_) => site.def.is_some_and(|t| !t.fields.is_empty()),
                        _ => false,
                    };
                    if !has_fields {
                        return;
                    }
                    out.push(
                        site_finding(
                            site,
                            site_span(site),
                            format!(
                                "the fields of `{}` are nested {} levels deep, more than {max}",
                                site.path,
                                max + 1
                            ),
                        )
                        .help("flatten the structure: lift inner fields up, or split the tool"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::lint::Config;
    use crate::model::{Effect, Field};

    fn nest(levels: usize) -> Field {
        let mut f = field("leaf", bounded_string(4));
        for i in (0..levels).rev() {
            f = field(&format!("l{i}"), object(vec![f]));
        }
        f
    }

    #[test]
    fn a_dag_of_named_types_is_reported_not_walked_exponentially() {
        let levels = 24;
        let types = dag(levels);
        let t = tool("a_b", Effect::Read, vec![], Some(vec![field("top", named("L0"))]));
        let mut config = Config::default();
        config.thresholds.max_depth = 100;
        let f = check_with(&RULE, vec![catalog(vec![t], types)], &config);
        assert_eq!(paths(&f), ["output"]);
        assert!(f[0].message.contains("more than 10000 fields"), "{}", f[0].message);
    }

    #[test]
    fn reports_the_object_crossing_the_limit_once() {
        // l0..l3 are objects at depths 1..4, leaf at depth 5: fine.
        let ok = tool("a_ok", Effect::Read, vec![nest(4)], None);
        // l4 at depth 5 holds fields at depth 6.
        let deep = tool("a_deep", Effect::Read, vec![], Some(vec![nest(7)]));
        let f = check(&RULE, catalog(vec![ok, deep], vec![]));
        assert_eq!(paths(&f), ["output.l0.l1.l2.l3.l4"]);
    }

    #[test]
    fn counts_through_named_types_and_items_and_honours_the_threshold() {
        let inner = type_def("Inner", vec![field("x", bounded_string(1))]);
        let t = tool(
            "a_b",
            Effect::Read,
            vec![field("list", array(object(vec![field("inner", named("Inner"))]), Some(2)))],
            None,
        );
        let mut config = Config::default();
        config.thresholds.max_depth = 2;
        let f = check_with(&RULE, vec![catalog(vec![t], vec![inner])], &config);
        assert_eq!(paths(&f), ["input.list[].inner"]);
    }
}
