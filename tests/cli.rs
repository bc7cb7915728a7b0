//! The real `catalogc` binary: exit codes, output formats, bad input, determinism.

use assert_cmd::Command;
use std::path::Path;

fn catalogc() -> Command {
    let mut c = Command::cargo_bin("catalogc").unwrap_or_else(|e| panic!("binary: {e}"));
    c.env_remove("NO_COLOR");
    c
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(cmd: &mut Command) -> Out {
    let o = cmd.output().unwrap_or_else(|e| panic!("run: {e}"));
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).unwrap_or_else(|e| panic!("mkdir: {e}"));
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("write: {e}"));
}

/// A catalog that is clean under every lint rule (the `lint` command runs them all).
const GOOD: &str = "catalog \"mini\" version=\"1.0.0\"\ntool \"order_list\" version=\"1.0.0\" {\n    summary \"List the open orders of the signed-in customer.\"\n    when \"Use when the customer asks which of their orders are still open.\"\n    when-not \"Not for order history or returns.\"\n    effect \"read\"\n    limits max-result-bytes=4096\n    input\n    output {\n        field \"open_orders\" \"integer\" required=#true min=0 max=1000 {\n            doc \"How many orders are open.\"\n        }\n    }\n    error \"ORDERS_UNAVAILABLE\" class=\"unavailable\" {\n        message \"orders are temporarily unavailable\"\n    }\n    examples {\n        call \"Which of my orders are still open?\"\n        no-call \"How do I return a parcel?\"\n    }\n}\n";

/// A "could not run" failure: status 2, nothing on stdout, exactly one line on stderr.
fn assert_one_line_failure(o: &Out, needle: &str) {
    assert_eq!(o.code, 2, "stdout: {}\nstderr: {}", o.stdout, o.stderr);
    assert_eq!(o.stderr.lines().count(), 1, "stderr: {}", o.stderr);
    assert!(o.stderr.contains(needle), "stderr: {}", o.stderr);
    assert!(o.stdout.is_empty(), "stdout: {}", o.stdout);
}

#[test]
fn lint_of_the_examples_exits_0() {
    let o = run(catalogc().args(["lint", "catalogs"]));
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(
        o.stdout,
        "ok: 0 errors, 0 warnings, 0 infos in 2 catalogs, 6 tools\n"
    );
}

#[test]
fn lint_defaults_to_the_catalogs_folder() {
    let o = run(catalogc().arg("lint"));
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let dir = tempdir();
    let o = run(catalogc().arg("lint").current_dir(dir.path()));
    assert_one_line_failure(&o, "catalogs: no such file or folder");
}

#[test]
fn lint_reports_all_five_mistakes_and_exits_1() {
    let o = run(catalogc().args(["lint", "tests/fixtures/model/five_mistakes.kdl"]));
    assert_eq!(o.code, 1);
    for loc in [":5:12", ":6:22", ":8:33", ":9:26", ":11:5"] {
        assert!(
            o.stdout.contains(&format!(
                "--> tests/fixtures/model/five_mistakes.kdl{loc}\n"
            )),
            "missing {loc}:\n{}",
            o.stdout
        );
    }
    assert!(
        o.stdout
            .ends_with("error: 5 errors, 0 warnings, 0 infos in 1 catalog, 0 tools\n")
    );
    assert!(o.stderr.is_empty());
}

#[test]
fn every_format_exits_1_on_errors() {
    for format in ["human", "json", "sarif", "github"] {
        let o = run(catalogc().args([
            "lint",
            "--format",
            format,
            "tests/fixtures/model/five_mistakes.kdl",
        ]));
        assert_eq!(o.code, 1, "{format}");
    }
    let o = run(catalogc().args([
        "lint",
        "--format",
        "json",
        "tests/fixtures/model/five_mistakes.kdl",
    ]));
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap_or_default();
    assert_eq!(v["summary"]["errors"], 5);
    assert_eq!(v["diagnostics"][0]["line"], 5);
    let o = run(catalogc().args([
        "lint",
        "--format",
        "github",
        "tests/fixtures/model/five_mistakes.kdl",
    ]));
    assert_eq!(
        o.stdout
            .lines()
            .filter(|l| l.starts_with("::error file="))
            .count(),
        5
    );
}

#[test]
fn deny_warnings_keeps_a_clean_run_clean() {
    let o = run(catalogc().args(["lint", "--deny", "warnings", "catalogs"]));
    assert_eq!(o.code, 0);
}

#[test]
fn no_escape_codes_off_a_terminal_or_with_no_color() {
    let o = run(catalogc().args(["lint", "tests/fixtures/model/five_mistakes.kdl"]));
    assert!(!o.stdout.contains('\x1b'));
    let o = run(catalogc()
        .env("NO_COLOR", "1")
        .args(["lint", "tests/fixtures/model/five_mistakes.kdl"]));
    assert!(!o.stdout.contains('\x1b'));
    assert_eq!(o.code, 1);
}

#[test]
fn a_non_utf8_file_is_a_one_line_error() {
    let dir = tempdir();
    let f = dir.path().join("bad.kdl");
    write(&f, b"catalog \"x\" version=\"1.0.0\"\n// \xff\xfe\n");
    let o = run(catalogc().arg("lint").arg(&f));
    assert_one_line_failure(&o, "not UTF-8");
}

#[test]
fn a_missing_path_is_a_one_line_error() {
    let o = run(catalogc().args(["lint", "no/such/folder"]));
    assert_one_line_failure(&o, "no/such/folder: no such file or folder");
}

#[test]
fn an_empty_folder_is_a_one_line_error() {
    let dir = tempdir();
    write(&dir.path().join("notes.txt"), "not a catalog");
    let o = run(catalogc().arg("lint").arg(dir.path()));
    assert_one_line_failure(&o, "no catalogs");
}

#[test]
fn an_oversized_file_is_refused() {
    let dir = tempdir();
    let f = dir.path().join("big.kdl");
    let mut text = String::from(GOOD);
    while text.len() <= 8 * 1024 * 1024 {
        text.push_str("// padding padding padding padding padding padding padding padding\n");
    }
    write(&f, &text);
    let o = run(catalogc().arg("lint").arg(&f));
    assert_one_line_failure(&o, "8388608-byte limit");
    // The cap is configurable.
    let o = run(catalogc().args(["lint", "--max-file-bytes", "64", "catalogs/billing.kdl"]));
    assert_one_line_failure(&o, "over the 64-byte limit");
    let o = run(catalogc()
        .arg("lint")
        .arg("--max-file-bytes")
        .arg("20000000")
        .arg(&f));
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
}

#[cfg(unix)]
#[test]
fn symlinks_leaving_the_folder_are_not_followed() {
    let dir = tempdir();
    let root = dir.path().join("catalogs");
    write(&root.join("mini.kdl"), GOOD);
    write(
        &dir.path().join("outside/evil.kdl"),
        "this is { not a catalog",
    );
    let link = |target: &Path, at: &Path| {
        std::os::unix::fs::symlink(target, at).unwrap_or_else(|e| panic!("symlink: {e}"))
    };
    link(&dir.path().join("outside/evil.kdl"), &root.join("evil.kdl"));
    link(&dir.path().join("outside"), &root.join("outside_dir"));
    // A link that stays inside is followed, but the same file is loaded once.
    link(&root.join("mini.kdl"), &root.join("again.kdl"));
    let o = run(catalogc().arg("lint").arg(&root));
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(
        o.stdout,
        "ok: 0 errors, 0 warnings, 0 infos in 1 catalog, 1 tool\n"
    );
}

/// `gen`, `docs` and `lock` wrote through a symlink at the destination to any target; the
/// one writer now refuses a link that leaves the destination's folder and leaves its target
/// untouched.
#[cfg(unix)]
#[test]
fn writers_do_not_write_through_a_symlink_out_of_the_folder() {
    let dir = tempdir();
    let d = dir.path();
    write(&d.join("catalogs/mini.kdl"), GOOD);
    write(&d.join("outside/secret"), "keep");
    let secret = d.join("outside/secret");
    let link = |at: &Path| {
        if let Some(p) = at.parent() {
            std::fs::create_dir_all(p).unwrap_or_else(|e| panic!("mkdir: {e}"));
        }
        std::os::unix::fs::symlink(&secret, at).unwrap_or_else(|e| panic!("symlink: {e}"))
    };
    link(&d.join("catalogs/mini.lock"));
    link(&d.join("gen/mini.rs"));
    link(&d.join("docs/mini.md"));
    for args in [
        &["lock", "catalogs"][..],
        &["gen", "catalogs", "--out", "gen"],
        &["docs", "catalogs", "--out", "docs"],
    ] {
        let o = run(catalogc().args(args).current_dir(d));
        assert_eq!(o.code, 2, "{args:?}: {}{}", o.stdout, o.stderr);
        assert!(
            o.stderr.contains("outside its folder"),
            "{args:?}: {}",
            o.stderr
        );
        let kept = std::fs::read_to_string(&secret).unwrap_or_default();
        assert_eq!(kept, "keep", "{args:?}");
    }
}

/// Catalog names `""`, `..`, `a/b`, `/tmp/x` were lint-clean (and fell back to the file stem
/// for the lock file, so `x.kdl` holding `y` beside `y.kdl` holding `a/b` wrote `y.lock`
/// twice): a catalog name that is not a plain name is now a model error.
#[test]
fn invalid_catalog_names_are_model_errors() {
    let body = GOOD.trim_start_matches("catalog \"mini\" version=\"1.0.0\"\n");
    for name in [
        "",
        "..",
        "a/b",
        "/tmp/x",
        "a b",
        "-rf",
        "caf\u{e9}",
        &"n".repeat(65),
    ] {
        let dir = tempdir();
        let text = format!("catalog {name:?} version=\"1.0.0\"\n{body}");
        write(&dir.path().join("y.kdl"), &text);
        let o = run(catalogc()
            .args(["lint", "--format", "json"])
            .arg(dir.path()));
        assert_eq!(o.code, 1, "{name:?}: {}{}", o.stdout, o.stderr);
        assert!(
            o.stdout.contains("model/invalid-name"),
            "{name:?}: {}",
            o.stdout
        );
        let o = run(catalogc().arg("lock").arg(dir.path()));
        assert_eq!(o.code, 2, "{name:?}: {}{}", o.stdout, o.stderr);
        assert!(!dir.path().join("y.lock").exists());
    }
}

/// Two catalogs whose lock files are one file (here `Billing.lock` and `billing.lock`, one
/// file on a case-insensitive file system): the second overwrote the first and `lock
/// --check` failed forever. `lock` refuses before writing either.
#[test]
fn two_catalogs_sharing_a_lock_file_are_refused() {
    let dir = tempdir();
    let other = GOOD
        .replace("\"mini\"", "\"Mini\"")
        .replace("order_list", "order_count");
    write(&dir.path().join("a.kdl"), GOOD);
    write(&dir.path().join("b.kdl"), other);
    let o = run(catalogc().arg("lock").arg(dir.path()));
    assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("would both write"), "{}", o.stderr);
    assert!(!dir.path().join("mini.lock").exists());
    assert!(!dir.path().join("Mini.lock").exists());
}

/// `lint --write-baseline FILE` where FILE is a catalog being linted replaced the catalog
/// with the baseline JSON: refused, and the catalog is kept.
#[test]
fn write_baseline_onto_a_linted_catalog_is_refused() {
    let dir = tempdir();
    let cat = dir.path().join("catalogs/mini.kdl");
    write(&cat, GOOD);
    for target in ["catalogs/mini.kdl", "./catalogs/../catalogs/mini.kdl"] {
        let o = run(catalogc()
            .args(["lint", "catalogs", "--write-baseline", target])
            .current_dir(dir.path()));
        assert_one_line_failure(&o, "an input of this run");
        assert_eq!(std::fs::read_to_string(&cat).unwrap_or_default(), GOOD);
    }
    let o = run(catalogc()
        .args(["lint", "catalogs", "--write-baseline", "baseline.json"])
        .current_dir(dir.path()));
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
}

#[test]
fn bad_arguments_exit_2() {
    let o = run(catalogc().args(["lint", "--format", "xml"]));
    assert_eq!(o.code, 2);
    let o = run(catalogc().args(["frobnicate"]));
    assert_eq!(o.code, 2);
    let o = run(catalogc().args(["lint", "--config", "no-such-catalogc.kdl", "catalogs"]));
    assert_one_line_failure(&o, "no-such-catalogc.kdl");
    let o = run(catalogc().arg("--help"));
    assert_eq!(o.code, 0);
}

#[test]
fn two_runs_print_identical_bytes() {
    let cases: &[&[&str]] = &[
        &[
            "lint",
            "--format",
            "human",
            "tests/fixtures/model",
            "catalogs",
        ],
        &[
            "lint",
            "--format",
            "json",
            "tests/fixtures/model",
            "catalogs",
        ],
        &[
            "lint",
            "--format",
            "sarif",
            "tests/fixtures/model",
            "catalogs",
        ],
        &[
            "lint",
            "--format",
            "github",
            "tests/fixtures/model",
            "catalogs",
        ],
        &["hash", "catalogs"],
        &["hash", "--format", "json", "catalogs"],
        &["export", "tools-json", "catalogs"],
    ];
    for args in cases {
        let a = run(catalogc().args(*args));
        let b = run(catalogc().args(*args));
        assert_eq!(a.stdout, b.stdout, "{args:?}");
        assert!(!a.stdout.is_empty(), "{args:?}");
    }
}

/// The parallel splits (files, tools, rule groups, `breaking`'s sides) take their results
/// back in input order: one thread and two print the same bytes.
#[test]
fn one_thread_and_two_print_identical_bytes() {
    use catalogc::testing::synthetic_catalog_part;
    let dir = tempdir();
    let base = dir.path().join("base");
    let changed = dir.path().join("changed");
    for (name, first) in [("alpha", 0), ("beta", 60)] {
        let text = synthetic_catalog_part(name, 300, first);
        write(&base.join(format!("{name}.kdl")), &text);
        write(
            &changed.join(format!("{name}.kdl")),
            text.replacen("max=", "max=9", 40),
        );
    }
    let (base, changed) = (base.to_string_lossy(), changed.to_string_lossy());
    let cases: &[&[&str]] = &[
        &["lint", "--format", "json", &base, "tests/fixtures/model"],
        &["hash", "--format", "json", &base],
        &["export", "tools-json", &base],
        &["breaking", "--format", "json", "--against", &base, &changed],
    ];
    for args in cases {
        let one = run(catalogc().env("RAYON_NUM_THREADS", "1").args(*args));
        let two = run(catalogc().env("RAYON_NUM_THREADS", "2").args(*args));
        assert_eq!((one.code, &one.stderr), (two.code, &two.stderr), "{args:?}");
        assert!(one.stdout == two.stdout, "{args:?}: the outputs differ");
        assert!(one.stdout.len() > 1000, "{args:?}: {}", one.stderr);
    }
}

#[test]
fn hash_and_export_print_every_tool() {
    let o = run(catalogc().args(["hash", "--format", "json"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap_or_default();
    let tools = v["tools"].as_array().cloned().unwrap_or_default();
    assert_eq!(tools.len(), 6);
    for t in &tools {
        for k in ["input", "output", "description", "contract"] {
            let h = t[k].as_str().unwrap_or_default();
            assert!(h.starts_with("sha256:") && h.len() == 71, "{k}: {h}");
        }
    }
    let o = run(catalogc().args(["export", "tools-json", "catalogs"]));
    assert_eq!(o.code, 0);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap_or_default();
    let names: Vec<&str> = v["tools"]
        .as_array()
        .map(|a| a.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        names,
        [
            "invoice_list",
            "invoice_get",
            "invoice_send_reminder",
            "payment_transfer_preview",
            "payment_transfer_submit",
            "payment_transfer_status"
        ]
    );
}

#[test]
fn hash_refuses_a_broken_catalog_in_one_line() {
    let o = run(catalogc().args(["hash", "tests/fixtures/model/five_mistakes.kdl"]));
    assert_one_line_failure(
        &o,
        "5 errors in the catalogs, first at tests/fixtures/model/five_mistakes.kdl:5:12",
    );
    let o = run(catalogc().args([
        "export",
        "tools-json",
        "tests/fixtures/model/five_mistakes.kdl",
    ]));
    assert_eq!(o.code, 2);
}

/// The project's template folder (`templates "DIR"` in catalogc.kdl) reaches every command:
/// hash, export, lint, lock and breaking render the same descriptions; a broken template
/// stops each of them with its file and line.
#[test]
fn every_command_uses_the_projects_templates() {
    let dir = tempdir();
    let d = dir.path();
    write(&d.join("catalogs/mini.kdl"), GOOD);
    let hashes =
        |d: &Path| run(catalogc().current_dir(d).args(["hash", "--format", "json"])).stdout;
    let builtin = hashes(d);
    write(&d.join("catalogc.kdl"), "templates \"tpl\"\n");
    write(&d.join("tpl/description.j2"), "{{ name }}: {{ summary }}\n");
    let own = hashes(d);
    assert_ne!(own, builtin, "the description hash follows the template");
    let export = run(catalogc().current_dir(d).args(["export", "tools-json"]));
    assert!(
        export.stdout.contains(
            "\"description\": \"order_list: List the open orders of the signed-in customer.\""
        ),
        "{}",
        export.stdout
    );
    let lock = run(catalogc().current_dir(d).arg("lock"));
    assert_eq!(lock.code, 0, "{}", lock.stderr);
    let lock_text = std::fs::read_to_string(d.join("catalogs/mini.lock")).unwrap_or_default();
    let described = own
        .lines()
        .find(|l| l.contains("\"description\""))
        .and_then(|l| l.split('"').nth(3))
        .unwrap_or_else(|| panic!("{own}"));
    assert!(lock_text.contains(described), "{lock_text}");
    assert_eq!(
        run(catalogc().current_dir(d).args(["lock", "--check"])).code,
        0
    );
    write(&d.join("tpl/description.j2"), "{{ name }} only\n");
    let stale = run(catalogc().current_dir(d).args(["lock", "--check"]));
    assert_eq!(
        stale.code, 1,
        "a template change makes the lock stale: {}",
        stale.stdout
    );

    write(
        &d.join("tpl/description.j2"),
        "{{ name }}\n{{ name | no_such_filter }}\n",
    );
    for args in [
        &["hash"][..],
        &["export", "tools-json"],
        &["lint"],
        &["lock", "--check"],
        &["breaking", "--against", "catalogs"],
    ] {
        let out = run(catalogc().current_dir(d).args(args));
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("description.j2") && out.stderr.contains("line 2"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// `breaking` writes a tool's contract only when the comparison needs it, yet a template that
/// fails for one tool stops the run whatever that tool's status: here only for a tool the
/// new side removed, whose contract the comparison never asks for.
#[test]
fn breaking_stops_on_a_template_failing_for_a_tool_it_does_not_compare() {
    let dir = tempdir();
    let d = dir.path();
    let gone = GOOD.replacen("tool \"order_list\"", "tool \"order_gone\"", 1);
    let gone = &gone[gone.find("tool ").unwrap_or(0)..];
    write(&d.join("old/mini.kdl"), format!("{GOOD}{gone}"));
    write(&d.join("catalogs/mini.kdl"), GOOD);
    let out = run(catalogc()
        .current_dir(d)
        .args(["breaking", "--against", "./old"]));
    assert_eq!(
        out.code, 1,
        "the removal is found: {}{}",
        out.stdout, out.stderr
    );
    write(&d.join("catalogc.kdl"), "templates \"tpl\"\n");
    write(
        &d.join("tpl/description.j2"),
        "{{ name }}\n{% if name == \"order_gone\" %}{{ nothing.here }}{% endif %}\n",
    );
    let out = run(catalogc()
        .current_dir(d)
        .args(["breaking", "--against", "./old"]));
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("description.j2") && out.stderr.contains("line 2"),
        "{}",
        out.stderr
    );
}

/// Catalog text is data: an escape sequence in a name must not reach the terminal or an
/// annotation raw, in any human-facing output.
#[test]
fn control_characters_from_catalogs_are_shown_escaped() {
    let dir = tempdir();
    let evil = GOOD.replace("\"order_list\"", "\"order\\u{1b}[2J\\u{7}list\"");
    write(&dir.path().join("old/mini.kdl"), GOOD);
    write(&dir.path().join("new/mini.kdl"), &evil);
    let new = dir.path().join("new");
    let old = dir.path().join("old");
    for fmt in ["human", "github"] {
        let o = run(catalogc().args(["lint", "--format", fmt]).arg(&new));
        assert!(
            o.stdout.contains("order\\u{1b}[2J\\u{7}list"),
            "{fmt}: {}",
            o.stdout
        );
        assert!(
            !o.stdout.contains(['\x1b', '\x07']),
            "{fmt}: {:?}",
            o.stdout
        );
        let o = run(catalogc()
            .args(["breaking", "--format", fmt, "--against"])
            .arg(&old)
            .arg(&new));
        assert!(
            o.stdout.contains("order\\u{1b}[2J\\u{7}list"),
            "{fmt}: {}",
            o.stdout
        );
        assert!(
            !o.stdout.contains(['\x1b', '\x07']),
            "{fmt}: {:?}",
            o.stdout
        );
    }
}

fn binary() -> std::process::Command {
    let path = assert_cmd::cargo::cargo_bin("catalogc");
    let mut c = std::process::Command::new(path);
    c.env("NO_COLOR", "1");
    c
}

/// A full disk is a failure to run (exit 2, one line), whatever the command.
#[cfg(target_os = "linux")]
#[test]
fn a_write_error_exits_2_with_one_line() {
    let commands: [&[&str]; 4] = [
        &["export", "tools-json", "catalogs"],
        &["lint", "catalogs"],
        &["lint", "--format", "sarif", "catalogs"],
        &["hash", "catalogs"],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap_or_else(|e| panic!("/dev/full: {e}"));
        let o = binary()
            .args(args)
            .stdout(full)
            .output()
            .unwrap_or_else(|e| panic!("run: {e}"));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write the output"),
            "{args:?}: {stderr}"
        );
    }
}

/// `catalogc lint | head`: the reader going away is not an error worth a word.
#[test]
fn a_closed_pipe_is_quiet() {
    let dir = tempdir();
    let file = dir.path().join("many.kdl");
    write(&file, "nope 1\n".repeat(20_000));
    let mut child = binary()
        .args(["lint", "--format", "json"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn: {e}"));
    drop(child.stdout.take());
    let o = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap_or_else(|e| panic!("mkfifo: {e}"));
    assert!(made.success());
}

/// A FIFO wherever a file is named (catalog, `--config`, `--baseline`, `--against FILE`,
/// a lock file) is refused at once with a one-line reason: opening it used to block forever.
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_wherever_a_file_is_read() {
    let dir = tempdir();
    let fifo = dir.path().join("pipe.kdl");
    mkfifo(&fifo);
    let good = dir.path().join("good.kdl");
    write(&good, GOOD);
    let cases: [Vec<&std::ffi::OsStr>; 4] = [
        vec!["lint".as_ref(), fifo.as_os_str()],
        vec![
            "lint".as_ref(),
            "--config".as_ref(),
            fifo.as_os_str(),
            good.as_os_str(),
        ],
        vec![
            "lint".as_ref(),
            "--baseline".as_ref(),
            fifo.as_os_str(),
            good.as_os_str(),
        ],
        vec![
            "breaking".as_ref(),
            "--against".as_ref(),
            fifo.as_os_str(),
            good.as_os_str(),
        ],
    ];
    for args in cases {
        let o = run(catalogc()
            .args(&args)
            .timeout(std::time::Duration::from_secs(20)));
        assert_one_line_failure(&o, "is a FIFO, not a regular file");
    }
    // A FIFO where the lock file of a catalog is expected.
    let lock = dir.path().join("mini.lock");
    mkfifo(&lock);
    let o = run(catalogc()
        .arg("lock")
        .arg("--check")
        .arg(&good)
        .timeout(std::time::Duration::from_secs(20)));
    assert_one_line_failure(&o, "mini.lock: is a FIFO");
}

/// A device whose metadata says 0 bytes is refused, not read until memory runs out.
#[cfg(unix)]
#[test]
fn a_device_is_refused_and_never_read_past_the_cap() {
    let o = run(catalogc()
        .args(["lint", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(20)));
    assert_one_line_failure(&o, "/dev/zero: is a character device");
}

/// The cap holds while reading, whatever the metadata said: `/proc` files are regular and
/// report 0 bytes; reading stops at cap + 1 bytes.
#[test]
fn the_cap_is_enforced_while_reading() {
    if cfg!(target_os = "linux") {
        let opts = catalogc::project::LoadOptions { max_file_bytes: 10 };
        let e = catalogc::project::read_text(Path::new("/proc/self/maps"), &opts)
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("/proc/self/maps: 11 bytes is over the 10-byte limit for one input file")
        );
    }
    let dir = tempdir();
    let f = dir.path().join("a.kdl");
    write(&f, GOOD);
    let opts = catalogc::project::LoadOptions { max_file_bytes: 10 };
    let e = catalogc::project::read_text(&f, &opts)
        .err()
        .map(|e| e.to_string());
    assert!(
        e.as_deref()
            .is_some_and(|e| e.contains("over the 10-byte limit")),
        "{e:?}"
    );
    let opts = catalogc::project::LoadOptions {
        max_file_bytes: GOOD.len() as u64,
    };
    assert_eq!(
        catalogc::project::read_text(&f, &opts).ok().as_deref(),
        Some(GOOD)
    );
}

/// Catalogs whose inlined schemas explode: a 20-level DAG of named types (each type has two
/// fields of the next; 3 KB of text, 3 million inlined fields) and a chain of 10,000 types.
/// `lint`, `hash` and `export` report the cap and the chain and return (they took 18 s and
/// 3.5 GB, or overflowed the stack). Timing is measured by `cargo bench --bench schema_stress`.
#[test]
fn exponential_and_deep_schemas_are_refused_quickly() {
    let dir = tempdir();
    let dag = dir.path().join("dag.kdl");
    write(&dag, catalogc::testing::dag_catalog(20));
    let chain = dir.path().join("chain.kdl");
    write(&chain, catalogc::testing::chain_catalog(10_000));
    let timeout = std::time::Duration::from_secs(60);
    for (file, rule, cap) in [
        (&dag, "model/schema-too-large", "over the limit of 10000"),
        (&chain, "model/schema-too-deep", "over the limit of 128"),
    ] {
        let o = run(catalogc().arg("lint").arg(file).timeout(timeout));
        assert_eq!(o.code, 1, "{}", o.stderr);
        let line = o
            .stdout
            .lines()
            .find(|l| l.contains(rule))
            .unwrap_or_else(|| panic!("{rule} in {}", o.stdout));
        assert!(line.contains(cap), "{line}");
        assert!(
            line.contains("(through the types T0 → T1 → T2 → T3 → …"),
            "{line}"
        );
        // The tool left out still uses its types, and `T0` is PascalCase: the one error is
        // the whole report, not buried under a finding per type.
        for noise in ["catalog/unused-type", "naming/type-name"] {
            assert!(!o.stdout.contains(noise), "{noise}: {}", o.stdout);
        }
        for cmd in ["hash", "export"] {
            let mut c = catalogc();
            c.arg(cmd);
            if cmd == "export" {
                c.arg("tools-json");
            }
            let o = run(c.arg(file).timeout(timeout));
            assert_ne!(o.code, 0, "{cmd}: {}", o.stdout);
            assert!(
                o.stderr.contains(rule) && o.stderr.contains(cap),
                "{cmd}: {}",
                o.stderr
            );
        }
    }
}

/// `catalogc lsp` with `input` on stdin (then closed): its exit status and what it wrote.
fn lsp(input: &[u8]) -> (Option<i32>, String) {
    let out = catalogc()
        .arg("lsp")
        .write_stdin(input.to_vec())
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[test]
fn lsp_survives_huge_content_lengths() {
    for n in ["4294967296", "9223372036854775807", "18446744073709551615"] {
        let (code, _) = lsp(format!("Content-Length: {n}\r\n\r\n{{}}").as_bytes());
        // The body never arrives: the input ends before `initialize`, and so does the
        // server, with its error status (2), not a panic (101) or an abort (a signal).
        assert_eq!(code, Some(2), "{n}");
    }
}

#[test]
fn lsp_answers_a_body_that_is_not_json_and_goes_on() {
    let mut input = framed("this is not json");
    input.extend(framed(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
    ));
    input.extend(framed(
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    ));
    input.extend(framed("[1, 2]"));
    input.extend(framed(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
    input.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    let (code, out) = lsp(&input);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(r#""code":-32700"#), "{out}");
    assert!(out.contains(r#""code":-32600"#), "{out}");
    assert!(out.contains(r#""hoverProvider":true"#), "{out}");
    assert!(out.contains(r#""id":2"#), "{out}");
}
