//! A handler's future run in the call's own task with its panics caught: a panic while the
//! handler is polled ends it with the panic's payload instead of unwinding through the
//! server. Running it in place rather than on a task of its own spares every call a spawn and
//! a hand-over between tasks (and often between threads); dropping the call drops the
//! handler's future, as aborting its task did.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// `future`, whose output is `Err(payload)` when polling it panicked.
pub(super) struct CatchUnwind<F> {
    future: F,
}

impl<F> CatchUnwind<F> {
    pub(super) fn new(future: F) -> CatchUnwind<F> {
        CatchUnwind { future }
    }
}

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let future = &mut self.future;
        // The future is not polled again after it panicked: its owner takes the `Err` as
        // the end of the call and drops it.
        match catch_unwind(AssertUnwindSafe(|| Pin::new(&mut *future).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CatchUnwind;
    use crate::rmcp::BoxFuture;

    #[tokio::test]
    async fn a_panic_after_a_pending_poll_is_its_payload() {
        let handler: BoxFuture<'_, u32> = Box::pin(async {
            tokio::task::yield_now().await;
            if std::hint::black_box(true) {
                panic!("the handler broke");
            }
            1
        });
        let Err(payload) = CatchUnwind::new(handler).await else {
            panic!("the panic was not caught");
        };
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"the handler broke"));
        let fine: BoxFuture<'_, u32> = Box::pin(async { 7 });
        assert!(matches!(CatchUnwind::new(fine).await, Ok(7)));
    }
}
