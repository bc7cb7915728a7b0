//! Printing the lossless tree gives the input back byte for byte: every suite input (valid
//! and failing), every catalog of the repository, every syntax fixture.

mod support;

use catalogc::syntax::{self, GroupKind};
use std::path::Path;

fn check(path: &Path, src: &str) {
    let parsed = syntax::parse_tree(src);
    let printed = parsed.tree.print(src);
    assert!(
        printed == src,
        "{}: the tree does not print back to the input",
        path.display()
    );
    let mut expected_start = 0;
    for t in parsed.tree.tokens() {
        assert_eq!(
            t.span.start,
            expected_start,
            "{}: tokens must be contiguous",
            path.display()
        );
        assert!(
            t.span.end > t.span.start,
            "{}: empty token {t:?}",
            path.display()
        );
        expected_start = t.span.end;
    }
    assert_eq!(
        expected_start,
        src.len(),
        "{}: tokens must cover the input",
        path.display()
    );
    // Groups nest: each lies within the token range, in pre-order.
    for g in parsed.tree.groups() {
        assert!(
            g.first <= g.end && g.end as usize <= parsed.tree.len(),
            "{}: {g:?}",
            path.display()
        );
    }
    let nodes = parsed
        .tree
        .groups()
        .iter()
        .filter(|g| g.kind == GroupKind::Node)
        .count();
    assert!(
        nodes >= count_nodes(syntax::parse(src).document.nodes()),
        "{}",
        path.display()
    );
}

fn count_nodes(nodes: syntax::Nodes<'_>) -> usize {
    nodes.map(|n| 1 + count_nodes(n.child_nodes())).sum()
}

#[test]
fn suite_inputs_round_trip() {
    let dir = support::kdl_suite_cases().join("input");
    let mut files = Vec::new();
    support::files_with_extension(&dir, "kdl", &mut files);
    assert_eq!(files.len(), 336);
    for f in files {
        let bytes = std::fs::read(&f).expect("readable");
        if let Ok(src) = String::from_utf8(bytes) {
            check(&f, &src);
        }
    }
}

#[test]
fn repository_catalogs_and_fixtures_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    support::files_with_extension(&root.join("catalogs"), "kdl", &mut files);
    support::files_with_extension(&root.join("tests"), "kdl", &mut files);
    for f in files {
        let src = std::fs::read_to_string(&f).expect("readable");
        check(&f, &src);
    }
}

#[test]
fn edge_inputs_round_trip() {
    for src in [
        "",
        "\u{feff}",
        "\u{feff}node",
        "a\r\nb\rc\u{85}d\u{2028}e",
        "a \\\n  b",
        "a \\ // c\n b",
        "/* /* */ */ a",
        "a \"unterminated",
        "a #\"raw\"#",
        "a \"\"\"\n  x\n  \"\"\"",
        "a r#\"v1\"#",
        "((((((",
        "/-/-/-",
        "}}}{{{",
        "a\u{0}b",
        "a \u{2000}b",
        "#",
        "##",
        "#\"",
        "\"\"\"",
    ] {
        check(Path::new(src), src);
    }
}

mod random {
    use super::check;
    use super::support::{self, proptest_config};
    use proptest::prelude::*;
    use std::path::Path;

    /// Characters that matter to the lexer, so random strings hit its edge cases often.
    fn kdl_char() -> impl Strategy<Value = char> {
        prop_oneof![
            8 => prop::sample::select(vec![
                ' ', '\t', '\n', '\r', '{', '}', '(', ')', ';', '=', '/', '-', '*', '\\', '"', '#', 'r', 'a', '0', '1',
                'x', 'e', '.', '+', '_', 'u', 'n', 't', '\u{a0}', '\u{85}', '\u{2028}', '\u{feff}', '\u{7f}', '\u{0}',
                'é', '😀',
            ]),
            1 => any::<char>(),
        ]
    }

    /// A property that panics fails with the panic's message as its reason, and the panic
    /// is not printed at each shrink step (the hook stays silent on this thread meanwhile).
    #[test]
    fn a_panicking_property_fails_once_with_its_cause() {
        use proptest::test_runner::{TestError, TestRunner};
        let mut runner = TestRunner::new(proptest_config(64));
        let runs = std::cell::Cell::new(0u32);
        let result = runner.run(&(0u32..1000), |n| {
            runs.set(runs.get() + 1);
            support::prop_quietly(|| assert!(n < 10, "cause: {n} is too large"))
        });
        match result {
            Err(TestError::Fail(reason, minimal)) => {
                assert!(
                    reason.to_string().contains("cause: 10 is too large"),
                    "{reason}"
                );
                assert_eq!(minimal, 10);
            }
            other => panic!("expected a shrunk failure, got {other:?}"),
        }
        assert!(runs.get() > 1, "shrinking re-ran the property");
        assert_eq!(support::quietly(|| 7), Ok(7));
    }

    proptest! {
        #![proptest_config(proptest_config(2000))]

        #[test]
        fn random_text_round_trips_without_panic(chars in prop::collection::vec(kdl_char(), 0..80)) {
            let src: String = chars.into_iter().collect();
            support::prop_quietly(|| check(Path::new("random"), &src))?;
        }

        #[test]
        fn arbitrary_strings_round_trip(src in any::<String>()) {
            support::prop_quietly(|| check(Path::new("arbitrary"), &src))?;
        }
    }
}
