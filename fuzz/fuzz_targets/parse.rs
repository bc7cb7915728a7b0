//! `cargo +nightly fuzz run parse`: the parser never panics, never hangs (libFuzzer's
//! `-timeout`), prints its tree back to the input byte for byte, and keeps every span inside
//! the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = catalogc::syntax::parse(src);
    let tree = catalogc::syntax::parse_tree(src);
    assert_eq!(tree.tree.print(src), src, "lossless round trip");
    assert_eq!(parsed.errors, tree.errors, "both modes report the same errors");
    for e in &parsed.errors {
        assert!(
            e.span.start <= e.span.end && e.span.end <= src.len(),
            "{e:?}"
        );
        assert!(e.code.starts_with("syntax/"));
    }
    fn check(nodes: catalogc::syntax::Nodes<'_>, len: usize) {
        for n in nodes {
            assert!(n.span.start <= n.span.end && n.span.end <= len);
            assert!(n.name.span.end <= len);
            for e in n.entries() {
                assert!(
                    e.span.start <= e.value.span.start
                        && e.value.span.end <= e.span.end
                        && e.span.end <= len
                );
            }
            if let Some(c) = n.children() {
                assert!(c.span.end <= len);
                check(c.nodes(), len);
            }
        }
    }
    check(parsed.document.nodes(), src.len());
});
