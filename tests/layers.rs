//! The layer rules of ARCHITECTURE.md: a module of the library imports only from its own
//! layer and the layers below it. Read from the sources: every `crate::NAME` path outside
//! comments and test code, `use crate::{A, B::…}` groups included.

use std::collections::BTreeSet;
use std::path::Path;

mod support;

/// The layers, lowest first, each with its top-level modules (as ARCHITECTURE.md lists them).
const LAYERS: &[&[&str]] = &[
    &["runtime", "scan"],
    &["names", "fsutil", "git"],
    &["syntax"],
    &["diag"],
    &["model"],
    &["project"],
    &["contract"],
    &[
        "lint", "compat", "lock", "codegen", "docs", "fmt", "import", "eval",
    ],
    &["config"],
    &["build", "drift", "rmcp", "mock", "lsp", "cli", "testing"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level modules `text` names through `crate::`, outside comments and test code.
fn imports(text: &str) -> BTreeSet<String> {
    // Test modules close their files; their imports are test support, not layering.
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a::b, c, d::{e, f}}`: the names that start a path at depth one.
            let mut depth = 1;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => start = true,
                    c if c.is_whitespace() => {}
                    _ if start && depth == 1 => {
                        found.insert(ident(&group[i..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found.retain(|m| !m.is_empty() && m != "self");
    found
}

#[test]
fn no_module_imports_from_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    support::files_with_extension(&src, "rs", &mut files);
    files.sort();
    assert!(files.len() > 100, "the sources were found");
    let mut slips = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap_or(path);
        let Some(first) = rel.components().next() else {
            continue;
        };
        let first = first.as_os_str().to_string_lossy();
        let module = first.trim_end_matches(".rs");
        if matches!(module, "lib" | "main") {
            continue;
        }
        // Unit-test files and the linter's test kit are test code.
        let name = rel.to_string_lossy();
        if name.ends_with("tests.rs") || name.contains("testkit") {
            continue;
        }
        let Some(layer) = layer_of(module) else {
            slips.push(format!("{name}: module `{module}` is in no layer"));
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for used in imports(&text) {
            match layer_of(&used) {
                Some(l) if l > layer => slips.push(format!(
                    "{name}: `{module}` imports `{used}` from a higher layer"
                )),
                // Crate-root items (`FastMap`, macros) are in every layer's reach.
                _ => {}
            }
        }
    }
    assert!(slips.is_empty(), "layer slips:\n{}", slips.join("\n"));
}

/// Each lint category stands alone: helpers that several share are in `lint/shared.rs`.
#[test]
fn no_lint_category_imports_another() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lint/rules");
    let mut files = Vec::new();
    support::files_with_extension(&rules, "rs", &mut files);
    let mut slips = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&rules).unwrap_or(path);
        let Some(category) = rel
            .parent()
            .and_then(|p| p.to_str())
            .filter(|c| !c.is_empty())
        else {
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for (at, _) in text.match_indices("lint::rules::") {
            let rest = &text[at + "lint::rules::".len()..];
            let other: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if other != category {
                slips.push(format!("{}: uses the `{other}` category", rel.display()));
            }
        }
        if text.contains("super::super::") {
            slips.push(format!(
                "{}: reaches into a sibling category",
                rel.display()
            ));
        }
    }
    assert!(slips.is_empty(), "{}", slips.join("\n"));
}

#[test]
fn grouped_and_inline_imports_are_read() {
    let text = "use crate::{diag::{Level, Span}, model};\nfn f() { crate::lint::run(); }\n\
        // crate::cli in a comment\n#[cfg(test)]\nmod tests { use crate::testing; }\n";
    let found: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(found, ["diag", "lint", "model"]);
}
