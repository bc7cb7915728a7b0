//! Approvals bound to the exact call (protocol 2026-07-28).
//!
//! When a tool asks for input, the `InputRequiredResult` carries a `requestState` sealed by
//! the SDK's [`RequestStateCodec`] (HMAC-SHA256 under the server's secret, with an expiry).
//! Its payload names the tool, its contract hash, the approval digest of the arguments (and
//! of the resource version the handler named), the need asked for, the answers already
//! given and the issue time; the principal is the associated data, authenticated but not
//! stored. The client's retry is trusted only when its state opens under this server's
//! secret for the same principal, has not expired, and names this tool, this contract and a
//! digest equal to the retry's own arguments. The state is signed, not encrypted: whoever
//! holds it can read the answers it carries, so it holds nothing of the server's.

use super::Answer;
use crate::runtime::{Refusal, ToolInfo, approval_digest};
use ::rmcp::model::{RequestStateCodec, RequestStateError, SealOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a user has to answer an input request when the server does not say: 5 minutes.
pub const DEFAULT_APPROVAL_TTL: Duration = Duration::from_secs(300);

/// What a `requestState` carries.
#[derive(Debug, Serialize, Deserialize)]
struct State {
    /// The tool name.
    tool: String,
    /// The tool's contract hash.
    contract: String,
    /// The approval digest of the arguments (and resource version) asked about.
    digest: String,
    /// The resource version the handler named when asking, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resource_version: Option<String>,
    /// The need asked for.
    need: String,
    /// Needs answered in earlier rounds of the same call.
    #[serde(default)]
    answered: BTreeMap<String, Carried>,
    /// Issue time, milliseconds since the Unix epoch.
    issued_ms: u64,
}

/// An accepted answer of an earlier round.
#[derive(Debug, Serialize, Deserialize)]
struct Carried {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content: Option<Value>,
}

/// The answers a verified retry may give the handler, or why it may not.
#[derive(Debug)]
pub(super) enum Verdict {
    /// Every answer is accepted and bound to this call.
    Accepted(BTreeMap<String, Answer>),
    /// The user declined or cancelled the request (the state itself verified).
    Declined,
}

/// Issues and verifies request states under one secret.
pub(super) struct Approvals {
    codec: Arc<RequestStateCodec>,
    ttl: Duration,
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approvals").field("ttl", &self.ttl).finish()
    }
}

/// The secret of a server that was given none: 32 random bytes, so that states of one
/// server process open in no other.
pub(super) fn random_secret() -> std::io::Result<Vec<u8>> {
    let mut secret = vec![0u8; RequestStateCodec::MIN_KEY_LENGTH];
    getrandom::fill(&mut secret).map_err(std::io::Error::other)?;
    Ok(secret)
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The approval digest of `arguments` (with `resource_version` when the tool's approval
/// binds one).
fn digest(info: &ToolInfo, arguments: &Value, resource_version: Option<&str>) -> String {
    let rv = if info.policy.binds_resource_version() {
        resource_version
    } else {
        None
    };
    approval_digest(arguments, rv)
}

impl Approvals {
    /// States sealed with `secret` (at least 32 bytes) that expire after `ttl`.
    pub(super) fn new(secret: Vec<u8>, ttl: Duration) -> Result<Approvals, RequestStateError> {
        Ok(Approvals {
            codec: Arc::new(RequestStateCodec::try_new(secret)?),
            ttl,
        })
    }

    /// The same secret, another TTL.
    pub(super) fn with_ttl(&self, ttl: Duration) -> Approvals {
        Approvals {
            codec: Arc::clone(&self.codec),
            ttl,
        }
    }

    pub(super) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The state of an input request for `need` of a call of `info` with `arguments`, by
    /// `principal`, carrying the accepted `answers` of earlier rounds.
    pub(super) fn issue(
        &self,
        info: &ToolInfo,
        arguments: &Value,
        resource_version: Option<&str>,
        principal: &str,
        need: &str,
        answers: &BTreeMap<String, Answer>,
    ) -> Result<String, RequestStateError> {
        let state = State {
            tool: info.name.to_string(),
            contract: info.contract_hash.to_string(),
            digest: digest(info, arguments, resource_version),
            resource_version: resource_version.map(str::to_string),
            need: need.to_string(),
            answered: answers
                .iter()
                .filter(|(_, a)| a.accepted)
                .map(|(name, a)| {
                    let content = a.content.clone();
                    (name.clone(), Carried { content })
                })
                .collect(),
            issued_ms: now_ms(),
        };
        let options = SealOptions::new()
            .associated_data(principal.as_bytes())
            .ttl(self.ttl);
        self.codec.seal_json_with(&state, &options)
    }

    /// Verifies a retry of a call of `info` with `arguments` by `principal`: its `state` and
    /// its `responses` (an `ElicitResult` per need name).
    pub(super) fn verify(
        &self,
        info: &ToolInfo,
        arguments: &Value,
        principal: &str,
        state: Option<&str>,
        responses: Option<&BTreeMap<String, Value>>,
    ) -> Result<Verdict, Refusal> {
        let sealed = state.ok_or(Refusal::Missing)?;
        let state: State = self
            .codec
            .open_json_with(sealed, principal.as_bytes())
            .map_err(|e| match e {
                RequestStateError::Expired => Refusal::Expired,
                _ => Refusal::Invalid,
            })?;
        if state.tool != info.name || state.contract != info.contract_hash {
            return Err(Refusal::OtherTool);
        }
        if state.digest != digest(info, arguments, state.resource_version.as_deref()) {
            return Err(Refusal::OtherArguments);
        }
        let answer = responses
            .and_then(|r| r.get(&state.need))
            .map(Answer::from_response)
            .ok_or(Refusal::Unanswered)?;
        if !answer.accepted {
            return Ok(Verdict::Declined);
        }
        let mut answers: BTreeMap<String, Answer> = state
            .answered
            .into_iter()
            .map(|(name, c)| {
                let answer = Answer {
                    accepted: true,
                    content: c.content,
                    resource_version: state.resource_version.clone(),
                };
                (name, answer)
            })
            .collect();
        answers.insert(
            state.need,
            Answer {
                resource_version: state.resource_version,
                ..answer
            },
        );
        Ok(Verdict::Accepted(answers))
    }
}
