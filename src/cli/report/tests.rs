use super::*;

fn fixture(name: &str) -> (Vec<Call>, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/traces")
        .join(name);
    let (mut calls, mut problems) = (Vec::new(), Vec::new());
    read_file(&path, &mut calls, &mut problems);
    (calls, problems)
}

/// The session `tests/fixtures/traces/mock-session.jsonl` recorded: `catalogc serve --mock
/// catalogs/billing.kdl tests/python/traced.kdl --fail invoice_get=INVOICE_NOT_FOUND --trace`,
/// one 2025-11-25 stdio client making ten calls:
///
/// | # | tool | arguments | outcome | ms |
/// | --- | --- | --- | --- | --- |
/// | 1 | invoice_list | status overdue | ok | 19.518872 |
/// | 2 | invoice_list | status closed | INVALID_ARGUMENTS | 0.293819 |
/// | 3 | invoice_list | status open | ok (a second attempt after 2) | 0.424512 |
/// | 4 | invoice_get | INV-1 | INVOICE_NOT_FOUND (business) | 0.793962 |
/// | 5 | invoice_get | INV-1 again | INVOICE_NOT_FOUND: a retry, failed | 0.340786 |
/// | 6 | secret_store | S | asked, declined: APPROVAL_DECLINED (permission) | 1.477979 |
/// | 7 | secret_store | S again | asked, granted, ok: a retry that succeeded | 1.588986 |
/// | 8 | secret_store | S again, same key | the kept result: a duplicate prevented | 0.147576 |
/// | 9 | secret_store | bad label, short secret | INVALID_ARGUMENTS | 0.275395 |
/// | 10 | nope | {} | unknown tool: JSON-RPC -32602 (protocol) | 0.067947 |
///
/// By hand, per tool:
/// - invoice_list: 3 calls; first attempts checked: 1 (valid) and 2 (invalid); 3 follows
///   an invalid call, so it is not a first attempt: validity 1/2. No business, permission
///   or infrastructure error. Durations sorted 0.293819, 0.424512, 19.518872: p50 is rank
///   ⌈0.5·3⌉ = 2 → 0.424512; p95 rank ⌈0.95·3⌉ = 3 → 19.518872.
/// - invoice_get: 2 calls, both first attempts with valid arguments (2/2; the mock fails
///   after the argument check); 2 business errors (rate 1.0); call 5 repeats the failed
///   call 4: 1 retry, 0 successes.
/// - secret_store: 4 calls; first attempts checked 6, 7 (valid), 9 (invalid); 8 ran no
///   check (a replay): 2/3. 1 permission error (6) of 4 calls: 0.25; 7 repeats failed 6:
///   1 retry, 1 success; 8 repeats successful 7: no retry, but a replay: 1 duplicate
///   prevented. Approvals (asked within the call on 2025-11-25): asked 2, granted 1,
///   declined 1. Durations sorted 0.147576, 0.275395, 1.477979, 1.588986: p50 rank 2 →
///   0.275395; p95 rank 4 → 1.588986.
/// - nope: 1 call, a protocol error, no argument check.
///
/// Per effect: read = invoice_list + invoice_get (5 calls, validity 3/4, business 2/5 =
/// 0.4, 1 retry 0 successes); update = secret_store; unknown = nope.
/// All: 10 calls; sorted durations 0.067947, 0.147576, 0.275395, 0.293819, 0.340786, …,
/// 19.518872: p50 rank 5 → 0.340786, p95 rank 10 → 19.518872.
#[test]
fn the_recorded_session_matches_the_hand_count() {
    let (calls, problems) = fixture("mock-session.jsonl");
    assert_eq!(problems, Vec::<String>::new());
    let report = Report::of(&calls);
    let list = &report.tools["invoice_list"];
    assert_eq!(list.calls, 3);
    assert_eq!((list.first_valid, list.first_checked), (1, 2));
    assert_eq!(list.errors.get("arguments"), Some(&1));
    assert_eq!(list.error_rate("business"), 0.0);
    assert_eq!(round3(list.percentile(50.0)), 0.425);
    assert_eq!(round3(list.percentile(95.0)), 19.519);

    let get = &report.tools["invoice_get"];
    assert_eq!((get.calls, get.first_valid, get.first_checked), (2, 2, 2));
    assert_eq!(get.error_rate("business"), 1.0);
    assert_eq!((get.retries, get.retry_successes), (1, 0));

    let store = &report.tools["secret_store"];
    assert_eq!(store.calls, 4);
    assert_eq!((store.first_valid, store.first_checked), (2, 3));
    assert_eq!(store.error_rate("permission"), 0.25);
    assert_eq!((store.retries, store.retry_successes), (1, 1));
    assert_eq!(store.duplicates_prevented, 1);
    assert_eq!(
        (
            store.approvals_asked,
            store.approvals_granted,
            store.approvals_declined
        ),
        (2, 1, 1)
    );
    assert_eq!(round3(store.percentile(50.0)), 0.275);
    assert_eq!(round3(store.percentile(95.0)), 1.589);

    let nope = &report.tools["nope"];
    assert_eq!(nope.errors.get("protocol"), Some(&1));
    assert_eq!(nope.first_pass_validity(), None);

    let read = &report.effects["read"];
    assert_eq!(
        (read.calls, read.first_valid, read.first_checked),
        (5, 3, 4)
    );
    assert_eq!(read.error_rate("business"), 0.4);
    assert_eq!((read.retries, read.retry_successes), (1, 0));
    assert_eq!(report.effects["update"], *store);
    assert_eq!(report.effects["unknown"].calls, 1);

    assert_eq!(report.total.calls, 10);
    assert_eq!(report.total.budget_terminations, 0);
    assert_eq!(round3(report.total.percentile(50.0)), 0.341);
    assert_eq!(round3(report.total.percentile(95.0)), 19.519);
}

#[test]
fn every_bad_line_is_named_and_the_good_ones_still_count() {
    let (calls, problems) = fixture("malformed.jsonl");
    assert_eq!(calls.len(), 2, "lines 1 and 10");
    let lines: Vec<&str> = problems
        .iter()
        .map(|p| p.split(": ").next().unwrap_or_default())
        .collect();
    let at: Vec<String> = [2, 3, 5, 6, 7, 8, 9]
        .iter()
        .map(|n| format!("malformed.jsonl:{n}"))
        .collect();
    assert_eq!(lines.len(), at.len(), "{problems:#?}");
    for (line, want) in lines.iter().zip(&at) {
        assert!(line.ends_with(want.as_str()), "{line} is not {want}");
    }
    assert!(problems[0].contains("not JSON"), "{}", problems[0]);
    assert!(problems[5].contains("not a string"), "{}", problems[5]);
    assert!(problems[6].contains("UTF-8"), "{}", problems[6]);
}

#[test]
fn a_missing_file_is_a_problem_not_a_panic() {
    let (calls, problems) = fixture("no-such-file.jsonl");
    assert!(calls.is_empty());
    assert_eq!(problems.len(), 1);
}

#[test]
fn the_renderings_are_deterministic_and_complete() {
    let (calls, _) = fixture("mock-session.jsonl");
    let report = Report::of(&calls);
    let text = report.text();
    assert!(text.starts_with("10 calls\n"), "{text}");
    assert!(text.contains("secret_store"), "{text}");
    assert_eq!(text, Report::of(&calls).text());
    let md = report.markdown();
    assert!(
        md.contains("| `invoice_get` | 2 | 100.0% | 100.0% |"),
        "{md}"
    );
    let json = report.json();
    assert_eq!(json["tools"]["secret_store"]["approvals"]["asked"], 2);
    assert_eq!(json["effects"]["read"]["error_rates"]["business"], 0.4);
}
