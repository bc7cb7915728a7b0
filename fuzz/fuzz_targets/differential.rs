//! `cargo +nightly fuzz run differential`: where both catalogc's parser and the `kdl` crate
//! accept an input, they read the same document (names, types, values, order).
//! Accept/reject disagreements are not asserted here: `kdl` 6 has known spec bugs, which
//! tests/kdl_differential.rs classifies and keeps as fixtures.
#![no_main]

use catalogc::syntax::{self, Number, Value};
use kdl::{KdlDocument, KdlNode, KdlValue};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, PartialEq)]
enum V {
    Str(String),
    Int(i128),
    Float(u64),
    Bool(bool),
    Null,
    /// Beyond i128 / f64, or infinite: `kdl` and we represent these differently.
    Big,
}

/// One node: type, name, entries (key, type, value), children.
#[derive(Debug, PartialEq)]
struct N(
    Option<String>,
    String,
    Vec<(Option<String>, Option<String>, V)>,
    Option<Doc>,
);

type Doc = Vec<N>;

fn fl(f: f64) -> V {
    if f.is_infinite() {
        V::Big
    } else if f.is_nan() {
        V::Float(f64::NAN.to_bits())
    } else {
        V::Float(f.to_bits())
    }
}

fn ours(nodes: syntax::Nodes<'_>) -> Doc {
    nodes
        .map(|n| {
            let entries = n
                .entries()
                .map(|e| {
                    let v = match e.value.value {
                        Value::String(s) => V::Str(s.to_string()),
                        Value::Bool(b) => V::Bool(b),
                        Value::Null => V::Null,
                        Value::Number(Number::Int(i)) => V::Int(*i),
                        Value::Number(Number::Float(f)) => fl(*f),
                        Value::Number(Number::NaN) => fl(f64::NAN),
                        Value::Number(_) => V::Big,
                    };
                    (
                        e.name.map(|k| k.value.to_string()),
                        e.ty.map(|t| t.value.to_string()),
                        v,
                    )
                })
                .collect();
            N(
                n.ty.map(|t| t.value.to_string()),
                n.name.value.to_string(),
                entries,
                n.children().map(|c| ours(c.nodes())),
            )
        })
        .collect()
}

fn theirs(nodes: &[KdlNode]) -> Doc {
    nodes
        .iter()
        .map(|n| {
            let entries = n
                .entries()
                .iter()
                .map(|e| {
                    let v = match e.value() {
                        KdlValue::String(s) => V::Str(s.clone()),
                        KdlValue::Integer(i) => V::Int(*i),
                        KdlValue::Float(f) => fl(*f),
                        KdlValue::Bool(b) => V::Bool(*b),
                        KdlValue::Null => V::Null,
                    };
                    (
                        e.name().map(|k| k.value().to_owned()),
                        e.ty().map(|t| t.value().to_owned()),
                        v,
                    )
                })
                .collect();
            N(
                n.ty().map(|t| t.value().to_owned()),
                n.name().value().to_owned(),
                entries,
                n.children().map(|c| theirs(c.nodes())),
            )
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = syntax::parse(src);
    if !parsed.errors.is_empty() {
        return;
    }
    let Ok(Ok(doc)) = std::panic::catch_unwind(|| KdlDocument::parse_v2(src)) else {
        return;
    };
    let (a, b) = (ours(parsed.document.nodes()), theirs(doc.nodes()));
    if format!("{a:?}").contains("Big") {
        return;
    }
    assert_eq!(a, b, "documents differ for {src:?}");
});
