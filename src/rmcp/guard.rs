//! What the server holds every call to before it runs, beyond its contract: the session's
//! budgets ([`Guards::admit`], over the runtime's [`SessionBudget`]) and the one-at-a-time
//! rule for writes on one resource ([`Guards::hold`]).
//!
//! A session's budget lives with the session: the server instance rmcp creates for one stdio
//! connection or one Streamable HTTP session holds it, and it is freed with that instance
//! (HTTP sessions are capped and expire, [`super::HttpConfig`]). A 2026-07-28 request over
//! HTTP has no session: its budget is its principal's ([`super::Server::with_principal`],
//! else the `Authorization` digest; every anonymous caller shares one), kept in a table of at
//! most [`STATELESS_KEPT`] principals, where `max-session-ms` is a window: a principal's
//! budget older than it, with no call in flight, starts again.
//!
//! Resources: a write tool's `resource key=FIELD` names the input field whose value
//! identifies what it changes. Calls with the same value (canonical JSON, whatever the tool
//! or the field: two fields holding one value are taken to name one resource) run one after
//! the other, first come first served, across every session of the server; other values and
//! tools without a resource run in parallel. A value's lock exists while a call holds or
//! awaits it.

use crate::runtime::canonical;
use crate::runtime::guard::{Admission, Guard, SessionBudget};
use crate::runtime::{BudgetDecision, Policy};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

/// How many principals' budgets a server keeps for requests without a session; past it,
/// the oldest is forgotten.
pub const STATELESS_KEPT: usize = 1024;

type Locks = Mutex<HashMap<String, Arc<AsyncMutex<()>>>>;

/// The budgets and resource locks one server shares across its sessions.
#[derive(Debug)]
pub struct Guards {
    /// The caps of every session.
    pub guard: Guard,
    /// Whether the caps were declared (`guard { … }` or [`super::Server::with_guard`]) rather
    /// than [`Guard::DEFAULT`]: what a profile's `require-guard` checks.
    pub declared: bool,
    stateless: Mutex<HashMap<String, Arc<SessionBudget>>>,
    locks: Arc<Locks>,
}

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Guards {
    /// Guards with the caps `guard`.
    pub fn new(guard: Guard, declared: bool) -> Guards {
        Guards {
            guard,
            declared,
            stateless: Mutex::new(HashMap::new()),
            locks: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The budget of `principal`'s requests without a session.
    pub fn stateless(&self, principal: &str) -> Arc<SessionBudget> {
        let mut table = locked(&self.stateless);
        let window = u128::from(self.guard.max_session_ms);
        if let Some(b) = table.get(principal)
            && (b.age().as_millis() < window || b.counts().1 > 0)
        {
            return Arc::clone(b);
        }
        if table.len() >= STATELESS_KEPT && !table.contains_key(principal) {
            let oldest = table
                .iter()
                .max_by_key(|(_, b)| b.age())
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                table.remove(&k);
            }
        }
        let fresh = SessionBudget::new();
        table.insert(principal.to_string(), Arc::clone(&fresh));
        fresh
    }

    /// The guard's decision on a call of `tool` in the session whose budget is `budget`:
    /// the one place a call is admitted or refused. `call` is what makes two calls of the
    /// tool the same call for `max-same-failure`: its arguments (and, on a retry, the input
    /// request's state), compared by canonical digest.
    pub fn admit(&self, budget: &Arc<SessionBudget>, tool: &str, call: &Value) -> Admission {
        self.admit_digest(budget, tool, &canonical::digest(call))
    }

    /// As [`Guards::admit`], with the call's canonical digest already taken.
    pub fn admit_digest(&self, budget: &Arc<SessionBudget>, tool: &str, digest: &str) -> Admission {
        let admission = budget.admit(&self.guard, tool, digest);
        if let BudgetDecision::Exceeded { budget, limit } = admission.decision {
            tracing::warn!(
                tool,
                budget = budget.key(),
                limit,
                "budget exceeded; the call was not executed"
            );
        }
        admission
    }

    /// Waits until this call may change its resource (`resource key=`), and holds it until
    /// the returned value is dropped; `None` when the tool names no resource or the call
    /// carries no scalar value for it (the contract check then refuses it).
    pub async fn hold(&self, policy: &Policy<'_>, arguments: &Value) -> Option<ResourceHold> {
        let key = resource_key(policy, arguments)?;
        let lock = Arc::clone(locked(&self.locks).entry(key.clone()).or_default());
        let entry = Entry {
            locks: Arc::clone(&self.locks),
            key,
            lock: Some(Arc::clone(&lock)),
        };
        let guard = lock.lock_owned().await;
        Some(ResourceHold {
            _guard: guard,
            _entry: entry,
        })
    }

    /// How many resource values have a lock now (held or awaited).
    #[cfg(test)]
    fn locks(&self) -> usize {
        locked(&self.locks).len()
    }
}

/// The resource a call of a tool with `policy` changes: the canonical JSON of its
/// `resource key=` argument, when that is a string, number or boolean.
pub fn resource_key(policy: &Policy<'_>, arguments: &Value) -> Option<String> {
    let value = arguments.get(policy.resource?)?;
    matches!(value, Value::String(_) | Value::Number(_) | Value::Bool(_))
        .then(|| canonical::to_canonical_string(value))
}

/// A call's hold on its resource. Fields drop in order: the lock is released, then the
/// table entry is removed when nobody else holds or awaits it.
pub struct ResourceHold {
    _guard: OwnedMutexGuard<()>,
    _entry: Entry,
}

/// A call's claim on a resource's lock, from before it waits until after it releases.
struct Entry {
    locks: Arc<Locks>,
    key: String,
    lock: Option<Arc<AsyncMutex<()>>>,
}

impl Drop for Entry {
    fn drop(&mut self) {
        drop(self.lock.take());
        let mut locks = locked(&self.locks);
        if locks
            .get(&self.key)
            .is_some_and(|l| Arc::strong_count(l) == 1)
        {
            locks.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::Duration;

    const WRITE: Policy<'static> = Policy {
        effect: "update",
        resource: Some("invoice"),
        ..Policy::NONE
    };

    #[tokio::test]
    async fn writes_on_one_resource_wait_and_others_do_not() {
        let g = Arc::new(Guards::new(Guard::DEFAULT, false));
        let first = g.hold(&WRITE, &json!({"invoice": "INV-1"})).await;
        assert!(first.is_some());
        // Another value is free at once.
        let other = tokio::time::timeout(
            Duration::from_millis(100),
            g.hold(&WRITE, &json!({"invoice": "INV-2"})),
        )
        .await;
        assert!(matches!(other, Ok(Some(_))));
        // The same value waits until the first is released.
        let g2 = Arc::clone(&g);
        let waiting = tokio::spawn(async move {
            g2.hold(&WRITE, &json!({"invoice": "INV-1"}))
                .await
                .is_some()
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        drop(first);
        assert!(matches!(waiting.await, Ok(true)));
        drop(other);
        // Nothing is left behind.
        assert_eq!(g.locks(), 0);
    }

    #[tokio::test]
    async fn a_cancelled_wait_leaves_no_lock_behind() {
        let g = Guards::new(Guard::DEFAULT, false);
        let first = g.hold(&WRITE, &json!({"invoice": "A"})).await;
        let cancelled = tokio::time::timeout(
            Duration::from_millis(20),
            g.hold(&WRITE, &json!({"invoice": "A"})),
        )
        .await;
        assert!(cancelled.is_err());
        drop(first);
        assert_eq!(g.locks(), 0);
    }

    #[test]
    fn the_key_is_the_value_alone() {
        let other_field = Policy {
            resource: Some("target"),
            ..WRITE
        };
        assert_eq!(
            resource_key(&WRITE, &json!({"invoice": "X"})),
            resource_key(&other_field, &json!({"target": "X"}))
        );
        assert_ne!(
            resource_key(&WRITE, &json!({"invoice": "1"})),
            resource_key(&WRITE, &json!({"invoice": 1}))
        );
        assert_eq!(resource_key(&WRITE, &json!({"invoice": {"a": 1}})), None);
        assert_eq!(resource_key(&Policy::NONE, &json!({"invoice": "X"})), None);
    }

    #[test]
    fn stateless_budgets_are_bounded_and_windowed() {
        let g = Guards::new(
            Guard {
                max_session_ms: 0,
                ..Guard::DEFAULT
            },
            false,
        );
        let a = g.stateless("a");
        // A window of 0 ms has passed: the next request starts a fresh budget.
        assert!(!Arc::ptr_eq(&a, &g.stateless("a")));
        let g = Guards::new(Guard::DEFAULT, false);
        let a = g.stateless("a");
        assert!(Arc::ptr_eq(&a, &g.stateless("a")));
        for i in 0..(STATELESS_KEPT + 5) {
            g.stateless(&i.to_string());
        }
        assert_eq!(locked(&g.stateless).len(), STATELESS_KEPT);
    }
}
