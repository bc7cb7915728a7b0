use super::*;

#[test]
fn error_kinds_follow_codes_then_classes() {
    assert_eq!(
        error_kind(Some("INVALID_ARGUMENTS"), Some("invalid-argument")),
        "arguments"
    );
    assert_eq!(
        error_kind(Some("APPROVAL_DECLINED"), Some("precondition-failed")),
        "permission"
    );
    assert_eq!(
        error_kind(Some("NOPE"), Some("permission-denied")),
        "permission"
    );
    assert_eq!(
        error_kind(Some("TOOL_TIMEOUT"), Some("unavailable")),
        "infrastructure"
    );
    assert_eq!(
        error_kind(Some("BUDGET_EXCEEDED"), Some("budget-exceeded")),
        "infrastructure"
    );
    assert_eq!(
        error_kind(Some("INVOICE_NOT_FOUND"), Some("not-found")),
        "business"
    );
    assert_eq!(
        error_kind(Some("AMOUNT_TOO_HIGH"), Some("invalid-argument")),
        "business"
    );
}

fn tool_error(fields: serde_json::Value) -> Result<CallToolResponse, ErrorData> {
    Ok(CallToolResponse::Complete(CallToolResult::error(vec![
        ::rmcp::model::ContentBlock::text(fields.to_string()),
    ])))
}

fn ran() -> Facts {
    Facts {
        approval: None,
        reached_store: true,
        handler_start: Some(std::time::Instant::now()),
        handler_end: Some(std::time::Instant::now()),
        budget: Some(BudgetDecision::Admitted),
    }
}

#[test]
fn the_budget_is_the_guard_s_decision_with_its_name_and_limit() {
    let ok = Ok(CallToolResponse::Complete(CallToolResult::success(vec![])));
    let d = decide(&ran(), false, &ok);
    assert_eq!(
        (d.budget, d.budget_name, d.budget_limit),
        (Some("ok"), None, None)
    );
    let refused = Facts {
        budget: Some(BudgetDecision::Exceeded {
            budget: crate::runtime::guard::Budget::SameFailure,
            limit: 2,
        }),
        handler_start: None,
        handler_end: None,
        reached_store: false,
        ..ran()
    };
    let out = tool_error(serde_json::json!({"code": "BUDGET_EXCEEDED", "class": "rate-limited"}));
    let d = decide(&refused, false, &out);
    assert_eq!(
        (d.budget, d.budget_name, d.budget_limit),
        (Some("exceeded"), Some("max-same-failure"), Some(2))
    );
    // A handler's own error with that code is not the guard's decision.
    let d = decide(&ran(), false, &out);
    assert_eq!((d.budget, d.budget_name), (Some("ok"), None));
    // A call that never reached the guard (an unknown tool) has no budget decision.
    let unknown = Facts::default();
    assert_eq!(decide(&unknown, false, &ok).budget, None);
}

#[test]
fn invalid_arguments_count_their_violations() {
    let out = tool_error(serde_json::json!({
        "code": "INVALID_ARGUMENTS", "class": "invalid-argument",
        "violations": [{"path": "/a", "reason": "x"}, {"path": "/b", "reason": "y"}],
    }));
    let d = decide(&ran(), false, &out);
    assert_eq!(d.validation, Some("invalid"));
    assert_eq!(d.violations, Some(2));
    assert_eq!(d.kind, Some("arguments"));
    assert_eq!(d.error_type.as_deref(), Some("tool_error"));
    assert_eq!(d.output, None);
    assert_eq!(d.idempotency, None);
}

#[test]
fn a_kept_result_returned_without_the_handler_is_a_replay() {
    let ok = Ok(CallToolResponse::Complete(CallToolResult::success(vec![])));
    let replay = Facts {
        handler_start: None,
        handler_end: None,
        ..ran()
    };
    let d = decide(&replay, true, &ok);
    assert_eq!(d.idempotency, Some("replayed"));
    assert_eq!(d.validation, None, "a replay checks no arguments");
    assert_eq!(decide(&ran(), true, &ok).idempotency, Some("executed"));
    assert_eq!(decide(&ran(), true, &ok).output, Some("valid"));
    let reused =
        tool_error(serde_json::json!({"code": "IDEMPOTENCY_KEY_REUSED", "class": "conflict"}));
    assert_eq!(decide(&replay, true, &reused).idempotency, Some("conflict"));
}

#[test]
fn protocol_errors_carry_their_json_rpc_code() {
    let out = Err(ErrorData::invalid_params("unknown tool", None));
    let d = decide(&Facts::default(), false, &out);
    assert_eq!(d.error_type.as_deref(), Some("-32602"));
    assert_eq!(d.rpc_code.as_deref(), Some("-32602"));
    assert_eq!(d.kind, Some("protocol"));
}

#[test]
fn withheld_outputs_are_named() {
    let withheld =
        tool_error(serde_json::json!({"code": "INVALID_TOOL_OUTPUT", "class": "internal"}));
    let d = decide(&ran(), false, &withheld);
    assert_eq!(
        (d.output, d.kind),
        (Some("withheld"), Some("infrastructure"))
    );
}

#[test]
fn sensitive_fields_do_not_move_the_argument_digest() {
    let info = ToolInfo {
        name: "t",
        version: "1.0.0",
        definition: "{}",
        input_hash: "",
        output_hash: "",
        contract_hash: "",
        policy: crate::runtime::Policy {
            sensitive: &["secret"],
            ..crate::runtime::Policy::NONE
        },
    };
    let args = |secret: &str| {
        serde_json::json!({"label": "ci", "secret": secret})
            .as_object()
            .cloned()
    };
    let a = arguments_digest(&info, args("hunter2").as_ref());
    assert_eq!(a, arguments_digest(&info, args("other").as_ref()));
    let without = serde_json::json!({"label": "ci"}).as_object().cloned();
    assert_eq!(a, arguments_digest(&info, without.as_ref()));
}

#[test]
fn session_ids_are_traced_as_short_digests() {
    let d = session_digest(b"live-session-id");
    assert_eq!(d.len(), 16);
    assert!(!d.contains("live"));
}
