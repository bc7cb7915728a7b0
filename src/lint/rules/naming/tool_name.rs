//! The `naming/tool-name` rule: tool names are `resource_action` in the catalog's naming
//! convention, 3–64 characters; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::names::Convention;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that a tool name is two or more words, a resource and an action
    /// (`invoice_list_overdue`), 3 to 64 characters, in one naming convention: snake_case
    /// (`invoice_list`), camelCase (`invoiceList`) or kebab-case (`invoice-list`). The
    /// convention is the project's `naming` setting (docs/configuration.md); by default
    /// (`naming "auto"`) it is each catalog's own: the one most of its multi-word tool names
    /// follow, snake_case on a tie.
    ///
    /// ## Why is this bad?
    /// The model chooses tools by name first. A name without a resource and an action
    /// (`invoices`, `find`) says little about what the tool does and collides with other
    /// servers' tools, and a name outside the strictest common client limit (64 characters,
    /// `[A-Za-z0-9_.-]`) is rejected or mangled by some MCP clients. All three conventions are
    /// valid MCP names; mixing them in one catalog makes the model guess spellings.
    ///
    /// ## Example
    /// ```kdl
    /// tool "InvoiceList" version="1.0.0" { ... }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" { ... }
    /// ```
    pub static RULE = Rule {
        id: "naming/tool-name",
        level: Level::Error,
        summary: "tool names are `resource_action` in the catalog's one naming convention, 3–64 characters",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// Why `name` is not a valid tool name under `convention`, if it is not.
pub(crate) fn problem(name: &str, convention: Convention) -> Option<String> {
    let conv = convention.as_str();
    if !convention.matches(name) {
        Some(format!("tool name `{name}` is not {conv}"))
    } else if crate::names::word_count(name) < 2 {
        Some(format!("tool name `{name}` is one word, not a resource and an action"))
    } else if !(3..=64).contains(&name.len()) {
        Some(format!("tool name `{name}` is {} characters, not 3–64", name.len()))
    } else {
        None
    }
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        let convention = cx.config.naming.unwrap_or_else(|| {
            Convention::dominant(catalog.tools.iter().map(|t| t.name.value.as_str()))
        });
        for tool in &catalog.tools {
            let name = &tool.name.value;
            if let Some(message) = problem(name, convention) {
                let help = if crate::names::word_count(name) < 2 {
                    format!(
                        "add the action to the resource, in {} like the catalog's other tools: `{}` or `{}`",
                        convention.as_str(),
                        convention.apply(&format!("{name} list")),
                        convention.apply(&format!("{name} get"))
                    )
                } else {
                    format!(
                        "write it as `{}` ({}) like the catalog's other tools; renaming a published tool is a breaking change",
                        convention.apply(name),
                        convention.as_str()
                    )
                };
                out.push(Finding::in_tool(catalog, tool, tool.name.span, message).help(help));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::problem;
    use crate::names::Convention;

    #[test]
    fn accepts_resource_action_names_in_the_convention() {
        assert!(problem("invoice_list", Convention::Snake).is_none());
        assert!(problem("invoice_list_overdue2", Convention::Snake).is_none());
        assert!(problem("a_b", Convention::Snake).is_none());
        assert!(problem("list-collections", Convention::Kebab).is_none());
        assert!(problem("listCollections", Convention::Camel).is_none());
    }

    #[test]
    fn rejects_other_shapes() {
        for bad in ["invoices", "InvoiceList", "invoice-list", "_invoice", "invoice_", "invoice__list", "1_list", "x", &"a_".repeat(40)] {
            assert!(problem(bad, Convention::Snake).is_some(), "{bad}");
        }
        assert!(problem("find", Convention::Kebab).is_some());
    }
}
