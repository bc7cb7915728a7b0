//! The hostile catalog's code compiles (under clippy -D warnings in CI) and means what the
//! catalog says: every string arrives intact, colliding names stay distinct, keywords and
//! leading digits map back to the catalog's JSON names.

use catalogc::runtime::serde_json::{self, Value, json};
use catalogc::runtime::{Call, Catalog, ToolError, Validate};
use catalogc_consumer::block_on;
use catalogc_consumer::hostile::{self, Type, Type2, TypeSelf, V3dPNkt, r#async, mut_record};

#[test]
fn strings_arrive_byte_for_byte() {
    assert_eq!(hostile::NAME, "match");
    assert!(r#async::DESCRIPTION.contains(r#"a "hostile" record"#));
    assert!(r#async::DESCRIPTION.contains("braces {} and */ are text"));
    let e = r#async::Error::NotFound(None);
    assert_eq!(e.message(), r#"no record "here"; */ \ {}"#);
    assert_eq!(r#async::Error::NotFound2(None).code(), "not-found");
    assert_eq!(r#async::Error::NotFound2(None).message(), "not-found");
    assert_eq!(r#async::Error::V2Many(None).code(), "2_MANY");
    assert!(r#async::Error::V2Many(None).retryable());
    let values: Vec<&str> = [
        TypeSelf::X,
        TypeSelf::X2,
        TypeSelf::X3,
        TypeSelf::X4,
        TypeSelf::AB,
        TypeSelf::X5,
        TypeSelf::Self_,
        TypeSelf::Self2,
        TypeSelf::V2x,
        TypeSelf::SS,
    ]
    .iter()
    .map(|v| v.as_str())
    .collect();
    assert_eq!(
        values,
        [
            "\"", "\"#", "*/", "\\", "a\nb", "{}", "Self", "self", "2x", "ß"
        ]
    );
}

#[test]
fn keyword_and_colliding_fields_keep_their_json_names() {
    let value = json!({
        "self": "\"#",
        "Self": -5,
        "2fa_code": "123456",
    });
    let t: Type = serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.self_, TypeSelf::X2);
    assert_eq!(t.self_2, Some(-5));
    assert_eq!(t._2fa_code.as_deref(), Some("123456"));
    assert!(t.validate().is_ok());
    assert_eq!(serde_json::to_value(&t).unwrap_or(Value::Null), value);
    let t2 = Type2 { r#fn: true };
    assert_eq!(
        serde_json::to_value(t2).unwrap_or(Value::Null),
        json!({"fn": true})
    );
    // `type "3d-Pünkt"`: a leading digit takes a prefix, non-ASCII letters leave the name.
    let p: V3dPNkt = serde_json::from_value(json!({"x": 3})).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.x, 3);
    assert!(
        V3dPNkt { x: 10 }
            .validate()
            .is_err_and(|v| v.0.iter().any(|v| v.path == "/x"))
    );
}

fn violations(args: Value) -> Vec<String> {
    struct Nothing;
    impl hostile::Match for Nothing {
        type Context = ();
        async fn r#async(
            &self,
            _: &(),
            _: &r#async::Call,
            _: r#async::Input,
        ) -> Result<r#async::Output, r#async::Error> {
            Err(r#async::Error::NotFound(None))
        }
        async fn mut_record(
            &self,
            _: &(),
            _: &mut_record::Call,
            input: mut_record::Input,
        ) -> Result<mut_record::Output, mut_record::Error> {
            // Defaults were applied before the handler runs.
            assert_eq!(input.mode, mut_record::Mode::Replace);
            assert_eq!((input.count, input.note.as_str()), (1, ""));
            Ok(mut_record::Output {})
        }
    }
    let r = block_on(<hostile::Catalog as Catalog<Nothing>>::call(
        &Nothing,
        &(),
        &Call::default(),
        "async",
        args,
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let list = r.structured_content.unwrap_or(Value::Null)["violations"].clone();
    let list = list.as_array().cloned().unwrap_or_default();
    let out = list
        .iter()
        .map(|v| {
            format!(
                "{} {}",
                v["path"].as_str().unwrap_or(""),
                v["reason"].as_str().unwrap_or("")
            )
        })
        .collect();
    let ok = block_on(<hostile::Catalog as Catalog<Nothing>>::call(
        &Nothing,
        &(),
        &Call::default(),
        "mut_record",
        json!({"key": "k"}),
    ));
    assert!(ok.is_ok_and(|r| !r.is_error));
    out
}

#[test]
fn bounds_of_every_kind_are_enforced() {
    let v = violations(json!({
        "type": "",
        "TYPE": 1.5,
        "über": ["a", "a", "d", "b"],
        "loop": {"in": 4, "where": {"self": "Self", "Self": 6, "2fa_code": "12345x"}},
    }));
    assert_eq!(
        v,
        [
            "/type shorter than 1 characters",
            "/TYPE must be less than 1.5",
            "/über more than 3 items",
            "/über items are not unique",
            "/über/2 must be one of \"a\", \"b\", \"c\"",
            "/loop/in not a multiple of 3",
            "/loop/where/Self greater than the maximum 5",
            "/loop/where/2fa_code does not match the pattern \"^\\\\d{6}$\"",
        ]
    );
    let v = violations(json!({"type": "k", "TYPE": 0.3}));
    assert_eq!(v, ["/TYPE not a multiple of 0.25"]);
    assert!(violations(json!({"type": "k", "TYPE": 0.25, "über": ["c"]})).is_empty());
}

#[test]
fn sensitive_output_is_redacted_in_debug() {
    let out = r#async::Output {
        record: Type {
            self_: TypeSelf::AB,
            self_2: None,
            _2fa_code: None,
        },
        other: None,
        _1st: "123e4567-e89b-12d3-a456-426614174000".into(),
    };
    let shown = format!("{out:?}");
    assert!(!shown.contains("123e4567"), "{shown}");
    assert!(out.validate().is_ok());
}

/// A typed detail keeps its JSON names (a keyword field, an enum shared with the input) and
/// is checked before it is sent: one out of its bounds is the internal error.
#[test]
fn a_typed_detail_is_sent_by_its_json_names_and_checked() {
    let stale = |ratio: f64| {
        mut_record::Error::Stale(mut_record::StaleDetail {
            r#type: "note".into(),
            mode: Some(mut_record::Mode::Append),
            ratio: Some(ratio),
        })
    };
    let r = catalogc::runtime::call::tool_error(&stale(0.5));
    assert_eq!(r.error_code(), Some("STALE"));
    let sent: Value = serde_json::from_str(r.text()).unwrap_or_default();
    assert_eq!(
        sent["detail"],
        json!({"type": "note", "mode": "append", "ratio": 0.5})
    );
    let r = catalogc::runtime::call::tool_error(&stale(2.0));
    assert_eq!(r.error_code(), Some("INTERNAL_ERROR"));
    assert!(!r.text().contains("note"), "{}", r.text());
    let failure = r.failure.as_deref().map(String::as_str).unwrap_or_default();
    assert!(failure.contains("/ratio"), "{failure}");
}
