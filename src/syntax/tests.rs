//! Diagnostics of the parser: codes, spans, messages and the help for KDL v1 habits.

use super::*;

fn errors(src: &str) -> Vec<SyntaxError> {
    let p = parse(src);
    let t = parse_tree(src);
    assert_eq!(t.tree.print(src), src, "lossless");
    assert_eq!(p.errors, t.errors, "both modes report the same errors");
    p.errors
}

/// Top-level node `i` (a missing node fails the test).
fn node(p: &Parsed, i: usize) -> Node<'_> {
    p.document
        .nodes()
        .get(i)
        .unwrap_or_else(|| panic!("no node {i}"))
}

/// Entry `j` of top-level node `i`.
fn entry(p: &Parsed, i: usize, j: usize) -> Entry<'_> {
    node(p, i)
        .entries()
        .get(j)
        .unwrap_or_else(|| panic!("no entry {j} on node {i}"))
}

fn one(src: &str) -> SyntaxError {
    let e = errors(src);
    assert_eq!(e.len(), 1, "expected one error for {src:?}, got {e:#?}");
    e.into_iter().next().unwrap_or_else(|| unreachable!())
}

#[test]
fn v1_keywords_get_the_v2_spelling() {
    for (word, fix) in [
        ("true", "#true"),
        ("false", "#false"),
        ("null", "#null"),
        ("nan", "#nan"),
    ] {
        let src = format!("node {word}\n");
        let e = one(&src);
        assert_eq!(e.code, "syntax/v1-keyword");
        assert_eq!(e.span, Span::new(5, 5 + word.len()));
        let help = e.help.unwrap_or_default();
        assert!(help.contains(&format!("`{fix}`")), "{help}");
    }
    // The value is still read, so lowering sees what was meant.
    let p = parse("node enabled=true");
    assert_eq!(entry(&p, 0, 0).value.value, Value::Bool(true));
}

#[test]
fn v1_raw_string_gets_hash_fences() {
    let e = one(r#"node r"C:\path""#);
    assert_eq!(e.code, "syntax/v1-raw-string");
    assert_eq!(e.span.start, 5);
    assert!(e.help.unwrap_or_default().contains(r##"#"..."#"##));
    let e = one(r###"node r#"a"b"#"###);
    assert_eq!(e.code, "syntax/v1-raw-string");
    let p = parse(r#"node r"C:\path""#);
    assert_eq!(entry(&p, 0, 0).value.value, Value::String(r"C:\path"));
}

#[test]
fn newline_in_quoted_string_suggests_multiline() {
    let e = one("node \"first\nsecond\"\nnext 1\n");
    assert_eq!(e.code, "syntax/newline-in-string");
    assert_eq!(e.span, Span::new(11, 12));
    assert!(e.help.unwrap_or_default().contains(r#"""""#));
}

#[test]
fn recovery_reports_every_error_and_keeps_the_rest() {
    let src = "a 1 = 2\nb true\nc \"ok\"\nd (x\ne { f 0x; g 1 }\nh 3\n";
    let p = parse(src);
    let codes: Vec<_> = p.errors.iter().map(|e| e.code).collect();
    assert_eq!(
        codes,
        [
            "syntax/invalid-property",
            "syntax/v1-keyword",
            "syntax/unclosed-type",
            "syntax/invalid-number"
        ]
    );
    let names: Vec<_> = p.document.nodes().map(|n| n.name.value).collect();
    // `d` keeps its name; the broken entry is dropped.
    assert_eq!(names, ["a", "b", "c", "d", "e", "h"]);
    assert!(node(&p, 3).entries().is_empty());
    let kids: Vec<_> = node(&p, 4).child_nodes().map(|n| n.name.value).collect();
    assert_eq!(kids, ["f", "g"]);
}

#[test]
fn unclosed_block_points_at_the_brace() {
    let e = one("tool \"x\" {\n  title \"t\"\n");
    assert_eq!(e.code, "syntax/unclosed-block");
    assert_eq!(e.span, Span::new(9, 10));
}

#[test]
fn deep_nesting_is_capped() {
    let src = "a {".repeat(MAX_DEPTH + 10) + &"}".repeat(MAX_DEPTH + 10);
    let e = one(&src);
    assert_eq!(e.code, "syntax/too-deep");
    let src = "a {".repeat(100_000);
    let errs = errors(&src);
    assert!(errs.iter().any(|e| e.code == "syntax/too-deep"));
    assert!(errs.iter().any(|e| e.code == "syntax/unclosed-block"));
}

#[test]
fn spans_follow_the_doc_comments() {
    let src = "(t)node key=(u8)10 \"s\" { child; }\n";
    let p = parse(src);
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    let n = node(&p, 0);
    assert_eq!(
        &src[n.span.start..n.span.end],
        "(t)node key=(u8)10 \"s\" { child; }"
    );
    assert_eq!(&src[n.name.span.start..n.name.span.end], "node");
    let e = entry(&p, 0, 0);
    assert_eq!(&src[e.span.start..e.span.end], "key=(u8)10");
    assert_eq!(e.ty.map(|t| t.value), Some("u8"));
    assert_eq!(&src[e.value.span.start..e.value.span.end], "10");
    let c = n.children().map(|c| c.span).unwrap_or_default();
    assert_eq!(&src[c.start..c.end], "{ child; }");
}

#[test]
fn every_error_has_help() {
    let bad = [
        "a [1]",
        "a /",
        "a #yes",
        "a 1.2.3",
        "a .5",
        "a \"\\q\"",
        "a \"\"\"x\"\"\"",
        "a {",
        "}",
        "a \\ b",
        "a b=",
        "(t)",
        "a \"\\u{d800}\"",
        "a \"unclosed",
        "a /* open",
        "a\u{7}",
        "a \u{feff}",
    ];
    for src in bad {
        let errs = errors(src);
        assert!(!errs.is_empty(), "{src:?} must be rejected");
        for e in errs {
            assert!(e.code.starts_with("syntax/"), "{e:?}");
            assert!(
                e.help.as_deref().is_some_and(|h| !h.is_empty()),
                "{src:?}: {e:?}"
            );
            assert!(
                e.span.start <= e.span.end && e.span.end <= src.len(),
                "{src:?}: {e:?}"
            );
        }
    }
}

#[test]
fn leading_dot_number_suggests_zero() {
    let e = one("a .5");
    assert_eq!(e.code, "syntax/invalid-number");
    assert!(e.help.unwrap_or_default().contains("`0.5`"));
}

#[test]
fn huge_hex_is_bounded() {
    let src = format!("a 0x{}", "f".repeat(5000));
    let e = one(&src);
    assert_eq!(e.code, "syntax/number-too-large");
}

/// Pathological inputs: each must give a bounded number of precise errors (the parser is
/// linear; these are regression inputs, not timed tests).
mod pathological {
    use super::*;

    fn codes(src: &str) -> Vec<&'static str> {
        errors(src).into_iter().map(|e| e.code).collect()
    }

    #[test]
    fn deep_unclosed_braces() {
        let src = "a {".repeat(200_000);
        let c = codes(&src);
        assert_eq!(c.iter().filter(|c| **c == "syntax/too-deep").count(), 1);
        assert!(c.len() <= MAX_DEPTH + 2, "{}", c.len());
    }

    #[test]
    fn deep_unclosed_parens() {
        let src = format!("a {}", "(".repeat(200_000));
        assert_eq!(codes(&src), ["syntax/expected-type-name"]);
        let src = "(".repeat(200_000);
        assert_eq!(codes(&src), ["syntax/expected-type-name"]);
    }

    #[test]
    fn long_slashdash_runs() {
        let src = format!("{}node\nkept 1\n", "/-".repeat(100_000));
        let p = parse(&src);
        assert_eq!(p.errors.len(), 1, "{:?}", p.errors.first());
        assert_eq!(p.errors[0].code, "syntax/dangling-slashdash");
        assert_eq!(p.errors[0].span, Span::new(0, 2));
        let names: Vec<_> = p.document.nodes().map(|n| n.name.value).collect();
        assert_eq!(names, ["kept"]);
        let src = format!("a {}b", "/- ".repeat(100_000));
        assert_eq!(codes(&src), ["syntax/dangling-slashdash"]);
    }

    #[test]
    fn huge_numbers() {
        let digits = "9".repeat(1_000_000);
        let p = parse(&format!("a {digits} -{digits} 1.{digits}e5 1e{digits}"));
        assert!(p.errors.is_empty(), "{:?}", p.errors.first());
        let values: Vec<_> = node(&p, 0).entries().map(|e| e.value.value).collect();
        assert_eq!(values[0], Value::Number(&Number::BigInt(digits.clone())));
        assert_eq!(
            values[1],
            Value::Number(&Number::BigInt(format!("-{digits}")))
        );
        assert_eq!(values[3], Value::Number(&Number::FloatOverflow));
        assert_eq!(
            codes(&format!("a 0b{}", "1".repeat(1_000_000))),
            ["syntax/number-too-large"]
        );
        // Under the cap, a long hex number is converted exactly.
        let p = parse(&format!("a 0x1{}", "0".repeat(32)));
        assert_eq!(
            entry(&p, 0, 0).value.value,
            Value::Number(&Number::BigInt(
                "340282366920938463463374607431768211456".into()
            ))
        );
    }

    #[test]
    fn very_long_strings() {
        let body = "x\\n\\u{e9}".repeat(200_000);
        let p = parse(&format!("a \"{body}\""));
        assert!(p.errors.is_empty());
        match entry(&p, 0, 0).value.value {
            Value::String(s) => assert_eq!(s.chars().count(), 600_000),
            other => panic!("{other:?}"),
        }
        let c = codes(&format!("a \"{}", "y".repeat(1_000_000)));
        assert_eq!(c, ["syntax/unclosed-string"]);
        let c = codes(&format!("a /*{}", "/*".repeat(100_000)));
        assert_eq!(c, ["syntax/unclosed-comment"]);
    }

    #[test]
    fn error_floods_are_capped() {
        let src = "a true\n".repeat(50_000);
        let e = errors(&src);
        assert_eq!(e.len(), lexer::MAX_ERRORS + 1);
        assert_eq!(e[e.len() - 1].code, "syntax/too-many-errors");
        assert!(e[e.len() - 1].message.starts_with("49000 more"));
    }
}

#[test]
fn multiline_indent_error_points_at_the_line() {
    let src = "a \"\"\"\n    ok\n  bad\n    \"\"\"\n";
    let e = one(src);
    assert_eq!(e.code, "syntax/multiline-string-indent");
    assert_eq!(&src[e.span.start..e.span.end], "  bad");
}

/// Error snapshots for fixture files: code, the text at the span, message and help.
#[test]
fn error_fixture_snapshots() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/syntax/errors");
    for name in ["v1_habits", "structure"] {
        let path = format!("{dir}/{name}.kdl");
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let report: Vec<String> = errors(&src)
            .iter()
            .map(|e| {
                let line = src[..e.span.start].matches('\n').count() + 1;
                format!(
                    "{} at line {line} `{}`\n  {}\n  help: {}",
                    e.code,
                    &src[e.span.start..e.span.end],
                    e.message,
                    e.help.as_deref().unwrap_or("")
                )
            })
            .collect();
        insta::assert_snapshot!(name, report.join("\n"));
    }
}

#[test]
fn unclosed_multiline_string_is_one_error() {
    let e = one("a \"\"\"\n  text\n  more");
    assert_eq!(e.code, "syntax/unclosed-string");
    assert_eq!(e.span, Span::new(2, 5));
}

/// The typed view stays a small multiple of the input (the benchmark measures the whole
/// parse; this pins the part that grows with the view's layout).
#[test]
fn typed_view_is_compact() {
    let src = crate::testing::synthetic_catalog("t", 50);
    let p = parse(&src);
    assert!(p.errors.is_empty());
    let ratio = p.document.heap_size() as f64 / src.len() as f64;
    assert!(ratio < 3.0, "typed view is {ratio:.2}× the input");
}

#[test]
fn parse_tree_has_the_same_tree_and_errors() {
    for src in [
        "a 1 { b \"x\" }\n(t)c k=#true",
        "a true { b r\"x\" }\n}",
        &crate::testing::synthetic_catalog("t", 7),
    ] {
        let full = parse(src);
        let tree = parse_tree(src);
        assert_eq!(full.errors, tree.errors);
        assert_eq!(tree.tree.print(src), src);
        assert!(!full.document.nodes().is_empty());
    }
}

#[test]
fn quote_reads_back_as_the_same_string() {
    for s in [
        "",
        "plain",
        "with \"quotes\" and \\backslash",
        "line\nbreak\r\ttab",
        "\u{8}\u{c}\u{0}\u{7f}\u{1b}",
        "unicode é 😀 \u{2028}\u{2029}\u{85}\u{200e}\u{feff}",
        "#true",
        "/-",
    ] {
        let src = format!("node {}", quote(s));
        let parsed = parse(&src);
        assert!(parsed.errors.is_empty(), "{src:?}: {:?}", parsed.errors);
        let node = parsed.document.nodes().first().expect("one node");
        let entry = node.entries().next().expect("one entry");
        assert_eq!(entry.value.value, Value::String(s), "{src:?}");
    }
}

/// One parse that keeps the view, the tokens and the groups gives what the two parses give
/// apart, errors included.
#[test]
fn one_parse_gives_the_view_and_the_tree_of_two() {
    let texts = [
        "catalog \"c\" version=\"1.0.0\" {\n    summary \"S.\"\n}\n",
        "a 1 (t)b=2 {\n    c 3 { d; }\n    /-e { f; }\n}\n/-g \"h\"\ni /-j k=#true // end\n",
        "type \"T\" {\n    field \"x\" \"string\" /-max-length=3 { doc \"D.\"; }\n}\n",
        "a \"unclosed\nb { c\n",
        "a true r\"x\" {\n}}\n",
    ];
    let keep = Keep {
        document: true,
        tokens: true,
        groups: true,
    };
    for src in texts {
        let (document, tree, errors) = parse_with(src, keep);
        let view = parse(src);
        let lossless = parse_tree(src);
        assert_eq!(
            format!("{document:?}"),
            format!("{:?}", view.document),
            "{src}"
        );
        assert_eq!(tree, lossless.tree, "{src}");
        assert_eq!(errors, view.errors, "{src}");
        let (_, tokens, _) = parse_with(
            src,
            Keep {
                groups: false,
                ..keep
            },
        );
        assert_eq!(tokens.kinds, lossless.tree.kinds, "{src}");
        assert_eq!(tokens.ends, lossless.tree.ends, "{src}");
        assert!(tokens.groups.is_empty(), "{src}");
    }
}
