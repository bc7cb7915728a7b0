//! The official KDL test suite, vendored in `tests/kdl-test-suite`: every valid
//! input, printed under the suite's translation rules, equals its `expected_kdl`; every
//! `_fail` input is rejected.

mod support;

use catalogc::syntax::{self, Document, Entry, Node, Number, Value, is_plain_identifier, quote};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

fn suite_dir() -> PathBuf {
    support::kdl_suite_cases()
}

fn string(s: &str) -> String {
    if is_plain_identifier(s) {
        s.to_owned()
    } else {
        quote(s)
    }
}

/// Floats are printed from their source text, normalized (`1.0e10` → `1.0E+10`): the suite
/// expects exact decimal text even beyond `f64` range (`1.23E+1000`).
fn float_text(src: &str) -> String {
    let t: String = src.chars().filter(|&c| c != '_').collect();
    let t = t.strip_prefix('+').unwrap_or(&t).to_owned();
    match t.find(['e', 'E']) {
        Some(p) => {
            let (mant, exp) = (&t[..p], &t[p + 1..]);
            let exp = if exp.starts_with(['+', '-']) {
                exp.to_owned()
            } else {
                format!("+{exp}")
            };
            format!("{mant}E{exp}")
        }
        None => t,
    }
}

fn value(src: &str, e: &Entry) -> String {
    let mut out = String::new();
    if let Some(ty) = &e.ty {
        let _ = write!(out, "({})", string(ty));
    }
    out.push_str(&match e.value.value {
        Value::String(s) => string(s),
        Value::Bool(b) => format!("#{b}"),
        Value::Null => "#null".into(),
        Value::Number(n) => match n {
            Number::Int(i) => i.to_string(),
            Number::BigInt(s) => s.clone(),
            Number::Float(_) | Number::FloatOverflow | Number::FloatUnderflow(_) => {
                float_text(&src[e.value.span.start..e.value.span.end])
            }
            Number::Inf => "#inf".into(),
            Number::NegInf => "#-inf".into(),
            Number::NaN => "#nan".into(),
        },
    });
    out
}

fn node(src: &str, n: &Node, depth: usize, out: &mut String) {
    out.push_str(&"    ".repeat(depth));
    if let Some(ty) = &n.ty {
        let _ = write!(out, "({})", string(ty));
    }
    out.push_str(&string(&n.name));
    let mut props = BTreeMap::new();
    for e in n.entries() {
        match &e.name {
            None => {
                out.push(' ');
                out.push_str(&value(src, &e));
            }
            Some(k) => {
                props.insert(k.value, value(src, &e));
            }
        }
    }
    for (k, v) in props {
        let _ = write!(out, " {}={v}", string(k));
    }
    if let Some(c) = n.children().filter(|c| !c.nodes().is_empty()) {
        out.push_str(" {\n");
        for child in c.nodes() {
            node(src, &child, depth + 1, out);
        }
        out.push_str(&"    ".repeat(depth));
        out.push('}');
    }
    out.push('\n');
}

fn print(src: &str, doc: &Document) -> String {
    let mut out = String::new();
    for n in doc.nodes() {
        node(src, &n, 0, &mut out);
    }
    if out.is_empty() {
        out.push('\n');
    }
    out
}

#[test]
fn official_suite() {
    let dir = suite_dir();
    let mut names: Vec<_> = std::fs::read_dir(dir.join("input"))
        .expect("suite input folder readable")
        .map(|e| {
            e.expect("suite entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 336, "the suite should have 336 cases");
    let mut failures = Vec::new();
    let mut passed = 0;
    for name in &names {
        let bytes = std::fs::read(dir.join("input").join(name)).expect("suite input readable");
        let should_fail = name.ends_with("_fail.kdl");
        let Ok(src) = String::from_utf8(bytes) else {
            // Not UTF-8 cannot be KDL.
            if should_fail {
                passed += 1;
            } else {
                failures.push(format!("{name}: input is not UTF-8"));
            }
            continue;
        };
        let parsed = syntax::parse(&src);
        if should_fail {
            if parsed.errors.is_empty() {
                failures.push(format!("{name}: accepted, but must be rejected"));
            } else {
                passed += 1;
            }
            continue;
        }
        if !parsed.errors.is_empty() {
            failures.push(format!("{name}: rejected: {:?}", parsed.errors));
            continue;
        }
        let expected = std::fs::read_to_string(dir.join("expected_kdl").join(name))
            .expect("expected_kdl present");
        let got = print(&src, &parsed.document);
        if got != expected {
            failures.push(format!("{name}: printed\n{got}\nexpected\n{expected}"));
        } else {
            passed += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{passed}/{} suite cases pass; failures:\n{}",
        names.len(),
        failures.join("\n")
    );
}
