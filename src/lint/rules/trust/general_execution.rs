//! The `trust/general-execution` rule: no tool runs arbitrary code or commands; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::text::pattern;
use crate::lint::{Context, Finding};
use crate::model::Tool;
use regex::Regex;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags general-purpose execution tools: a tool whose name has the word `exec`; or `eval`
    /// or `evaluate` in a name of at most two words or beside what it runs
    /// (`puppeteer_evaluate`; not `genai-model-eval-get-run`, an evaluation of a model); or
    /// `execute` / `run` next to `code`, `command`, `commands`, `script`, `shell`,
    /// `javascript`, `js`, `python` or `tool` (`pods_exec`, `evaluate_script`,
    /// `execute_sentry_tool`); or whose title or summary says it executes or runs arbitrary
    /// code, commands, scripts or JavaScript, or gives shell access. A name that
    /// `naming/vague-name` already reports as infrastructure (`shell_exec`, `run_sql`) is left to
    /// that rule.
    ///
    /// ## Why is this bad?
    /// A tool that runs whatever it is given has no contract: its input schema says "a string",
    /// its effect is whatever the string does, and no bound, permission or review describes what
    /// it is for. A prompt injection anywhere in the conversation (a web page, an issue comment)
    /// needs only one call to run its own code with the server's rights. A dispatcher that calls
    /// any other tool by name does the same to the contracts of those tools.
    ///
    /// ## Example
    /// ```kdl
    /// tool "pod_exec" version="1.0.0" {
    ///     summary "Execute a command in a pod."
    ///     // …
    ///     input { field "command" "string" required=#true max-length=1000 }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // one tool per operation callers need, each with a bounded input
    /// tool "pod_restart" version="1.0.0" {
    ///     summary "Restart one pod of the current namespace."
    ///     // …
    ///     input { field "pod_name" "string" required=#true max-length=253 }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "trust/general-execution",
        level: Level::Warn,
        summary: "no tool runs arbitrary code, commands, scripts or other tools",
        hooks: crate::lint::Hooks::project(check),
    };
}

const RUNS: &[&str] = &["code", "command", "commands", "script", "shell", "javascript", "js", "python", "tool"];

static TEXT: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\b(?:execute|executes|run|runs|evaluate|evaluates)\s+(?:an?\s+|any\s+|arbitrary\s+|custom\s+)*(?:javascript|js|python|shell|bash|code|commands?|scripts?)\b|\bshell\s+access\b")
});

/// Why the tool is a general-purpose executor, if it is.
fn executes(tool: &Tool) -> Option<String> {
    let w = crate::names::words(&tool.name.value);
    let has = |x: &str| w.iter().any(|v| v == x);
    let runs_code = w.iter().any(|v| RUNS.contains(&v.as_str()));
    // `eval` alone or beside what it runs (`puppeteer_evaluate`, `evaluate_script`); in a
    // longer name it names an evaluation of something else (`genai-model-eval-get-run`).
    let evaluates = (has("eval") || has("evaluate")) && (w.len() <= 2 || runs_code);
    if has("exec") || evaluates || ((has("execute") || has("run")) && runs_code) {
        return Some("its name".to_string());
    }
    for (what, text) in [("title", tool.title.as_deref()), ("summary", tool.summary.as_ref())] {
        if let Some(m) = text.and_then(|t| TEXT.find(&t.value)) {
            return Some(format!("its {what} (\"{}\")", m.as_str()));
        }
    }
    None
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let name = &tool.name.value;
            if crate::lint::shared::vague_name(name).is_some() {
                continue;
            }
            let Some(why) = executes(tool) else { continue };
            out.push(
                Finding::in_tool(catalog, tool, tool.name.span, format!("tool `{name}` runs arbitrary code or commands, by {why}"))
                    .help(format!("replace `{name}` by tools for the operations callers need, each with a bounded input; if arbitrary execution is the product, make `{name}` `destructive` with `confirm` and run it in a sandbox")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::executes;
    use crate::lint::testkit::texts::*;

    fn named(name: &str, summary: &str) -> bool {
        let mut t = tool(name);
        t.summary = s(summary);
        executes(&t).is_some()
    }

    #[test]
    fn names_and_summaries_of_executors() {
        assert!(named("pods_exec", "Open a shell."));
        assert!(named("puppeteer_evaluate", "Evaluate in the page."));
        assert!(named("execute_sentry_tool", "Call another tool."));
        assert!(named("page_script", "Runs arbitrary JavaScript in the page."));
        assert!(named("container_attach", "Gives shell access to the container."));
        for (name, summary) in [
            ("explain", "Returns statistics describing the execution of the winning plan."),
            ("genai-model-eval-get-run", "Get the results of a model evaluation run."),
            ("confirm_delete_group", "Confirm and execute group deletion."),
            ("insight_query", "Execute a query on an existing insight."),
            ("report_run", "Run the monthly report."),
            ("pipeline_logs", "Get logs of the pipeline run execution."),
        ] {
            assert!(!named(name, summary), "{name}");
        }
    }
}
