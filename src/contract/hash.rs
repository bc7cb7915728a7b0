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
use crate::runtime::canonical::{digest, digest_text, sha256_hex};
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
    /// The hash of what callers depend on: both schema hashes, annotations, errors (with
    /// the hash of each declared detail schema), limits, idempotency and confirmation, but
    /// not the prose.
    pub contract: String,
}

/// The hashes of a tool from its [`ContractFacts`], description and schema texts (compact
/// JSON, hashed in their RFC 8785 form).
pub fn hashes_from(
    facts: &ContractFacts,
    description: &str,
    input: &str,
    output: Option<&str>,
) -> ToolHashes {
    let input = digest_text(input);
    let output = digest_text(output.unwrap_or("{}"));
    let contract = digest(&facts.with_schemas(&input, &output));
    ToolHashes {
        input,
        output,
        description: sha256_hex(description.as_bytes()),
        contract,
    }
}

/// The input hash of `tool` of `cat`, without rendering its description.
pub fn input_hash(cat: &Catalog, tool: &Tool) -> String {
    digest_text(&schema::Schemas::one_tool(cat).input(tool))
}

/// The output hash of `tool` of `cat` (of `{}` when it declares no output).
pub fn output_hash(cat: &Catalog, tool: &Tool) -> String {
    let output = schema::Schemas::one_tool(cat).output(tool);
    digest_text(output.as_deref().unwrap_or("{}"))
}

/// The object the contract hash is taken over (see [`ContractFacts`] for its shape).
pub fn contract_value(cat: &Catalog, tool: &Tool) -> Value {
    ContractFacts::of(&mut schema::Schemas::one_tool(cat), tool)
        .with_schemas(&input_hash(cat, tool), &output_hash(cat, tool))
}

/// The part of [`contract_value`] a tool's own declarations give, copied out of the tool:
/// kept by a [`super::ToolContract`] so its contract hash can be computed on first use,
/// without the tool at hand (`lint` and `lsp` never ask for it). Plain values, not JSON:
/// building the JSON object for every tool up front cost `lint` as much as a rule.
#[derive(Debug, Clone, PartialEq)]
pub struct ContractFacts {
    name: String,
    effect: &'static str,
    open_world: bool,
    annotations: crate::model::Annotations,
    /// `(code, class, retry, detail)`: `detail` is the hash of the error's detail schema,
    /// when it declares detail fields.
    errors: Vec<(String, &'static str, &'static str, Option<String>)>,
    /// `(max-items, max-result-bytes, timeout-ms)`.
    limits: Option<[Option<u64>; 3]>,
    /// `(key, scope, ttl-s)`.
    idempotency: Option<(String, Vec<String>, Option<u64>)>,
    confirm: Option<&'static str>,
    /// `(strategy, tool)`.
    on_timeout: Option<(&'static str, Option<String>)>,
    /// `(name, kind)`.
    needs_input: Vec<(String, &'static str)>,
    naturally_idempotent: bool,
    /// An unstructured result's kind.
    output_kind: Option<&'static str>,
    /// The stability level, unless `stable`.
    stability: Option<&'static str>,
    /// `resource key=`: the input field naming the resource a write changes.
    resource: Option<String>,
}

impl ContractFacts {
    /// The facts of `tool`, its error detail schemas written by `schemas`.
    pub fn of(schemas: &mut schema::Schemas<'_>, tool: &Tool) -> ContractFacts {
        let v = |o: &Option<crate::model::Sp<u64>>| o.as_ref().map(|v| v.value);
        ContractFacts {
            name: tool.name.value.clone(),
            effect: tool.effect.value.as_str(),
            open_world: tool.open_world(),
            annotations: tool.annotations(),
            errors: tool
                .errors
                .iter()
                .map(|e| {
                    let retry = e.retry().as_str();
                    let detail = schemas.detail(e).map(|s| digest_text(&s));
                    (e.code.value.clone(), e.class.value.as_str(), retry, detail)
                })
                .collect(),
            limits: tool
                .limits
                .as_ref()
                .map(|l| [v(&l.max_items), v(&l.max_result_bytes), v(&l.timeout_ms)]),
            idempotency: tool.idempotency.as_ref().map(|i| {
                let scope = i.scope.iter().map(|s| s.value.clone()).collect();
                (i.key.value.clone(), scope, v(&i.ttl_s))
            }),
            confirm: tool.confirm.as_ref().map(|c| c.digest.value.as_str()),
            on_timeout: tool.on_timeout.as_ref().map(|t| {
                let other = t.tool.as_ref().map(|v| v.value.clone());
                (t.strategy.value.as_str(), other)
            }),
            needs_input: tool
                .needs_input
                .iter()
                .map(|n| (n.name.value.clone(), n.kind.value.as_str()))
                .collect(),
            naturally_idempotent: tool.naturally_idempotent(),
            output_kind: tool.content.as_ref().map(|k| k.value.as_str()),
            stability: Some(tool.stability())
                .filter(|s| *s != crate::model::Stability::Stable)
                .map(crate::model::Stability::as_str),
            resource: tool.resource.as_ref().map(|r| r.key.value.clone()),
        }
    }

    /// The contract object over these facts and the two schema hashes.
    ///
    /// Keys use the catalog's own spelling. Absent optional parts are `null` rather than
    /// missing, so every contract has the same keys, except `idempotent` (natural
    /// idempotency), `output-kind` (an unstructured result), `stability` (a level other
    /// than `stable`) and `resource` (`resource key=`), which appear only when used.
    /// Errors are sorted by code and
    /// needs-input by name: reordering declarations is not a contract change. The
    /// idempotency scope keeps its written order (it names a compound key).
    fn with_schemas(&self, input: &str, output: &str) -> Value {
        let a = &self.annotations;
        let mut errors: Vec<Value> = self
            .errors
            .iter()
            .map(|(code, class, retry, detail)| {
                let mut e = json!({ "code": code, "class": class, "retry": retry });
                // Only an error with detail fields has the key, so the others keep their
                // contract hash (docs/versioning.md).
                if let (Some(detail), Some(m)) = (detail, e.as_object_mut()) {
                    m.insert("detail".into(), json!(detail));
                }
                e
            })
            .collect();
        errors.sort_by(|a, b| a["code"].as_str().cmp(&b["code"].as_str()));
        let limits = self.limits.map(|[items, bytes, timeout]| {
            json!({ "max-items": items, "max-result-bytes": bytes, "timeout-ms": timeout })
        });
        let idempotency = self
            .idempotency
            .as_ref()
            .map(|(key, scope, ttl)| json!({ "key": key, "scope": scope, "ttl-s": ttl }));
        let confirm = self.confirm.map(|d| json!({ "digest": d }));
        let on_timeout = self
            .on_timeout
            .as_ref()
            .map(|(strategy, tool)| json!({ "strategy": strategy, "tool": tool }));
        let mut needs_input: Vec<Value> = self
            .needs_input
            .iter()
            .map(|(name, kind)| json!({ "name": name, "kind": kind }))
            .collect();
        needs_input.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));

        let mut m = Map::new();
        m.insert("name".into(), json!(self.name));
        m.insert("effect".into(), json!(self.effect));
        m.insert("open-world".into(), json!(self.open_world));
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
        // Keys added after the first lock files exist enter only when used, so a catalog
        // that does not use them keeps its contract hash (docs/versioning.md).
        if self.naturally_idempotent {
            m.insert("idempotent".into(), json!(true));
        }
        if let Some(kind) = self.output_kind {
            m.insert("output-kind".into(), json!(kind));
        }
        if let Some(level) = self.stability {
            m.insert("stability".into(), json!(level));
        }
        // Callers may rely on writes to one resource not racing: a contract change.
        if let Some(key) = &self.resource {
            m.insert("resource".into(), json!({ "key": key }));
        }
        Value::Object(m)
    }
}
