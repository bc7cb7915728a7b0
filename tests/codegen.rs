//! Code generation through both routes: `catalogc gen` (the real binary) and the build-script
//! [`Builder`]; they produce the same bytes, stop on the same lint errors, and never rewrite
//! an unchanged file.

use assert_cmd::Command;
use catalogc::Builder;
use std::path::Path;
use std::time::SystemTime;

fn catalogc() -> Command {
    Command::cargo_bin("catalogc").unwrap_or_else(|e| panic!("binary: {e}"))
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_committed_generated_folder_is_current() {
    let o = catalogc()
        .args(["gen", "--check"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("up to date: generated/billing.rs"),
        "{stdout}"
    );
    assert!(
        stdout.contains("up to date: generated/payments.tools.json"),
        "{stdout}"
    );
    // The docs' one freshness check: `gen --check` covers them with the code.
    assert!(
        stdout.contains("up to date: generated/billing.md"),
        "{stdout}"
    );
    assert!(
        stdout.contains("up to date: generated/payments.md"),
        "{stdout}"
    );
}

#[test]
fn gen_writes_then_check_names_each_stale_file() {
    let dir = tempdir();
    let out = dir.path().join("gen");
    let o = catalogc()
        .args(["gen", "catalogs", "--out"])
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        read(&out.join("billing.rs")),
        read(Path::new("generated/billing.rs"))
    );
    let tools = read(&out.join("billing.tools.json"));
    let export = catalogc()
        .args(["export", "tools-json", "catalogs/billing.kdl"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tools, String::from_utf8_lossy(&export.stdout));

    std::fs::write(out.join("payments.rs"), "// edited\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_file(out.join("billing.tools.json")).unwrap_or_else(|e| panic!("{e}"));
    let before = mtime(&out.join("billing.rs"));
    let o = catalogc()
        .args(["gen", "catalogs", "--check", "--out"])
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(&format!("stale: {}", out.join("payments.rs").display())));
    assert!(stdout.contains(&format!(
        "missing: {}",
        out.join("billing.tools.json").display()
    )));
    // --check writes nothing.
    assert_eq!(read(&out.join("payments.rs")), "// edited\n");
    assert!(!out.join("billing.tools.json").exists());
    // A second gen rewrites only what changed.
    catalogc()
        .args(["gen", "catalogs", "--out"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(mtime(&out.join("billing.rs")), before);
}

const BROKEN: &str = "catalog \"shop\" version=\"1.0.0\"\ntool \"order_get\" version=\"1.0.0\" {\n    summary \"Return one order.\"\n    when \"Use for one order.\"\n    when-not \"Not for lists.\"\n    effect \"read\"\n    input { field \"order_reference\" \"string\" required=#true }\n}\n";

#[test]
fn lint_errors_stop_both_routes_with_the_same_diagnostics() {
    let dir = tempdir();
    let cat = dir.path().join("shop.kdl");
    std::fs::write(&cat, BROKEN).unwrap_or_else(|e| panic!("{e}"));
    let lint = catalogc()
        .args(["lint"])
        .arg(&cat)
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let lint = String::from_utf8_lossy(&lint.stdout).into_owned();
    assert!(lint.contains("error["), "{lint}");

    let o = catalogc()
        .args(["gen", "--out"])
        .arg(dir.path().join("out"))
        .arg(&cat)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout), lint);
    assert!(!dir.path().join("out").exists());

    let mut lines = Vec::new();
    let err = Builder::new()
        .catalogs(&cat)
        .out_dir(dir.path().join("out"))
        .run(&mut lines)
        .err()
        .unwrap_or_else(|| panic!("a lint error must fail the build"));
    assert_eq!(err.to_string(), lint);
    // What a build script's `fn main() -> Result<(), BuildError>` prints after `Error: `.
    assert_eq!(format!("{err:?}"), format!("\n{lint}"));
    // Cargo still watches the catalog, so fixing it reruns the build script.
    assert!(lines.contains(&format!("cargo::rerun-if-changed={}", cat.display())));
}

#[test]
fn the_builder_watches_every_input_and_rewrites_nothing_unchanged() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let builder = Builder::new().catalogs("catalogs").out_dir(&out);
    let mut lines = Vec::new();
    let files = builder.run(&mut lines).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(files, [out.join("billing.rs"), out.join("payments.rs")]);
    for watched in ["catalogs", "catalogs/billing.kdl", "catalogs/payments.kdl"] {
        let line = format!("cargo::rerun-if-changed={watched}");
        assert!(lines.contains(&line), "no {line} in {lines:?}");
    }
    assert_eq!(read(&files[0]), read(Path::new("generated/billing.rs")));
    let before: Vec<SystemTime> = files.iter().map(|f| mtime(f)).collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let mut again = Vec::new();
    builder.run(&mut again).unwrap_or_else(|e| panic!("{e}"));
    let after: Vec<SystemTime> = files.iter().map(|f| mtime(f)).collect();
    assert_eq!(
        before, after,
        "an unchanged catalog must not touch its generated file"
    );
    assert_eq!(lines, again);
}

#[test]
fn lint_warnings_become_cargo_warnings() {
    let dir = tempdir();
    let cat = dir.path().join("mini.kdl");
    // No `output`: a warning (output/missing-schema), not an error.
    let text = "catalog \"mini\" version=\"1.0.0\"\ntool \"order_count\" version=\"1.0.0\" {\n    summary \"Count the open orders of the signed-in customer.\"\n    when \"Use when the customer asks how many orders are open.\"\n    when-not \"Not for order details.\"\n    effect \"read\"\n    limits max-result-bytes=1024\n    input\n    examples {\n        call \"How many orders are open?\"\n        no-call \"Where is my parcel?\"\n    }\n}\n";
    std::fs::write(&cat, text).unwrap_or_else(|e| panic!("{e}"));
    let mut lines = Vec::new();
    Builder::new()
        .catalogs(&cat)
        .out_dir(dir.path().join("out"))
        .run(&mut lines)
        .unwrap_or_else(|e| panic!("{e}"));
    let warnings: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("cargo::warning="))
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("[output/missing-schema]")),
        "{lines:?}"
    );
    assert!(dir.path().join("out/mini.rs").is_file());
}

/// `text` without what a formatter adds or drops when it breaks a line: whitespace, the
/// trailing comma of a broken list, and the braces and comma around a match arm's or a
/// closure's body.
fn flat(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, ',' | '{' | '}'))
        .collect()
}

/// The generated files are laid out as prettyplease lays them out, rustfmt-like: where
/// rustfmt is installed, its layout of them differs from theirs in line breaks only
/// (prettyplease's documented difference: it breaks lines at 89 columns where rustfmt
/// breaks at 100, it breaks some lists and chains elsewhere, and it wraps a long match arm
/// in braces where rustfmt wraps the closure inside), never in another token or the order
/// of imports.
#[test]
fn generated_files_differ_from_rustfmt_in_line_breaks_only() {
    use std::io::Write as _;
    use std::process::{Command as Std, Stdio};
    if Std::new("rustfmt").arg("--version").output().is_err() {
        eprintln!("rustfmt is not installed: skipped");
        return;
    }
    for file in ["generated/billing.rs", "generated/payments.rs"] {
        let ours = read(Path::new(file));
        let mut child = Std::new("rustfmt")
            .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("rustfmt: {e}"));
        child
            .stdin
            .take()
            .map(|mut stdin| stdin.write_all(ours.as_bytes()))
            .transpose()
            .unwrap_or_else(|e| panic!("rustfmt stdin: {e}"));
        let out = child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("rustfmt: {e}"));
        assert!(out.status.success(), "rustfmt failed on {file}");
        let theirs = String::from_utf8_lossy(&out.stdout);
        assert_eq!(flat(&ours), flat(&theirs), "{file}");
        for (n, line) in ours.lines().enumerate() {
            // Only a doc comment from the catalog or a line holding a long string literal (a
            // description, a definition, a hash) is wider than rustfmt's 100 columns: neither
            // printer breaks a comment or a literal.
            let text = line.trim_start().starts_with("//") || line.contains('"');
            assert!(
                line.chars().count() <= 100 || text,
                "{file}:{}: {} columns",
                n + 1,
                line.chars().count()
            );
        }
    }
}
