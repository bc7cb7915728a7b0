//! RFC 8785 canonical JSON, digests, and the four tool hashes.

mod support;

use catalogc::contract::{ToolHashes, hash};
use catalogc::model::{Effect, ErrorClass, Retry, TyKind, Unit};
use catalogc::runtime::canonical::{digest, sha256_hex, to_canonical_string};
use catalogc::testing;
use catalogc::testing::Fx;
use serde_json::{Value, json};

fn canon(text: &str) -> String {
    let v: Value = serde_json::from_str(text).expect("test JSON parses");
    to_canonical_string(&v)
}

fn canon_f64(bits: u64) -> String {
    to_canonical_string(&json!(f64::from_bits(bits)))
}

/// RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical serialisation.
#[test]
fn rfc8785_appendix_b_numbers() {
    let table: [(u64, &str); 22] = [
        (0x0000000000000000, "0"),
        (0x8000000000000000, "0"),
        (0x0000000000000001, "5e-324"),
        (0x8000000000000001, "-5e-324"),
        (0x7fefffffffffffff, "1.7976931348623157e+308"),
        (0xffefffffffffffff, "-1.7976931348623157e+308"),
        (0x4340000000000000, "9007199254740992"),
        (0xc340000000000000, "-9007199254740992"),
        (0x4430000000000000, "295147905179352830000"),
        (0x44b52d02c7e14af5, "9.999999999999997e+22"),
        (0x44b52d02c7e14af6, "1e+23"),
        (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
        (0x444b1ae4d6e2ef4e, "999999999999999700000"),
        (0x444b1ae4d6e2ef4f, "999999999999999900000"),
        (0x444b1ae4d6e2ef50, "1e+21"),
        (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
        (0x3eb0c6f7a0b5ed8d, "0.000001"),
        (0x41b3de4355555553, "333333333.3333332"),
        (0x41b3de4355555554, "333333333.33333325"),
        (0x41b3de4355555555, "333333333.3333333"),
        (0x41b3de4355555556, "333333333.3333334"),
        (0x41b3de4355555557, "333333333.33333343"),
    ];
    for (bits, want) in table {
        assert_eq!(canon_f64(bits), want, "bits {bits:016x}");
    }
    assert_eq!(canon_f64(0xbecbf647612f3696), "-0.0000033333333333333333");
    assert_eq!(canon_f64(0x43143ff3c1cb0959), "1424953923781206.2");
}

/// Numbers as written in JSON text, including the RFC's §3.2.2 sample values.
#[test]
fn rfc8785_numbers_from_text() {
    let cases = [
        ("1e21", "1e+21"),
        ("1e-7", "1e-7"),
        ("-0", "0"),
        ("-0.0", "0"),
        ("5e-324", "5e-324"),
        ("1.7976931348623157e308", "1.7976931348623157e+308"),
        ("333333333.33333329", "333333333.3333333"),
        ("1E30", "1e+30"),
        ("4.50", "4.5"),
        ("2e-3", "0.002"),
        ("0.000001", "0.000001"),
        ("0.000000000000000000000000001", "1e-27"),
        ("100", "100"),
        ("1e20", "100000000000000000000"),
        ("123456789012345678901", "123456789012345680000"),
        ("-12.5", "-12.5"),
    ];
    for (text, want) in cases {
        assert_eq!(canon(text), want, "input {text}");
    }
}

/// RFC 8785 §3.2.2: the sample object and its canonical form.
#[test]
fn rfc8785_sample_object() {
    let input = r#"{
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
    }"#;
    let want = "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],\"string\":\"\u{20ac}$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
    assert_eq!(canon(input), want);
}

/// RFC 8785 §3.2.3: keys sorted by UTF-16 code units (the emoji, a surrogate pair, sorts
/// before U+FB33 although its code point is larger).
#[test]
fn rfc8785_key_order_by_utf16() {
    let input = r#"{
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\ud83d\ude00": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis"
    }"#;
    let want = "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\"\u{1f600}\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}";
    assert_eq!(canon(input), want);
}

#[test]
fn string_escapes() {
    // Every control character below U+0020: the five short escapes, the rest as \u00xx
    // with lowercase hex; U+007F, U+2028, U+2029 and non-BMP characters stay literal.
    let mut s = String::new();
    for c in 0u32..0x20 {
        s.push(char::from_u32(c).expect("valid scalar"));
    }
    s.push_str("\u{7f}\u{2028}\u{2029}\u{1d11e}/\"\\");
    let got = to_canonical_string(&json!(s));
    let want = concat!(
        "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007",
        "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f",
        "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017",
        "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f",
        "\u{7f}\u{2028}\u{2029}\u{1d11e}/\\\"\\\\\""
    );
    assert_eq!(got, want);
}

#[test]
fn nested_structures_have_no_whitespace_and_sorted_keys_at_every_depth() {
    let v = json!({"b": [1, {"z": true, "a": null}], "a": {"d": "x", "c": []}});
    assert_eq!(
        to_canonical_string(&v),
        r#"{"a":{"c":[],"d":"x"},"b":[1,{"a":null,"z":true}]}"#
    );
}

#[test]
fn digests() {
    assert_eq!(
        sha256_hex(b""),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        digest(&json!({})),
        "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
    );
    // Same value, different key order and spacing in the source: same digest.
    let a: Value = serde_json::from_str(r#"{"x": 1.0, "y": [true]}"#).expect("parses");
    let b: Value = serde_json::from_str(r#"{"y":[true],"x":1}"#).expect("parses");
    assert_eq!(digest(&a), digest(&b));
}

fn is_hash(s: &str) -> bool {
    s.len() == 71
        && s.starts_with("sha256:")
        && s[7..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn all_hashes(offset: usize) -> Vec<ToolHashes> {
    let fx = Fx::new(offset);
    let cat = fx.billing();
    cat.tools
        .iter()
        .map(|t| testing::contract(&cat, t).hashes().clone())
        .collect()
}

#[test]
fn hashes_are_well_formed_and_distinct() {
    let hs = all_hashes(0);
    for h in &hs {
        for s in [&h.input, &h.output, &h.description, &h.contract] {
            assert!(is_hash(s), "{s}");
        }
    }
    let contracts: std::collections::BTreeSet<_> = hs.iter().map(|h| &h.contract).collect();
    assert_eq!(contracts.len(), hs.len());
}

#[test]
fn hashes_ignore_spans() {
    assert_eq!(all_hashes(0), all_hashes(100_003));
    let a = Fx::new(0).billing();
    let b = Fx::new(9_999).billing();
    assert_ne!(a.tools[0].name.span, b.tools[0].name.span);
    assert_eq!(
        hash::contract_value(&a, &a.tools[1]),
        hash::contract_value(&b, &b.tools[1])
    );
}

#[test]
fn hashes_are_what_they_say() {
    let fx = Fx::new(0);
    let cat = fx.billing();
    let tool = &cat.tools[0];
    let h = testing::contract(&cat, tool).hashes().clone();
    assert_eq!(
        h.input,
        digest(&catalogc::contract::schema::input_schema(&cat, tool))
    );
    assert_eq!(
        h.output,
        digest(
            &catalogc::contract::schema::output_schema(&cat, tool)
                .expect("invoice_list has output")
        )
    );
    assert_eq!(
        h.description,
        sha256_hex(testing::contract(&cat, tool).description.as_bytes())
    );
    assert_eq!(h.contract, digest(&hash::contract_value(&cat, tool)));
    // No output: the hash of `{}`.
    let ping = cat.tool("service_ping").expect("fixture has service_ping");
    assert_eq!(
        testing::contract(&cat, ping).hashes().output.clone(),
        digest(&json!({}))
    );
}

#[test]
fn contract_value_of_the_transfer() {
    let fx = Fx::new(0);
    let cat = fx.billing();
    let tool = cat.tool("payment_transfer_submit").expect("fixture tool");
    let v = hash::contract_value(&cat, tool);
    insta::assert_snapshot!(serde_json::to_string_pretty(&v).expect("serialises"));
}

/// What changes the contract hash and what does not.
#[test]
fn contract_sensitivity() {
    let fx = Fx::new(0);
    let cat = fx.billing();
    let base = cat
        .tool("payment_transfer_submit")
        .expect("fixture tool")
        .clone();
    let h = |t: &catalogc::model::Tool| testing::contract(&cat, t).hashes().clone();
    let before = h(&base);

    // Not hashed: version label, error text, needs-input doc, examples, title, declaration
    // order of errors.
    let mut t = base.clone();
    t.version = fx.s("9.9.9");
    t.errors[0].message = fx.os("You do not have enough money.");
    t.errors[0].next_step = fx.os("Ask the user to top up.");
    t.needs_input[0].doc = None;
    t.examples.calls.push(fx.s("Send 10 EUR to savings."));
    t.errors.reverse();
    assert_eq!(h(&t).contract, before.contract);
    assert_eq!(h(&t).input, before.input);

    // Hashed: each contract part.
    let mut changes: Vec<(&str, catalogc::model::Tool)> = Vec::new();
    let mut t = base.clone();
    t.effect = fx.sp(Effect::Update);
    changes.push(("effect", t));
    let mut t = base.clone();
    t.open_world = Some(Box::new(fx.sp(true)));
    changes.push(("open-world", t));
    let mut t = base.clone();
    t.errors[2].retry = Some(fx.sp(Retry::Never));
    changes.push(("retry", t));
    let mut t = base.clone();
    t.errors[0].class = fx.sp(ErrorClass::PreconditionFailed);
    changes.push(("class", t));
    let mut t = base.clone();
    t.errors.pop();
    changes.push(("error removed", t));
    let mut t = base.clone();
    t.idempotency = None;
    changes.push(("idempotency", t));
    let mut t = base.clone();
    t.confirm = None;
    changes.push(("confirm", t));
    let mut t = base.clone();
    t.on_timeout = None;
    changes.push(("on-timeout", t));
    let mut t = base.clone();
    t.needs_input.clear();
    changes.push(("needs-input", t));
    let mut t = base.clone();
    t.name = fx.s("payment_transfer_submit_v2");
    changes.push(("name", t));
    let mut t = base.clone();
    t.limits = Some(Box::new(catalogc::model::Limits {
        max_items: None,
        max_result_bytes: Some(fx.sp(1024)),
        timeout_ms: None,
        span: fx.span(),
    }));
    changes.push(("limits", t));
    let mut t = base.clone();
    t.output = None;
    changes.push(("output", t));
    // An error's detail fields: declared, and each bound of them.
    let detail = |max: i64| {
        let mut f = catalogc::model::Field::new(
            "available_minor",
            TyKind::Integer(Box::new(catalogc::model::NumTy {
                min: Some(fx.sp(catalogc::model::Num::Int(0))),
                max: Some(fx.sp(catalogc::model::Num::Int(max))),
                ..Default::default()
            })),
        );
        f.required = true;
        Some(Box::new(catalogc::model::Object {
            fields: vec![f],
            ..Default::default()
        }))
    };
    let mut with_detail = base.clone();
    with_detail.errors[0].detail = detail(1_000);
    let detailed = h(&with_detail).contract;
    changes.push(("detail declared", with_detail.clone()));
    let mut t = with_detail.clone();
    t.errors[0].detail = detail(10);
    assert_ne!(
        h(&t).contract,
        detailed,
        "a detail bound must change the contract"
    );
    // Only the error with a detail gains the key: the others' entries are as before.
    let errors = |t: &catalogc::model::Tool| hash::contract_value(&cat, t)["errors"].clone();
    let (plain, detailed) = (errors(&base), errors(&with_detail));
    let with_key: Vec<&serde_json::Value> = detailed
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e.get("detail").is_some())
        .collect();
    assert_eq!(with_key.len(), 1);
    assert_eq!(
        with_key[0]["code"],
        base.errors[0].code.value.as_str(),
        "{detailed}"
    );
    let strip = |v: &serde_json::Value| {
        let mut v = v.clone();
        for e in v.as_array_mut().into_iter().flatten() {
            e.as_object_mut().map(|m| m.remove("detail"));
        }
        v
    };
    assert_eq!(strip(&detailed), plain);
    for (what, t) in &changes {
        assert_ne!(
            h(t).contract,
            before.contract,
            "{what} must change the contract"
        );
    }
}

#[test]
fn unit_and_bounds_change_the_input_hash_and_the_contract() {
    let fx = Fx::new(0);
    let cat = fx.billing();
    let base = cat
        .tool("payment_transfer_submit")
        .expect("fixture tool")
        .clone();
    let before = testing::contract(&cat, &base).hashes().clone();
    let mut t = base.clone();
    if let TyKind::Integer(n) = &mut t.input.fields[2].ty.kind {
        n.unit = Some(fx.sp(Unit::Count));
    } else {
        panic!("fixture: amount_minor is an integer");
    }
    let after = testing::contract(&cat, &t).hashes().clone();
    assert_ne!(after.input, before.input);
    assert_ne!(after.contract, before.contract);
    assert_eq!(after.output, before.output);
    // `sensitive` is a patch-level change: no hash moves.
    let mut t = base.clone();
    t.input.fields[0].sensitive = true;
    assert_eq!(testing::contract(&cat, &t).hashes().clone(), before);
}

#[test]
fn description_change_moves_only_the_description_hash() {
    let fx = Fx::new(0);
    let cat = fx.billing();
    let base = cat.tool("invoice_list").expect("fixture tool").clone();
    let before = testing::contract(&cat, &base).hashes().clone();
    let mut t = base.clone();
    t.when = fx.os("Use to find invoices by status.");
    let after = testing::contract(&cat, &t).hashes().clone();
    assert_ne!(after.description, before.description);
    assert_eq!(
        (&after.input, &after.output, &after.contract),
        (&before.input, &before.output, &before.contract)
    );
}

/// Stability and deprecation dates enter a tool's hashes only when it uses them: `stable`
/// written out hashes as no `stability` at all, a deprecation without `since`/`sunset` keeps
/// its description, and the lock files of every existing catalog stay valid.
#[test]
fn stability_and_sunset_enter_the_hashes_only_when_used() {
    use catalogc::model::{Sp, Stability};
    let fx = Fx::new(0);
    let cat = fx.billing();
    let base = cat.tool("invoice_list").expect("fixture tool").clone();
    let before = testing::contract(&cat, &base).hashes().clone();
    let mut stable = base.clone();
    stable.stability = Some(Box::new(Sp::new(Stability::Stable, Default::default())));
    let c = testing::contract(&cat, &stable);
    assert_eq!(c.hashes(), &before);
    assert!(!c.definition().contains("_meta"));

    let mut beta = base.clone();
    beta.stability = Some(Box::new(Sp::new(Stability::Beta, Default::default())));
    let c = testing::contract(&cat, &beta);
    let after = c.hashes().clone();
    assert_ne!(after.contract, before.contract);
    assert_ne!(after.description, before.description);
    assert_eq!(
        (&after.input, &after.output),
        (&before.input, &before.output)
    );
    assert!(
        c.definition()
            .contains(r#""_meta":{"io.catalogc/stability":"beta"}"#),
        "{}",
        c.definition()
    );
    assert!(
        c.description
            .contains("Beta: its arguments and results may still change")
    );

    let tool = cat
        .tool("report_export")
        .expect("a deprecated fixture tool");
    let before = testing::contract(&cat, tool).hashes().clone();
    let mut dated = tool.clone();
    let d = dated.deprecated.as_mut().expect("deprecated");
    d.sunset = catalogc::model::parse_date("2027-03-01").map(|d| Sp::new(d, Default::default()));
    let c = testing::contract(&cat, &dated);
    assert_ne!(c.hashes().description, before.description);
    assert_eq!(c.hashes().contract, before.contract);
    assert!(
        c.description
            .contains("It may be removed from 2027-03-01 on.")
    );
}

proptest::proptest! {
    #![proptest_config(support::proptest_config(256))]

    /// Every finite double serialises to text that reads back as the same double, with no
    /// more digits than Rust's shortest round-trip form.
    #[test]
    fn numbers_round_trip(bits in proptest::num::u64::ANY) {
        let f = f64::from_bits(bits);
        proptest::prop_assume!(f.is_finite());
        let s = to_canonical_string(&json!(f));
        let back: f64 = s.parse().expect("canonical numbers are valid floats");
        proptest::prop_assert_eq!(back, if f == 0.0 { 0.0 } else { f });
        let sig = |t: &str| t.split(['e', 'E']).next().unwrap_or("").trim_start_matches('-')
            .replace('.', "").trim_start_matches('0').trim_end_matches('0').len();
        proptest::prop_assert!(sig(&s) <= sig(&format!("{f:e}")).max(1), "{} vs {:e}", s, f);
    }
}

// ---- The example catalogs, loaded from KDL by the real pipeline. ----

fn catalog_hashes(name: &str, text: String) -> Vec<(String, ToolHashes)> {
    let loaded = testing::load_clean_source(name, text);
    let cat = loaded.project.catalogs.first().expect("one catalog");
    cat.tools
        .iter()
        .map(|t| {
            (
                t.name.value.clone(),
                testing::contract(cat, t).hashes().clone(),
            )
        })
        .collect()
}

fn example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("catalogs")
        .join(name);
    std::fs::read_to_string(path).expect("example catalog exists")
}

/// The same catalog moved around its file (a long comment and blank lines in front, CRLF
/// line ends, trailing whitespace) has the same hashes: spans never enter a hash.
#[test]
fn example_catalogs_hashes_ignore_layout() {
    for name in ["billing.kdl", "payments.kdl"] {
        let text = example(name);
        let plain = catalog_hashes(name, text.clone());
        assert!(plain.len() >= 3);
        let moved = format!(
            "// {}\n\n\n{}",
            "moved ".repeat(500),
            text.replace('\n', "  \r\n")
        );
        assert_eq!(plain, catalog_hashes(name, moved), "{name}");
    }
}

#[test]
fn example_catalogs_hashes_snapshot() {
    let mut out = String::new();
    for name in ["billing.kdl", "payments.kdl"] {
        for (tool, h) in catalog_hashes(name, example(name)) {
            out.push_str(&format!(
                "{tool}\n  input       {}\n  output      {}\n  description {}\n  contract    {}\n",
                h.input, h.output, h.description, h.contract
            ));
        }
    }
    insta::assert_snapshot!("catalog_hashes", out);
}
