//! The `effect/missing-hints` rule: a published tool states its effect hints; [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::signals::hints_guessed;
use crate::lint::{Context, Finding};
use crate::model::{Catalog, Tool};

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags a published tool (`catalogc lint tools.json`) whose definition states none of the
    /// MCP hints `readOnlyHint`, `destructiveHint` and `idempotentHint`. When no tool of the
    /// list states any, the list gets one finding that counts them and names the tools whose
    /// names say they only read; otherwise each such tool gets its own.
    ///
    /// It reads the note `catalogc import` leaves on such a tool (`// catalogc import: no
    /// effect hints: effect … guessed …`), so it also reports a catalog imported from such a
    /// list whose guessed effects nobody has confirmed yet. A catalog written by hand always
    /// states an `effect`, from which catalogc derives all four hints.
    ///
    /// ## Why is this bad?
    /// Without hints a client must take MCP's defaults: every tool may destroy data and is not
    /// idempotent. Clients then ask the user to approve each call of a tool that only lists or
    /// reads, cannot let the user auto-approve reads, and retry nothing. A tool that does
    /// delete is indistinguishable from one that only looks things up, so the approval prompt
    /// stops meaning anything.
    ///
    /// ## Example
    /// ```kdl
    /// tool "list_applications" version="1.0.0" {
    ///     // catalogc import: no effect hints: effect `read` guessed from the verbs of its name
    ///     effect "read"
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // the server publishes `"annotations": {"readOnlyHint": true}`; in a catalog, the
    /// // author confirms the effect and drops the import's note
    /// tool "list_applications" version="1.0.0" {
    ///     effect "read"
    ///     // …
    /// }
    /// ```
    pub static RULE = Rule {
        id: "effect/missing-hints",
        level: Level::Warn,
        summary: "a published tool states readOnlyHint, destructiveHint or idempotentHint",
        hooks: crate::lint::Hooks::project(check),
    };
}

const HELP: &str = "state the hints on every tool: `readOnlyHint: true` on tools that only read, `destructiveHint: false` on tools that only add, `idempotentHint: true` where repeating a call changes nothing (in a catalog: confirm each tool's `effect` and delete the import's note)";

/// The first few tool names of `tools`, for a message.
fn some_names(tools: &[&Tool]) -> String {
    let mut names: Vec<String> = tools.iter().take(3).map(|t| format!("`{}`", t.name.value)).collect();
    if tools.len() > 3 {
        names.push("…".to_string());
    }
    names.join(", ")
}

fn catalog_finding(catalog: &Catalog, bare: &[&Tool]) -> Finding {
    let reads: Vec<&Tool> = bare.iter().copied().filter(|t| t.effect.value.is_read_class()).collect();
    let reads = match reads.len() {
        0 => String::new(),
        1 => format!(", including {}, whose name says it only reads", some_names(&reads)),
        n => format!(", including the {n} whose names say they only read ({})", some_names(&reads)),
    };
    Finding::in_catalog(
        catalog,
        catalog.name.span,
        format!(
            "none of the {} tools of `{}` states readOnlyHint, destructiveHint or idempotentHint: clients take every one as a destructive, non-idempotent write{reads}",
            bare.len(),
            catalog.name.value
        ),
    )
    .help(HELP)
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        let bare: Vec<&Tool> = catalog.tools.iter().filter(|t| hints_guessed(cx, catalog, t)).collect();
        if bare.len() >= 2 && bare.len() == catalog.tools.len() {
            out.push(catalog_finding(catalog, &bare));
            continue;
        }
        for tool in bare {
            let default = if tool.effect.value.is_read_class() {
                " although its name says it only reads"
            } else {
                ""
            };
            let name = &tool.name.value;
            let message = format!(
                "tool `{name}` states no readOnlyHint, destructiveHint or idempotentHint: clients take it as a destructive, non-idempotent write{default}"
            );
            out.push(Finding::in_tool(catalog, tool, tool.name.span, message).help(HELP));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;

    /// The findings of this rule on a catalog source.
    fn found(source: &str) -> Vec<(Option<String>, String)> {
        let loaded = crate::project::load_source("hints.kdl", source.to_string());
        let config = crate::lint::Config::default();
        let artifacts = crate::testing::artifacts(&loaded.project);
        let cx = crate::lint::Context::new(&loaded.project, &loaded.sources, &config, &artifacts);
        let out = crate::lint::findings(&cx, &[&RULE]);
        out.into_iter().flatten().map(|f| (f.tool, f.message)).collect()
    }

    #[test]
    fn one_finding_per_bare_tool_unless_all_are_bare() {
        let tool = |name: &str, effect: &str, note: bool| {
            let note = if note {
                "    // catalogc import: no effect hints: effect guessed from the verbs of its name\n"
            } else {
                "    // catalogc import: absent hints take MCP's defaults: idempotentHint false\n"
            };
            format!("tool \"{name}\" version=\"1.0.0\" {{\n    summary \"A tool.\"\n{note}    effect \"{effect}\"\n}}\n")
        };
        let head = "catalog \"c\" version=\"1.0.0\"\n";
        let mixed = format!("{head}{}{}", tool("list_pods", "read", true), tool("delete_pod", "destructive", false));
        let f = found(&mixed);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0.as_deref(), Some("list_pods"));
        assert!(f[0].1.ends_with("although its name says it only reads"), "{f:?}");
        let bare = format!("{head}{}{}", tool("list_pods", "read", true), tool("delete_pod", "destructive", true));
        let f = found(&bare);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, None);
        assert!(f[0].1.starts_with("none of the 2 tools of `c`"), "{f:?}");
        assert!(found(&format!("{head}{}", tool("list_pods", "read", false))).is_empty());
    }
}
