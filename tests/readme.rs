//! Every command shown in README.md runs as shown: `sh` blocks are executed against a copy of
//! the example catalogs in a throwaway git repository, and `text` blocks that show the output
//! of `catalogc lint FILE` are compared with the real output.

mod support;

use std::path::PathBuf;
use std::process::Command;
use support::git;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).expect("README.md is readable")
}

/// The fenced blocks of a Markdown text with their info string.
fn blocks(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in md.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => current = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(_)) => out.extend(current.take()),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// The catalogc arguments of a README command line, or `None` for other commands.
fn catalogc_args(line: &str) -> Option<Vec<String>> {
    let command = line.split('#').next().unwrap_or("").trim();
    let rest = command
        .strip_prefix("cargo run --release -- ")
        .or_else(|| command.strip_prefix("catalogc "))?;
    Some(rest.split_whitespace().map(str::to_string).collect())
}

#[test]
fn every_readme_command_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let catalogs = dir.path().join("catalogs");
    std::fs::create_dir(&catalogs).expect("catalogs dir");
    for entry in std::fs::read_dir(root().join("catalogs")).expect("catalogs/") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("file name");
        std::fs::copy(&path, catalogs.join(name)).expect("copy");
    }
    // The catalog with mistakes the first command lints.
    let mistakes = "tests/fixtures/model/five_mistakes.kdl";
    std::fs::create_dir_all(dir.path().join("tests/fixtures/model")).expect("fixture dir");
    std::fs::copy(root().join(mistakes), dir.path().join(mistakes)).expect("fixture");
    // `catalogc import tools.json`: a published tools/list of the corpus.
    std::fs::copy(
        root().join("tests/corpus/server-time/tools.json"),
        dir.path().join("tools.json"),
    )
    .expect("tools.json");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "catalogs"]);

    let mut ran = 0;
    for (info, body) in blocks(&readme()) {
        if info != "sh" {
            continue;
        }
        for line in body.lines() {
            let Some(args) = catalogc_args(line) else {
                continue;
            };
            let out = Command::new(env!("CARGO_BIN_EXE_catalogc"))
                .args(&args)
                .current_dir(dir.path())
                .env("NO_COLOR", "1")
                .output()
                .expect("catalogc runs");
            // A command shown failing says so in its comment: `(exit 1)`.
            let expected = if line.contains("(exit 1)") { 1 } else { 0 };
            assert!(
                out.status.code() == Some(expected),
                "README command `{line}` exited {:?}\nstdout:\n{}\nstderr:\n{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!out.stdout.is_empty(), "`{line}` printed nothing");
            ran += 1;
        }
    }
    assert!(ran >= 8, "expected the README's commands, ran {ran}");
}

#[test]
fn readme_lint_output_is_real() {
    let mut checked = 0;
    for (info, body) in blocks(&readme()) {
        let Some(first) = body.lines().next() else {
            continue;
        };
        let Some((file, _)) = first.split_once(": ") else {
            continue;
        };
        if info != "text" || !root().join(file).is_file() {
            continue;
        }
        let out = Command::new(env!("CARGO_BIN_EXE_catalogc"))
            .args(["lint", file])
            .current_dir(root())
            .env("NO_COLOR", "1")
            .output()
            .expect("catalogc runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(body.trim_end()),
            "README shows output `catalogc lint {file}` no longer prints:\n{body}\nactual:\n{stdout}"
        );
        checked += 1;
    }
    assert!(checked >= 1, "no lint output excerpt found in README.md");
}
