//! Classifier tests on models built in Rust (the KDL fixture pairs live in tests/).

use super::*;
use crate::model::*;
use crate::testing::{catalog_with, sp, string, text, tool_with};

fn field(name: &str, kind: TyKind, required: bool) -> Field {
    Field {
        required,
        ..Field::new(name, kind)
    }
}

fn tool(name: &str, input: Vec<Field>, output: Option<Vec<Field>>) -> Tool {
    Tool {
        summary: text("Summary."),
        ..tool_with(name, Effect::Read, input, output)
    }
}

fn catalog(tools: Vec<Tool>, types: Vec<TypeDef>) -> Catalog {
    catalog_with("billing", tools, types)
}

fn kinds(old: &Catalog, new: &Catalog) -> Vec<Kind> {
    compare_tools(old, &old.tools[0], new, &new.tools[0])
        .into_iter()
        .map(|c| c.kind)
        .collect()
}

#[test]
fn required_field_added_is_major_on_input_minor_on_output() {
    let old = catalog(vec![tool("a_b", vec![], Some(vec![]))], vec![]);
    let new = catalog(
        vec![tool(
            "a_b",
            vec![field("region", string(), true)],
            Some(vec![field("region", string(), true)]),
        )],
        vec![],
    );
    assert_eq!(
        kinds(&old, &new),
        [
            Kind::InputFieldRequiredAdded,
            Kind::OutputFieldRequiredAdded
        ]
    );
    assert_eq!(
        kinds(&new, &old),
        [Kind::InputFieldRemoved, Kind::OutputFieldRemoved]
    );
    let changes = compare_tools(&old, &old.tools[0], &new, &new.tools[0]);
    assert_eq!(changes[0].path, "input.region");
    // The side without the field is located at the object it is missing from.
    assert!(changes[0].old.is_some() && changes[0].new.is_some());
}

#[test]
fn moving_fields_into_a_named_type_is_not_a_change() {
    let inner = vec![field("amount", TyKind::Integer(Box::default()), true)];
    let old = catalog(
        vec![tool(
            "a_b",
            vec![field(
                "x",
                TyKind::Object(Object {
                    fields: inner.clone(),
                    span: Span::default(),
                    extra: None,
                }),
                true,
            )],
            None,
        )],
        vec![],
    );
    let named = TypeDef {
        name: sp("Money".to_string()),
        doc: None,
        fields: inner,
        span: Span::new(5, 9),
    };
    let new = catalog(
        vec![tool(
            "a_b",
            vec![field("x", TyKind::Named(sp("Money".to_string())), true)],
            None,
        )],
        vec![named],
    );
    assert_eq!(kinds(&old, &new), []);
    assert_eq!(kinds(&new, &old), []);
}

#[test]
fn named_type_changes_are_classified_where_used_per_direction() {
    let money = |max: i64| TypeDef {
        name: sp("Money".to_string()),
        doc: None,
        fields: vec![field(
            "amount",
            TyKind::Integer(Box::new(NumTy {
                max: Some(sp(Num::Int(max))),
                ..NumTy::default()
            })),
            true,
        )],
        span: Span::default(),
    };
    let uses = |max| {
        let named = || TyKind::Named(sp("Money".to_string()));
        catalog(
            vec![tool(
                "a_b",
                vec![field("price", named(), true)],
                Some(vec![field(
                    "prices",
                    TyKind::Array(Box::new(ArrayTy {
                        min_items: None,
                        max_items: None,
                        unique: false,
                        items_nullable: false,
                        items: Box::new(Ty::new(named())),
                    })),
                    true,
                )]),
            )],
            vec![money(max)],
        )
    };
    let (old, new) = (uses(100), uses(50));
    let changes = compare_tools(&old, &old.tools[0], &new, &new.tools[0]);
    let got: Vec<_> = changes.iter().map(|c| (c.kind, c.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (Kind::InputBoundTightened, "input.price.amount.max"),
            (Kind::OutputBoundTightened, "output.prices[].amount.max"),
        ]
    );
    assert_eq!(
        kinds(&new, &old),
        [Kind::InputBoundLoosened, Kind::OutputBoundLoosened]
    );
}

/// A string field type restricted to `values`.
fn string_enum(values: &[&str], extensible: bool) -> TyKind {
    TyKind::String(Box::new(StringTy {
        enum_values: Some(EnumValues {
            values: values.iter().map(|v| sp(v.to_string())).collect(),
            extensible,
            span: Span::default(),
        }),
        ..StringTy::default()
    }))
}

#[test]
fn output_enum_addition_depends_on_extensible_of_the_old_schema() {
    let with = |values: &[&str], extensible: bool| {
        let e = string_enum(values, extensible);
        catalog(
            vec![tool("a_b", vec![], Some(vec![field("s", e, true)]))],
            vec![],
        )
    };
    assert_eq!(
        kinds(&with(&["a"], false), &with(&["a", "b"], false)),
        [Kind::OutputEnumValueAdded]
    );
    assert_eq!(
        kinds(&with(&["a"], true), &with(&["a", "b"], true)),
        [Kind::OutputEnumValueAddedExtensible]
    );
    assert_eq!(
        kinds(&with(&["a", "b"], true), &with(&["a"], true)),
        [Kind::OutputEnumValueRemoved]
    );
}

/// `extensible=#true` added to an output enum was no change, and the value added next was
/// minor, while the first and last versions compared directly demand major: the declaration
/// itself is the major step, so comparing step by step is never laxer than end to end.
#[test]
fn output_enum_made_extensible_is_major_so_steps_compose() {
    let with = |values: &[&str], extensible: bool| {
        let e = string_enum(values, extensible);
        catalog(
            vec![tool(
                "a_b",
                vec![field("s", e.clone(), true)],
                Some(vec![field("s", e, true)]),
            )],
            vec![],
        )
    };
    let (start, middle, end) = (
        with(&["a"], false),
        with(&["a"], true),
        with(&["a", "b"], true),
    );
    // Input: additions are minor whatever the flag, so the flag alone is no change.
    assert_eq!(kinds(&start, &middle), [Kind::OutputEnumMadeExtensible]);
    assert_eq!(kinds(&middle, &start), [Kind::OutputEnumMadeClosed]);
    let class = |old: &Catalog, new: &Catalog| {
        compare_tools(old, &old.tools[0], new, &new.tools[0])
            .iter()
            .map(Change::class)
            .max()
    };
    let direct = class(&start, &end);
    assert_eq!(direct, Some(Class::Major));
    let stepwise = class(&start, &middle).max(class(&middle, &end));
    assert!(stepwise >= direct, "{stepwise:?} < {direct:?}");
    let changes = compare_tools(&start, &start.tools[0], &middle, &middle.tools[0]);
    assert_eq!(changes[0].path, "output.s.extensible");
}

/// On an `integer`, `min=1` and `exclusive-min=0` admit the same values (as do `max=9` and
/// `exclusive-max=10`): rewriting one as the other was a false major.
#[test]
fn integer_min_1_rewritten_as_exclusive_min_0_is_no_change() {
    let num = |integer: bool, n: NumTy| {
        let k = if integer {
            TyKind::Integer(Box::new(n))
        } else {
            TyKind::Number(Box::new(n))
        };
        catalog(
            vec![tool(
                "a_b",
                vec![field("n", k.clone(), true)],
                Some(vec![field("n", k, true)]),
            )],
            vec![],
        )
    };
    let b = |v: i64| Some(sp(Num::Int(v)));
    let inclusive = NumTy {
        min: b(1),
        max: b(9),
        ..NumTy::default()
    };
    let exclusive = NumTy {
        exclusive_min: b(0),
        exclusive_max: b(10),
        ..NumTy::default()
    };
    let half = NumTy {
        min: Some(sp(Num::Float(0.5))),
        max: Some(sp(Num::Float(9.5))),
        ..NumTy::default()
    };
    for (a, b) in [
        (&inclusive, &exclusive),
        (&exclusive, &half),
        (&inclusive, &half),
    ] {
        assert_eq!(kinds(&num(true, a.clone()), &num(true, b.clone())), []);
        assert_eq!(kinds(&num(true, b.clone()), &num(true, a.clone())), []);
    }
    // On a `number` they differ: (0, 10) admits 0.5, [1, 9] does not.
    assert_eq!(
        kinds(
            &num(false, inclusive.clone()),
            &num(false, exclusive.clone())
        ),
        [
            Kind::InputBoundLoosened,
            Kind::InputBoundLoosened,
            Kind::OutputBoundLoosened,
            Kind::OutputBoundLoosened
        ]
    );
    // `min=0` against `exclusive-min=0` on a number: the exclusive one is tighter.
    let zero = |key_exclusive: bool| NumTy {
        min: (!key_exclusive).then(|| sp(Num::Int(0))),
        exclusive_min: key_exclusive.then(|| sp(Num::Int(0))),
        ..NumTy::default()
    };
    let changes = {
        let (old, new) = (num(false, zero(false)), num(false, zero(true)));
        compare_tools(&old, &old.tools[0], &new, &new.tools[0])
    };
    assert_eq!(changes[0].kind, Kind::InputBoundTightened);
    assert_eq!(changes[0].path, "input.n.exclusive-min");
    assert!(
        changes[0].message.contains("(`min` 0 → `exclusive-min` 0)"),
        "{}",
        changes[0].message
    );
    // A real change still shows: `min=1` → `exclusive-min=1` on an integer is `min=2`.
    let two = NumTy {
        exclusive_min: b(1),
        ..NumTy::default()
    };
    let one = NumTy {
        min: b(1),
        ..NumTy::default()
    };
    assert_eq!(
        kinds(&num(true, one), &num(true, two)),
        [Kind::InputBoundTightened, Kind::OutputBoundTightened]
    );
}

/// Values shared in the same order, reordered, or after a common prefix: only values one side
/// lacks are changes, whatever their positions, and `1` and `1.0` are one number.
#[test]
fn enum_values_compare_as_sets_whatever_their_order() {
    let strings = |values: &[&str]| {
        let e = TyKind::String(Box::new(StringTy {
            enum_values: Some(EnumValues {
                values: values.iter().map(|v| sp(v.to_string())).collect(),
                extensible: false,
                span: Span::default(),
            }),
            ..StringTy::default()
        }));
        catalog(vec![tool("a_b", vec![field("s", e, true)], None)], vec![])
    };
    let paths = |old: &Catalog, new: &Catalog| -> Vec<(Kind, String)> {
        compare_tools(old, &old.tools[0], new, &new.tools[0])
            .into_iter()
            .map(|c| (c.kind, c.path))
            .collect()
    };
    let abcd = strings(&["a", "b", "c", "d"]);
    assert_eq!(paths(&abcd, &abcd), []);
    assert_eq!(paths(&abcd, &strings(&["d", "c", "b", "a"])), []);
    assert_eq!(
        paths(&abcd, &strings(&["a", "b", "d", "e"])),
        [
            (
                Kind::InputEnumValueRemoved,
                r#"input.s.enum["c"]"#.to_string()
            ),
            (
                Kind::InputEnumValueAdded,
                r#"input.s.enum["e"]"#.to_string()
            ),
        ]
    );
    assert_eq!(
        paths(&strings(&["a", "b"]), &strings(&["a", "c", "b"])),
        [(
            Kind::InputEnumValueAdded,
            r#"input.s.enum["c"]"#.to_string()
        )]
    );
    let numbers = |values: &[Num]| {
        let e = TyKind::Number(Box::new(NumTy {
            enum_values: Some(NumEnum {
                values: values.iter().map(|v| sp(*v)).collect(),
                span: Span::default(),
            }),
            ..NumTy::default()
        }));
        catalog(vec![tool("a_b", vec![field("n", e, true)], None)], vec![])
    };
    let old = numbers(&[Num::Int(0), Num::Int(1), Num::Int(2)]);
    let new = numbers(&[Num::Float(-0.0), Num::Int(2), Num::Float(1.0)]);
    assert_eq!(paths(&old, &new), []);
    assert_eq!(
        paths(&old, &numbers(&[Num::Int(0), Num::Float(1.5), Num::Int(2)])),
        [
            (Kind::InputEnumValueAdded, "input.n.enum[1.5]".to_string()),
            (Kind::InputEnumValueRemoved, "input.n.enum[1]".to_string()),
        ]
    );
}

#[test]
fn cursor_and_timestamp_are_their_expansions() {
    let c = |k: TyKind| catalog(vec![tool("a_b", vec![field("c", k, false)], None)], vec![]);
    let cursor = c(TyKind::Cursor(Box::default()));
    let bounded = c(TyKind::String(Box::new(StringTy {
        max_length: Some(sp(512)),
        ..StringTy::default()
    })));
    assert_eq!(kinds(&cursor, &bounded), []);
    assert_eq!(kinds(&cursor, &c(string())), [Kind::InputBoundLoosened]);
    let ts = c(TyKind::Timestamp);
    let dt = c(TyKind::String(Box::new(StringTy {
        format: Some(sp(Format::DateTime)),
        ..StringTy::default()
    })));
    assert_eq!(kinds(&ts, &dt), []);
    assert_eq!(kinds(&ts, &c(string())), [Kind::InputFormatRemoved]);
    assert_eq!(kinds(&ts, &c(TyKind::Boolean)), [Kind::InputTypeChanged]);
}

#[test]
fn multiple_of_compares_by_divisibility() {
    let m = |k: i64| {
        catalog(
            vec![tool(
                "a_b",
                vec![field(
                    "n",
                    TyKind::Integer(Box::new(NumTy {
                        multiple_of: Some(sp(Num::Int(k))),
                        ..NumTy::default()
                    })),
                    true,
                )],
                None,
            )],
            vec![],
        )
    };
    assert_eq!(kinds(&m(2), &m(4)), [Kind::InputBoundTightened]);
    assert_eq!(kinds(&m(4), &m(2)), [Kind::InputBoundLoosened]);
    assert_eq!(kinds(&m(2), &m(3)), [Kind::InputBoundChanged]);
}

#[test]
fn tool_level_rows() {
    let base = tool("a_b", vec![], None);
    let mut t = base.clone();
    t.effect = sp(Effect::Destructive);
    t.summary = Some(sp("Other.".to_string()));
    t.limits = Some(Box::new(Limits {
        max_items: Some(sp(10)),
        max_result_bytes: None,
        timeout_ms: None,
        span: Span::default(),
    }));
    let old = catalog(vec![base], vec![]);
    let new = catalog(vec![t], vec![]);
    assert_eq!(
        kinds(&old, &new),
        [
            Kind::ToolEffectIncreased,
            Kind::ToolLimitsTightened,
            Kind::ToolSelectionTextChanged
        ]
    );
    let sel = compare_tools(&old, &old.tools[0], &new, &new.tools[0]);
    assert!(
        sel[2]
            .kind
            .title()
            .contains("re-run the tool-choice evaluation")
    );
}

#[test]
fn example_calls_are_a_patch_and_structured_to_text_is_major() {
    let base = tool("a_b", vec![], Some(vec![]));
    let mut t = base.clone();
    t.example_calls = vec![ExampleCall {
        name: sp("one".to_string()),
        arguments: sp(serde_json::json!({})),
        result: Some(sp(ExampleResult::Json(serde_json::json!({})))),
        span: Span::default(),
    }];
    let old = catalog(vec![base.clone()], vec![]);
    let new = catalog(vec![t], vec![]);
    assert_eq!(kinds(&old, &new), [Kind::ToolExamplesChanged]);
    let mut text = base;
    text.output = None;
    text.content = Some(sp(ContentKind::Text));
    let new = catalog(vec![text], vec![]);
    let changes = compare_tools(&old, &old.tools[0], &new, &new.tools[0]);
    assert_eq!(
        changes.iter().map(|c| c.kind).collect::<Vec<_>>(),
        [Kind::ToolOutputKindChanged]
    );
    assert_eq!(changes[0].message, "result kind changed: structured → text");
}

#[test]
fn versions_and_report_verdicts() {
    let old = catalog(
        vec![tool("a_b", vec![], None), tool("c_d", vec![], None)],
        vec![],
    );
    let mut new = catalog(
        vec![
            tool("a_b", vec![field("r", string(), true)], None),
            tool("e_f", vec![], None),
        ],
        vec![],
    );
    let report = compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&new),
        |_, _| (),
    );
    let cat = &report.catalogs[0];
    let names: Vec<_> = cat
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t.status))
        .collect();
    assert_eq!(
        names,
        [
            ("a_b", Status::Changed),
            ("c_d", Status::Removed),
            ("e_f", Status::Added)
        ]
    );
    assert_eq!(cat.tools[0].verdict.required, Some(Class::Major));
    assert_eq!(cat.tools[0].verdict.suggested.as_deref(), Some("2.0.0"));
    assert!(!cat.tools[0].verdict.ok());
    assert!(!cat.verdict.ok());
    assert_eq!(report.exit_code(Policy::Semver), 1);

    new.version = sp("2.0.0".to_string());
    new.tools[0].version = sp("2.0.0".to_string());
    let report = compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&new),
        |_, _| (),
    );
    assert_eq!(report.exit_code(Policy::Semver), 0);
    assert_eq!(report.exit_code(Policy::NoMajor), 1);

    // Same catalog: nothing, exit 0 even under no-major.
    let report = compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&old),
        |_, _| (),
    );
    assert_eq!(report.changes().count(), 0);
    assert_eq!(report.exit_code(Policy::NoMajor), 0);

    // A hash difference alone needs a patch bump.
    let same = old.clone();
    let report = compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&same),
        |c, t| std::ptr::eq(c, &old) && t.name.value == "a_b",
    );
    assert_eq!(report.catalogs[0].tools[0].status, Status::Changed);
    assert_eq!(
        report.catalogs[0].tools[0].verdict.required,
        Some(Class::Patch)
    );
}

#[test]
fn fingerprints_are_stable() {
    let a = fingerprint("compat/tool-removed", "a_b", "");
    assert_eq!(a, fingerprint("compat/tool-removed", "a_b", ""));
    assert_ne!(a, fingerprint("compat/tool-removed", "a_bx", ""));
    assert_eq!(a.len(), 32);
}

/// Fields inside map values compare as object fields, at `FIELD{}.NAME`.
#[test]
fn fields_inside_map_values_compare_at_their_path() {
    let map = |fields: Vec<Field>| {
        TyKind::Map(Box::new(MapTy {
            min_entries: None,
            max_entries: None,
            values: Box::new(Ty {
                kind: TyKind::Object(Object {
                    fields,
                    span: Span::default(),
                    extra: None,
                }),
                span: Span::default(),
            }),
            values_nullable: false,
        }))
    };
    let side = |fields: Vec<Field>| vec![field("m", map(fields), false)];
    let a = || field("a", string(), false);
    let old = catalog(
        vec![tool("a_b", side(vec![a()]), Some(side(vec![a()])))],
        vec![],
    );
    let b = field("b", string(), true);
    let new = catalog(
        vec![tool(
            "a_b",
            side(vec![a(), b.clone()]),
            Some(side(vec![a(), b])),
        )],
        vec![],
    );
    let changes = compare_tools(&old, &old.tools[0], &new, &new.tools[0]);
    let got: Vec<(Kind, &str)> = changes.iter().map(|c| (c.kind, c.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (Kind::InputFieldRequiredAdded, "input.m{}.b"),
            (Kind::OutputFieldRequiredAdded, "output.m{}.b"),
        ]
    );
}
