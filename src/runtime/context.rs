//! What a handler learns of the call it serves, beside its arguments and the server author's
//! own context: [`Call`] — the request id, the deadline, cancellation, a progress reporter,
//! the protocol era and, for a tool with `needs-input`, the user's answers as the tool's
//! generated `Answers` type.
//!
//! The runtime knows no transport: a server (`catalogc::rmcp`) fills a `Call` in with what
//! the protocol said ([`Call::builder`]), and plugs in its cancellation signal and its
//! progress sink through [`Cancellation`] and [`ProgressSink`]. A `Call::default()` is a call
//! outside any server: no id, no deadline, never cancelled, progress going nowhere.

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A boxed future, as [`Cancellation`] and [`ProgressSink`] return it.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The JSON-RPC id of the `tools/call` request, for logs and correlation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// A numeric id.
    Number(i64),
    /// A string id.
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => f.write_str(s),
        }
    }
}

/// Which generation of the MCP protocol the client negotiated: it decides how a
/// `needs-input` request reaches the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Era {
    /// 2026-07-28 and later: calls are stateless; an input request is a result the client
    /// answers by calling again.
    #[default]
    Current,
    /// Earlier revisions: the server asks for input with `elicitation/create` within the
    /// call.
    Earlier,
}

impl Era {
    /// The era as the call trace names it: `2026-07-28` or `pre-2026-07-28`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Era::Current => "2026-07-28",
            Era::Earlier => "pre-2026-07-28",
        }
    }
}

/// The signal that a call should stop: its deadline passed, or its client cancelled it or
/// went away. `catalogc::rmcp` implements it for its cancellation token.
pub trait Cancellation: Send + Sync {
    /// Whether the call has been cancelled.
    fn is_cancelled(&self) -> bool;
    /// Completes when the call is cancelled.
    fn cancelled(&self) -> BoxFuture<'_, ()>;
}

/// Where a call's progress goes: `catalogc::rmcp` sends each report as an MCP
/// `notifications/progress` with the client's progress token.
pub trait ProgressSink: Send + Sync {
    /// Sends one report; a report that cannot be delivered is dropped.
    fn report(&self, progress: Progress) -> BoxFuture<'_, ()>;
}

/// One progress report of a call.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// How far the work is: it grows with every report, whether or not the total is known.
    pub progress: f64,
    /// The progress at which the work is done, when known.
    pub total: Option<f64>,
    /// What the work is doing, for the user.
    pub message: Option<String>,
}

/// The user's answer to one input request (`needs-input`), as the server received it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Answer {
    /// The user accepted (for a confirmation: confirmed). A decline or cancel is `false`.
    pub accepted: bool,
    /// What the user entered (`{"value": …}` for `text`, `choice` and `credential`),
    /// when accepted.
    pub content: Option<Value>,
    /// The resource version the user approved, when the handler asked with
    /// `Reply::InputRequiredAt`: compare it with the current version before acting.
    pub resource_version: Option<String>,
}

/// The answers of one call, by `needs-input` name, as the server verified them.
pub type RawAnswers = BTreeMap<String, Answer>;

/// A tool's typed answers, read from the raw ones: generated code implements it for each
/// `needs-input` tool's `Answers`; `()` stands for a tool without input requests.
pub trait FromAnswers: Sized {
    /// The typed answers of `answers` (an answer missing or of the wrong shape is
    /// unanswered).
    fn from_answers(answers: &RawAnswers) -> Self;
}

impl FromAnswers for () {
    fn from_answers(_: &RawAnswers) -> Self {}
}

/// The outcome of a `confirmation` input request.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Confirmation {
    /// Not answered in this call: the handler has not asked yet.
    #[default]
    Unanswered,
    /// The user confirmed. The server has checked that the confirmation is bound to this
    /// tool, these arguments and this caller.
    Confirmed {
        /// The resource version the user approved, when the handler asked with
        /// `Reply::InputRequiredAt`: compare it with the current version before acting.
        resource_version: Option<String>,
    },
    /// The user declined or cancelled. A server ends such a call itself
    /// (`APPROVAL_DECLINED`), so a handler it serves sees this only when called directly.
    Declined,
}

impl Confirmation {
    /// The outcome of request `name` among `answers`.
    #[must_use]
    pub fn read(answers: &RawAnswers, name: &str) -> Confirmation {
        match answers.get(name) {
            None => Confirmation::Unanswered,
            Some(a) if a.accepted => Confirmation::Confirmed {
                resource_version: a.resource_version.clone(),
            },
            Some(_) => Confirmation::Declined,
        }
    }

    /// Whether the user confirmed.
    #[must_use]
    pub fn is_confirmed(&self) -> bool {
        matches!(self, Confirmation::Confirmed { .. })
    }
}

/// The text the user entered for request `name` (`text` and `choice`: the answer's
/// `value`), when accepted.
#[must_use]
pub fn answer_text(answers: &RawAnswers, name: &str) -> Option<String> {
    let answer = answers.get(name).filter(|a| a.accepted)?;
    Some(answer.content.as_ref()?.get("value")?.as_str()?.to_string())
}

/// A secret the user entered (a `credential` input request): its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Credential(String);

impl Credential {
    /// The credential of request `name` among `answers`, when accepted.
    #[must_use]
    pub fn read(answers: &RawAnswers, name: &str) -> Option<Credential> {
        answer_text(answers, name).map(Credential)
    }

    /// The secret itself.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"<redacted>\"")
    }
}

/// What every handler method receives about its call, beside the server author's context:
/// `A` is the tool's generated `Answers` for a tool with `needs-input`, else `()`.
///
/// Cloning is cheap (the call's facts are shared), so a clone can go with work the handler
/// spawns: it watches the same cancellation and reports to the same client.
#[derive(Clone, Default)]
pub struct Call<A = ()> {
    facts: Arc<Facts>,
    answers: A,
}

/// What a [`Call`] shares with its clones.
#[derive(Default)]
struct Facts {
    request_id: Option<RequestId>,
    protocol_version: Option<String>,
    era: Era,
    deadline: Option<Instant>,
    cancel: Option<Arc<dyn Cancellation>>,
    progress: Option<Arc<dyn ProgressSink>>,
    answers: RawAnswers,
}

impl<A: fmt::Debug> fmt::Debug for Call<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("request_id", &self.facts.request_id)
            .field("era", &self.facts.era)
            .field("deadline", &self.facts.deadline)
            .field("cancelled", &self.is_cancelled())
            .field("reports_progress", &self.reports_progress())
            .field("answers", &self.answers)
            .finish()
    }
}

impl Call {
    /// Starts a call's facts, for a server (or a test) to fill in.
    #[must_use]
    pub fn builder() -> CallBuilder {
        CallBuilder(Facts::default())
    }

    /// The same call with the answers typed as tool `B` declares them.
    #[must_use]
    pub fn typed<B: FromAnswers>(&self) -> Call<B> {
        Call {
            facts: Arc::clone(&self.facts),
            answers: B::from_answers(&self.facts.answers),
        }
    }
}

impl<A> Call<A> {
    /// The JSON-RPC id of the request, when the call came through a server.
    #[must_use]
    pub fn request_id(&self) -> Option<&RequestId> {
        self.facts.request_id.as_ref()
    }

    /// The protocol revision the client negotiated (`2026-07-28`, `2025-11-25`, …), when
    /// known.
    #[must_use]
    pub fn protocol_version(&self) -> Option<&str> {
        self.facts.protocol_version.as_deref()
    }

    /// The protocol era: how an input request reaches the user.
    #[must_use]
    pub fn era(&self) -> Era {
        self.facts.era
    }

    /// When the server stops the call (`limits timeout-ms=`); `None` without a limit.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        self.facts.deadline
    }

    /// The time left before the deadline (zero once it passed); `None` without a limit.
    #[must_use]
    pub fn remaining(&self) -> Option<Duration> {
        self.facts
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether the call has been cancelled: its client cancelled it or went away, or its
    /// deadline passed. A handler that sees it should stop and return promptly.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.facts.cancel.as_ref().is_some_and(|c| c.is_cancelled())
    }

    /// Completes when the call is cancelled (never, for a call without a cancellation
    /// signal): race it against slow work with `tokio::select!` or the like.
    pub async fn cancelled(&self) {
        match &self.facts.cancel {
            Some(cancel) => cancel.cancelled().await,
            None => std::future::pending().await,
        }
    }

    /// Whether progress reports reach anyone: the client sent a progress token with the
    /// call.
    #[must_use]
    pub fn reports_progress(&self) -> bool {
        self.facts.progress.is_some()
    }

    /// Reports progress to the client (MCP `notifications/progress`), when it asked for it;
    /// otherwise does nothing. `progress` should grow with every report; `total` is where
    /// the work ends, when known.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(sink) = &self.facts.progress {
            let report = Progress {
                progress,
                total,
                message: message.map(str::to_string),
            };
            sink.report(report).await;
        }
    }

    /// The user's answers to the tool's input requests, typed as the tool declares them.
    #[must_use]
    pub fn answers(&self) -> &A {
        &self.answers
    }

    /// The answers as the server received them, by `needs-input` name.
    #[must_use]
    pub fn raw_answers(&self) -> &RawAnswers {
        &self.facts.answers
    }
}

/// Builds a [`Call`]: what a server knows of one `tools/call`.
pub struct CallBuilder(Facts);

impl fmt::Debug for CallBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallBuilder")
            .field("request_id", &self.0.request_id)
            .finish_non_exhaustive()
    }
}

impl CallBuilder {
    /// The request's JSON-RPC id.
    #[must_use]
    pub fn request_id(mut self, id: RequestId) -> CallBuilder {
        self.0.request_id = Some(id);
        self
    }

    /// The negotiated protocol revision and its era.
    #[must_use]
    pub fn protocol(mut self, version: Option<String>, era: Era) -> CallBuilder {
        self.0.protocol_version = version;
        self.0.era = era;
        self
    }

    /// When the server stops the call.
    #[must_use]
    pub fn deadline(mut self, deadline: Option<Instant>) -> CallBuilder {
        self.0.deadline = deadline;
        self
    }

    /// The call's cancellation signal.
    #[must_use]
    pub fn cancellation(mut self, cancel: Arc<dyn Cancellation>) -> CallBuilder {
        self.0.cancel = Some(cancel);
        self
    }

    /// Where progress reports go (set only when the client asked for them).
    #[must_use]
    pub fn progress(mut self, sink: Arc<dyn ProgressSink>) -> CallBuilder {
        self.0.progress = Some(sink);
        self
    }

    /// The user's answers to the tool's input requests, by `needs-input` name.
    #[must_use]
    pub fn answers(mut self, answers: RawAnswers) -> CallBuilder {
        self.0.answers = answers;
        self
    }

    /// The call.
    #[must_use]
    pub fn build(self) -> Call {
        Call {
            facts: Arc::new(self.0),
            answers: (),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Runs a future that completes without waiting.
    fn ready(f: impl Future<Output = ()>) {
        let mut f = std::pin::pin!(f);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        assert!(f.as_mut().poll(&mut cx).is_ready());
    }

    struct Flag(AtomicBool);

    impl Cancellation for Flag {
        fn is_cancelled(&self) -> bool {
            self.0.load(Ordering::SeqCst)
        }
        fn cancelled(&self) -> BoxFuture<'_, ()> {
            Box::pin(std::future::ready(()))
        }
    }

    #[derive(Default)]
    struct Sink(Mutex<Vec<Progress>>);

    impl ProgressSink for Sink {
        fn report(&self, progress: Progress) -> BoxFuture<'_, ()> {
            if let Ok(mut all) = self.0.lock() {
                all.push(progress);
            }
            Box::pin(std::future::ready(()))
        }
    }

    fn answer(accepted: bool, content: Option<Value>, version: Option<&str>) -> Answer {
        Answer {
            accepted,
            content,
            resource_version: version.map(str::to_string),
        }
    }

    #[test]
    fn a_confirmation_is_read_as_its_outcome() {
        let mut raw = RawAnswers::new();
        assert_eq!(
            Confirmation::read(&raw, "approval"),
            Confirmation::Unanswered
        );
        raw.insert("approval".into(), answer(true, None, Some("v7")));
        raw.insert("other".into(), answer(false, None, None));
        assert_eq!(
            Confirmation::read(&raw, "approval"),
            Confirmation::Confirmed {
                resource_version: Some("v7".into())
            }
        );
        assert!(Confirmation::read(&raw, "approval").is_confirmed());
        assert_eq!(Confirmation::read(&raw, "other"), Confirmation::Declined);
    }

    #[test]
    fn a_text_or_credential_is_its_value_when_accepted() {
        let mut raw = RawAnswers::new();
        let value = Some(serde_json::json!({"value": "s3cret"}));
        raw.insert("token".into(), answer(true, value.clone(), None));
        raw.insert("declined".into(), answer(false, value, None));
        raw.insert(
            "shapeless".into(),
            answer(true, Some(serde_json::json!(1)), None),
        );
        assert_eq!(answer_text(&raw, "token").as_deref(), Some("s3cret"));
        assert_eq!(answer_text(&raw, "declined"), None);
        assert_eq!(answer_text(&raw, "shapeless"), None);
        let credential = Credential::read(&raw, "token");
        assert_eq!(credential.as_ref().map(Credential::expose), Some("s3cret"));
        assert_eq!(format!("{credential:?}"), "Some(\"<redacted>\")");
    }

    #[test]
    fn a_call_carries_its_facts_to_its_typed_clones() {
        let flag = Arc::new(Flag(AtomicBool::new(false)));
        let sink = Arc::new(Sink::default());
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut raw = RawAnswers::new();
        raw.insert("approval".into(), answer(true, None, None));
        let call = Call::builder()
            .request_id(RequestId::Number(7))
            .protocol(Some("2025-11-25".into()), Era::Earlier)
            .deadline(Some(deadline))
            .cancellation(flag.clone())
            .progress(sink.clone())
            .answers(raw)
            .build();
        struct Typed(Confirmation);
        impl FromAnswers for Typed {
            fn from_answers(answers: &RawAnswers) -> Self {
                Typed(Confirmation::read(answers, "approval"))
            }
        }
        let typed = call.typed::<Typed>();
        assert!(typed.answers().0.is_confirmed());
        assert_eq!(
            typed.request_id().map(ToString::to_string).as_deref(),
            Some("7")
        );
        assert_eq!(typed.era().as_str(), "pre-2026-07-28");
        assert_eq!(typed.protocol_version(), Some("2025-11-25"));
        assert_eq!(typed.deadline(), Some(deadline));
        assert!(
            typed
                .remaining()
                .is_some_and(|r| r <= Duration::from_secs(60))
        );
        assert!(!typed.is_cancelled());
        flag.0.store(true, Ordering::SeqCst);
        assert!(call.is_cancelled() && typed.is_cancelled());
        assert!(typed.reports_progress());
        ready(typed.progress(1.0, Some(2.0), Some("half")));
        let sent = sink.0.lock().map(|s| s.clone()).unwrap_or_default();
        assert_eq!(
            sent,
            [Progress {
                progress: 1.0,
                total: Some(2.0),
                message: Some("half".into())
            }]
        );
    }

    #[test]
    fn a_call_outside_a_server_reports_nothing_and_never_ends() {
        let call: Call = Call::default();
        assert_eq!(call.request_id(), None);
        assert_eq!(call.era(), Era::Current);
        assert_eq!(call.deadline(), None);
        assert!(!call.is_cancelled() && !call.reports_progress());
        ready(call.progress(1.0, None, None));
    }
}
