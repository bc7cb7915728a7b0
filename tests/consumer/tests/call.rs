//! Drives the generated billing catalog through `call` the way an MCP server does: valid
//! calls, every kind of invalid argument, a failing handler, a lying handler, `needs-input`
//! and an unknown tool.

use catalogc::runtime::serde_json::{self, Value, json};
use catalogc::runtime::{Answer, Call, CallResult, Catalog, RawAnswers, ToolError, Validate};
use catalogc_consumer::billing::{self, invoice_list, invoice_send_reminder};
use catalogc_consumer::block_on;
use catalogc_consumer::memory::{Memory, Session};

type Billing = billing::Catalog;

fn acme() -> Session {
    Session {
        tenant: "acme".into(),
    }
}

fn call(memory: &Memory, ctx: &Session, tool: &str, args: Value) -> CallResult {
    call_as(memory, ctx, &Call::default(), tool, args)
}

/// A call with what the server would say of it (`call`).
fn call_as(memory: &Memory, ctx: &Session, call: &Call, tool: &str, args: Value) -> CallResult {
    block_on(<Billing as Catalog<Memory>>::call(
        memory, ctx, call, tool, args,
    ))
    .unwrap_or_else(|e| panic!("protocol error: {e}"))
}

/// A call whose user answered the `approval` request: `accepted` or declined.
fn answered(accepted: bool) -> Call {
    let mut answers = RawAnswers::new();
    let answer = Answer {
        accepted,
        ..Answer::default()
    };
    answers.insert("approval".into(), answer);
    Call::builder().answers(answers).build()
}

fn structured(r: &CallResult) -> &Value {
    r.structured_content
        .as_ref()
        .unwrap_or_else(|| panic!("no structuredContent: {r:?}"))
}

/// The violations of an `INVALID_ARGUMENTS` result, as (path, reason).
fn violations(r: &CallResult) -> Vec<(String, String)> {
    assert_eq!(r.error_code(), Some("INVALID_ARGUMENTS"), "{r:?}");
    let list = structured(r)["violations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    list.iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            (s("path"), s("reason"))
        })
        .collect()
}

#[test]
fn success_carries_structured_content_and_the_same_json_as_text() {
    let m = Memory::sample();
    let r = call(&m, &acme(), "invoice_list", json!({"status": "overdue"}));
    assert!(!r.is_error, "{r:?}");
    let sc = structured(&r);
    let refs: Vec<&str> = sc["items"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|i| i["invoice_reference"].as_str())
                .collect()
        })
        .unwrap_or_default();
    // Only the caller's tenant, from the trusted context.
    assert_eq!(refs, ["INV-1"]);
    let text: Value = serde_json::from_str(r.text()).unwrap_or(Value::Null);
    assert_eq!(&text, sc);
    let mcp = r.to_json();
    assert_eq!(mcp["isError"], json!(false));
    assert_eq!(mcp["content"][0]["type"], json!("text"));
}

#[test]
fn defaults_apply_when_a_field_is_left_out() {
    let input: invoice_list::Input =
        serde_json::from_value(json!({"status": "open"})).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(input.page_size, 20);
    assert_eq!(input.cursor, None);
    assert!(input.validate().is_ok());
}

#[test]
fn every_violation_is_reported_with_its_pointer() {
    let m = Memory::sample();
    let r = call(
        &m,
        &acme(),
        "invoice_list",
        json!({"status": "closed", "page_size": 51, "cursor": 5, "tenant_id": "other"}),
    );
    assert!(r.is_error);
    let v = violations(&r);
    let paths: Vec<&str> = v.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        ["/status", "/page_size", "/cursor", "/tenant_id"],
        "{v:?}"
    );
    assert!(v[0].1.contains("\"open\", \"overdue\""), "{v:?}");
    assert!(v[1].1.contains("maximum 50"), "{v:?}");
    assert!(v[2].1.contains("expected a string"), "{v:?}");
    assert_eq!(v[3].1, "unknown field");

    // Missing required field, and a value that is not an object at all.
    let v = violations(&call(&m, &acme(), "invoice_list", json!({})));
    assert_eq!(v, [("/status".into(), "required field is missing".into())]);
    let v = violations(&call(&m, &acme(), "invoice_list", json!([])));
    assert_eq!(
        v,
        [("".into(), "expected an object, found an array".into())]
    );

    // A pattern (ECMA-262) and a length counted in Unicode scalar values: 32 emoji are 32
    // characters (64 UTF-16 units, 128 bytes), 33 are one too many.
    let get = |reference: String| {
        violations(&call(
            &m,
            &acme(),
            "invoice_get",
            json!({ "invoice_reference": reference }),
        ))
    };
    let v = get("INV-x".into());
    assert_eq!(v.len(), 1);
    assert!(v[0].1.contains("pattern"), "{v:?}");
    let v = get("😀".repeat(33));
    let reasons: Vec<&str> = v.iter().map(|(_, r)| r.as_str()).collect();
    assert!(reasons.contains(&"longer than 32 characters"), "{v:?}");
    let r = call(
        &m,
        &acme(),
        "invoice_get",
        json!({ "invoice_reference": "😀".repeat(32) }),
    );
    assert_eq!(violations(&r).len(), 1, "only the pattern fails at 32");

    // `null` is not a value of an optional string field.
    let v = violations(&call(
        &m,
        &acme(),
        "invoice_list",
        json!({"status": "open", "cursor": null}),
    ));
    assert_eq!(v[0].0, "/cursor");
}

#[test]
fn a_declared_error_carries_only_what_the_catalog_says() {
    let m = Memory::sample();
    // INV-3 exists, but for another tenant: not found for this one.
    let r = call(
        &m,
        &acme(),
        "invoice_get",
        json!({"invoice_reference": "INV-3"}),
    );
    assert!(r.is_error);
    assert_eq!(
        structured(&r),
        &json!({
            "code": "INVOICE_NOT_FOUND",
            "class": "not-found",
            "retryable": false,
            "retry": "never",
            "next_step": "Check the invoice number with the user, or find it with invoice_list.",
            "message": "no invoice with this number is visible to you",
        })
    );
    let e = billing::invoice_get::Error::BillingUnavailable(None);
    assert_eq!(
        (e.code(), e.class(), e.retryable()),
        ("BILLING_UNAVAILABLE", "unavailable", true)
    );
    assert_eq!(e.next_step(), None);
    assert_eq!(e.to_string(), "billing is temporarily unavailable");
}

#[test]
fn an_output_that_breaks_its_schema_is_withheld() {
    let m = Memory {
        lie: true,
        ..Memory::sample()
    };
    let r = call(
        &m,
        &acme(),
        "invoice_get",
        json!({"invoice_reference": "INV-1"}),
    );
    assert_eq!(r.error_code(), Some("INVALID_TOOL_OUTPUT"));
    assert!(!r.text().contains("not an invoice number"), "{}", r.text());
    assert!(!r.text().contains("Customer"), "{}", r.text());
}

#[test]
fn needs_input_asks_until_the_user_confirms() {
    let m = Memory::sample();
    let args = json!({"invoice_reference": "INV-1", "idempotency_key": "k-0123456789abcdef"});
    let r = call(&m, &acme(), "invoice_send_reminder", args.clone());
    assert_eq!(r.error_code(), Some("INPUT_REQUIRED"), "{r:?}");
    let asked = &structured(&r)["input_required"];
    assert_eq!(asked["name"], json!("approval"));
    assert_eq!(asked["kind"], json!("confirmation"));

    // The digest a host binds the user's approval to (a server checks the binding before
    // the handler sees the answer).
    let input: invoice_send_reminder::Input =
        serde_json::from_value(args.clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        input.approval_digest(),
        catalogc::runtime::canonical::digest(&args)
    );
    assert_eq!(input.idempotency_key(), "k-0123456789abcdef");
    // A declined request is asked again; the handler reads the outcome as a value.
    let r = call_as(
        &m,
        &acme(),
        &answered(false),
        "invoice_send_reminder",
        args.clone(),
    );
    assert_eq!(r.error_code(), Some("INPUT_REQUIRED"));
    let r = call_as(&m, &acme(), &answered(true), "invoice_send_reminder", args);
    assert!(!r.is_error, "{r:?}");
    assert_eq!(structured(&r)["reminder_reference"], json!("REM-1"));
}

#[test]
fn the_answers_reach_the_handler_typed_as_the_tool_declares_them() {
    use catalogc::runtime::Confirmation;
    let typed = answered(true).typed::<invoice_send_reminder::Answers>();
    assert_eq!(
        typed.answers().approval,
        Confirmation::Confirmed {
            resource_version: None
        }
    );
    let declined = answered(false).typed::<invoice_send_reminder::Answers>();
    assert_eq!(declined.answers().approval, Confirmation::Declined);
    let none = Call::default().typed::<invoice_send_reminder::Answers>();
    assert_eq!(none.answers(), &invoice_send_reminder::Answers::default());
}

#[test]
fn an_unknown_tool_is_a_protocol_error() {
    let m = Memory::sample();
    let e = block_on(<Billing as Catalog<Memory>>::call(
        &m,
        &acme(),
        &Call::default(),
        "invoice_delete",
        json!({}),
    ));
    let e = e.err().unwrap_or_else(|| panic!("not a protocol error"));
    assert_eq!(e.code(), -32602);
    assert_eq!(e.to_json()["code"], json!(-32602));
}

#[test]
fn definitions_and_hashes_are_the_published_ones() {
    let published: Value =
        serde_json::from_str(include_str!("../../../generated/billing.tools.json"))
            .unwrap_or(Value::Null);
    assert_eq!(<Billing as Catalog<Memory>>::tools_list(), published);
    let names: Vec<&str> = <Billing as Catalog<Memory>>::TOOLS
        .iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(
        names,
        ["invoice_list", "invoice_get", "invoice_send_reminder"]
    );
    // The lock file pins the same hashes.
    let lock = include_str!("../../../catalogs/billing.lock");
    for h in [
        billing::invoice_list::INPUT_HASH,
        billing::invoice_list::OUTPUT_HASH,
        billing::invoice_list::CONTRACT_HASH,
        billing::invoice_get::CONTRACT_HASH,
        billing::invoice_send_reminder::CONTRACT_HASH,
    ] {
        assert!(lock.contains(h), "{h} is not in billing.lock");
    }
}

#[test]
fn the_build_script_output_is_the_committed_golden_output() {
    assert_eq!(
        include_str!(concat!(env!("OUT_DIR"), "/billing.rs")),
        include_str!("../../../generated/billing.rs")
    );
    assert_eq!(
        include_str!(concat!(env!("OUT_DIR"), "/payments.rs")),
        include_str!("../../../generated/payments.rs")
    );
}

#[test]
fn sensitive_fields_are_redacted_in_debug() {
    let m = Memory::sample();
    let shown = format!("{:?}", m.invoices[0].1);
    assert!(shown.contains("<redacted>"), "{shown}");
    assert!(!shown.contains("Customer 1"), "{shown}");
    assert!(shown.contains("INV-1"), "{shown}");
}

/// `confirm digest="arguments+resource-version"` (payments): the digest covers the RFC 8785
/// canonical arguments and the resource version the user approved, written out by hand here.
#[test]
fn a_resource_version_digest_covers_the_arguments_and_the_version() {
    use catalogc::runtime::sha2::{Digest, Sha256};
    use catalogc_consumer::payments::payment_transfer_submit::Input;
    let args = json!({
        "source_account_reference": "ACC-0001",
        "destination_account_reference": "ACC-0002",
        "amount_minor": 1500,
        "currency": "EUR",
        "resource_version": "rv-7",
        "idempotency_key": "k-0123456789abcdef",
    });
    let input: Input = serde_json::from_value(args).unwrap_or_else(|e| panic!("{e}"));
    // Keys sorted by UTF-16 code units, no whitespace.
    let canonical = concat!(
        r#"{"arguments":{"amount_minor":1500,"currency":"EUR","#,
        r#""destination_account_reference":"ACC-0002","idempotency_key":"k-0123456789abcdef","#,
        r#""resource_version":"rv-7","source_account_reference":"ACC-0001"},"#,
        r#""resource_version":"v42"}"#
    );
    let hex: String = Sha256::digest(canonical.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(input.approval_digest("v42"), format!("sha256:{hex}"));
    // An approval of one version approves no other.
    assert_ne!(input.approval_digest("v43"), input.approval_digest("v42"));
}

/// JSON Schema's `integer` admits `1.0`: so does the generated input, and a wrong type is
/// reported at its JSON Pointer.
#[test]
fn integers_accept_a_zero_fraction_and_wrong_types_name_their_path() {
    let m = Memory::sample();
    let r = call(
        &m,
        &acme(),
        "invoice_list",
        json!({"status": "open", "page_size": 1.0}),
    );
    assert!(!r.is_error, "{r:?}");
    assert_eq!(structured(&r)["items"].as_array().map(Vec::len), Some(1));
    let r = call(
        &m,
        &acme(),
        "invoice_list",
        json!({"status": "open", "page_size": "ten"}),
    );
    let paths: Vec<String> = violations(&r).into_iter().map(|(p, _)| p).collect();
    assert_eq!(paths, ["/page_size"]);
}

#[test]
fn time_fields_are_typed_read_strictly_and_written_as_rfc_3339() {
    let m = Memory::sample();
    let r = call(&m, &acme(), "invoice_list", json!({"status": "overdue"}));
    let item = &structured(&r)["items"][0];
    assert_eq!(item["due_date"], json!("2026-01-31"));
    assert_eq!(item["issued_at"], json!("2026-01-01T09:00:00Z"));
    // The offset a sender wrote is kept, and what is written reads back as the same value.
    let mut invoice = item.clone();
    invoice["issued_at"] = json!("2026-10-02T09:30:00.5+02:00");
    let typed: billing::Invoice =
        serde_json::from_value(invoice.clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(typed.issued_at.offset().local_minus_utc(), 7200);
    assert_eq!(typed.due_date.to_string(), "2026-01-31");
    let written = serde_json::to_value(&typed).unwrap_or_default();
    assert_eq!(written["issued_at"], json!("2026-10-02T09:30:00.500+02:00"));
    assert!(typed.validate().is_ok());
    // chrono alone would read a space for the `T`; the contract's format does not.
    invoice["issued_at"] = json!("2026-10-02 09:30:00Z");
    let e = serde_json::from_value::<billing::Invoice>(invoice)
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        e.as_deref(),
        Some("/issued_at: not a valid `date-time` (RFC 3339)")
    );
}

#[test]
fn a_declared_error_carries_its_detail_and_the_internal_error_none() {
    let m = Memory::sample();
    let args = json!({"status": "open", "cursor": "c2"});
    let r = call(&m, &acme(), "invoice_list", args);
    assert_eq!(r.error_code(), Some("INVALID_CURSOR"), "{r:?}");
    assert_eq!(
        structured(&r)["detail"],
        json!("this listing has a single page: no cursor is valid")
    );
    // The internal error: the model learns the code and what is safe after a write that
    // may have acted; the detail is only for the operator's log.
    let e = invoice_send_reminder::Error::Internal("the reminder log is poisoned".into());
    assert_eq!(e.code(), "INTERNAL_ERROR");
    assert_eq!(
        e.to_string(),
        "the tool failed unexpectedly: the reminder log is poisoned"
    );
    let r = catalogc::runtime::call::tool_error(&e);
    assert_eq!(r.error_code(), Some("INTERNAL_ERROR"));
    assert!(!r.text().contains("poisoned"), "{}", r.text());
    assert!(
        structured(&r)["next_step"]
            .as_str()
            .is_some_and(|s| s.contains("invoice_get"))
    );
    assert_eq!(
        r.failure.as_deref().map(String::as_str),
        Some("the reminder log is poisoned")
    );
}

#[test]
fn a_typed_detail_reaches_the_model_as_the_catalog_declares_it() {
    let m = Memory::sample();
    let args = json!({"invoice_reference": "INV-2", "idempotency_key": "k-0123456789abcdef"});
    let r = call(&m, &acme(), "invoice_send_reminder", args);
    assert_eq!(r.error_code(), Some("INVOICE_NOT_OVERDUE"), "{r:?}");
    assert_eq!(structured(&r)["detail"], json!({"due_date": "2026-01-31"}));
    let e = invoice_send_reminder::Error::InvoiceNotOverdue(
        invoice_send_reminder::InvoiceNotOverdueDetail {
            due_date: catalogc::runtime::Date::from_ymd_opt(2026, 1, 31).unwrap_or_default(),
        },
    );
    assert_eq!(e.detail(), None);
    assert_eq!(
        e.to_string(),
        r#"only overdue invoices can be reminded: {"due_date":"2026-01-31"}"#
    );
}

#[test]
fn a_handler_reads_its_deadline_and_cancellation_and_says_why_it_stopped() {
    use catalogc_consumer::memory::LIST_BUDGET;
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let m = Memory::sample();
    let args = json!({"status": "open"});
    let until = |at: Instant| Call::builder().deadline(Some(at)).build();
    // Time enough: the listing runs.
    let roomy = until(Instant::now() + Duration::from_secs(60));
    assert!(!call_as(&m, &acme(), &roomy, "invoice_list", args.clone()).is_error);
    // Less than the listing's budget left: refused, and the detail says why.
    let late = until(Instant::now() + LIST_BUDGET / 5);
    let r = call_as(&m, &acme(), &late, "invoice_list", args.clone());
    assert_eq!(r.error_code(), Some("BILLING_UNAVAILABLE"), "{r:?}");
    assert_eq!(
        structured(&r)["detail"],
        json!("less than 50 ms left before the call's deadline")
    );
    assert_eq!(structured(&r)["retryable"], json!(true));
    // Cancelled before it started.
    let token = catalogc::rmcp::CancellationToken::new();
    token.cancel();
    let cancelled = Call::builder().cancellation(Arc::new(token)).build();
    let r = call_as(&m, &acme(), &cancelled, "invoice_list", args);
    assert_eq!(
        structured(&r)["detail"],
        json!("the call was cancelled before the listing started")
    );
    // A call waiting for its cancellation ends with the error the handler declares for it.
    let hanging = Memory {
        faults: true,
        ..Memory::sample()
    };
    let args = json!({"invoice_reference": catalogc_consumer::memory::HANG_INVOICE});
    let r = call_as(&hanging, &acme(), &cancelled, "invoice_get", args);
    assert_eq!(r.error_code(), Some("BILLING_UNAVAILABLE"), "{r:?}");
    assert_eq!(
        structured(&r)["detail"],
        json!("the call was cancelled before the invoice was read")
    );
}
