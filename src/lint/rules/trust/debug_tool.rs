//! The `trust/debug-tool` rule: no debugging or internal tool is published; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::text::pattern;
use crate::lint::{Context, Finding};
use crate::model::Tool;
use regex::Regex;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags a tool that exists to debug or inspect the server itself rather than to serve
    /// users: a name with the word `debug`, `internal`, `dump`, `env`, `environ` or
    /// `environment`; or a title or summary that says it returns the environment variables,
    /// is for internal use, or is for debugging or testing the server (`helpful for debugging
    /// MCP server configuration`). A tool that helps the user debug *their* system
    /// (`List Kubernetes events for debugging`) is not reported.
    ///
    /// A tool that returns environment variables is an error: they hold the server's API keys
    /// and database passwords. Other debugging tools are warnings.
    ///
    /// ## Why is this bad?
    /// A debugging tool is part of the catalog every model reads and can call: what it returns
    /// (environment variables, configuration, internal state) reaches the conversation, its
    /// logs and whatever a prompt injection asks to be sent elsewhere. It also costs tokens on
    /// every turn and invites the model to call it when it is stuck. Tools for the operator
    /// belong behind a build flag or an administration interface, not in `tools/list`.
    ///
    /// ## Example
    /// ```kdl
    /// tool "get_env" version="1.0.0" {
    ///     summary "Returns all environment variables, helpful for debugging the server."
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // no such tool in the published catalog; the operator reads the configuration on the
    /// // host, or the server logs what it loaded (without secrets) at start-up
    /// ```
    pub static RULE = Rule {
        id: "trust/debug-tool",
        level: Level::Warn,
        summary: "no tool for debugging or inspecting the server itself is published",
        hooks: crate::lint::Hooks::project(check),
    };
}

const NAME_WORDS: &[&str] = &["debug", "internal", "dump", "env", "environ", "environment"];

/// A text that returns the environment variables.
static ENV: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)\benvironment\s+variables\b"));

/// A text that says the tool is for the server's developers or operators.
static INTERNAL: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\bfor\s+internal\s+use\b|\binternal\s+(?:use|testing|debugging)\s+only\b|\bfor\s+(?:debugging|testing)\s+(?:the\s+|this\s+)?(?:mcp\s+)?server\b|\bdebugging\s+(?:the\s+|this\s+)?(?:mcp\s+)?server\b")
});

/// Why the tool is a debugging tool (`None` when it is not), and whether it exposes the
/// environment.
fn debugging(tool: &Tool) -> Option<(String, bool)> {
    let texts = [tool.title.as_deref(), tool.summary.as_ref()];
    let texts: Vec<&str> = texts.into_iter().flatten().map(|t| t.value.as_str()).collect();
    let env = texts.iter().any(|t| ENV.is_match(t));
    let words = crate::names::words(&tool.name.value);
    if let Some(w) = words.iter().find(|w| NAME_WORDS.contains(&w.as_str())) {
        return Some((format!("its name's word `{w}`"), env));
    }
    if env {
        return Some(("its summary, which says it returns the environment variables".to_string(), true));
    }
    let said = texts.iter().find_map(|t| INTERNAL.find(t))?;
    Some((format!("its summary (\"{}\")", said.as_str()), false))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let Some((why, env)) = debugging(tool) else { continue };
            let name = &tool.name.value;
            let mut f = Finding::in_tool(catalog, tool, tool.name.span, format!("tool `{name}` is for debugging or inspecting the server, by {why}"));
            if env {
                f = f.level(Level::Error).help(format!("remove `{name}` from the published tools: the environment holds the server's secrets; log what the operator needs on the host instead"));
            } else {
                f = f.help(format!("remove `{name}` from the published tools, or build it only into a debug configuration the operator turns on"));
            }
            out.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testkit::texts::*;

    #[test]
    fn debugging_tools_by_name_and_summary() {
        let t = |name: &str, summary: &str| debugging(&summarised(name, summary)).map(|(_, env)| env);
        assert_eq!(t("get-env", "Returns all environment variables, helpful for debugging MCP server configuration"), Some(true));
        assert_eq!(t("debug_state", "Show the cache."), Some(false));
        assert_eq!(t("server_info", "For internal use only."), Some(false));
        assert_eq!(t("events_list", "List Kubernetes events for debugging and troubleshooting."), None);
        assert_eq!(t("environment_list", "List the deployment environments of a project."), Some(false));
        assert_eq!(t("echo", "Echoes back the input string"), None);
    }
}
