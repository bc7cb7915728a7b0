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
    /// A published tools/list cannot say that a tool returns text, so there (`catalogc lint
    /// FILE.json`) the finding is a warning only for tools whose name or description says
    /// they return records (`list`, `get`, `search`, `find`, `details`, …) and nothing says
    /// they return text, a file, an image or a confirmation; it is `info` for the others.
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
            let f = Finding::in_tool(catalog, tool, tool.name.span, format!("tool `{}` declares no `output`", tool.name.value))
                .help("add an `output { field ... }` block describing the structured result, or `output kind=\"text\"` (`markdown`, `image`) when the result is not JSON");
            out.push(if cx.config.published && !returns_records(tool) { f.level(Level::Info) } else { f });
        }
    }
}

/// Verbs and nouns of tools that return records a client parses (`list_issues`,
/// `get_user`, `search_nodes`, `file_info`).
const RECORDS: &[&str] = &[
    "list", "get", "search", "find", "describe", "details", "info", "status", "show", "lookup",
    "retrieve", "stats", "query",
];

/// Words of tools whose result is text, a file, an image or a confirmation, in the name or
/// the opening of the description.
const NOT_RECORDS: &[&str] = &[
    "text", "markdown", "log", "logs", "content", "contents", "screenshot", "image", "pdf",
    "html", "diagram", "chart", "transcript", "diff", "yaml", "console", "render", "prompt",
    "instructions", "generate", "execute", "run", "evaluate", "delete", "remove", "dismiss",
    "navigate", "click", "fill", "close", "upload", "download", "translate", "code",
];

/// On a published list: the tool's name or description says it returns records, and
/// neither says it returns text, a file, an image or a confirmation.
fn returns_records(tool: &crate::model::Tool) -> bool {
    let summary = tool.summary.as_ref().map_or("", |s| s.value.as_str());
    let opening: String = summary.chars().take(300).collect();
    let mut words = crate::names::words(&tool.name.value);
    words.extend(crate::names::words(&opening.to_ascii_lowercase()));
    let any = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    any(RECORDS) && !any(NOT_RECORDS)
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

    #[test]
    fn a_published_list_warns_only_on_tools_that_return_records() {
        use crate::diag::Level;
        let list = tool("issue_list", Effect::Read, vec![], None);
        let shot = tool("page_screenshot", Effect::Read, vec![], None);
        let config = published();
        let f = check_with(&RULE, vec![catalog(vec![list, shot], vec![])], &config);
        let levels: Vec<Option<Level>> = f.iter().map(|f| f.level).collect();
        assert_eq!(levels, [None, Some(Level::Info)]);
    }
}
