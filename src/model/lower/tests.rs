//! Lowering tests: whole files in, model and diagnostics out.

use super::*;
use crate::diag::suggest::did_you_mean;
use crate::model::vocab::STRING_PROPS;
use crate::syntax::parse;

fn lower_text(src: &str) -> (Option<Catalog>, Vec<Diagnostic>) {
    let parsed = parse(src);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    lower(&parsed.document, FileId(0))
}

const SPEC_SUBMIT: &str = r#"
catalog "payments" version="2.0.0"
tool "payment_transfer_submit" version="2.0.0" {
summary "Transfer money between two accounts of the authenticated tenant."
effect "destructive"
idempotency key="idempotency_key" scope="tenant" "operation" ttl-s=86400
confirm digest="arguments+resource-version"
on-timeout "query-status" tool="payment_transfer_status"
needs-input "approval" kind="confirmation" { doc "The user approves the exact transfer." }
input {
    field "amount_minor" "integer" required=#true exclusive-min=0 max=1000000 unit="minor"
    field "currency" "string" required=#true { enum "USD" "EUR" }
    field "page_size" "integer" min=1 max=50 default=20
    field "tags" "array" max-items=3 unique=#true { items "string" max-length=8 }
    field "cursor" "cursor" { doc "Opaque." }
}
error "LEDGER_UNAVAILABLE" class="unavailable" retry="backoff"
examples {
    call "Send 20 EUR."
    no-call "What is my balance?"
    confusable "payment_transfer_preview"
}
deprecated "use v3" replacement="payment_transfer_submit_v3"
allow "errors/undeclared" reason="kept short"
}
"#;

#[test]
fn lowers_the_spec_write_tool() {
    let (cat, diags) = lower_text(SPEC_SUBMIT);
    assert!(diags.is_empty(), "{diags:?}");
    let cat = cat.expect("catalog");
    assert_eq!(cat.name.value, "payments");
    assert_eq!(
        &SPEC_SUBMIT[cat.name.span.start..cat.name.span.end],
        "\"payments\""
    );
    let t = &cat.tools[0];
    assert_eq!(t.effect.value, Effect::Destructive);
    let idem = t.idempotency.as_ref().expect("idempotency");
    assert_eq!(idem.key.value, "idempotency_key");
    let scope: Vec<&str> = idem.scope.iter().map(|s| s.value.as_str()).collect();
    assert_eq!(scope, ["tenant", "operation"]);
    assert_eq!(idem.ttl_s.as_ref().map(|t| t.value), Some(86400));
    assert_eq!(
        t.confirm.as_ref().map(|c| c.digest.value),
        Some(ConfirmDigest::ArgumentsResourceVersion)
    );
    let ot = t.on_timeout.as_ref().expect("on-timeout");
    assert_eq!(ot.strategy.value, TimeoutStrategy::QueryStatus);
    assert_eq!(
        ot.tool.as_ref().map(|s| s.value.as_str()),
        Some("payment_transfer_status")
    );
    assert_eq!(t.needs_input[0].kind.value, InputKind::Confirmation);
    assert!(t.needs_input[0].doc.is_some());

    let f = &t.input.fields;
    assert_eq!(f.len(), 5);
    assert!(f[0].required);
    let TyKind::Integer(n) = &f[0].ty.kind else {
        panic!("integer expected")
    };
    assert_eq!(n.exclusive_min.as_ref().map(|v| v.value), Some(Num::Int(0)));
    assert_eq!(n.max.as_ref().map(|v| v.value), Some(Num::Int(1_000_000)));
    assert_eq!(n.unit.as_ref().map(|u| u.value), Some(Unit::Minor));
    let TyKind::String(s) = &f[1].ty.kind else {
        panic!("string expected")
    };
    let values: Vec<&str> = s
        .enum_values
        .as_ref()
        .map(|e| e.values.iter().map(|v| v.value.as_str()).collect())
        .unwrap_or_default();
    assert_eq!(values, ["USD", "EUR"]);
    assert_eq!(
        f[2].default.as_ref().map(|d| d.value.clone()),
        Some(Literal::Int(20))
    );
    assert!(!f[2].required);
    let TyKind::Array(a) = &f[3].ty.kind else {
        panic!("array expected")
    };
    assert!(a.unique);
    assert_eq!(a.max_items.as_ref().map(|m| m.value), Some(3));
    assert!(
        matches!(&a.items.kind, TyKind::String(s) if s.max_length.as_ref().map(|m| m.value) == Some(8))
    );
    assert!(matches!(&f[4].ty.kind, TyKind::Cursor(_)));

    assert_eq!(t.errors[0].class.value, ErrorClass::Unavailable);
    assert_eq!(t.errors[0].retry(), Retry::Backoff);
    assert_eq!(t.examples.calls.len(), 1);
    assert_eq!(t.examples.no_calls.len(), 1);
    assert_eq!(t.examples.confusables[0].value, "payment_transfer_preview");
    let dep = t.deprecated.as_ref().expect("deprecated");
    assert_eq!(
        dep.reason.as_ref().map(|r| r.value.as_str()),
        Some("use v3")
    );
    assert_eq!(t.allows[0].rule.value, "errors/undeclared");
    assert!(t.allows[0].reason.is_some());
    assert!(t.annotations().idempotent);
}

#[test]
fn named_types_resolve_in_any_order_and_inline_nothing() {
    let src = r#"
tool "invoice_list" version="1.0.0" {
effect "read"
input
output { field "items" "array" max-items=5 { items "Invoice" } }
}
type "Invoice" { field "invoice_reference" "string" max-length=32 }
catalog "billing" version="1.0.0"
"#;
    let (cat, diags) = lower_text(src);
    assert!(diags.is_empty(), "{diags:?}");
    let cat = cat.expect("catalog");
    assert_eq!(cat.types.len(), 1);
    let out = cat.tools[0].output.as_ref().expect("output");
    let TyKind::Array(a) = &out.fields[0].ty.kind else {
        panic!("array expected")
    };
    assert!(matches!(&a.items.kind, TyKind::Named(n) if n.value == "Invoice"));
}

#[test]
fn stability_and_deprecation_dates_lower_and_bad_ones_are_reported() {
    let src = r#"catalog "c" version="1.0.0"
tool "a_b" version="1.0.0" {
effect "read"
stability "beta"
deprecated "Use c_d." replacement="c_d" since="1.0.0" sunset="2027-03-01"
input
}
tool "c_d" version="1.0.0" {
effect "read"
stability "alpha"
deprecated since="one" sunset="2027-02-30"
input
}
"#;
    let (cat, diags) = lower_text(src);
    let cat = cat.expect("catalog");
    let a = &cat.tools[0];
    assert_eq!(a.stability(), Stability::Beta);
    let d = a.deprecated.as_ref().expect("deprecated");
    assert_eq!(d.since.as_ref().map(|s| s.value.as_str()), Some("1.0.0"));
    assert_eq!(a.sunset(), chrono::NaiveDate::from_ymd_opt(2027, 3, 1));
    let c = &cat.tools[1];
    assert_eq!(c.stability(), Stability::Stable);
    assert_eq!(c.sunset(), None);
    let rules: Vec<&str> = diags.iter().map(|d| &*d.rule).collect();
    assert_eq!(
        rules,
        [
            "model/unknown-keyword",
            "model/invalid-value",
            "model/invalid-value"
        ],
        "{diags:?}"
    );
    assert!(
        diags[2]
            .message
            .contains("`sunset` `2027-02-30` is not a date")
    );
}

#[test]
fn a_tool_missing_its_effect_is_left_out_but_others_stay() {
    let src = "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" { input }\ntool \"c_d\" version=\"1\" { effect \"read\"; input }\n";
    let (cat, diags) = lower_text(src);
    let cat = cat.expect("catalog");
    assert_eq!(cat.tools.len(), 1);
    assert_eq!(cat.tools[0].name.value, "c_d");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].rule, "model/missing-child");
    assert_eq!(diags[0].tool.as_deref(), Some("a_b"));
    assert_eq!(diags[0].catalog.as_deref(), Some("c"));
}

#[test]
fn recursive_fields_are_pruned_after_the_report() {
    let src = "catalog \"c\" version=\"1.0.0\"\ntype \"Node\" { field \"label\" \"string\" max-length=4; field \"next\" \"Node\" }\n";
    let (cat, diags) = lower_text(src);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].rule, "model/recursive-type");
    assert_eq!(diags[0].path.as_deref(), Some("Node.next"));
    let cat = cat.expect("catalog");
    assert_eq!(cat.types[0].fields.len(), 1);
}

/// A union variant's fields are fields of the type too: a reference back through one is a
/// cycle, reported at its variant path and pruned from the variant.
#[test]
fn recursion_through_a_union_variant_is_reported_and_pruned() {
    let src = r#"catalog "c" version="1.0.0"
type "T" {
    field "u" "union" discriminator="k" {
        variant "a" { field "t" "T"; field "n" "integer" max=3; }
        variant "b" { field "s" "string" max-length=3; }
    }
}"#;
    let (cat, diags) = lower_text(src);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].rule, "model/recursive-type");
    assert_eq!(diags[0].path.as_deref(), Some("T.u<a>.t"));
    let cat = cat.expect("catalog");
    let TyKind::Union(u) = &cat.types[0].fields[0].ty.kind else {
        panic!("a union");
    };
    let names: Vec<&str> = u.variants[0]
        .fields
        .fields
        .iter()
        .map(|f| f.name.value.as_str())
        .collect();
    assert_eq!(names, ["n"]);
}

/// Map values may be objects, arrays and named types; maps of maps and of unions are not.
#[test]
fn map_values_hold_fields_but_not_maps() {
    let src = r#"catalog "c" version="1.0.0"
type "T" {
    field "a" "map" { values "object" { field "x" "string" max-length=3; } }
    field "b" "map" { values "array" { items "integer"; } }
    field "c" "map" { values "map" { values "string"; } }
}"#;
    let (cat, diags) = lower_text(src);
    let rules: Vec<(&str, Option<&str>)> = diags
        .iter()
        .map(|d| (d.rule.as_ref(), d.path.as_deref()))
        .collect();
    assert_eq!(rules, [("model/unsupported-type", Some("T.c"))]);
    let cat = cat.expect("catalog");
    let names: Vec<&str> = cat.types[0]
        .fields
        .iter()
        .map(|f| f.name.value.as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
    let TyKind::Map(m) = &cat.types[0].fields[0].ty.kind else {
        panic!("a map");
    };
    assert!(m.values.kind.is_structured());
}

#[test]
fn paths_name_the_field_inside_the_tool() {
    let src = r#"catalog "c" version="1.0.0"
tool "a_b" version="1.0.0" {
effect "read"
input { field "items" "array" max-items=2 { items "object" { field "amount_minor" "integer" unit="cent" } } }
}"#;
    let (_, diags) = lower_text(src);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].path.as_deref(), Some("input.items[].amount_minor"));
    assert_eq!(diags[0].tool.as_deref(), Some("a_b"));
}

#[test]
fn an_error_declares_typed_detail_fields_once() {
    let src = r#"catalog "c" version="1.0.0"
type "Limit" { field "cents" "integer" min=0 }
tool "a_b" version="1.0.0" {
effect "read"
input
error "INSUFFICIENT_FUNDS" class="business-rejected" {
    message "Not enough money."
    detail {
        field "available_cents" "integer" required=#true min=0 max=100 { doc "What is left." }
        field "limit" "Limit"
    }
}
error "BUSY" class="unavailable"
}"#;
    let (cat, diags) = lower_text(src);
    assert!(diags.is_empty(), "{diags:?}");
    let cat = cat.expect("catalog");
    let errors = &cat.tools[0].errors;
    let detail = errors[0].detail.as_ref().expect("detail");
    let names: Vec<&str> = detail
        .fields
        .iter()
        .map(|f| f.name.value.as_str())
        .collect();
    assert_eq!(names, ["available_cents", "limit"]);
    assert!(detail.fields[0].required);
    assert!(matches!(&detail.fields[1].ty.kind, TyKind::Named(n) if n.value == "Limit"));
    assert!(errors[1].detail.is_none());

    // Mistakes are reported at the detail field, with its path; a second `detail` is one.
    let src = r#"catalog "c" version="1.0.0"
tool "a_b" version="1.0.0" {
effect "read"
input
error "INSUFFICIENT_FUNDS" class="business-rejected" {
    detail { field "available_cents" "integr"; extra "string"; }
    detail
}
}"#;
    let (_, diags) = lower_text(src);
    let seen: Vec<(&str, Option<&str>)> = diags
        .iter()
        .map(|d| (&*d.rule, d.path.as_deref()))
        .collect();
    assert_eq!(
        seen,
        [
            (
                "model/unresolved-type",
                Some("error.INSUFFICIENT_FUNDS.detail.available_cents")
            ),
            (
                "model/unknown-node",
                Some("error.INSUFFICIENT_FUNDS.detail")
            ),
            ("model/duplicate-node", None),
        ],
        "{diags:?}"
    );
}

#[test]
fn findings_after_a_tool_do_not_name_it() {
    let src = "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" { effect \"read\"; input }\ntype \"T\" { field \"x\" \"strin\" }\nbogus\n";
    let (_, diags) = lower_text(src);
    assert_eq!(diags.len(), 2, "{diags:?}");
    assert!(diags.iter().all(|d| d.tool.is_none()), "{diags:?}");
    assert_eq!(diags[0].path.as_deref(), Some("T.x"));
    assert_eq!(diags[1].path, None);
}

/// `model/number-underflow` said `1e-308` and `5e-324` "would read as 0": they are non-zero
/// doubles that print back as written, so they are values; a literal that does lose its
/// digits is told what it would read as.
#[test]
fn a_subnormal_that_prints_back_is_a_value_and_the_message_says_what_it_reads_as() {
    let src = |lit: &str| {
        format!(
            "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" {{ effect \"read\"; input {{ field \"x\" \"number\" min={lit} }} }}\n"
        )
    };
    for (lit, value) in [("1e-308", 1e-308), ("5e-324", f64::from_bits(1))] {
        let (cat, diags) = lower_text(&src(lit));
        assert!(diags.is_empty(), "{lit}: {diags:?}");
        let fields = &cat.expect("catalog").tools[0].input.fields;
        let TyKind::Number(n) = &fields[0].ty.kind else {
            panic!("number expected")
        };
        assert_eq!(
            n.min.as_ref().map(|m| m.value.as_f64()),
            Some(value),
            "{lit}"
        );
    }
    let (_, diags) = lower_text(&src("1e-400"));
    assert!(
        diags[0].message.contains("would read as 0"),
        "{}",
        diags[0].message
    );
    let (_, diags) = lower_text(&src("1.2345678901234567e-310"));
    let m = &diags[0].message;
    assert!(
        m.contains("would read as 1.23456789012346e-310") || m.contains("keeping only part"),
        "{m}"
    );
    assert!(!m.contains("read as 0"), "{m}");
}

#[test]
fn a_bound_that_underflows_is_refused_not_read_as_zero() {
    // Issue 13: `min=1e-400` silently became `min=0`.
    for lit in ["1e-400", "-3e-999", "1.2345678901234567e-310"] {
        let src = format!(
            "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" {{ effect \"read\"; input {{ field \"x\" \"number\" min={lit} }} }}\n"
        );
        let (cat, diags) = lower_text(&src);
        assert_eq!(diags.len(), 1, "{lit}: {diags:?}");
        assert_eq!(diags[0].rule, "model/number-underflow");
        assert!(diags[0].help.is_some());
        let fields = &cat.expect("catalog").tools[0].input.fields;
        let TyKind::Number(n) = &fields[0].ty.kind else {
            panic!("number expected")
        };
        assert_eq!(n.min, None, "{lit}");
    }
    let (_, diags) = lower_text(
        "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" { effect \"read\"; input { field \"x\" \"number\" min=0.0e-400 } }\n",
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn did_you_mean_needs_a_close_match() {
    assert_eq!(
        did_you_mean("reed", Effect::NAMES.iter().copied()),
        Some("read")
    );
    assert_eq!(
        did_you_mean("max-lenght", STRING_PROPS.iter().copied()),
        Some("max-length")
    );
    assert_eq!(did_you_mean("colour", TOOL_CHILDREN.iter().copied()), None);
}

#[test]
fn deep_nesting_is_refused_not_followed() {
    let mut src = String::from(
        "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" { effect \"read\"; input {",
    );
    for _ in 0..80 {
        src.push_str(" field \"x\" \"object\" {");
    }
    for _ in 0..80 {
        src.push('}');
    }
    src.push_str("} }\n");
    let parsed = parse(&src);
    let (_, diags) = lower(&parsed.document, FileId(0));
    assert!(
        diags.iter().any(|d| d.rule == "model/too-deep")
            || parsed.errors.iter().any(|e| e.code.contains("deep")),
        "{diags:?} {:?}",
        parsed.errors
    );
}

const TOOL_LEVEL: &str = r##"
catalog "notes" version="1.0.0"
tool "note_delete" version="1.0.0" {
effect "destructive" idempotent=#true
input { field "id" "string" required=#true max-length=8 }
output { field "deleted" "boolean" required=#true }
example-call "one" {
    arguments #"{"id": "n1"}"#
    result #"{"deleted": true}"#
}
example-call "default arguments"
}
tool "note_text" version="1.0.0" {
effect "read"
example-call "text" { result "Buy milk." }
input
output kind="markdown"
}
"##;

#[test]
fn lowers_natural_idempotency_unstructured_results_and_example_calls() {
    let (cat, diags) = lower_text(TOOL_LEVEL);
    assert!(diags.is_empty(), "{diags:?}");
    let cat = cat.expect("catalog");
    let delete = &cat.tools[0];
    assert!(delete.naturally_idempotent());
    assert!(delete.annotations().idempotent && delete.safe_to_retry());
    let calls = &delete.example_calls;
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].arguments.value, serde_json::json!({ "id": "n1" }));
    assert_eq!(
        calls[0].result.as_ref().map(|r| &r.value),
        Some(&ExampleResult::Json(serde_json::json!({ "deleted": true })))
    );
    assert_eq!(calls[1].arguments.value, serde_json::json!({}));
    assert!(calls[1].result.is_none());
    let text = &cat.tools[1];
    assert_eq!(
        text.content.as_ref().map(|k| k.value),
        Some(ContentKind::Markdown)
    );
    assert!(text.output.is_none());
    // The result is read by the output kind, declared after the example.
    assert_eq!(
        text.example_calls[0].result.as_ref().map(|r| &r.value),
        Some(&ExampleResult::Text("Buy milk.".into()))
    );
}

#[test]
fn tool_level_mistakes_are_errors_at_their_place() {
    let src = r##"
catalog "notes" version="1.0.0"
tool "note_get" version="1.0.0" {
effect "update" idempotent=#true
input
output kind="image" { field "x" "string" }
example-call "bad" {
    arguments "{not json"
    result "x"
}
example-call "bad" { arguments "{}" }
}
"##;
    let (cat, diags) = lower_text(src);
    let got: Vec<(&str, &str)> = diags
        .iter()
        .map(|d| (d.rule.as_ref(), &src[d.span.start..d.span.end]))
        .collect();
    assert_eq!(
        got,
        [
            ("model/unknown-property", "#true"),
            ("model/unexpected-children", "field"),
            ("model/wrong-type", "\"{not json\""),
            ("naming/duplicate", "\"bad\""),
            ("model/unexpected-children", "\"x\""),
        ],
        "{diags:?}"
    );
    let tool = &cat.expect("catalog").tools[0];
    assert!(tool.idempotent.is_none());
    assert_eq!(
        tool.content.as_ref().map(|k| k.value),
        Some(ContentKind::Image)
    );
    assert_eq!(tool.example_calls.len(), 1);
}

#[test]
fn an_error_flood_lists_the_first_errors_and_counts_the_rest() {
    let head = "catalog \"c\" version=\"1.0.0\"\n";
    let line = |i| {
        format!(
            "tool \"t{i}\" version=\"1\" {{ effect \"maybe\"; input {{ field \"\" \"nope\" }} }}\n"
        )
    };
    let per_line = lower_text(&format!("{head}{}", line(0))).1.len();
    assert!(per_line > 0);
    let mut src = String::from(head);
    let lines = 2 * crate::model::read::MAX_DIAGNOSTICS;
    for i in 0..lines {
        src.push_str(&line(i));
    }
    let (_, diags) = lower_text(&src);
    let max = crate::model::read::MAX_DIAGNOSTICS;
    assert_eq!(diags.len(), max + 1);
    let last = &diags[max];
    assert_eq!(last.rule, "model/too-many-errors");
    assert_eq!(
        last.message,
        format!("{} more errors were not reported", per_line * lines - max)
    );
    assert_eq!(last.span.start, src.trim_end().len());
}

/// A run lowered after earlier runs kept the cap's worth of problems keeps none of its own
/// and counts them all, so a file of half a million mistakes never holds them together.
#[test]
fn a_run_past_the_cap_counts_its_problems_without_keeping_them() {
    let mut src = String::from("catalog \"c\" version=\"1.0.0\"\n");
    for i in 0..RUN {
        src.push_str(&format!(
            "tool \"Bad {i}\" version=\"x\" {{ effect \"maybe\"; input {{ field \"\" \"nope\" }} }}\n"
        ));
    }
    let parsed = parse(&src);
    let (_, outline) = Lowering::open(&parsed.document, FileId(0));
    let items = outline.items();
    let full = outline.part(&parsed.document, items, crate::model::read::MAX_DIAGNOSTICS);
    let past = outline.part(&parsed.document, items, 0);
    assert!(full.kept() >= RUN, "{}", full.kept());
    assert_eq!(full.dropped(), 0);
    assert_eq!(past.kept(), 0);
    assert_eq!(past.dropped(), full.kept());
    let some = outline.part(&parsed.document, items, 3);
    assert_eq!((some.kept(), some.dropped()), (3, full.kept() - 3));
}

/// Tools are lowered on several threads when there are many (crate::par): the problems still
/// come in document order, each naming its tool, and a duplicate name is still caught in
/// place between them.
#[test]
fn many_tools_report_in_document_order() {
    let mut src = String::from("catalog \"c\" version=\"1.0.0\"\n");
    for i in 0..300 {
        let name = if i == 250 { 7 } else { i };
        src.push_str(&format!(
            "tool \"t{name}\" version=\"1\" {{ summary \"S.\"; effect \"read\"; input {{ field \"f\" \"nope\" }} }}\n"
        ));
    }
    let (_, diags) = lower_text(&src);
    let inside: Vec<usize> = diags
        .iter()
        .filter(|d| d.rule != "naming/duplicate")
        .map(|d| d.span.start)
        .collect();
    assert_eq!(inside.len(), 300);
    assert!(inside.windows(2).all(|w| w[0] < w[1]), "{inside:?}");
    let duplicate = diags.iter().position(|d| d.rule == "naming/duplicate");
    let duplicate = duplicate.expect("the second t7 is reported");
    assert_eq!(diags[duplicate].tool, None);
    // Reading order: the second t7's own field problem, then that its name is taken.
    let before = &diags[duplicate - 1];
    assert_eq!(before.tool.as_deref(), Some("t7"));
    assert!(before.span.start > diags[duplicate].span.start);
    assert_eq!(diags[duplicate + 1].tool.as_deref(), Some("t251"));
    for d in diags.iter().filter(|d| d.rule != "naming/duplicate") {
        let tool = d
            .tool
            .as_deref()
            .expect("every other problem is inside a tool");
        let at = src[..d.span.start]
            .rfind("tool \"")
            .expect("a tool node before it");
        assert!(src[at..].starts_with(&format!("tool \"{tool}\"")), "{d:?}");
    }
}

/// Named types are lowered on the threads with the tools: their problems still come in
/// document order, between the tools', naming no tool, and a type declared twice is ignored
/// in place.
#[test]
fn types_between_tools_report_in_document_order() {
    let mut src = String::from("catalog \"c\" version=\"1.0.0\"\n");
    for i in 0..150 {
        let ty = if i == 100 { 3 } else { i };
        src.push_str(&format!("type \"T{ty}\" {{ field \"g\" \"nope\" }}\n"));
        src.push_str(&format!(
            "tool \"t{i}\" version=\"1\" {{ summary \"S.\"; effect \"read\"; input {{ field \"f\" \"nope\" }} }}\n"
        ));
    }
    let (cat, diags) = lower_text(&src);
    assert_eq!(cat.map(|c| c.types.len()), Some(149));
    let starts: Vec<usize> = diags
        .iter()
        .filter(|d| d.rule != "naming/duplicate")
        .map(|d| d.span.start)
        .collect();
    assert_eq!(
        starts.len(),
        299,
        "the ignored duplicate type is not lowered"
    );
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
    for d in &diags {
        let at = src[..d.span.start].rfind('\n').map_or(0, |n| n + 1);
        let in_type = src[at..].starts_with("type ");
        assert_eq!(d.tool.is_none(), in_type, "{d:?}");
    }
}

#[test]
fn lowers_constants_numeric_enums_titles_and_examples() {
    let (cat, diags) = lower_text(
        r##"
catalog "c" version="1.0.0"
tool "shape_get" version="1.0.0" {
effect "read"
input {
    field "kind" "string" required=#true const="circle" { title "Kind"; examples "circle" }
    field "level" "integer" { enum 1 2 3; examples 2 3 }
    field "ratio" "number" { enum 0.5 1 }
    field "flag" "boolean" const=#false
    field "tags" "array" { examples #"["a"]"#; items "string" }
}
}
"##,
    );
    assert!(diags.is_empty(), "{diags:?}");
    let f = &cat.expect("catalog").tools[0].input.fields;
    assert_eq!(
        f[0].constant.as_ref().map(|c| &c.value),
        Some(&Literal::String("circle".into()))
    );
    assert_eq!(f[0].title.as_ref().map(|t| t.value.as_str()), Some("Kind"));
    assert_eq!(f[0].examples[0].value, serde_json::json!("circle"));
    let TyKind::Integer(n) = &f[1].ty.kind else {
        panic!("integer")
    };
    let values: Vec<Num> = n
        .enum_values
        .iter()
        .flat_map(|e| e.values.iter().map(|v| v.value))
        .collect();
    assert_eq!(values, [Num::Int(1), Num::Int(2), Num::Int(3)]);
    assert_eq!(f[1].examples.len(), 2);
    assert_eq!(
        f[3].constant.as_ref().map(|c| &c.value),
        Some(&Literal::Bool(false))
    );
    assert_eq!(f[4].examples[0].value, serde_json::json!(["a"]));

    let (_, diags) = lower_text(
        r##"
catalog "c" version="1.0.0"
tool "shape_get" version="1.0.0" {
effect "read"
input {
    field "a" "integer" { enum 1 1.5 1 }
    field "b" "string" nullable=#true const="x"
    field "c" "object" const="x"
    field "d" "integer" { examples "two" }
    field "e" "json" { examples "{not json" }
    field "f" "string" { examples }
}
}
"##,
    );
    let rules: Vec<&str> = diags.iter().map(|d| d.rule.as_ref()).collect();
    assert_eq!(
        rules,
        [
            "model/wrong-type",
            "naming/duplicate",
            "model/wrong-type",
            "model/unknown-property",
            "model/wrong-type",
            "model/wrong-type",
            "model/missing-argument"
        ],
        "{diags:?}"
    );
}

#[test]
fn lowers_unions_and_reports_their_mistakes() {
    let (cat, diags) = lower_text(
        r##"
catalog "c" version="1.0.0"
tool "survey_create" version="1.0.0" {
effect "update"
input {
    field "question" "union" required=#true discriminator="type" {
        doc "The question."
        variant "choice" {
            doc "Pick one."
            field "options" "array" required=#true max-items=3 { items "string" max-length=8 }
        }
        variant "text"
    }
    field "more" "array" max-items=2 {
        items "union" discriminator="kind" {
            variant "a" { field "x" "boolean" }
            variant "b"
        }
    }
}
}
"##,
    );
    assert!(diags.is_empty(), "{diags:?}");
    let f = &cat.expect("catalog").tools[0].input.fields;
    let TyKind::Union(u) = &f[0].ty.kind else {
        panic!("union")
    };
    assert_eq!(u.discriminator.value, "type");
    let names: Vec<&str> = u.variants.iter().map(|v| v.name.value.as_str()).collect();
    assert_eq!(names, ["choice", "text"]);
    assert_eq!(u.variants[0].fields.fields[0].name.value, "options");
    assert_eq!(
        u.variants[0].doc.as_ref().map(|d| d.value.as_str()),
        Some("Pick one.")
    );
    let TyKind::Array(a) = &f[1].ty.kind else {
        panic!("array")
    };
    assert!(matches!(&a.items.kind, TyKind::Union(u) if u.variants.len() == 2));

    let (_, diags) = lower_text(
        r##"
catalog "c" version="1.0.0"
tool "survey_create" version="1.0.0" {
effect "update"
input {
    field "a" "union" { variant "x"; variant "y" }
    field "b" "union" discriminator="type" { variant "x" }
    field "c" "union" discriminator="type" {
        variant "x" { field "type" "string" }
        variant "x"
        variant "y" { bogus }
    }
    field "d" "string" { variant "x" }
}
}
"##,
    );
    let got: Vec<(&str, Option<&str>)> = diags
        .iter()
        .map(|d| (d.rule.as_ref(), d.path.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("model/missing-property", Some("input.a")),
            ("model/missing-child", Some("input.b")),
            ("naming/duplicate", Some("input.c<x>")),
            ("naming/duplicate", Some("input.c")),
            ("model/unknown-node", Some("input.c<y>")),
            ("model/unknown-node", Some("input.d")),
        ],
        "{diags:?}"
    );
}

#[test]
fn nullable_array_items_lower_emit_and_check() {
    let src = r##"
catalog "c" version="1.0.0"
type "Cell" { field "v" "string" max-length=4 }
tool "grid_get" version="1.0.0" {
effect "read"
input {
    field "cells" "array" max-items=3 { items "string" nullable=#true max-length=2 }
    field "ranks" "array" { items "integer" nullable=#true { enum 1 2 } }
    field "rows" "array" { items "Cell" nullable=#true }
    field "plain" "array" { items "boolean" nullable=#false }
}
}
"##;
    let (cat, diags) = lower_text(src);
    assert!(diags.is_empty(), "{diags:?}");
    let cat = cat.expect("catalog");
    let nullable: Vec<bool> = cat.tools[0]
        .input
        .fields
        .iter()
        .map(|f| matches!(&f.ty.kind, TyKind::Array(a) if a.items_nullable))
        .collect();
    assert_eq!(nullable, [true, true, true, false]);
    let schema = crate::contract::schema::input_schema(&cat, &cat.tools[0]);
    let items = |f: &str| schema["properties"][f]["items"].clone();
    assert_eq!(
        items("cells"),
        serde_json::json!({"type": ["string", "null"], "maxLength": 2})
    );
    assert_eq!(
        items("ranks"),
        serde_json::json!({"type": ["integer", "null"], "enum": [1, 2, null]})
    );
    assert_eq!(items("rows")["type"], serde_json::json!(["object", "null"]));
    assert_eq!(items("plain"), serde_json::json!({"type": "boolean"}));
    let shape = crate::contract::shape::shape_of(&schema).unwrap_or_else(|e| panic!("{e}"));
    let ok =
        serde_json::json!({"cells": ["ab", null], "ranks": [null, 2], "rows": [null, {"v": "x"}]});
    assert!(crate::runtime::validate::check(shape, &ok).is_empty());
    let bad = serde_json::json!({"cells": ["abc"], "ranks": [3], "plain": [null]});
    let paths: Vec<String> = crate::runtime::validate::check(shape, &bad)
        .into_iter()
        .map(|v| v.path)
        .collect();
    assert_eq!(paths, ["/cells/0", "/ranks/0", "/plain/0"]);
}

#[test]
fn nullable_map_values_and_structured_extras_lower_emit_and_check() {
    let src = r##"
catalog "c" version="1.0.0"
type "Pool" { field "nodes" "integer" required=#true max=9 }
tool "cluster_set" version="1.0.0" {
effect "update"
input {
    field "labels" "map" max-entries=4 { values "string" nullable=#true max-length=3 }
    field "ranks" "map" { values "integer" nullable=#true { enum 1 2 } }
    field "pools" "object" max-entries=4 {
        field "default" "integer" required=#true
        extra "object" nullable=#true {
            field "nodes" "integer" required=#true max=9
            field "zone" "string" max-length=4
        }
    }
    field "named" "object" { extra "Pool"; }
    field "lists" "object" { extra "array" max-items=2 { items "string" max-length=2; }; }
    field "plain" "map" { values "boolean" nullable=#false }
}
}
"##;
    let (cat, diags) = lower_text(src);
    assert!(diags.is_empty(), "{diags:?}");
    let cat = cat.expect("catalog");
    let fields = &cat.tools[0].input.fields;
    assert!(matches!(&fields[0].ty.kind, TyKind::Map(m) if m.values_nullable));
    assert!(matches!(&fields[5].ty.kind, TyKind::Map(m) if !m.values_nullable));
    assert!(
        matches!(&fields[2].ty.kind, TyKind::Object(o) if o.extra.as_ref().is_some_and(|x| x.nullable))
    );
    let schema = crate::contract::schema::input_schema(&cat, &cat.tools[0]);
    let extra = |f: &str| schema["properties"][f]["additionalProperties"].clone();
    assert_eq!(
        extra("labels"),
        serde_json::json!({"type": ["string", "null"], "maxLength": 3})
    );
    assert_eq!(
        extra("ranks"),
        serde_json::json!({"type": ["integer", "null"], "enum": [1, 2, null]})
    );
    assert_eq!(
        extra("pools"),
        serde_json::json!({
            "type": ["object", "null"],
            "properties": {
                "nodes": {"type": "integer", "maximum": 9},
                "zone": {"type": "string", "maxLength": 4}
            },
            "required": ["nodes"],
            "additionalProperties": false
        })
    );
    assert_eq!(extra("named")["required"], serde_json::json!(["nodes"]));
    assert_eq!(extra("lists")["maxItems"], serde_json::json!(2));
    assert_eq!(extra("plain"), serde_json::json!({"type": "boolean"}));
    let shape = crate::contract::shape::shape_of(&schema).unwrap_or_else(|e| panic!("{e}"));
    let check = |v: serde_json::Value| -> Vec<String> {
        crate::runtime::validate::check(shape, &v)
            .into_iter()
            .map(|v| v.path)
            .collect()
    };
    let ok = serde_json::json!({
        "labels": {"a": "x", "b": null}, "ranks": {"r": null, "s": 2},
        "pools": {"default": 1, "gpu": {"nodes": 2}, "old": null},
        "named": {"p": {"nodes": 1}}, "lists": {"l": ["ab"]}
    });
    assert_eq!(check(ok), Vec::<String>::new());
    let bad = serde_json::json!({
        "labels": {"a": "long"}, "ranks": {"r": 3},
        "pools": {"default": 1, "gpu": {"zone": "x"}},
        "named": {"p": null}, "lists": {"l": ["abc"]}, "plain": {"x": null}
    });
    assert_eq!(
        check(bad),
        [
            "/labels/a",
            "/ranks/r",
            "/pools/gpu/nodes",
            "/named/p",
            "/lists/l/0",
            "/plain/x"
        ]
    );

    // Maps and unions stay out of extras, as out of map values; a named type reached
    // through extras closes a cycle like any other reference.
    let (_, diags) = lower_text(
        r##"
catalog "c" version="1.0.0"
type "Node" { field "next" "object" { extra "Node"; } }
tool "t" version="1.0.0" {
effect "read"
input { field "u" "object" { extra "union" discriminator="k" { variant "a"; variant "b"; }; } }
}
"##,
    );
    let got: Vec<(&str, Option<&str>)> = diags
        .iter()
        .map(|d| (d.rule.as_ref(), d.path.as_deref()))
        .collect();
    assert!(
        got.contains(&("model/recursive-type", Some("Node.next{}"))),
        "{diags:?}"
    );
    assert!(
        got.iter().any(|(r, _)| *r == "model/unsupported-type"),
        "{diags:?}"
    );
}

#[test]
fn open_objects_lower_emit_and_check_their_extras() {
    let src = r##"
catalog "c" version="1.0.0"
tool "job_start" version="1.0.0" {
effect "update"
input {
    field "options" "object" required=#true max-entries=3 {
        doc "Launch options: image, and any other option by name."
        field "image" "string" required=#true max-length=16
        extra "string" max-length=4
    }
    field "meta" "object" { field "a" "integer"; extra "json"; }
}
}
"##;
    let (cat, diags) = lower_text(src);
    assert!(diags.is_empty(), "{diags:?}");
    let cat = cat.expect("catalog");
    let schema = crate::contract::schema::input_schema(&cat, &cat.tools[0]);
    assert_eq!(
        schema["properties"]["options"],
        serde_json::json!({
            "type": "object",
            "description": "Launch options: image, and any other option by name.",
            "properties": {"image": {"type": "string", "maxLength": 16}},
            "required": ["image"],
            "additionalProperties": {"type": "string", "maxLength": 4},
            "maxProperties": 3
        })
    );
    assert_eq!(
        schema["properties"]["meta"]["additionalProperties"],
        serde_json::json!({})
    );
    let shape = crate::contract::shape::shape_of(&schema).unwrap_or_else(|e| panic!("{e}"));
    let check = |v: serde_json::Value| -> Vec<String> {
        crate::runtime::validate::check(shape, &v)
            .into_iter()
            .map(|v| v.path)
            .collect()
    };
    let ok =
        serde_json::json!({"options": {"image": "x", "cpu": "2"}, "meta": {"a": 1, "z": [null]}});
    assert!(check(ok).is_empty());
    let bad = serde_json::json!({"options": {"cpu": "12345", "a": "1", "b": "2", "c": "3"}, "meta": {"a": "x"}});
    assert_eq!(
        check(bad),
        ["/options", "/options/image", "/options/cpu", "/meta/a"]
    );

    let (_, diags) = lower_text(
        r##"
catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
effect "read"
input {
    field "a" "object" max-entries=2 { field "x" "string"; }
    field "b" "object" { extra "map" { values "string"; } }
    field "c" "object" { extra "string"; extra "json"; }
}
}
"##,
    );
    let rules: Vec<&str> = diags.iter().map(|d| d.rule.as_ref()).collect();
    assert_eq!(
        rules,
        [
            "model/missing-child",
            "model/unsupported-type",
            "model/duplicate-node"
        ],
        "{diags:?}"
    );
}

#[test]
fn repeats_are_found_among_many_values_and_only_repeats() {
    // Each list keeps its first of a name through a hash of the names beside it: every
    // repeat (also 0 and -0 of a number enum) is still reported once, and nothing else is.
    let many: String = (0..20_000).map(|i| format!(" \"v{i}\"")).collect();
    let src = format!(
        "catalog \"c\" version=\"1.0.0\"\ntool \"a_b\" version=\"1\" {{\neffect \"read\"\ninput {{\n\
         field \"s\" \"string\" {{ enum{many} \"v7\" \"v19999\" }}\n\
         field \"n\" \"number\" {{ enum 0 1.5 -0.0 2 1.5 }}\n}}\n\
         error \"E_ONE\" class=\"internal\"\nerror \"E_TWO\" class=\"internal\"\nerror \"E_ONE\" class=\"internal\"\n}}\n"
    );
    let (cat, diags) = lower_text(&src);
    let repeats: Vec<&str> = diags
        .iter()
        .filter(|d| d.rule == "naming/duplicate")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        repeats,
        [
            "enum value \"v7\" is listed twice",
            "enum value \"v19999\" is listed twice",
            "this enum value is listed twice",
            "this enum value is listed twice",
            "error code `E_ONE` is declared twice",
        ],
        "{diags:?}"
    );
    let tool = &cat.expect("catalog").tools[0];
    let TyKind::String(s) = &tool.input.fields[0].ty.kind else {
        panic!("string expected")
    };
    assert_eq!(s.enum_values.as_ref().map(|e| e.values.len()), Some(20_000));
    let TyKind::Number(n) = &tool.input.fields[1].ty.kind else {
        panic!("number expected")
    };
    assert_eq!(n.enum_values.as_ref().map(|e| e.values.len()), Some(3));
    assert_eq!(tool.errors.len(), 2);
}
