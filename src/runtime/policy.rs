//! What a server enforces for one tool at run time, as its catalog declares it: the limits
//! (`timeout-ms`, `max-result-bytes`), the recovery after a timeout (`on-timeout`), what an
//! approval binds (`confirm digest=`) and what the user is shown when asked (the effect, the
//! idempotency key, the arguments that are never shown).
//!
//! Generated code states each tool's policy in its [`ToolInfo`](super::ToolInfo); `catalogc
//! serve --mock` builds the same value from the loaded catalog (`model::Tool::policy`), so both are
//! held to one set of rules by `catalogc::rmcp`.

use super::idempotency::{DEFAULT_WAIT_MS, Idempotency};

/// One tool's run-time policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy<'a> {
    /// The effect class (`read`, `external-read`, `preview`, `update`, `append`,
    /// `destructive`).
    pub effect: &'a str,
    /// `limits timeout-ms=`: the handler is cancelled at this deadline.
    pub timeout_ms: Option<u64>,
    /// `limits max-result-bytes=`: a larger encoded result is never sent.
    pub max_result_bytes: Option<u64>,
    /// `on-timeout`: `query-status` or `retry-with-key`.
    pub on_timeout: Option<&'a str>,
    /// `on-timeout "query-status" tool=`: the tool that tells a timed-out call's outcome.
    pub status_tool: Option<&'a str>,
    /// `confirm digest=`: `arguments` or `arguments+resource-version`.
    pub confirm: Option<&'a str>,
    /// `idempotency key= scope= ttl-s=`: the server runs the tool at most once per key
    /// (`catalogc::rmcp::idempotency`); a repeated call waits for the first at most
    /// `timeout_ms` ([`Policy::idempotency_wait_ms`]).
    pub idempotency: Option<Idempotency<'a>>,
    /// The input fields marked `sensitive=#true`: their values are never shown to the user
    /// in an approval prompt, nor logged.
    pub sensitive: &'a [&'a str],
    /// `resource key=`: the input field whose value names the resource this write changes;
    /// the server runs calls on one resource value one at a time.
    pub resource: Option<&'a str>,
    /// The tool asks the user to confirm each call (a `needs-input` of kind
    /// `confirmation`): what a profile's `require-approval` checks.
    pub approval: bool,
}

impl Policy<'static> {
    /// No limits, no recovery, nothing to confirm: a read with no declared policy.
    pub const NONE: Policy<'static> = Policy {
        effect: "read",
        timeout_ms: None,
        max_result_bytes: None,
        on_timeout: None,
        status_tool: None,
        confirm: None,
        idempotency: None,
        sensitive: &[],
        resource: None,
        approval: false,
    };
}

impl<'a> Policy<'a> {
    /// Whether the tool changes something (every effect but `read`, `external-read` and
    /// `preview`): after a timeout it may have acted, so calling it again blindly is unsafe.
    pub fn writes(&self) -> bool {
        !matches!(self.effect, "read" | "external-read" | "preview")
    }

    /// Whether an approval also binds the resource version
    /// (`confirm digest="arguments+resource-version"`).
    pub fn binds_resource_version(&self) -> bool {
        self.confirm == Some("arguments+resource-version")
    }

    /// How long a call waits for a running call with its idempotency key, in milliseconds:
    /// the tool's `timeout-ms`, else [`DEFAULT_WAIT_MS`].
    pub fn idempotency_wait_ms(&self) -> u64 {
        self.timeout_ms.unwrap_or(DEFAULT_WAIT_MS)
    }

    /// Whether `field` is a sensitive input field.
    pub fn is_sensitive(&self, field: &str) -> bool {
        self.sensitive.contains(&field)
    }
}
