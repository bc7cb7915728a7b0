//! The real binary: `catalogc import` and `catalogc lint FILE.json` (docs/import.md).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn time_server() -> PathBuf {
    root().join("tests/corpus/server-time/tools.json")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str], stdin: Option<&str>) -> Run {
    let mut cmd = Command::cargo_bin("catalogc").unwrap_or_else(|e| panic!("{e}"));
    cmd.current_dir(dir).env("NO_COLOR", "1").args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let out = cmd.output().unwrap_or_else(|e| panic!("{e}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn import_writes_a_catalog_that_exports_and_lists_its_notes_on_stderr() {
    let dir = tmp();
    let src = time_server();
    let src = src.to_string_lossy();
    let r = run(dir.path(), &["import", &src, "--out", "time.kdl"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(
        r.stderr.contains("note: get_current_time input"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .ends_with("imported 2 tools; 2 notes (not expressible or guessed)\n"),
        "{}",
        r.stderr
    );
    let text = std::fs::read_to_string(dir.path().join("time.kdl")).unwrap_or_default();
    assert!(
        text.contains("catalog \"server-time\" version=\"1.0.0\""),
        "{text}"
    );
    let fmt = run(dir.path(), &["fmt", "--check", "time.kdl"], None);
    assert_eq!(fmt.code, 0, "{}{}", fmt.stdout, fmt.stderr);
    let export = run(dir.path(), &["export", "tools-json", "time.kdl"], None);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let tools: Value = serde_json::from_str(&export.stdout).unwrap_or_default();
    assert_eq!(tools["tools"][0]["name"], "get_current_time");
}

#[test]
fn import_reads_stdin_and_refuses_what_is_not_a_tool_list() {
    let dir = tmp();
    let r = run(
        dir.path(),
        &["import", "-"],
        Some(r#"[{"name":"ping_host","description":"Ping."}]"#),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("catalog \"imported\""), "{}", r.stdout);
    assert!(r.stdout.contains("tool \"ping_host\""), "{}", r.stdout);
    let bad = run(dir.path(), &["import", "-"], Some("{\"tools\": 3}"));
    assert_eq!(bad.code, 2);
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("not an MCP tools/list result"),
        "{}",
        bad.stderr
    );
}

#[test]
fn lint_of_a_published_list_skips_the_catalog_only_rules_and_says_which() {
    let dir = tmp();
    let src = time_server();
    let src = src.to_string_lossy();
    let r = run(dir.path(), &["lint", &src, "--format", "json"], None);
    // Warnings only: a published list's unbounded strings are warnings (docs/corpus.md,
    // "Levels on a published list").
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out: Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    let skipped = out["summary"]["skipped_rules"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        skipped.contains(&Value::from("effect/destructive-confirm")),
        "{skipped:?}"
    );
    let diags = out["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(!diags.is_empty());
    let text = std::fs::read_to_string(&*src).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    for d in &diags {
        // Every finding points into the JSON file itself: the line it names holds the member
        // its pointer names (the tool's `name`, or the property's key).
        assert_eq!(d["file"].as_str(), Some(&*src), "{d}");
        let pointer = d["pointer"].as_str().unwrap_or_default();
        let last = pointer.rsplit('/').next().unwrap_or_default();
        let line = d["line"].as_u64().unwrap_or(0) as usize;
        let shown = lines.get(line.wrapping_sub(1)).copied().unwrap_or_default();
        let tool = d["tool"].as_str().unwrap_or_default();
        let wanted = if d["path"].is_string() {
            format!("\"{last}\"")
        } else {
            format!("\"{tool}\"")
        };
        assert!(pointer.starts_with("/tools/"), "{d}");
        assert!(shown.contains(&wanted), "{d} at {shown:?}");
        let rule = d["rule"].as_str().unwrap_or_default();
        assert!(!skipped.contains(&Value::from(rule)), "{rule} ran");
    }
    let human = run(dir.path(), &["lint", &src], None);
    assert!(
        human
            .stdout
            .contains("\nskipped (they check what only a catalog states): selection/missing-text"),
        "{}",
        human.stdout
    );
}

#[test]
fn lint_does_not_mix_catalogs_and_tool_lists() {
    let dir = tmp();
    std::fs::write(
        dir.path().join("a.kdl"),
        "catalog \"a\" version=\"1.0.0\"\n",
    )
    .unwrap_or_default();
    let src = time_server();
    let r = run(dir.path(), &["lint", "a.kdl", &src.to_string_lossy()], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not both"), "{}", r.stderr);
}

/// `import` wrote catalogs no command could load: a name taken from a file stem such as
/// `my tools.v2`, a `--name` like `a/b`, and a list whose catalog outgrows the file cap (a
/// 50,000-tool list gave 21 MB against 8 MiB). Each is now a valid name or a refusal.
#[test]
fn import_never_writes_a_catalog_no_command_can_load() {
    let dir = tmp();
    let list = r#"{"tools":[{"name":"ping_host","description":"Ping a host."}]}"#;
    std::fs::write(dir.path().join("my tools.v2.json"), list).unwrap_or_else(|e| panic!("{e}"));
    let r = run(
        dir.path(),
        &["import", "my tools.v2.json", "--out", "a.kdl"],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lint = run(dir.path(), &["fmt", "--check", "a.kdl"], None);
    assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);
    let text = std::fs::read_to_string(dir.path().join("a.kdl")).unwrap_or_default();
    assert!(text.contains("catalog \"my_tools_v2\""), "{text}");

    let r = run(dir.path(), &["import", "-", "--name", "a/b"], Some(list));
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("is not a plain name"), "{}", r.stderr);
    assert!(!r.stderr.contains("catalogc bug"), "{}", r.stderr);

    let many: Vec<String> = (0..40)
        .map(|i| format!(r#"{{"name":"ping_host_{i}","description":"Ping a host."}}"#))
        .collect();
    let many = format!(r#"{{"tools":[{}]}}"#, many.join(","));
    let r = run(
        dir.path(),
        &[
            "--max-file-bytes",
            "4096",
            "import",
            "-",
            "--out",
            "big.kdl",
        ],
        Some(&many),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("over the 4096-byte limit"),
        "{}",
        r.stderr
    );
    assert!(!dir.path().join("big.kdl").exists());
}

/// A `tools.json` saved with a UTF-8 byte order mark was "not valid JSON".
#[test]
fn a_tools_json_with_a_byte_order_mark_imports() {
    let dir = tmp();
    let list = "\u{FEFF}{\"tools\":[{\"name\":\"ping_host\",\"description\":\"Ping a host.\"}]}";
    std::fs::write(dir.path().join("tools.json"), list).unwrap_or_else(|e| panic!("{e}"));
    let r = run(dir.path(), &["import", "tools.json"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("tool \"ping_host\""), "{}", r.stdout);
    let r = run(dir.path(), &["lint", "tools.json"], None);
    assert_ne!(r.code, 2, "{}{}", r.stdout, r.stderr);
}
