//! One contract, run against every store: the memory store, SQLite, and PostgreSQL when
//! `CATALOGC_TEST_POSTGRES` names a database (`.ci/postgres` sets it); then [`enforce`]
//! around a counting handler, against each store.

use super::*;
use crate::runtime::Idempotency;
use crate::runtime::idempotency::{from_stored, to_stored};
use std::sync::atomic::AtomicUsize;

fn block<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("runtime: {e}"))
        .block_on(f)
}

/// Every store under test, each with a scope prefix no earlier run used (a database
/// outlives the test).
async fn stores() -> Vec<(&'static str, Arc<dyn IdempotencyStore>)> {
    let mut stores: Vec<(&'static str, Arc<dyn IdempotencyStore>)> =
        vec![("memory", Arc::new(MemoryStore::new()))];
    #[cfg(feature = "sqlite")]
    {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.keep().join("idempotency.sqlite3");
        let store = SqliteStore::open(&path).unwrap_or_else(|e| panic!("{e}"));
        stores.push(("sqlite", Arc::new(store)));
    }
    #[cfg(feature = "postgres")]
    match std::env::var("CATALOGC_TEST_POSTGRES") {
        Ok(config) => {
            let store = PostgresStore::connect(&config)
                .await
                .unwrap_or_else(|e| panic!("CATALOGC_TEST_POSTGRES: {e}"));
            stores.push(("postgres", Arc::new(store)));
        }
        Err(_) => eprintln!("postgres store: skipped (CATALOGC_TEST_POSTGRES is not set)"),
    }
    stores
}

fn slot(scope: &str, key: &str, digest: &str, ttl: Duration) -> Slot {
    Slot {
        scope: scope.to_string(),
        key: key.to_string(),
        digest: digest.to_string(),
        owner: unique_id(),
        ttl,
    }
}

const LONG: Duration = Duration::from_secs(600);

async fn begin(store: &dyn IdempotencyStore, slot: &Slot) -> Claim {
    store.begin(slot).await.unwrap_or_else(|e| panic!("{e}"))
}

/// The store contract: claim, running, conflict, done, release, owner-only writes, scope
/// isolation, expiry.
async fn contract(name: &str, store: &dyn IdempotencyStore) {
    let run = unique_id();
    let first = slot(&run, "key-1", "sha256:a", LONG);
    assert_eq!(begin(store, &first).await, Claim::Claimed, "{name}");
    let again = slot(&run, "key-1", "sha256:a", LONG);
    assert_eq!(begin(store, &again).await, Claim::Running, "{name}");
    let other = slot(&run, "key-1", "sha256:b", LONG);
    assert_eq!(begin(store, &other).await, Claim::Conflict, "{name}");

    // Only the claiming call writes its record.
    let ok = |r: Result<(), StoreError>| r.unwrap_or_else(|e| panic!("{name}: {e}"));
    ok(store.finish(&again, &json!({"x": 2})).await);
    ok(store.release(&again).await);
    assert_eq!(begin(store, &again).await, Claim::Running, "{name}");
    ok(store.finish(&first, &json!({"x": 1})).await);
    assert_eq!(
        begin(store, &again).await,
        Claim::Done(json!({"x": 1})),
        "{name}"
    );
    // A kept result is never released, nor overwritten.
    ok(store.release(&first).await);
    ok(store.finish(&first, &json!({"x": 3})).await);
    assert_eq!(
        begin(store, &again).await,
        Claim::Done(json!({"x": 1})),
        "{name}"
    );
    assert_eq!(begin(store, &other).await, Claim::Conflict, "{name}");

    // The same key in another scope is another record.
    let elsewhere = slot(&format!("{run}-other"), "key-1", "sha256:b", LONG);
    assert_eq!(begin(store, &elsewhere).await, Claim::Claimed, "{name}");

    // A released claim is free again.
    let released = slot(&run, "key-2", "sha256:a", LONG);
    assert_eq!(begin(store, &released).await, Claim::Claimed, "{name}");
    ok(store.release(&released).await);
    let retry = slot(&run, "key-2", "sha256:b", LONG);
    assert_eq!(begin(store, &retry).await, Claim::Claimed, "{name}");

    // A record expires `ttl` after its claim, kept result or not.
    let short = Duration::from_millis(300);
    let done = slot(&run, "key-3", "sha256:a", short);
    assert_eq!(begin(store, &done).await, Claim::Claimed, "{name}");
    ok(store.finish(&done, &json!(true)).await);
    let running = slot(&run, "key-4", "sha256:a", short);
    assert_eq!(begin(store, &running).await, Claim::Claimed, "{name}");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let later = slot(&run, "key-3", "sha256:b", LONG);
    assert_eq!(begin(store, &later).await, Claim::Claimed, "{name}");
    let later = slot(&run, "key-4", "sha256:b", LONG);
    assert_eq!(begin(store, &later).await, Claim::Claimed, "{name}");
}

#[test]
fn every_store_keeps_the_contract() {
    block(async {
        for (name, store) in stores().await {
            contract(name, &*store).await;
        }
    });
}

#[cfg(feature = "sqlite")]
#[test]
fn sqlite_records_outlive_the_store_and_are_shared_by_its_openers() {
    block(async {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("keys.sqlite3");
        let open = || SqliteStore::open(&path).unwrap_or_else(|e| panic!("{e}"));
        let first = slot("acme", "key", "sha256:a", LONG);
        let store = open();
        assert_eq!(begin(&store, &first).await, Claim::Claimed);
        // A second opener (another process on the same file) sees the running claim.
        let other = open();
        assert_eq!(begin(&other, &first).await, Claim::Running);
        store
            .finish(&first, &json!({"sent": 1}))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        drop((store, other));
        let reopened = open();
        let again = slot("acme", "key", "sha256:a", LONG);
        assert_eq!(
            begin(&reopened, &again).await,
            Claim::Done(json!({"sent": 1}))
        );
    });
}

/// A tool with a key, as generated code declares it.
const TOOL: Policy<'static> = Policy {
    effect: "update",
    timeout_ms: Some(300),
    idempotency: Some(Idempotency::new(
        "idempotency_key",
        &["tenant", "operation"],
        None,
    )),
    ..Policy::NONE
};

/// A handler that counts its runs and answers with the run number, after `delay`.
#[derive(Clone, Default)]
struct Counting {
    runs: Arc<AtomicUsize>,
}

impl Counting {
    fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }

    async fn call(
        &self,
        delay: Duration,
        result: fn(usize) -> CallResult,
    ) -> Result<CallResult, CallError> {
        let n = self.runs.fetch_add(1, Ordering::SeqCst) + 1;
        tokio::time::sleep(delay).await;
        Ok(result(n))
    }
}

fn sent(n: usize) -> CallResult {
    crate::runtime::call::complete_json(
        &crate::runtime::Shape::Any,
        json!({"reminder_reference": format!("REM-{n}")}),
    )
}

fn declined(_: usize) -> CallResult {
    crate::runtime::call::invalid_arguments(Vec::new())
}

fn args(key: &str, invoice: &str) -> Value {
    json!({"invoice_reference": invoice, "idempotency_key": key})
}

async fn call(
    store: &Arc<dyn IdempotencyStore>,
    handler: &Counting,
    scope: &str,
    arguments: Value,
    delay: Duration,
    result: fn(usize) -> CallResult,
) -> CallResult {
    enforce(
        store,
        &TOOL,
        scope,
        "invoice_send_reminder",
        &arguments,
        || handler.call(delay, result),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"))
}

fn code(result: &CallResult) -> Option<&str> {
    result.error_code()
}

async fn enforcement(name: &str, store: Arc<dyn IdempotencyStore>) {
    let tenant = unique_id();
    let now = Duration::ZERO;

    // Replay: the first result, the handler ran once.
    let h = Counting::default();
    let first = call(&store, &h, &tenant, args("k-replay", "INV-1"), now, sent).await;
    let again = call(&store, &h, &tenant, args("k-replay", "INV-1"), now, sent).await;
    assert_eq!((h.runs(), &again), (1, &first), "{name}: replay");

    // The same key with other arguments: a conflict, the handler not called.
    let reused = call(&store, &h, &tenant, args("k-replay", "INV-2"), now, sent).await;
    assert_eq!(code(&reused), Some("IDEMPOTENCY_KEY_REUSED"), "{name}");
    assert_eq!(h.runs(), 1, "{name}: conflict ran the handler");

    // The same key from another tenant: its own call, never the first tenant's result.
    let other = unique_id();
    let theirs = call(&store, &h, &other, args("k-replay", "INV-2"), now, sent).await;
    assert_eq!(h.runs(), 2, "{name}: another tenant's key");
    assert_ne!(
        theirs, first,
        "{name}: another tenant got the first tenant's result"
    );
    let ours = call(&store, &h, &tenant, args("k-replay", "INV-1"), now, sent).await;
    assert_eq!(
        (h.runs(), &ours),
        (2, &first),
        "{name}: after another tenant"
    );

    // Two concurrent calls with one key: the handler runs once, both get its result.
    let h = Counting::default();
    let slow = Duration::from_millis(150);
    let concurrent = || {
        call(
            &store,
            &h,
            &tenant,
            args("k-concurrent", "INV-1"),
            slow,
            sent,
        )
    };
    let (a, b) = tokio::join!(concurrent(), concurrent());
    assert_eq!((h.runs(), &a), (1, &b), "{name}: concurrent calls");
    assert!(!a.is_error, "{name}: {a:?}");

    // A call that outlasts the tool's timeout-ms: the repeat waits that long, then answers
    // that the key is in flight, and the handler ran once.
    let h = Counting::default();
    let long = Duration::from_millis(900);
    let (a, (b, waited)) = tokio::join!(
        call(&store, &h, &tenant, args("k-slow", "INV-1"), long, sent),
        async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let started = Instant::now();
            let b = call(&store, &h, &tenant, args("k-slow", "INV-1"), long, sent).await;
            (b, started.elapsed())
        },
    );
    assert_eq!(code(&b), Some("IDEMPOTENCY_KEY_IN_FLIGHT"), "{name}: {b:?}");
    assert!(!a.is_error && h.runs() == 1, "{name}");
    let bound = Duration::from_millis(300);
    assert!(
        waited >= bound && waited < bound * 2,
        "{name}: waited {waited:?}"
    );

    // A result that is not final is not kept: a retry runs the handler.
    let h = Counting::default();
    call(&store, &h, &tenant, args("k-retry", "INV-1"), now, declined).await;
    let kept = call(&store, &h, &tenant, args("k-retry", "INV-1"), now, sent).await;
    assert_eq!((h.runs(), kept.is_error), (2, false), "{name}: retry");

    // A call dropped while running holds its key: repeats learn the outcome is unknown.
    let h = Counting::default();
    let dropped = tokio::time::timeout(
        Duration::from_millis(50),
        call(&store, &h, &tenant, args("k-dropped", "INV-1"), long, sent),
    )
    .await;
    assert!(dropped.is_err(), "{name}");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let repeat = call(&store, &h, &tenant, args("k-dropped", "INV-1"), now, sent).await;
    assert_eq!(code(&repeat), Some("IDEMPOTENCY_OUTCOME_UNKNOWN"), "{name}");
    assert_eq!(h.runs(), 1, "{name}: dropped");
}

#[test]
fn enforcement_runs_a_tool_once_per_key_and_scope_with_every_store() {
    block(async {
        for (name, store) in stores().await {
            enforcement(name, store).await;
        }
    });
}

#[test]
fn records_expire_after_the_tools_ttl() {
    const SHORT: Policy<'static> = Policy {
        idempotency: Some(Idempotency::new("idempotency_key", &[], Some(1))),
        ..Policy::NONE
    };
    block(async {
        for (name, store) in stores().await {
            let h = Counting::default();
            let tenant = unique_id();
            let arguments = args("k", "INV-1");
            let run = || {
                enforce(&store, &SHORT, &tenant, "t", &arguments, || {
                    h.call(Duration::ZERO, sent)
                })
            };
            let first = run().await.unwrap_or_else(|e| panic!("{e}"));
            let replay = run().await.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((h.runs(), &replay), (1, &first), "{name}");
            tokio::time::sleep(Duration::from_millis(1100)).await;
            let after = run().await.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(h.runs(), 2, "{name}: the key outlived its ttl-s");
            assert_ne!(after, first, "{name}");
        }
    });
}

#[test]
fn a_scope_without_operation_binds_a_key_across_tools() {
    const SHARED: Policy<'static> = Policy {
        idempotency: Some(Idempotency::new("idempotency_key", &["tenant"], None)),
        ..Policy::NONE
    };
    block(async {
        let store: Arc<dyn IdempotencyStore> = Arc::new(MemoryStore::new());
        let h = Counting::default();
        let arguments = args("k", "INV-1");
        let on = |tool: &'static str| {
            enforce(&store, &SHARED, "acme", tool, &arguments, || {
                h.call(Duration::ZERO, sent)
            })
        };
        let first = on("a").await.unwrap_or_else(|e| panic!("{e}"));
        let other = on("b").await.unwrap_or_else(|e| panic!("{e}"));
        assert!(!first.is_error);
        assert_eq!(code(&other), Some("IDEMPOTENCY_KEY_REUSED"));
        assert_eq!(h.runs(), 1);
    });
}

#[test]
fn without_a_key_the_tool_runs_every_time() {
    block(async {
        let store: Arc<dyn IdempotencyStore> = Arc::new(MemoryStore::new());
        let h = Counting::default();
        for arguments in [json!({}), json!({"idempotency_key": 7})] {
            enforce(&store, &TOOL, "acme", "t", &arguments, || {
                h.call(Duration::ZERO, sent)
            })
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        }
        enforce(
            &store,
            &Policy::NONE,
            "acme",
            "t",
            &args("k", "INV-1"),
            || h.call(Duration::ZERO, sent),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(h.runs(), 3);
    });
}

#[test]
fn a_kept_result_reads_back_as_it_was() {
    let image = crate::runtime::Image {
        data: vec![1, 2, 3],
        mime_type: "image/png".into(),
    };
    for result in [
        sent(1),
        crate::runtime::call::invalid_arguments(Vec::new()),
        crate::runtime::ToolOutput::into_result(image),
    ] {
        assert_eq!(from_stored(&to_stored(&result)), Some(result));
    }
    assert_eq!(from_stored(&Value::Null), None);
}

#[test]
fn the_default_scope_separates_credentials_and_sessions() {
    let parts = |headers: &[(&str, &str)]| {
        let mut b = ::http::Request::builder();
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        b.body(()).unwrap_or_else(|e| panic!("{e}")).into_parts().0
    };
    let acme = parts(&[("authorization", "Bearer acme"), ("mcp-session-id", "s1")]);
    let acme2 = parts(&[("authorization", "Bearer acme"), ("mcp-session-id", "s2")]);
    let other = parts(&[("authorization", "Bearer other")]);
    let s1 = parts(&[("mcp-session-id", "s1")]);
    let s2 = parts(&[("mcp-session-id", "s2")]);
    let scope = |p: Option<&::http::request::Parts>| default_scope(p, "conn");
    assert_eq!(scope(Some(&acme)), scope(Some(&acme2)));
    assert_ne!(scope(Some(&acme)), scope(Some(&other)));
    assert_ne!(scope(Some(&s1)), scope(Some(&s2)));
    assert_ne!(scope(Some(&s1)), scope(None));
    assert!(
        !scope(Some(&acme)).contains("acme"),
        "the credential itself is kept"
    );
    assert_ne!(default_scope(None, "a"), default_scope(None, "b"));
}
