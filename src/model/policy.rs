//! A tool's run-time policy ([`Policy`]) read off its declaration: what generated code states
//! in its `ToolInfo` and what `serve --mock` enforces for a loaded catalog.

use super::Tool;
use crate::runtime::Policy;
use crate::runtime::idempotency::Idempotency;

impl Tool {
    /// The run-time policy this tool declares; `sensitive` holds the names of its sensitive input fields
    /// ([`Tool::sensitive_inputs`]), `scope` its idempotency scope
    /// ([`Tool::idempotency_scope`]).
    pub fn policy<'a>(&'a self, sensitive: &'a [&'a str], scope: &'a [&'a str]) -> Policy<'a> {
        let tool = self;
        let limits = tool.limits.as_deref();
        Policy {
            effect: tool.effect.value.as_str(),
            timeout_ms: limits.and_then(|l| l.timeout_ms.as_ref()).map(|v| v.value),
            max_result_bytes: limits
                .and_then(|l| l.max_result_bytes.as_ref())
                .map(|v| v.value),
            on_timeout: tool.on_timeout.as_ref().map(|t| t.strategy.value.as_str()),
            status_tool: tool
                .on_timeout
                .as_ref()
                .and_then(|t| t.tool.as_ref())
                .map(|t| t.value.as_str()),
            confirm: tool.confirm.as_ref().map(|c| c.digest.value.as_str()),
            idempotency: tool.idempotency.as_ref().map(|i| Idempotency {
                key: i.key.value.as_str(),
                scope,
                ttl_s: i.ttl_s.as_ref().map(|v| v.value),
            }),
            sensitive,
            resource: tool.resource.as_ref().map(|r| r.key.value.as_str()),
            approval: tool
                .needs_input
                .iter()
                .any(|n| n.kind.value == super::InputKind::Confirmation),
        }
    }

    /// The names in `tool`'s `idempotency scope=`, in declaration order.
    pub fn idempotency_scope(&self) -> Vec<&str> {
        self.idempotency
            .iter()
            .flat_map(|i| &i.scope)
            .map(|s| s.value.as_str())
            .collect()
    }

    /// The names of `tool`'s input fields marked `sensitive=#true`, in declaration order.
    pub fn sensitive_inputs(&self) -> Vec<&str> {
        self.input
            .fields
            .iter()
            .filter(|f| f.sensitive)
            .map(|f| f.name.value.as_str())
            .collect()
    }
}
