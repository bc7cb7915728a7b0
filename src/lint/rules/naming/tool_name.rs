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
    /// follow, snake_case on a tie. A first segment that every tool name of the catalog
    /// shares in another case (`API-` in `API-get-user`, `API-post-page`) is the server's
    /// namespace: the convention is read off the rest of each name.
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) a name that MCP clients accept
    /// (1 to 64 characters of `[A-Za-z0-9_.-]`) but that is one word or breaks the list's
    /// convention is a warning: the tool's description still says what it does, and renaming
    /// a published tool breaks its callers, so the author should fix it but the tool works.
    /// A name clients reject or mangle (spaces, other characters, too long) stays an error.
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
#[cfg(feature = "lsp")]
pub(crate) fn problem(name: &str, convention: Convention) -> Option<String> {
    problem_after(name, "", convention)
}

/// [`problem`], the convention read off the part of `name` after the catalog's shared
/// `prefix`.
fn problem_after(name: &str, prefix: &str, convention: Convention) -> Option<String> {
    let conv = convention.as_str();
    if !convention.matches(&name[prefix.len()..]) {
        Some(format!("tool name `{name}` is not {conv}"))
    } else if crate::names::word_count(name) < 2 {
        Some(format!("tool name `{name}` is one word, not a resource and an action"))
    } else if !(3..=64).contains(&name.len()) {
        Some(format!("tool name `{name}` is {} characters, not 3–64", name.len()))
    } else {
        None
    }
}

/// The first segment (up to and including its `-` or `_`) that every tool name of a catalog
/// of three tools or more starts with, when it is written in another case than the rest
/// (`API-` in `API-get-user`, `API-post-page`): the server's namespace, whose spelling is its
/// own. Empty when there is none.
fn namespace<'a>(names: &[&'a str]) -> &'a str {
    let Some(first) = names.first() else { return "" };
    let Some(end) = first.find(['-', '_']) else { return "" };
    let prefix = &first[..=end];
    let other_case = prefix.chars().any(|c| c.is_ascii_uppercase())
        && names.iter().all(|n| n[prefix.len().min(n.len())..].chars().all(|c| !c.is_ascii_uppercase()));
    if names.len() >= 3 && other_case && names.iter().all(|n| n.starts_with(prefix) && n.len() > prefix.len()) {
        prefix
    } else {
        ""
    }
}

/// A name every MCP client accepts as written: 1 to 64 characters of `[A-Za-z0-9_.-]`.
fn valid_mcp_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        let names: Vec<&str> = catalog.tools.iter().map(|t| t.name.value.as_str()).collect();
        let prefix = namespace(&names);
        let convention = cx.config.naming.unwrap_or_else(|| {
            Convention::dominant(names.iter().map(|n| &n[prefix.len()..]))
        });
        for tool in &catalog.tools {
            let name = &tool.name.value;
            if let Some(message) = problem_after(name, prefix, convention) {
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
                let mut finding = Finding::in_tool(catalog, tool, tool.name.span, message).help(help);
                if cx.config.published && valid_mcp_name(name) {
                    finding = finding.level(Level::Warn);
                }
                out.push(finding);
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

    #[test]
    fn a_published_list_keeps_the_error_for_names_clients_reject() {
        use crate::diag::Level;
        use crate::lint::testkit::sites::*;
        use crate::model::Effect;
        let tools = ["find", "Summarize Detection", "invoice_list"].map(|n| tool(n, Effect::Read, vec![], None));
        let f = check_with(&super::RULE, vec![catalog(tools.to_vec(), vec![])], &published());
        let levels: Vec<(&str, Option<Level>)> = f.iter().map(|f| (f.tool.as_deref().unwrap_or(""), f.level)).collect();
        assert_eq!(levels, [("find", Some(Level::Warn)), ("Summarize Detection", None)]);
        assert!(check(&super::RULE, catalog(tools.to_vec(), vec![])).iter().all(|f| f.level.is_none()));
    }

    #[test]
    fn a_shared_segment_in_another_case_is_a_namespace() {
        assert_eq!(super::namespace(&["API-get-user", "API-post-page", "API-patch-page"]), "API-");
        assert_eq!(super::namespace(&["api-get-user", "api-post-page", "api-patch-page"]), "");
        assert_eq!(super::namespace(&["API-get-user", "API-post-page"]), "");
        assert_eq!(super::namespace(&["API-get-user", "API-post-page", "page-get"]), "");
    }
}
