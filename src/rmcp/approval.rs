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
            .map(super::answer_from_response)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Policy;
    use serde_json::json;

    fn tool(contract_hash: &'static str, confirm: Option<&'static str>) -> ToolInfo {
        ToolInfo {
            name: "payment_transfer_submit",
            version: "2.0.0",
            definition: "{}",
            input_hash: "sha256:i",
            output_hash: "sha256:o",
            contract_hash,
            policy: Policy {
                effect: "destructive",
                confirm,
                ..Policy::NONE
            },
        }
    }

    fn approvals(ttl: Duration) -> Approvals {
        Approvals::new(vec![1; 32], ttl).unwrap_or_else(|e| panic!("{e}"))
    }

    fn accepted() -> BTreeMap<String, Value> {
        BTreeMap::from([(
            "approval".to_string(),
            json!({"action": "accept", "content": {}}),
        )])
    }

    fn args() -> Value {
        json!({"amount_minor": 100, "idempotency_key": "k-0123456789abcdef"})
    }

    /// The verdict on `state` for a call with `arguments` by `principal` answering
    /// `responses`.
    fn verdict(
        a: &Approvals,
        info: &ToolInfo,
        arguments: &Value,
        principal: &str,
        state: &str,
        responses: &BTreeMap<String, Value>,
    ) -> Result<Verdict, Refusal> {
        a.verify(info, arguments, principal, Some(state), Some(responses))
    }

    /// A state for a call with `args()` by `alice`, asking for `approval`.
    fn issue(a: &Approvals, info: &ToolInfo, rv: Option<&str>) -> String {
        a.issue(info, &args(), rv, "alice", "approval", &BTreeMap::new())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn only_the_exact_call_by_the_same_principal_is_accepted() {
        let a = approvals(DEFAULT_APPROVAL_TTL);
        let info = tool("sha256:c1", Some("arguments"));
        let state = issue(&a, &info, None);
        let ok = verdict(&a, &info, &args(), "alice", &state, &accepted());
        let Ok(Verdict::Accepted(answers)) = ok else {
            panic!("{ok:?}")
        };
        assert!(answers["approval"].accepted);

        let other = json!({"amount_minor": 101, "idempotency_key": "k-0123456789abcdef"});
        let cases = [
            (
                verdict(&a, &info, &other, "alice", &state, &accepted()),
                Refusal::OtherArguments,
            ),
            (
                verdict(&a, &info, &args(), "bob", &state, &accepted()),
                Refusal::Invalid,
            ),
            (
                verdict(
                    &a,
                    &tool("sha256:c2", Some("arguments")),
                    &args(),
                    "alice",
                    &state,
                    &accepted(),
                ),
                Refusal::OtherTool,
            ),
            (
                verdict(&a, &info, &args(), "alice", &state, &BTreeMap::new()),
                Refusal::Unanswered,
            ),
            (
                a.verify(&info, &args(), "alice", None, Some(&accepted())),
                Refusal::Missing,
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got.err(), Some(want));
        }
        // Another server's secret, and every single changed character, break it.
        let elsewhere =
            Approvals::new(vec![2; 32], DEFAULT_APPROVAL_TTL).unwrap_or_else(|e| panic!("{e}"));
        let got = verdict(&elsewhere, &info, &args(), "alice", &state, &accepted());
        assert_eq!(got.err(), Some(Refusal::Invalid));
        for at in 0..state.len() {
            let mut bytes = state.clone().into_bytes();
            bytes[at] = if bytes[at] == b'x' { b'y' } else { b'x' };
            let tampered = String::from_utf8_lossy(&bytes).into_owned();
            let got = verdict(&a, &info, &args(), "alice", &tampered, &accepted());
            assert!(got.is_err(), "byte {at}: {got:?}");
        }
    }

    #[test]
    fn a_decline_is_a_verdict_and_an_expired_state_is_refused() {
        let a = approvals(DEFAULT_APPROVAL_TTL);
        let info = tool("sha256:c1", None);
        let state = issue(&a, &info, None);
        let declined = BTreeMap::from([("approval".to_string(), json!({"action": "decline"}))]);
        let got = verdict(&a, &info, &args(), "alice", &state, &declined);
        assert!(matches!(got, Ok(Verdict::Declined)), "{got:?}");
        let garbage = BTreeMap::from([("approval".to_string(), json!("yes"))]);
        let got = verdict(&a, &info, &args(), "alice", &state, &garbage);
        assert!(matches!(got, Ok(Verdict::Declined)), "{got:?}");

        let short = approvals(Duration::from_millis(1));
        let state = issue(&short, &info, None);
        std::thread::sleep(Duration::from_millis(20));
        let got = verdict(&short, &info, &args(), "alice", &state, &accepted());
        assert_eq!(got.err(), Some(Refusal::Expired));
    }

    #[test]
    fn the_resource_version_is_bound_when_the_tool_confirms_it() {
        let a = approvals(DEFAULT_APPROVAL_TTL);
        let info = tool("sha256:c1", Some("arguments+resource-version"));
        let state = issue(&a, &info, Some("v42"));
        let got = verdict(&a, &info, &args(), "alice", &state, &accepted());
        let Ok(Verdict::Accepted(answers)) = got else {
            panic!("{got:?}")
        };
        assert_eq!(answers["approval"].resource_version.as_deref(), Some("v42"));
        // The digest in the state covers the version: it is the generated one for v42.
        let digest = approval_digest(&args(), Some("v42"));
        assert_ne!(digest, approval_digest(&args(), Some("v43")));
        assert_eq!(digest, super::digest(&info, &args(), Some("v42")));
    }

    #[test]
    fn answers_of_earlier_rounds_travel_with_the_state() {
        let a = approvals(DEFAULT_APPROVAL_TTL);
        let info = tool("sha256:c1", None);
        let earlier = BTreeMap::from([(
            "approval".to_string(),
            Answer {
                accepted: true,
                content: None,
                resource_version: None,
            },
        )]);
        let state = a
            .issue(&info, &args(), None, "alice", "reason", &earlier)
            .unwrap_or_else(|e| panic!("{e}"));
        let responses = BTreeMap::from([(
            "reason".to_string(),
            json!({"action": "accept", "content": {"value": "overdue"}}),
        )]);
        let got = verdict(&a, &info, &args(), "alice", &state, &responses);
        let Ok(Verdict::Accepted(answers)) = got else {
            panic!("{got:?}")
        };
        assert!(answers["approval"].accepted);
        assert_eq!(answers["reason"].content, Some(json!({"value": "overdue"})));
        // An answer to a need the state did not ask for is not taken.
        let smuggled = BTreeMap::from([
            ("approval".to_string(), json!({"action": "accept"})),
            ("other".to_string(), json!({"action": "accept"})),
        ]);
        let state = issue(&a, &info, None);
        let got = verdict(&a, &info, &args(), "alice", &state, &smuggled);
        let Ok(Verdict::Accepted(answers)) = got else {
            panic!("{got:?}")
        };
        assert_eq!(answers.keys().collect::<Vec<_>>(), ["approval"]);
    }
}
