//! `catalogc fmt`: on every catalog and fixture of the repository, and on generated catalogs
//! full of comments and slashdashes, formatting keeps the model, the diagnostics and every
//! comment, and formatting twice is formatting once. The command itself: what it writes,
//! what `--check` reports, and what it refuses.

mod support;

use catalogc::fmt::{FormatError, format, verify};
use catalogc::syntax::{self, GroupKind, TokenKind};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn kdl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            kdl_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "kdl") {
            out.push(p);
        }
    }
}

/// Formats `src` and checks everything `fmt` promises about the result.
fn check_formats(what: &str, src: &str) -> String {
    let out = match format(src) {
        Ok(out) => out,
        Err(e) => panic!("{what}: not formatted: {e:?}\n{src}"),
    };
    if let Err(e) = verify(src, &out) {
        panic!("{what}: {e}\n--- in:\n{src}\n--- out:\n{out}");
    }
    assert_eq!(
        format(&out).as_deref(),
        Ok(out.as_str()),
        "{what}: not idempotent"
    );
    let free = lines_inside_tokens(&out);
    for (n, line) in out.lines().enumerate() {
        if free.contains(&n) {
            continue;
        }
        let indent = line.len() - line.trim_start_matches(' ').len();
        assert!(indent % 4 == 0, "{what}: indentation of `{line}`");
        assert_eq!(line, line.trim_end(), "{what}: trailing blanks");
    }
    out
}

/// 0-based numbers of the lines that continue a multi-line string or block comment: their
/// text is the author's.
fn lines_inside_tokens(src: &str) -> std::collections::HashSet<usize> {
    let tree = syntax::parse_tree(src).tree;
    let mut out = std::collections::HashSet::new();
    for t in tree.tokens() {
        let multi_line = matches!(
            t.kind,
            TokenKind::MultiLineString | TokenKind::RawMultiLineString | TokenKind::BlockComment
        );
        if multi_line {
            let first = src[..t.span.start].matches('\n').count();
            let last = src[..t.span.end].matches('\n').count();
            out.extend(first + 1..=last);
        }
    }
    out
}

#[test]
fn every_catalog_and_fixture_formats_safely() {
    let mut files = Vec::new();
    kdl_files(&root().join("catalogs"), &mut files);
    kdl_files(&root().join("tests/fixtures"), &mut files);
    let (mut formatted, mut refused) = (0, 0);
    for path in &files {
        let src = std::fs::read_to_string(path).expect("readable fixture");
        if !syntax::parse(&src).errors.is_empty() {
            // A file with syntax errors is reported, never rewritten.
            assert!(
                matches!(format(&src), Err(FormatError::Syntax { .. })),
                "{}",
                path.display()
            );
            refused += 1;
            continue;
        }
        check_formats(&path.display().to_string(), &src);
        formatted += 1;
    }
    assert!(formatted > 200 && refused > 0, "{formatted} {refused}");
}

fn catalogc(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_catalogc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("catalogc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_example_catalogs_are_formatted() {
    let (code, stdout, stderr) = catalogc(&root(), &["fmt", "--check", "catalogs"]);
    assert_eq!(code, 0, "run `cargo run -- fmt catalogs`\n{stdout}{stderr}");
    assert_eq!(stdout, "ok: 2 files are in the canonical layout\n");
}

const MESSY: &str = "// The catalog.\ncatalog \"c\" version=\"1.0.0\"\ntool \"t_get\" version=\"1.0.0\" {\n  effect read // what it does\n  /* first */ summary \"Get one t.\"\n  input\n}\n";

#[test]
fn fmt_rewrites_check_reports_and_a_broken_file_is_left_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cats = dir.path().join("catalogs");
    std::fs::create_dir(&cats).expect("mkdir");
    let messy = cats.join("c.kdl");
    let broken = cats.join("zz_broken.kdl");
    std::fs::write(&messy, MESSY).expect("write");

    // --check: exit 1, the file named with a diff summary, nothing written.
    let (code, stdout, _) = catalogc(dir.path(), &["fmt", "--check"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("catalogs/c.kdl: would reformat lines 3-"),
        "{stdout}"
    );
    assert!(stdout.contains("1 of 1 file is not formatted"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), MESSY);

    // fmt: the canonical layout, comments where they were, exit 0; then nothing to do.
    let (code, stdout, stderr) = catalogc(dir.path(), &["fmt"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "formatted catalogs/c.kdl\nok: 1 file is in the canonical layout (1 rewritten)\n"
    );
    let want = "// The catalog.\ncatalog \"c\" version=\"1.0.0\"\n\ntool \"t_get\" version=\"1.0.0\" {\n    /* first */ summary \"Get one t.\"\n    effect \"read\" // what it does\n\n    input\n}\n";
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), want);
    let (code, stdout, _) = catalogc(dir.path(), &["fmt", "--check", "catalogs"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "ok: 1 file is in the canonical layout\n")
    );

    // A syntax error: exit 2 with one line naming it; that file is untouched, others done.
    std::fs::write(&messy, MESSY).expect("write");
    let bad = "catalog \"z\" version=\"1.0.0\"\ntool \"x\" version=true {\n";
    std::fs::write(&broken, bad).expect("write");
    let (code, stdout, stderr) = catalogc(dir.path(), &["fmt", "catalogs"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("zz_broken.kdl:2:"), "{stderr}");
    assert!(stderr.contains("not formatted"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&broken).expect("read"), bad);
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), want);
    assert_eq!(stdout, "formatted catalogs/c.kdl\n");

    // A missing path could not run: exit 2.
    let (code, _, stderr) = catalogc(dir.path(), &["fmt", "nowhere"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("nowhere: no such file or folder"),
        "{stderr}"
    );
}

/// `fmt` grew a 7.0 MB catalog to 8.66 MB, past the 8 MiB cap, after which every command
/// refused the file: a layout past the cap is refused and the file left as it was (here with
/// a cap of 400 bytes and a catalog that grows past it).
#[test]
fn fmt_never_grows_a_file_past_the_size_cap() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("c.kdl");
    let squeezed = "catalog \"c\" version=\"1.0.0\"\ntool \"t_get\" version=\"1.0.0\" {\neffect \"read\"\nsummary \"Get one t.\"\ninput {\nfield \"a\" \"object\" {\nfield \"b\" \"object\" {\nfield \"c\" \"object\" {\nfield \"d\" \"object\" {\nfield \"e\" \"string\" max-length=8\n}\n}\n}\n}\n}\n}\n";
    std::fs::write(&path, squeezed).expect("write");
    let cap = squeezed.len() + 8;
    let cap_arg = cap.to_string();
    let (code, stdout, stderr) =
        catalogc(dir.path(), &["--max-file-bytes", &cap_arg, "fmt", "c.kdl"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("over the {cap}-byte limit")),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&path).expect("read"), squeezed);
    // With room, the same file formats.
    let (code, stdout, stderr) = catalogc(dir.path(), &["fmt", "c.kdl"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

// ---------------------------------------------------------------------------------------
// Generated catalogs full of comments and slashdashes.

/// Valid catalogs to decorate: generated ones and every catalog of the repository.
fn bases() -> Vec<String> {
    let mut out: Vec<String> = [1, 3, 7]
        .into_iter()
        .map(|n| catalogc::testing::synthetic_catalog("gen", n))
        .collect();
    let mut files = Vec::new();
    kdl_files(&root().join("catalogs"), &mut files);
    kdl_files(&root().join("tests/fixtures/lint/effect"), &mut files);
    out.extend(
        files
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("readable")),
    );
    out
}

/// Where a comment, or a slashdashed part, may go in `src` without changing what it says:
/// (byte offset, what may be inserted there).
fn insertion_points(src: &str) -> Vec<(usize, &'static [&'static str])> {
    const SPACE: &[&str] = &["/* c */ ", "/* a\n   longer one */ ", "/**/ "];
    const EOL: &[&str] = &[" // note", "// line", " /* tail */"];
    const NODE: &[&str] = &["/-dead 1; ", "/-old \"x\" {\n    kid\n}\n", "/- gone; "];
    const ENTRY: &[&str] = &[" /-\"gone\"", " /-key=1", " /* in */"];
    let tree = syntax::parse_tree(src).tree;
    let tokens: Vec<_> = tree.tokens().collect();
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| tokens[p].kind);
        if matches!(prev, Some(TokenKind::Whitespace | TokenKind::Newline)) || i == 0 {
            out.push((t.span.start, SPACE));
        }
        if t.kind == TokenKind::Newline && prev != Some(TokenKind::LineComment) {
            out.push((t.span.start, EOL));
        }
    }
    for g in tree.groups() {
        let span = tree.group_span(g);
        match g.kind {
            GroupKind::Node => out.push((span.start, NODE)),
            GroupKind::Entry => out.push((span.end, ENTRY)),
            _ => {}
        }
    }
    out.sort_by_key(|p| p.0);
    out
}

fn decorate(src: &str, picks: &[(usize, usize)]) -> String {
    let points = insertion_points(src);
    if points.is_empty() {
        return src.to_string();
    }
    let mut chosen: Vec<(usize, &str)> = picks
        .iter()
        .map(|&(p, k)| {
            let (at, options) = points[p % points.len()];
            (at, options[k % options.len()])
        })
        .collect();
    chosen.sort_by_key(|c| std::cmp::Reverse(c.0));
    chosen.dedup_by_key(|c| c.0);
    let mut out = src.to_string();
    for (at, text) in chosen {
        out.insert_str(at, text);
    }
    out
}

proptest! {
    #![proptest_config(support::proptest_config(64))]

    #[test]
    fn formatting_keeps_meaning_and_comments_and_is_idempotent(
        base in 0usize..64,
        picks in proptest::collection::vec((0usize..100_000, 0usize..3), 0..40),
    ) {
        let bases = bases();
        let src = decorate(&bases[base % bases.len()], &picks);
        // A few insertions are not valid KDL where they land (an entry after a block):
        // those inputs are not formatted, which the fixture test covers.
        prop_assume!(syntax::parse(&src).errors.is_empty());
        check_formats("generated", &src);
    }
}
