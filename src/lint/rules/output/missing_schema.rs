//! The `output/missing-schema` rule: tools declare an `output` (structured result contract);
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags a tool without an `output` block. A tool that declares an unstructured result
    /// (`output kind="text"`, `"markdown"` or `"image"`) is not flagged: a JSON schema does not
    /// apply to text, logs or images.
    ///
    /// ## Why is this bad?
    /// Without `output` the tool has no `outputSchema`: clients get no `structuredContent`
    /// contract, cannot validate results, and the model has to parse free text whose shape can
    /// change without notice (and without `catalogc compat` noticing).
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_get" version="1.0.0" {
    ///     // ...
    ///     input { field "invoice_reference" "string" required=#true max-length=32 }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_get" version="1.0.0" {
    ///     // ...
    ///     input { field "invoice_reference" "string" required=#true max-length=32 }
    ///     output { field "status" "string" required=#true { enum "open" "paid" } }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "output/missing-schema",
        level: Level::Warn,
        summary: "tools declare an `output` (structured result contract)",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in catalog.tools.iter().filter(|t| t.output.is_none() && t.content.is_none()) {
            out.push(
                Finding::in_tool(catalog, tool, tool.name.span, format!("tool `{}` declares no `output`", tool.name.value))
                    .help("add an `output { field ... }` block describing the structured result, or `output kind=\"text\"` (`markdown`, `image`) when the result is not JSON"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::model::{ContentKind, Effect};

    #[test]
    fn only_tools_without_output() {
        let with = tool("a_with", Effect::Read, vec![], Some(vec![]));
        let without = tool("a_without", Effect::Read, vec![], None);
        let mut text = tool("a_text", Effect::Read, vec![], None);
        text.content = Some(sp(ContentKind::Text));
        let f = check(&RULE, catalog(vec![with, without, text], vec![]));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].tool.as_deref(), Some("a_without"));
    }
}
