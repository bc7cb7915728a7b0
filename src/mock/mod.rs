//! `catalogc serve --mock`: any catalog served over MCP before its code exists.
//!
//! The mock is one more [`Service`] behind [`crate::rmcp::Server`], so it speaks MCP exactly
//! as a generated server does. Per call, in the order generated code takes:
//! 1. the arguments are checked by the runtime's checker against the tool's published input
//!    schema ([`shape_of_text`]), with the runtime's `INVALID_ARGUMENTS` encoding;
//! 2. a tool named by `--delay TOOL=MS` waits that long first (as the handler would, so the
//!    tool's `timeout-ms` cancels it); a tool named by `--fail TOOL=CODE` answers with that
//!    declared error, encoded by the runtime as a handler's error would be;
//! 3. a tool with `needs-input` asks for each need the request has not had accepted
//!    (prompt: the need's `doc`), through the runtime's input-required encoding;
//! 4. otherwise it answers with its output: the result of the tool's `example-call` whose
//!    arguments equal the call's, else of its first `example-call` with a result, else the
//!    minimal value of its output schema ([`sample::sample`]); a structured output is checked
//!    against its schema by the runtime before it is sent. A tool with an unstructured result
//!    (`output kind=…`) and no example answers with a fixed placeholder of its kind
//!    ([`placeholder`]).
//!
//! Each tool's [`ToolInfo`] carries its catalog's policy (`model::Tool::policy`), so the server
//! holds the mock to the same approvals and limits as generated code.

pub mod sample;

use crate::contract::Artifacts;
use crate::contract::shape::{NO_OUTPUT, shape_of_text};
use crate::model::{ContentKind, ExampleResult, Project, Tool};
use crate::rmcp::{Answer, BoxFuture, Service};
use crate::runtime::call::{check_arguments, complete_json, input_required, tool_error};
use crate::runtime::{
    CallError, CallResult, ErrorInfo, Idempotency, Image, InputRequest, Markdown, Policy, Shape,
    Text, ToolError, ToolInfo, ToolOutput,
};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// The mock's context per call: the answers to its input requests, by need name.
pub type Answers = BTreeMap<String, Answer>;

/// A declared error, as the runtime encodes a handler's: the catalog's declaration, built
/// once at start and kept for the process (like the shapes), and a sample of its typed
/// detail when it declares detail fields.
#[derive(Debug, Clone)]
struct Declared(&'static ErrorInfo, Option<Value>);

impl ToolError for Declared {
    fn info(&self) -> &'static ErrorInfo {
        self.0
    }
    fn detail_value(&self) -> Option<Result<Value, crate::runtime::Violations>> {
        self.1.clone().map(Ok)
    }
}

#[derive(Debug, Clone, Copy)]
struct Need {
    name: &'static str,
    kind: &'static str,
    prompt: &'static str,
}

impl InputRequest for Need {
    fn name(&self) -> &'static str {
        self.name
    }
    fn kind(&self) -> &'static str {
        self.kind
    }
}

struct MockTool {
    definition: Value,
    input: &'static Shape,
    output: &'static Shape,
    answer: Value,
    /// Set for an unstructured result: the placeholder is sent instead of `answer`.
    content: Option<ContentKind>,
    /// The `example-call`s with a result: (arguments, result), in declaration order.
    examples: Vec<(Value, ExampleResult)>,
    needs: Vec<Need>,
    /// The declared error `--fail` asked for.
    fail: Option<Declared>,
    /// How long `--delay` makes the tool take.
    delay: Option<Duration>,
    /// The contract hashes and policy, as generated code states them.
    info: ToolInfo,
}

/// The catalogs of a project as one MCP service.
pub struct Mock {
    name: String,
    version: String,
    order: Vec<String>,
    tools: HashMap<String, MockTool>,
}

/// Why the mock cannot serve: a `--fail` that names no declared error, or a schema the
/// runtime's checker cannot state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockError(pub String);

impl std::fmt::Display for MockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MockError {}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// `tool`'s contract and policy with the lifetime of the process, as generated code has
/// them.
fn info(tool: &Tool, contract: &crate::contract::ToolContract) -> ToolInfo {
    let sensitive = tool.sensitive_inputs();
    let scope = tool.idempotency_scope();
    let p = tool.policy(&sensitive, &scope);
    let leak_opt = |v: Option<&str>| v.map(leak_str);
    let hashes = contract.hashes();
    ToolInfo {
        name: leak_str(&tool.name.value),
        version: leak_str(&tool.version.value),
        definition: leak_str(contract.definition()),
        input_hash: leak_str(&hashes.input),
        output_hash: leak_str(&hashes.output),
        contract_hash: leak_str(&hashes.contract),
        policy: Policy {
            effect: leak_str(p.effect),
            timeout_ms: p.timeout_ms,
            max_result_bytes: p.max_result_bytes,
            on_timeout: leak_opt(p.on_timeout),
            status_tool: leak_opt(p.status_tool),
            confirm: leak_opt(p.confirm),
            idempotency: p.idempotency.map(|i| {
                Idempotency::new(
                    leak_str(i.key),
                    Box::leak(i.scope.iter().map(|s| leak_str(s)).collect()),
                    i.ttl_s,
                )
            }),
            sensitive: Box::leak(sensitive.iter().map(|s| leak_str(s)).collect()),
            resource: leak_opt(p.resource),
            approval: p.approval,
        },
    }
}

impl Mock {
    /// The mock of `project`'s catalogs, with `fail`: (tool, error code) pairs, and `delay`:
    /// (tool, milliseconds) pairs. Tools are listed as `catalogc export tools-json` lists
    /// them. One catalog names the server; several are `catalogc-mock` at catalogc's
    /// version.
    pub fn new(
        project: &Project,
        artifacts: &Artifacts,
        fail: &[(String, String)],
        delay: &[(String, u64)],
    ) -> Result<Mock, MockError> {
        let mut tools = HashMap::new();
        let mut order = Vec::new();
        for (ci, cat) in project.catalogs.iter().enumerate() {
            for (ti, tool) in cat.tools.iter().enumerate() {
                let Some(contract) = artifacts.tool(ci, ti) else {
                    continue;
                };
                let name = tool.name.value.clone();
                if tools.contains_key(&name) {
                    continue;
                }
                let at = |e: String| MockError(format!("tool {name}: schema {e}"));
                let input = shape_of_text(contract.input_schema()).map_err(at)?;
                let out_schema = contract.output_schema().unwrap_or(NO_OUTPUT);
                let output = shape_of_text(out_schema).map_err(at)?;
                let fail = fail
                    .iter()
                    .find(|(t, _)| *t == name)
                    .map(|(_, code)| declared(cat, tool, code))
                    .transpose()?;
                let delay = delay
                    .iter()
                    .find(|(t, _)| *t == name)
                    .map(|(_, ms)| Duration::from_millis(*ms));
                let info = info(tool, contract);
                tools.insert(
                    name,
                    MockTool {
                        definition: contract.definition_value(),
                        input,
                        output,
                        answer: sample::sample(&crate::contract::schema::parse(out_schema)),
                        content: tool.content.as_ref().map(|k| k.value),
                        examples: tool
                            .example_calls
                            .iter()
                            .filter_map(|c| {
                                let r = c.result.as_ref()?;
                                Some((c.arguments.value.clone(), r.value.clone()))
                            })
                            .collect(),
                        needs: needs(tool),
                        fail,
                        delay,
                        info,
                    },
                );
            }
        }
        for (tool, _) in fail {
            if !tools.contains_key(tool) {
                return Err(MockError(format!("--fail {tool}: no such tool")));
            }
        }
        for (tool, _) in delay {
            if !tools.contains_key(tool) {
                return Err(MockError(format!("--delay {tool}: no such tool")));
            }
        }
        let list = artifacts.tools_list(project);
        for def in list["tools"].as_array().into_iter().flatten() {
            if let Some(n) = def["name"].as_str() {
                order.push(n.to_string());
            }
        }
        let (name, version) = match project.catalogs.as_slice() {
            [one] => (one.name.value.clone(), one.version.value.clone()),
            _ => (
                "catalogc-mock".to_string(),
                env!("CARGO_PKG_VERSION").to_string(),
            ),
        };
        Ok(Mock {
            name,
            version,
            order,
            tools,
        })
    }

    fn answer(&self, tool: &MockTool, ctx: &Answers, arguments: &Value) -> CallResult {
        if let Err(invalid) = check_arguments(tool.input, arguments) {
            return *invalid;
        }
        if let Some(e) = &tool.fail {
            return tool_error(e);
        }
        if let Some(need) = tool
            .needs
            .iter()
            .find(|n| !ctx.get(n.name).is_some_and(|a| a.accepted))
        {
            return input_required(need, need.prompt);
        }
        let example = tool
            .examples
            .iter()
            .find(|(args, _)| args == arguments)
            .or(tool.examples.first())
            .map(|(_, result)| result);
        match (example, tool.content) {
            (Some(ExampleResult::Json(v)), _) => complete_json(tool.output, v.clone()),
            (Some(ExampleResult::Text(t)), Some(ContentKind::Markdown)) => {
                Markdown(t.clone()).into_result()
            }
            (Some(ExampleResult::Text(t)), _) => Text(t.clone()).into_result(),
            (None, Some(kind)) => placeholder(kind, &tool.definition),
            (None, None) => complete_json(tool.output, tool.answer.clone()),
        }
    }
}

/// A 1×1 transparent PNG: the smallest valid image a client can decode and show.
const PIXEL_PNG: [u8; 68] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0b, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x02, 0x00,
    0x00, 0x05, 0x00, 0x01, 0x7a, 0x5e, 0xab, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44,
    0xae, 0x42, 0x60, 0x82,
];

/// The mock's deterministic result for an unstructured tool: text naming the tool, a
/// Markdown heading, or a 1×1 PNG.
pub fn placeholder(kind: ContentKind, definition: &Value) -> CallResult {
    let name = definition["name"].as_str().unwrap_or("tool");
    match kind {
        ContentKind::Text => Text(format!("{name}: mock text result")).into_result(),
        ContentKind::Markdown => {
            Markdown(format!("# {name}\n\nMock Markdown result.")).into_result()
        }
        ContentKind::Image => Image {
            data: PIXEL_PNG.to_vec(),
            mime_type: "image/png".into(),
        }
        .into_result(),
    }
}

/// The declared error `code` of `tool` of `cat`, for `--fail`.
fn declared(cat: &crate::model::Catalog, tool: &Tool, code: &str) -> Result<Declared, MockError> {
    let e = tool
        .errors
        .iter()
        .find(|e| e.code.value == code)
        .ok_or_else(|| {
            let codes: Vec<&str> = tool.errors.iter().map(|e| e.code.value.as_str()).collect();
            MockError(format!(
                "--fail {}={code}: the tool declares no such error (it declares: {})",
                tool.name.value,
                if codes.is_empty() {
                    "none".to_string()
                } else {
                    codes.join(", ")
                }
            ))
        })?;
    let info = Box::leak(Box::new(ErrorInfo::new(
        leak_str(&e.code.value),
        e.class.value.as_str(),
        e.retry().as_str(),
        e.next_step.as_ref().map(|n| leak_str(&n.value)),
        leak_str(e.message.as_ref().map_or(&e.code.value, |m| &m.value)),
    )));
    let detail = crate::contract::schema::detail_schema(cat, e).map(|s| sample::sample(&s));
    Ok(Declared(info, detail))
}

fn needs(tool: &Tool) -> Vec<Need> {
    tool.needs_input
        .iter()
        .map(|n| Need {
            name: leak_str(&n.name.value),
            kind: n.kind.value.as_str(),
            prompt: leak_str(&match &n.doc {
                Some(d) => d.value.clone(),
                None => format!(
                    "{} needs {} ({})",
                    tool.name.value,
                    n.name.value,
                    n.kind.value.as_str()
                ),
            }),
        })
        .collect()
}

impl Service<Answers> for Mock {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> &str {
        &self.version
    }

    fn definitions(&self) -> Vec<Value> {
        self.order
            .iter()
            .filter_map(|n| self.tools.get(n))
            .map(|t| t.definition.clone())
            .collect()
    }

    fn info(&self, name: &str) -> Option<ToolInfo> {
        self.tools.get(name).map(|t| t.info)
    }

    fn call<'a>(
        &'a self,
        ctx: &'a Answers,
        _call: &'a crate::runtime::Call,
        name: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<CallResult, CallError>> {
        let Some(tool) = self.tools.get(name) else {
            return Box::pin(std::future::ready(Err(CallError::UnknownTool(
                name.to_string(),
            ))));
        };
        Box::pin(async move {
            if let Some(delay) = tool.delay {
                tokio::time::sleep(delay).await;
            }
            Ok(self.answer(tool, ctx, &arguments))
        })
    }
}
