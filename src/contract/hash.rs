//! The four hashes of a tool (`catalogc hash`, the lock file; docs/cli.md): `sha256:` + 64
//! lowercase hex.
//!
//! - `input`, `output`: over the RFC 8785 form of the schemas of [`super::schema`] (the
//!   output hash is over `{}` when the tool has no output);
//! - `description`: over the UTF-8 bytes of the rendered description (a text, so it is not
//!   wrapped in a JSON string first);
//! - `contract`: over the RFC 8785 form of [`contract_value`].
//!
//! Spans and the version label never enter a hash; text that only helps humans (error
//! messages, next steps, docs of `needs-input`) does not enter the contract.

use super::schema;
use crate::model::{Catalog, Tool};
use crate::runtime::canonical::{digest, sha256_hex};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The hashes of one tool, each `sha256:<64 hex>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct ToolHashes {
    /// The canonical input JSON Schema's hash.
    pub input: String,
    /// The canonical output JSON Schema's hash (of `{}` when the tool declares no output).
    pub output: String,
    /// The rendered description's hash: changes with any wording or template change.
    pub description: String,
    /// The hash of what callers depend on: both schema hashes, annotations, errors, limits,
    /// idempotency and confirmation, but not the prose.
    pub contract: String,
}

/// The hashes of `tool` from its already built description and schemas.
pub fn hashes_of(
    tool: &Tool,
    description: &str,
    input: &Value,
    output: Option<&Value>,
) -> ToolHashes {
    let input = digest(input);
    let output = match output {
        Some(o) => digest(o),
        None => digest(&json!({})),
    };
    let contract = digest(&contract_from(tool, &input, &output));
    ToolHashes {
        input,
        output,
        description: sha256_hex(description.as_bytes()),
        contract,
    }
}

/// The input hash of `tool` of `cat`, without rendering its description.
pub fn input_hash(cat: &Catalog, tool: &Tool) -> String {
    digest(&schema::input_schema(cat, tool))
}

/// The output hash of `tool` of `cat` (of `{}` when it declares no output).
pub fn output_hash(cat: &Catalog, tool: &Tool) -> String {
    digest(&schema::output_schema(cat, tool).unwrap_or_else(|| json!({})))
}

/// The object the contract hash is taken over.
///
/// Keys use the catalog's own spelling. Absent optional parts are `null` rather than
/// missing, so every contract has the same keys, except `idempotent` (natural idempotency)
/// and `output-kind` (an unstructured result), which appear only when used. Errors are sorted by code and needs-input
/// by name: reordering declarations is not a contract change. The idempotency scope keeps
/// its written order (it names a compound key).
pub fn contract_value(cat: &Catalog, tool: &Tool) -> Value {
    contract_from(tool, &input_hash(cat, tool), &output_hash(cat, tool))
}

fn contract_from(tool: &Tool, input: &str, output: &str) -> Value {
    let a = tool.annotations();
    let mut errors: Vec<Value> = tool
        .errors
        .iter()
        .map(|e| {
            json!({
                "code": e.code.value,
                "class": e.class.value.as_str(),
                "retry": e.retry().as_str(),
            })
        })
        .collect();
    errors.sort_by(|a, b| a["code"].as_str().cmp(&b["code"].as_str()));
    let limits = tool.limits.as_ref().map(|l| {
        json!({
            "max-items": l.max_items.as_ref().map(|v| v.value),
            "max-result-bytes": l.max_result_bytes.as_ref().map(|v| v.value),
            "timeout-ms": l.timeout_ms.as_ref().map(|v| v.value),
        })
    });
    let idempotency = tool.idempotency.as_ref().map(|i| {
        json!({
            "key": i.key.value,
            "scope": i.scope.iter().map(|s| s.value.as_str()).collect::<Vec<_>>(),
            "ttl-s": i.ttl_s.as_ref().map(|v| v.value),
        })
    });
    let confirm = tool
        .confirm
        .as_ref()
        .map(|c| json!({ "digest": c.digest.value.as_str() }));
    let on_timeout = tool.on_timeout.as_ref().map(|t| {
        json!({
            "strategy": t.strategy.value.as_str(),
            "tool": t.tool.as_ref().map(|v| v.value.as_str()),
        })
    });
    let mut needs_input: Vec<Value> = tool
        .needs_input
        .iter()
        .map(|n| json!({ "name": n.name.value, "kind": n.kind.value.as_str() }))
        .collect();
    needs_input.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));

    let mut m = Map::new();
    m.insert("name".into(), json!(tool.name.value));
    m.insert("effect".into(), json!(tool.effect.value.as_str()));
    m.insert("open-world".into(), json!(tool.open_world()));
    m.insert(
        "annotations".into(),
        json!({
            "readOnlyHint": a.read_only,
            "destructiveHint": a.destructive,
            "idempotentHint": a.idempotent,
            "openWorldHint": a.open_world,
        }),
    );
    m.insert("input".into(), json!(input));
    m.insert("output".into(), json!(output));
    m.insert("errors".into(), Value::Array(errors));
    m.insert("limits".into(), limits.unwrap_or(Value::Null));
    m.insert("idempotency".into(), idempotency.unwrap_or(Value::Null));
    m.insert("confirm".into(), confirm.unwrap_or(Value::Null));
    m.insert("on-timeout".into(), on_timeout.unwrap_or(Value::Null));
    m.insert("needs-input".into(), Value::Array(needs_input));
    // Keys added after the first lock files exist enter only when used, so a catalog that
    // does not use them keeps its contract hash (docs/versioning.md).
    if tool.naturally_idempotent() {
        m.insert("idempotent".into(), json!(true));
    }
    if let Some(kind) = &tool.content {
        m.insert("output-kind".into(), json!(kind.value.as_str()));
    }
    Value::Object(m)
}
