//! The `header/duplicate` rule: `header=` names are unique ignoring case within a tool's input;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::{self, Side, Types, site_finding};
use crate::lint::{Context, Finding};
use crate::model::Catalog;
use std::collections::HashMap;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that within one tool's input, at any depth (named types included), no two fields
    /// declare the same `header=` name, ignoring case (`Region` and `region` are one header).
    ///
    /// ## Why is this bad?
    /// HTTP header names are case-insensitive, so two fields with one header name would both be
    /// sent as the same `Mcp-Param-{Name}` header: the server cannot tell which argument it
    /// carries. MCP 2026-07-28 requires `x-mcp-header` values to be unique ignoring case, and
    /// clients drop a tool that breaks it.
    ///
    /// ## Example
    /// ```kdl
    /// input {
    ///     field "region" "string" max-length=16 header="Region"
    ///     field "backup_region" "string" max-length=16 header="region"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// input {
    ///     field "region" "string" max-length=16 header="Region"
    ///     field "backup_region" "string" max-length=16 header="Backup-Region"
    /// }
    /// ```
    pub static RULE = Rule {
        id: "header/duplicate",
        level: Level::Error,
        summary: "`header=` names are unique within a tool's input, ignoring case",
        hooks: crate::lint::Hooks::NONE.and_catalog(check),
    };
}

fn check(_: &Context, catalog: &Catalog, out: &mut Vec<Finding>) {
    let types = Types::new(catalog);
    for tool in &catalog.tools {
        // Lowercased name → path of the first field that declares it.
        let mut first: HashMap<String, String> = HashMap::new();
        walk::tool_side(&types, tool, Side::Input, &mut |site| {
            let Some(h) = site.field.and_then(|f| f.header.as_ref()) else {
                return;
            };
            match first.get(&h.value.to_ascii_lowercase()) {
                Some(earlier) => out.push(
                    site_finding(
                        site,
                        h.span,
                        format!(
                            "`{}` mirrors into header `Mcp-Param-{}`, which `{earlier}` already uses",
                            site.path, h.value
                        ),
                    )
                    .help("give each field its own header name (names compare ignoring case)"),
                ),
                None => {
                    first.insert(h.value.to_ascii_lowercase(), site.path.to_string());
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::sites::*;
    use crate::model::Effect;


    #[test]
    fn case_insensitive_through_named_types() {
        let t = tool(
            "region_get",
            Effect::Read,
            vec![
                headed("region", bounded_string(16), "Region"),
                headed("zone", bounded_string(16), "Zone"),
                field("place", named("Place")),
            ],
            None,
        );
        let place = type_def("Place", vec![headed("area", bounded_string(16), "REGION")]);
        let other = tool("zone_get", Effect::Read, vec![headed("zone", bounded_string(16), "zone")], None);
        let f = check(&RULE, catalog(vec![t, other], vec![place]));
        assert_eq!(paths(&f), ["input.place.area"]);
        assert!(f[0].message.contains("input.region"), "{}", f[0].message);
    }
}
