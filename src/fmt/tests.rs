use super::*;

/// Formats `src`, checking what `fmt` checks before writing.
fn fmt(src: &str) -> String {
    match format(src) {
        Ok(out) => {
            if let Err(e) = verify(src, &out) {
                panic!("{e}\n--- in:\n{src}\n--- out:\n{out}");
            }
            out
        }
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn the_canonical_layout_is_left_as_it_is() {
    let src = "// Orders.\ncatalog \"c\" version=\"1.0.0\" {\n    summary \"Orders.\"\n}\n\ntool \"order_get\" version=\"1.0.0\" {\n    summary \"Get one order.\"\n    effect \"read\"\n    limits max-items=5 timeout-ms=100\n\n    input {\n        field \"id\" \"string\" required=#true max-length=8 pattern=#\"^\\d+$\"# {\n            doc \"The order.\"\n        }\n    }\n\n    examples {\n        call \"Show order 12.\"\n    }\n}\n";
    assert_eq!(fmt(src), src);
}

#[test]
fn tool_children_take_the_table_order_and_their_comments_move_with_them() {
    let src = "tool \"t\" version=\"1\" {\n  input\n  // Why it reads.\n  effect \"read\" // trailing\n  summary \"S.\"\n}\n";
    assert_eq!(
        fmt(src),
        "tool \"t\" version=\"1\" {\n    summary \"S.\"\n    // Why it reads.\n    effect \"read\" // trailing\n\n    input\n}\n"
    );
}

#[test]
fn values_are_quoted_and_names_bare() {
    let src =
        "\"tool\" \"t\" \"version\"=\"1\" {\n    effect read\n    \"when-not\" #\"raw \\n\"#\n}\n";
    assert_eq!(
        fmt(src),
        "tool \"t\" version=\"1\" {\n    when-not #\"raw \\n\"#\n    effect \"read\"\n}\n"
    );
    // A name that is not a plain identifier keeps its quotes.
    assert_eq!(fmt("\"a b\" \"x\"=1\n"), "\"a b\" x=1\n");
}

#[test]
fn entries_take_a_fixed_order_per_node() {
    assert_eq!(
        fmt("idempotency ttl-s=60 \"operation\" key=\"k\" scope=\"tenant\"\n"),
        "idempotency key=\"k\" scope=\"tenant\" \"operation\" ttl-s=60\n"
    );
    assert_eq!(
        fmt("field sensitive=#true \"a\" max=3 required=#true \"integer\" min=1 x=2\n"),
        "field \"a\" \"integer\" required=#true min=1 max=3 sensitive=#true x=2\n"
    );
}

#[test]
fn semicolons_and_short_blocks_become_lines() {
    assert_eq!(
        fmt("type \"T\" { doc \"d\"; field \"a\" \"string\" { enum \"x\"; doc \"A.\" } }\n"),
        "type \"T\" {\n    doc \"d\"\n    field \"a\" \"string\" {\n        doc \"A.\"\n        enum \"x\"\n    }\n}\n"
    );
    assert_eq!(fmt("input {}\n"), "input {}\n");
}

#[test]
fn line_continuations_are_joined_unless_a_comment_needs_one() {
    assert_eq!(fmt("a 1 \\\n  2\n"), "a 1 2\n");
    assert_eq!(fmt("a 1 \\ // why\n  2\n"), "a 1 \\ // why\n    2\n");
}

#[test]
fn slashdashed_parts_stay_where_they_were() {
    assert_eq!(
        fmt("a /-\"old\" \"new\" /-{ b 1 } {\n  /-c 2\n  d 3\n}\n"),
        "a /-\"old\" \"new\" /-{\n    b 1\n} {\n    /-c 2\n    d 3\n}\n"
    );
    // A slashdashed child goes with the node after it.
    assert_eq!(
        fmt("tool \"t\" {\n  effect \"read\"\n  /-summary \"old\"\n  summary \"new\"\n}\n"),
        "tool \"t\" {\n    /-summary \"old\"\n    summary \"new\"\n    effect \"read\"\n}\n"
    );
}

#[test]
fn comments_keep_their_line() {
    let src = "a { // opens\n  /* before */ b 1; /* after */\n\n  // last\n}\n";
    assert_eq!(
        fmt(src),
        "a { // opens\n    /* before */ b 1 /* after */\n\n    // last\n}\n"
    );
}

#[test]
fn a_file_header_stays_on_top() {
    let src = "// Header.\n\n// Tools.\ntool \"t\" version=\"1\"\ncatalog \"c\" version=\"1\"\n";
    assert_eq!(
        fmt(src),
        "// Header.\n\ncatalog \"c\" version=\"1\"\n\n// Tools.\ntool \"t\" version=\"1\"\n"
    );
}

#[test]
fn a_bom_stays_and_an_empty_file_stays_empty() {
    assert_eq!(fmt("\u{feff}a  1\n"), "\u{feff}a 1\n");
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("\n\n"), "");
}

#[test]
fn a_syntax_error_is_not_formatted() {
    match format("a true\nb {\n") {
        Err(FormatError::Syntax { first, count }) => {
            assert_eq!(first.code, "syntax/v1-keyword");
            assert_eq!(count, 2);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn verify_refuses_a_change_of_meaning_or_a_lost_comment() {
    let src = "catalog \"c\" version=\"1.0.0\"\n\n// note\n";
    assert_eq!(verify(src, src), Ok(()));
    assert!(verify(src, "catalog \"c\" version=\"1.0.1\"\n\n// note\n").is_err());
    assert!(verify(src, "catalog \"c\" version=\"1.0.0\"\n").is_err());
    assert!(verify(src, "catalog \"c\" version=\"1.0.0\" {\n").is_err());
    // Not in the canonical layout: formatting it again would change it.
    assert!(verify(src, "catalog  \"c\" version=\"1.0.0\"\n\n// note\n").is_err());
}

#[test]
fn positions_do_not_count_in_the_model_comparison() {
    let span = syntax::Span::new(3, 9);
    let spanned = syntax::Spanned::new("x", span);
    assert_eq!(format!("{span:?}"), "Span { start: 3, end: 9 }");
    assert_eq!(
        syntax::without_positions(|| format!("{spanned:?}")),
        "Spanned { value: \"x\", span: Span }"
    );
    // Only inside: afterwards spans are written whole again.
    assert_eq!(
        format!("{span:#?}"),
        "Span {\n    start: 3,\n    end: 9,\n}"
    );
    // The same text at other places lowers to the same fingerprint.
    let tight = "catalog \"c\" version=\"1.0.0\" {\n    summary \"S.\"\n}\n";
    let loose = "\n\ncatalog   \"c\"  version=\"1.0.0\"   {\n summary   \"S.\"   }\n";
    let fingerprint = |src| model_fingerprint(syntax::parse(src).document);
    assert_eq!(fingerprint(tight), fingerprint(loose));
}

/// Only spans lose their offsets: a text that reads like a span is compared as written.
#[test]
fn verify_refuses_a_changed_text_that_reads_like_a_span() {
    let src = "catalog \"c\" version=\"1.0.0\" {\n    summary \"Span { start: 1, end: 2 }\"\n}\n";
    assert_eq!(verify(src, src), Ok(()));
    let changed = src.replace("start: 1", "start: 7");
    assert_eq!(
        verify(src, &changed),
        Err("the result lowers to a different model".into())
    );
}

/// Entries printed as written borrow the source text: a node of a million enum values would
/// otherwise hold a million small strings.
#[test]
fn entries_printed_as_written_borrow_the_source() {
    let src = "field \"v\" \"string\" max-length=8 pattern=\"^a$\"\nx a b=(t)1\n";
    let parsed = syntax::parse_tree(src);
    let cx = Cx::new(src, &parsed.tree);
    let nodes: Vec<usize> = cx.groups.roots().collect();
    assert_eq!(nodes.len(), 2);
    let field = cx.node(nodes[0]).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(field.entries.len(), 4);
    assert!(
        field
            .entries
            .iter()
            .all(|e| matches!(e.text, Cow::Borrowed(_))),
        "{:?}",
        field.entries
    );
    // A bare value is quoted: printed otherwise than written, so owned.
    let x = cx.node(nodes[1]).unwrap_or_else(|e| panic!("{e:?}"));
    let texts: Vec<&str> = x.entries.iter().map(|e| &*e.text).collect();
    assert_eq!(texts, ["\"a\"", "b=(t)1"]);
    assert!(matches!(x.entries[0].text, Cow::Owned(_)));
    assert!(matches!(x.entries[1].text, Cow::Borrowed(_)));
}

/// The groups directly inside each group, found by jumping over nested ones, are those whose
/// innermost enclosing group it is.
#[test]
fn kids_are_the_groups_directly_inside() {
    let src = "a 1 (t)b=2 {\n    c 3 { d; }\n    /-e { f; }\n}\ng \"h\"\n";
    let parsed = syntax::parse_tree(src);
    let nested = Nested::new(&parsed.tree);
    let groups = parsed.tree.groups();
    let inside = |o: &Group, g: &Group| o.first <= g.first && g.end <= o.end;
    // Each group's innermost enclosing group, by comparing every pair.
    let parent = |i: usize| (0..i).rev().find(|&p| inside(&groups[p], &groups[i]));
    for g in 0..groups.len() {
        let want: Vec<usize> = (0..groups.len())
            .filter(|&k| parent(k) == Some(g))
            .collect();
        assert_eq!(nested.kids(g).collect::<Vec<_>>(), want, "group {g}");
    }
    let roots: Vec<usize> = (0..groups.len()).filter(|&k| parent(k).is_none()).collect();
    assert_eq!(nested.roots().collect::<Vec<_>>(), roots);
    assert!(groups.len() > 8);
}
