//! Session budgets: how much one MCP session may spend before the server stops executing its
//! calls (`guard { … }` in `catalogc.kdl`, docs/runtime.md).
//!
//! A [`Guard`] holds the four caps; a [`SessionBudget`] is one session's spending against
//! them. [`SessionBudget::admit`] is the one place a call is admitted or refused: its
//! [`Admission`] carries the decision as a plain value ([`BudgetDecision`]) for whoever
//! records it, and, when admitted, the [`Permit`] that holds the call's place among the
//! calls in flight until the call's result is [`Permit::finish`]ed.
//!
//! A refused call is never executed; its answer is [`budget_exceeded`], the tool error
//! `BUDGET_EXCEEDED` naming the budget and its limit, retry never.

use super::call::CallResult;
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The caps of one session. [`Guard::DEFAULT`] applies where `catalogc.kdl` has no `guard`
/// block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Guard {
    /// `max-calls`: how many `tools/call` requests one session may have executed.
    pub max_calls: u64,
    /// `max-session-ms`: how long after it started a session may still call tools.
    pub max_session_ms: u64,
    /// `max-same-failure`: how many times the same tool may fail with the same error code on
    /// the same arguments (their canonical digest) before that call is no longer executed.
    pub max_same_failure: u64,
    /// `max-concurrent`: how many calls of one session may be in flight at once.
    pub max_concurrent: u64,
}

impl Guard {
    /// The caps without a `guard` block: 1000 calls, one hour, 3 identical failures, 16
    /// calls in flight.
    pub const DEFAULT: Guard = Guard {
        max_calls: 1000,
        max_session_ms: 3_600_000,
        max_same_failure: 3,
        max_concurrent: 16,
    };

    /// The cap on `budget`.
    pub fn limit(&self, budget: Budget) -> u64 {
        match budget {
            Budget::Calls => self.max_calls,
            Budget::SessionTime => self.max_session_ms,
            Budget::SameFailure => self.max_same_failure,
            Budget::Concurrent => self.max_concurrent,
        }
    }
}

impl Default for Guard {
    fn default() -> Self {
        Guard::DEFAULT
    }
}

/// One of the four budgets of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Budget {
    /// `max-calls`.
    Calls,
    /// `max-session-ms`.
    SessionTime,
    /// `max-same-failure`.
    SameFailure,
    /// `max-concurrent`.
    Concurrent,
}

impl Budget {
    /// Every budget, in the order a call is checked against them.
    pub const ALL: [Budget; 4] = [
        Budget::SessionTime,
        Budget::Calls,
        Budget::SameFailure,
        Budget::Concurrent,
    ];

    /// The budget's key in `guard { … }` and in the `BUDGET_EXCEEDED` error (`max-calls`).
    pub fn key(self) -> &'static str {
        match self {
            Budget::Calls => "max-calls",
            Budget::SessionTime => "max-session-ms",
            Budget::SameFailure => "max-same-failure",
            Budget::Concurrent => "max-concurrent",
        }
    }

    /// What was spent, for the error message.
    fn spent(self, limit: u64) -> String {
        match self {
            Budget::Calls => format!("this session has made its {limit} calls"),
            Budget::SessionTime => format!("this session is older than {limit} ms"),
            Budget::SameFailure => format!(
                "this call (same tool, same arguments) has already failed {limit} times with the same error"
            ),
            Budget::Concurrent => format!("this session already has {limit} calls in flight"),
        }
    }
}

/// What the guard decided for one call: a plain value to record (a log line, a span).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BudgetDecision {
    /// Within every budget: the call runs.
    Admitted,
    /// Past `budget`, whose cap is `limit`: the call does not run.
    Exceeded {
        /// The budget that is spent.
        budget: Budget,
        /// Its cap.
        limit: u64,
    },
}

/// The tool error for a call refused by its session's budget: `BUDGET_EXCEEDED`, naming
/// the budget (`budget`) and its cap (`limit`), retry never: nothing in this session will
/// make the call succeed.
pub fn budget_exceeded(budget: Budget, limit: u64) -> CallResult {
    let mut m = Map::new();
    m.insert("code".into(), json!("BUDGET_EXCEEDED"));
    m.insert("class".into(), json!("rate-limited"));
    m.insert("retryable".into(), json!(false));
    m.insert("retry".into(), json!("never"));
    m.insert("budget".into(), json!(budget.key()));
    m.insert("limit".into(), json!(limit));
    let next = match budget {
        Budget::SameFailure => {
            "Do not repeat this call. Change the arguments, call another tool, or tell the user what failed."
        }
        Budget::Concurrent => {
            "Wait for the calls in flight to finish before making more; do not call this tool again in parallel."
        }
        Budget::Calls | Budget::SessionTime => {
            "Stop calling tools in this session and tell the user the session's budget is spent."
        }
    };
    m.insert("next_step".into(), json!(next));
    m.insert(
        "message".into(),
        json!(format!(
            "{}: the call was not executed ({} {limit})",
            budget.spent(limit),
            budget.key()
        )),
    );
    CallResult::error(Value::Object(m))
}

/// How many distinct failing calls a session remembers for `max-same-failure`; past it the
/// oldest is forgotten, so a session's memory stays bounded whatever its `max-calls`.
pub const FAILURES_KEPT: usize = 256;

/// One session's spending.
#[derive(Debug)]
pub struct SessionBudget {
    started: Instant,
    state: Mutex<Spent>,
}

#[derive(Debug, Default)]
struct Spent {
    calls: u64,
    in_flight: u64,
    /// The failing calls, oldest first.
    failures: Vec<Failure>,
}

/// A call that failed: its tool, argument digest, last error code and how many times in a
/// row it failed with that code.
#[derive(Debug)]
struct Failure {
    tool: String,
    digest: String,
    code: String,
    count: u64,
}

/// The outcome of [`SessionBudget::admit`].
#[derive(Debug)]
pub struct Admission {
    /// What was decided.
    pub decision: BudgetDecision,
    /// When admitted: the call's place among the calls in flight.
    pub permit: Option<Permit>,
}

/// An admitted call's place among its session's calls in flight, released when dropped.
#[derive(Debug)]
pub struct Permit {
    budget: Arc<SessionBudget>,
    tool: String,
    digest: String,
}

impl SessionBudget {
    /// A session starting now.
    pub fn new() -> Arc<SessionBudget> {
        Arc::new(SessionBudget {
            started: Instant::now(),
            state: Mutex::new(Spent::default()),
        })
    }

    fn spent(&self) -> std::sync::MutexGuard<'_, Spent> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The age of the session.
    pub fn age(&self) -> Duration {
        self.started.elapsed()
    }

    /// Admits or refuses a call of `tool` whose arguments have the canonical digest
    /// `digest`, against `guard`. An admitted call counts towards `max-calls` and is in
    /// flight until its permit is dropped; a refused one counts towards nothing.
    pub fn admit(self: &Arc<Self>, guard: &Guard, tool: &str, digest: &str) -> Admission {
        let age_ms = u64::try_from(self.age().as_millis()).unwrap_or(u64::MAX);
        let mut spent = self.spent();
        let failed = spent
            .failures
            .iter()
            .find(|f| f.tool == tool && f.digest == digest)
            .map_or(0, |f| f.count);
        let over = |budget: Budget| match budget {
            Budget::SessionTime => age_ms >= guard.max_session_ms,
            Budget::Calls => spent.calls >= guard.max_calls,
            Budget::SameFailure => failed >= guard.max_same_failure,
            Budget::Concurrent => spent.in_flight >= guard.max_concurrent,
        };
        if let Some(budget) = Budget::ALL.into_iter().find(|b| over(*b)) {
            return Admission {
                decision: BudgetDecision::Exceeded {
                    budget,
                    limit: guard.limit(budget),
                },
                permit: None,
            };
        }
        spent.calls += 1;
        spent.in_flight += 1;
        Admission {
            decision: BudgetDecision::Admitted,
            permit: Some(Permit {
                budget: Arc::clone(self),
                tool: tool.to_string(),
                digest: digest.to_string(),
            }),
        }
    }

    /// Calls admitted so far and calls in flight now.
    pub fn counts(&self) -> (u64, u64) {
        let spent = self.spent();
        (spent.calls, spent.in_flight)
    }
}

impl Permit {
    /// Records the call's final result, by its tool error code (`None`: a success): a tool
    /// error counts towards `max-same-failure` for this tool and these arguments (a
    /// different code starts the count again), a success forgets their failures. Releases
    /// the call's place in flight.
    pub fn finish(self, error_code: Option<&str>) {
        let mut spent = self.budget.spent();
        let at = spent
            .failures
            .iter()
            .position(|f| f.tool == self.tool && f.digest == self.digest);
        match (error_code, at) {
            (None, Some(i)) => {
                spent.failures.remove(i);
            }
            (None, None) => {}
            (Some(code), Some(i)) => {
                let f = &mut spent.failures[i];
                if f.code == code {
                    f.count += 1;
                } else {
                    f.code = code.to_string();
                    f.count = 1;
                }
            }
            (Some(code), None) => {
                if spent.failures.len() >= FAILURES_KEPT {
                    spent.failures.remove(0);
                }
                spent.failures.push(Failure {
                    tool: self.tool.clone(),
                    digest: self.digest.clone(),
                    code: code.to_string(),
                    count: 1,
                });
            }
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut spent = self.budget.spent();
        spent.in_flight = spent.in_flight.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIGHT: Guard = Guard {
        max_calls: 5,
        max_session_ms: 60_000,
        max_same_failure: 2,
        max_concurrent: 2,
    };

    fn exceeded(a: &Admission) -> Option<(Budget, u64)> {
        match a.decision {
            BudgetDecision::Exceeded { budget, limit } => Some((budget, limit)),
            BudgetDecision::Admitted => None,
        }
    }

    #[test]
    fn a_looping_client_is_stopped_at_max_calls() {
        let s = SessionBudget::new();
        for _ in 0..5 {
            let a = s.admit(&TIGHT, "t", "d");
            assert_eq!(a.decision, BudgetDecision::Admitted);
            if let Some(p) = a.permit {
                p.finish(None);
            }
        }
        // Every further call is refused, and a refused call spends nothing.
        for _ in 0..100 {
            let a = s.admit(&TIGHT, "t", "other");
            assert_eq!(exceeded(&a), Some((Budget::Calls, 5)));
            assert!(a.permit.is_none());
        }
        assert_eq!(s.counts(), (5, 0));
    }

    #[test]
    fn the_same_failure_is_not_executed_again() {
        let s = SessionBudget::new();
        for _ in 0..2 {
            let a = s.admit(&TIGHT, "t", "d1");
            if let Some(p) = a.permit {
                p.finish(Some("NOT_FOUND"));
            }
        }
        assert_eq!(
            exceeded(&s.admit(&TIGHT, "t", "d1")),
            Some((Budget::SameFailure, 2))
        );
        // Other arguments, or another tool with the same arguments, still run.
        assert_eq!(
            s.admit(&TIGHT, "t", "d2").decision,
            BudgetDecision::Admitted
        );
        assert_eq!(
            s.admit(&TIGHT, "u", "d1").decision,
            BudgetDecision::Admitted
        );
    }

    #[test]
    fn another_code_or_a_success_starts_the_count_again() {
        let s = SessionBudget::new();
        let run = |r: Option<&str>| {
            let a = s.admit(&TIGHT, "t", "d");
            assert_eq!(a.decision, BudgetDecision::Admitted);
            if let Some(p) = a.permit {
                p.finish(r);
            }
        };
        run(Some("A"));
        run(Some("B"));
        run(None);
        run(Some("A"));
        run(Some("A"));
        assert_eq!(
            exceeded(&s.admit(&TIGHT, "t", "d")),
            Some((Budget::Calls, 5))
        );
    }

    #[test]
    fn calls_in_flight_are_capped_and_released() {
        let s = SessionBudget::new();
        let guard = Guard {
            max_calls: 1000,
            ..TIGHT
        };
        let a = s.admit(&guard, "t", "1");
        let b = s.admit(&guard, "t", "2");
        let c = s.admit(&guard, "t", "3");
        assert_eq!(exceeded(&c), Some((Budget::Concurrent, 2)));
        drop(a);
        assert_eq!(s.admit(&guard, "t", "4").decision, BudgetDecision::Admitted);
        drop(b);
        assert_eq!(s.counts(), (3, 0));
    }

    #[test]
    fn a_concurrent_storm_never_passes_the_caps() {
        let s = SessionBudget::new();
        let guard = Guard {
            max_calls: 50,
            max_concurrent: 4,
            ..TIGHT
        };
        let admitted = std::sync::atomic::AtomicU64::new(0);
        let peak = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for t in 0..8 {
                let (s, admitted, peak) = (&s, &admitted, &peak);
                scope.spawn(move || {
                    for i in 0..200 {
                        let a = s.admit(&guard, "t", &format!("{t}-{i}"));
                        if let Some(p) = a.permit {
                            admitted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            peak.fetch_max(s.counts().1, std::sync::atomic::Ordering::SeqCst);
                            p.finish(None);
                        }
                    }
                });
            }
        });
        assert_eq!(admitted.into_inner(), 50);
        assert!(peak.into_inner() <= 4);
        assert_eq!(s.counts(), (50, 0));
    }

    #[test]
    fn an_old_session_is_refused() {
        let s = SessionBudget::new();
        let guard = Guard {
            max_session_ms: 0,
            ..TIGHT
        };
        assert_eq!(
            exceeded(&s.admit(&guard, "t", "d")),
            Some((Budget::SessionTime, 0))
        );
    }

    #[test]
    fn the_error_names_the_budget_and_its_limit() {
        let r = budget_exceeded(Budget::Calls, 200);
        let v = r.structured_content.clone().unwrap_or_default();
        assert_eq!(r.error_code(), Some("BUDGET_EXCEEDED"));
        assert_eq!(v["budget"], "max-calls");
        assert_eq!(v["limit"], 200);
        assert_eq!(v["retry"], "never");
        assert_eq!(v["retryable"], false);
    }

    #[test]
    fn failure_memory_is_bounded() {
        let s = SessionBudget::new();
        let guard = Guard {
            max_calls: u64::MAX,
            ..TIGHT
        };
        for i in 0..(FAILURES_KEPT + 10) {
            let a = s.admit(&guard, "t", &i.to_string());
            if let Some(p) = a.permit {
                p.finish(Some("X"));
            }
        }
        assert_eq!(s.spent().failures.len(), FAILURES_KEPT);
    }
}
