//! The runtime's [`Call`] of one `tools/call` round, from what rmcp's request context holds:
//! the request id, the negotiated protocol revision and its era, the round's deadline and
//! cancellation token (a child of the request's, so a client's `notifications/cancelled`
//! reaches the handler), the verified answers, and — when the client sent a
//! `progressToken` — a progress sink that sends `notifications/progress` to it.

use crate::runtime::context::BoxFuture;
use crate::runtime::{Call, Cancellation, Era, Progress, ProgressSink, RawAnswers, RequestId};
use ::rmcp::model::{NumberOrString, ProgressNotificationParam, ProgressToken, ProtocolVersion};
use ::rmcp::service::{Peer, RequestContext, RoleServer};
use std::sync::Arc;
use std::time::Instant;
use tokio_util::sync::CancellationToken;

impl Cancellation for CancellationToken {
    fn is_cancelled(&self) -> bool {
        CancellationToken::is_cancelled(self)
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(CancellationToken::cancelled(self))
    }
}

/// Progress reports of one call, sent to its client under the client's token.
struct ProgressTo {
    peer: Peer<RoleServer>,
    token: ProgressToken,
}

impl ProgressSink for ProgressTo {
    fn report(&self, progress: Progress) -> BoxFuture<'_, ()> {
        let mut param = ProgressNotificationParam::new(self.token.clone(), progress.progress);
        if let Some(total) = progress.total {
            param = param.with_total(total);
        }
        if let Some(message) = progress.message {
            param = param.with_message(message);
        }
        Box::pin(async move {
            // A client that went away misses the report; the call itself goes on.
            if let Err(e) = self.peer.notify_progress(param).await {
                tracing::debug!(error = %e, "progress notification not sent");
            }
        })
    }
}

/// The protocol era of the request: 2026-07-28 and later, or earlier.
pub(super) fn era(rc: &RequestContext<RoleServer>) -> Era {
    let current = rc
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    if current { Era::Current } else { Era::Earlier }
}

/// What the handler of one round learns of its call.
pub(super) fn call_of(
    rc: &RequestContext<RoleServer>,
    deadline: Option<Instant>,
    cancel: &CancellationToken,
    answers: &RawAnswers,
) -> Call {
    let id = match &rc.id {
        NumberOrString::Number(n) => RequestId::Number(*n),
        NumberOrString::String(s) => RequestId::String(s.to_string()),
    };
    let version = rc.protocol_version().map(|v| v.as_str().to_string());
    let mut call = Call::builder()
        .request_id(id)
        .protocol(version, era(rc))
        .deadline(deadline)
        .cancellation(Arc::new(cancel.clone()))
        .answers(answers.clone());
    if let Some(token) = rc.meta.get_progress_token() {
        call = call.progress(Arc::new(ProgressTo {
            peer: rc.peer.clone(),
            token,
        }));
    }
    call.build()
}
