//! The `output/example-invalid` rule; [`RULE`] documents it.

use crate::contract::shape::{NO_OUTPUT, shape_of_text};
use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::{Catalog, ExampleResult, Span, Tool};
use crate::runtime::validate::check;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks every `example-call` of a tool against the tool's published schemas, with the
    /// runtime's own checker: its `arguments` against the input schema, and its `result` against
    /// the output (the `outputSchema`, or `{}` for a tool without `output`; for `output
    /// kind="text"`/`"markdown"` any text is a valid result). Each violation is reported at the
    /// `arguments` or `result` string, with its JSON pointer.
    ///
    /// ## Why is this bad?
    /// An example that breaks its own contract teaches readers of the docs a call that is
    /// rejected, and `catalogc serve --mock` would answer with it: the mock withholds an output
    /// that breaks its schema (`INVALID_TOOL_OUTPUT`), so client developers test against an
    /// error instead of the example.
    ///
    /// ## Example
    /// ```kdl
    /// input { field "status" "string" required=#true { enum "open" "overdue" } }
    /// example-call "paid" { arguments #"{"status": "paid"}"# }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// input { field "status" "string" required=#true { enum "open" "overdue" } }
    /// example-call "overdue" { arguments #"{"status": "overdue"}"# }
    /// ```
    pub static RULE = Rule {
        id: "output/example-invalid",
        level: Level::Error,
        summary: "`example-call` arguments and results satisfy the tool's schemas",
        hooks: crate::lint::Hooks::project(check_project),
    };
}

fn check_project(cx: &Context, out: &mut Vec<Finding>) {
    for (ci, catalog) in cx.project.catalogs.iter().enumerate() {
        for (ti, tool) in catalog.tools.iter().enumerate() {
            if tool.example_calls.is_empty() {
                continue;
            }
            let Some(contract) = cx.artifacts.tool(ci, ti) else {
                continue;
            };
            let output = contract.output_schema().unwrap_or(NO_OUTPUT);
            // Shapes are built only for tools with examples (see contract::shape on their
            // lifetime).
            let (Ok(input), Ok(output)) = (shape_of_text(contract.input_schema()), shape_of_text(output)) else {
                continue;
            };
            for call in &tool.example_calls {
                let name = &call.name.value;
                report(out, catalog, tool, call.arguments.span, &check(input, &call.arguments.value), name, "the arguments break", "input schema");
                if let Some(result) = &call.result
                    && let ExampleResult::Json(v) = &result.value
                {
                    report(out, catalog, tool, result.span, &check(output, v), name, "the result breaks", "output schema");
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn report(
    out: &mut Vec<Finding>,
    catalog: &Catalog,
    tool: &Tool,
    span: Span,
    violations: &[crate::runtime::Violation],
    name: &str,
    broken: &str,
    schema: &str,
) {
    if violations.is_empty() {
        return;
    }
    out.push(
        Finding::in_tool(
            catalog,
            tool,
            span,
            format!("example-call `{name}`: {broken} the {schema}: {}", crate::lint::shared::listed(violations)),
        )
        .help(format!("fix the example at the JSON paths named, or the {schema} if the example is right")),
    );
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::diag::SourceMap;
    use crate::lint::testkit::sites::*;
    use crate::lint::{Config, Context};
    use crate::model::{Effect, ExampleCall, ExampleResult, Project, Span};
    use serde_json::json;

    fn call(name: &str, arguments: serde_json::Value, result: Option<serde_json::Value>) -> ExampleCall {
        ExampleCall {
            name: sp(name.to_string()),
            arguments: sp(arguments),
            result: result.map(|r| sp(ExampleResult::Json(r))),
            span: Span::new(0, 0),
        }
    }

    #[test]
    fn arguments_and_results_are_checked_against_their_schemas() {
        let mut n = field("n", int(Some(0), Some(9)));
        n.required = true;
        let mut ok = field("ok", crate::model::TyKind::Boolean);
        ok.required = true;
        let mut t = tool("a_get", Effect::Read, vec![n], Some(vec![ok]));
        t.example_calls = vec![
            call("good", json!({ "n": 3 }), Some(json!({ "ok": true }))),
            call("bad_args", json!({ "n": 30 }), None),
            call("bad_result", json!({ "n": 1 }), Some(json!({}))),
        ];
        let project = Project { catalogs: vec![catalog(vec![t], vec![])] };
        let artifacts = crate::testing::artifacts(&project);
        let (sources, config) = (SourceMap::default(), Config::default());
        let cx = Context::new(&project, &sources, &config, &artifacts);
        let f: Vec<_> = crate::lint::findings(&cx, &[&RULE]).into_iter().flatten().collect();
        let messages: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].starts_with("example-call `bad_args`: the arguments break the input schema: /n "), "{messages:?}");
        assert!(messages[1].starts_with("example-call `bad_result`: the result breaks the output schema: /ok "), "{messages:?}");
    }
}
