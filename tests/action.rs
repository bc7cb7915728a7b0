//! The GitHub Action without GitHub: `action/run.sh` (the very script `action.yml` calls) runs
//! in a shallow clone of a throwaway repository, with the real `catalogc` binary and the
//! `GITHUB_*` variables and event payload of a `pull_request` run.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::git;

const CATALOG: &str = "catalogs/billing.kdl";
const LOCK: &str = "catalogs/billing.lock";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn catalogc_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_catalogc"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("mkdir");
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn rev_parse(dir: &Path, rev: &str) -> String {
    let out = Command::new("git")
        .args(["rev-parse", rev])
        .current_dir(dir)
        .output()
        .expect("git runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn has_commit(dir: &Path, sha: &str) -> bool {
    Command::new("git")
        .args(["cat-file", "-e", &format!("{sha}^{{commit}}")])
        .current_dir(dir)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("git runs")
        .success()
}

/// What one run of the action left behind.
struct Run {
    code: i32,
    stdout: String,
    summary: String,
    outputs: String,
    runner_temp: PathBuf,
}

/// A pull request in a throwaway origin: `main` holds the example billing catalog and its
/// lock, `feature` one commit on top that `edit` makes. The checkout is a depth-1 clone of
/// `feature`, as `actions/checkout` makes it, so the base commit is not there.
struct PullRequest {
    tmp: tempfile::TempDir,
    base: String,
    head: String,
}

impl Run {
    /// A workflow command line of the log starts with `start` and names `what`.
    fn assert_annotation(&self, start: &str, what: &str) {
        assert!(
            self.stdout
                .lines()
                .any(|l| l.starts_with(start) && l.contains(what)),
            "no `{start}…{what}` line in\n{}",
            self.stdout
        );
    }

    /// Each check's row of the summary table starts with the given result.
    fn assert_results(&self, rows: &[(&str, &str)]) {
        for (check, result) in rows {
            let row = format!("| {check} | {result}");
            assert!(self.summary.contains(&row), "{row} in\n{}", self.summary);
        }
    }
}

impl PullRequest {
    fn new(edit: impl FnOnce(&Path)) -> PullRequest {
        let tmp = tempfile::tempdir().expect("tempdir");
        let origin = tmp.path().join("origin");
        std::fs::create_dir_all(&origin).expect("mkdir");
        git(&origin, &["init", "-q", "-b", "main"]);
        // GitHub serves any commit of the repository by its id; a local origin must be told.
        git(
            &origin,
            &["config", "uploadpack.allowReachableSHA1InWant", "true"],
        );
        write(&origin.join(CATALOG), &read(&root().join(CATALOG)));
        write(&origin.join(LOCK), &read(&root().join(LOCK)));
        git(&origin, &["add", "-A"]);
        git(&origin, &["commit", "-q", "-m", "base"]);
        let base = rev_parse(&origin, "HEAD");
        git(&origin, &["checkout", "-q", "-b", "feature"]);
        edit(&origin);
        git(&origin, &["add", "-A"]);
        git(&origin, &["commit", "-q", "-m", "change"]);
        let head = rev_parse(&origin, "HEAD");
        let url = format!("file://{}", origin.display());
        git(
            tmp.path(),
            &[
                "clone", "-q", "--depth", "1", "--branch", "feature", &url, "work",
            ],
        );
        let pr = PullRequest { tmp, base, head };
        assert!(
            !has_commit(&pr.work(), &pr.base),
            "the clone must be shallow"
        );
        let event = serde_json::json!({
            "action": "synchronize",
            "number": 1,
            "pull_request": {
                "number": 1,
                "base": { "ref": "main", "sha": pr.base },
                "head": { "ref": "feature", "sha": pr.head },
            },
        });
        write(&pr.tmp.path().join("event.json"), &event.to_string());
        pr
    }

    fn work(&self) -> PathBuf {
        self.tmp.path().join("work")
    }

    /// Runs `action/run.sh check` with the action's default inputs (and the event's
    /// variables) overridden by `inputs`
    /// and the first `catalogc` on PATH found in `bin_dirs`, then the built binary.
    fn run(&self, inputs: &[(&str, &str)], bin_dirs: &[&Path]) -> Run {
        let t = self.tmp.path();
        let runner_temp = t.join("runner");
        std::fs::create_dir_all(&runner_temp).expect("mkdir");
        let summary = t.join("summary.md");
        let outputs = t.join("outputs");
        let _ = std::fs::remove_file(&summary);
        let _ = std::fs::remove_file(&outputs);
        let mut path: Vec<PathBuf> = bin_dirs.iter().map(|d| d.to_path_buf()).collect();
        path.push(catalogc_bin().parent().expect("bin dir").to_path_buf());
        path.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let mut cmd = Command::new("bash");
        cmd.arg(root().join("action/run.sh"))
            .arg("check")
            .current_dir(self.work())
            .env("PATH", std::env::join_paths(path).expect("PATH"))
            .env("NO_COLOR", "1")
            .env("CI", "true")
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_EVENT_NAME", "pull_request")
            .env("GITHUB_EVENT_PATH", t.join("event.json"))
            .env("GITHUB_BASE_REF", "main")
            .env("GITHUB_HEAD_REF", "feature")
            .env("GITHUB_REF", "refs/pull/1/merge")
            .env("GITHUB_SHA", &self.head)
            .env("GITHUB_WORKSPACE", self.work())
            .env("GITHUB_ACTION_PATH", root())
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_OUTPUT", &outputs)
            .env("RUNNER_TEMP", &runner_temp);
        // The defaults action.yml declares.
        for (k, v) in [
            ("CATALOGC_PATHS", "catalogs"),
            ("CATALOGC_CHECKS", "lint,breaking,lock,gen"),
            ("CATALOGC_AGAINST", ""),
            ("CATALOGC_POLICY", ""),
            ("CATALOGC_DENY_WARNINGS", "false"),
            ("CATALOGC_GEN_OUT", "generated"),
        ] {
            cmd.env(k, v);
        }
        for (k, v) in inputs {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("bash runs");
        let run = Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            summary: std::fs::read_to_string(&summary).unwrap_or_default(),
            outputs: std::fs::read_to_string(&outputs).unwrap_or_default(),
            runner_temp,
        };
        eprintln!(
            "exit {}\n--- stdout\n{}--- stderr\n{}--- summary\n{}",
            run.code,
            run.stdout,
            String::from_utf8_lossy(&out.stderr),
            run.summary
        );
        run
    }
}

fn edit_catalog(repo: &Path, f: impl FnOnce(&str) -> String) {
    let path = repo.join(CATALOG);
    let text = read(&path);
    let new = f(&text);
    assert_ne!(new, text, "the edit changes the catalog");
    write(&path, &new);
}

/// The example catalog without its `invoice_send_reminder` tool: a major change.
fn without_reminder_tool(t: &str) -> String {
    let start = t.find("tool \"invoice_send_reminder\"").expect("tool");
    let end = t[start..].find("\n}\n").expect("end of tool") + start + 3;
    format!("{}{}", &t[..start], &t[end..])
}

/// `catalogc lock` in `repo`, so a change that is meant to fail `breaking` alone keeps its
/// lock in step.
fn relock(repo: &Path) {
    let status = Command::new(catalogc_bin())
        .args(["lock", "catalogs"])
        .current_dir(repo)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("catalogc runs");
    assert!(status.success());
}

/// A stand-in for a catalogc built before `gen` and `fmt` existed: those subcommands are
/// unknown (clap's usage error, exit 2), everything else is the real binary.
fn catalogc_without_gen(dir: &Path) -> PathBuf {
    let bin = dir.join("old-catalogc");
    let script = format!(
        "#!/bin/sh\ncase \"$1\" in gen|fmt) echo \"error: unrecognized subcommand '$1'\" >&2; exit 2;; esac\nexec '{}' \"$@\"\n",
        catalogc_bin().display()
    );
    write(&bin.join("catalogc"), &script);
    let mut cmd = Command::new("chmod");
    assert!(
        cmd.arg("+x")
            .arg(bin.join("catalogc"))
            .status()
            .expect("chmod")
            .success()
    );
    bin
}

#[test]
fn a_clean_change_passes_and_fetches_the_base_of_a_shallow_checkout() {
    // A comment: no contract changes, the lock still matches; a `generated/` folder, but a
    // catalogc without `gen`, so that check is skipped, not failed.
    let pr = PullRequest::new(|repo| {
        edit_catalog(repo, |t| format!("{t}\n// Reviewed.\n"));
        write(&repo.join("generated/README.md"), "generated code\n");
    });
    let old = catalogc_without_gen(pr.tmp.path());
    let run = pr.run(&[], &[&old]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("fetching it"), "{}", run.stdout);
    assert!(
        has_commit(&pr.work(), &pr.base),
        "the base commit was fetched"
    );
    assert!(!run.stdout.contains("::error"), "{}", run.stdout);
    let against = format!("✅ passed: against `{}` |", &pr.base[..12]);
    run.assert_results(&[
        ("lint", "✅ passed |"),
        ("breaking", &against),
        ("lock", "✅ passed |"),
        ("gen", "⏭️ skipped: this catalogc has no `gen` command |"),
    ]);
    assert!(
        run.summary
            .contains("## catalogc breaking\n\nNo contract changes.\n")
    );
    // The SARIF of a clean run: valid, no results, named as a step output for the upload.
    let sarif_path = run.runner_temp.join("catalogc-lint.sarif");
    assert!(
        run.outputs
            .contains(&format!("sarif-file={}\n", sarif_path.display())),
        "{}",
        run.outputs
    );
    let sarif: serde_json::Value = serde_json::from_str(&read(&sarif_path)).expect("SARIF");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn a_lint_failure_fails_with_annotations_and_sarif() {
    // An `allow` without a reason: a lint error that changes no hash and no contract.
    let pr = PullRequest::new(|repo| {
        edit_catalog(repo, |t| {
            t.replacen(
                "tool \"invoice_get\" version=\"2.1.0\" {\n",
                "tool \"invoice_get\" version=\"2.1.0\" {\n    allow \"errors/undeclared\"\n",
                1,
            )
        })
    });
    let run = pr.run(&[], &[]);
    assert_eq!(run.code, 1);
    run.assert_annotation(
        "::error file=catalogs/billing.kdl,line=",
        "lint/allow-without-reason",
    );
    run.assert_results(&[
        ("lint", "❌ failed |"),
        ("breaking", "✅ passed"),
        ("lock", "✅ passed |"),
    ]);
    let sarif: serde_json::Value =
        serde_json::from_str(&read(&run.runner_temp.join("catalogc-lint.sarif"))).expect("SARIF");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "lint/allow-without-reason"),
        "{sarif}"
    );
}

#[test]
fn a_breaking_change_fails_with_the_report_in_the_summary() {
    // A tool removed without a major version: breaking fails; the lock was rewritten, so the
    // lock check passes and the failure is breaking's alone.
    let pr = PullRequest::new(|repo| {
        edit_catalog(repo, without_reminder_tool);
        relock(repo);
    });
    let run = pr.run(&[], &[]);
    assert_eq!(run.code, 1);
    run.assert_results(&[
        ("lint", "✅ passed |"),
        ("breaking", "❌ failed"),
        ("lock", "✅ passed |"),
    ]);
    assert!(
        run.summary
            .contains("## catalogc breaking\n\n| catalog | tool |")
    );
    run.assert_results(&[("`billing`", "`invoice_send_reminder` | removed |")]);
    assert!(run.summary.contains("**Errors**"), "{}", run.summary);
    // The changelog follows, with every change of the pull request.
    assert!(
        run.summary.contains("\n## Changelog\n\n### Catalog "),
        "{}",
        run.summary
    );
    assert!(
        run.summary.contains("#### `invoice_send_reminder` `"),
        "{}",
        run.summary
    );
    run.assert_annotation(
        "::error file=catalogs/billing.kdl",
        "compat/version-unchanged",
    );
    // `policy: no-major` fails the same change even with the catalog's major version bumped.
    let pr = PullRequest::new(|repo| {
        edit_catalog(repo, |t| {
            without_reminder_tool(t).replacen(
                "catalog \"billing\" version=\"2.2.0\"",
                "catalog \"billing\" version=\"3.0.0\"",
                1,
            )
        });
        relock(repo);
    });
    assert_eq!(pr.run(&[], &[]).code, 0);
    let run = pr.run(&[("CATALOGC_POLICY", "no-major")], &[]);
    assert_eq!(run.code, 1);
    run.assert_results(&[("breaking", "❌ failed")]);
}

#[test]
fn deny_warnings_fails_on_a_lint_warning() {
    // A type no tool uses: a lint warning, and no change to any contract or hash.
    let pr = PullRequest::new(|repo| {
        edit_catalog(repo, |t| {
            format!(
                "{t}\ntype \"LegacyInvoice\" {{\n    doc \"Kept for old clients.\"\n    field \"invoice_reference\" \"string\" required=#true max-length=32 {{ doc \"The number.\"; }}\n}}\n"
            )
        })
    });
    let run = pr.run(&[("CATALOGC_CHECKS", "lint,breaking")], &[]);
    assert_eq!(run.code, 0);
    run.assert_annotation("::warning file=catalogs/billing.kdl", "catalog/unused-type");
    run.assert_results(&[("lint", "✅ passed |"), ("breaking", "✅ passed")]);
    let run = pr.run(
        &[
            ("CATALOGC_CHECKS", "lint,breaking"),
            ("CATALOGC_DENY_WARNINGS", "true"),
        ],
        &[],
    );
    assert_eq!(run.code, 1);
    run.assert_results(&[("lint", "❌ failed |"), ("breaking", "✅ passed")]);
}

#[test]
fn selected_checks_and_bad_inputs() {
    let pr = PullRequest::new(|repo| edit_catalog(repo, |t| format!("{t}\n// Reviewed.\n")));
    let run = pr.run(&[("CATALOGC_CHECKS", "lint, lock")], &[]);
    assert_eq!(run.code, 0);
    assert!(!run.summary.contains("| breaking |"), "{}", run.summary);
    assert!(!run.summary.contains("| gen |"), "{}", run.summary);
    assert!(
        !has_commit(&pr.work(), &pr.base),
        "no base fetched without breaking"
    );
    for (input, value, message) in [
        ("CATALOGC_CHECKS", "lint,fmt", "unknown check `fmt`"),
        ("CATALOGC_POLICY", "strict", "`strict` is not a policy"),
        ("CATALOGC_DENY_WARNINGS", "yes", "expected true or false"),
    ] {
        let run = pr.run(&[(input, value)], &[]);
        assert_eq!(run.code, 2, "{input}={value}");
        assert!(
            run.stdout.starts_with("::error title=catalogc action::")
                && run.stdout.contains(message),
            "{}",
            run.stdout
        );
    }
    // A push that created a branch has no commit before it: breaking is skipped, not failed.
    write(
        &pr.tmp.path().join("event.json"),
        r#"{"before": "0000000000000000000000000000000000000000"}"#,
    );
    let run = pr.run(
        &[
            ("CATALOGC_CHECKS", "breaking"),
            ("GITHUB_EVENT_NAME", "push"),
        ],
        &[],
    );
    assert_eq!(run.code, 0);
    run.assert_results(&[("breaking", "⏭️ skipped: no base commit for a `push` event")]);
}

#[test]
fn install_reuses_a_cached_binary_and_key_names_the_version() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root_dir = tmp.path().join("cache");
    std::fs::create_dir_all(root_dir.join("bin")).expect("mkdir");
    std::fs::copy(catalogc_bin(), root_dir.join("bin/catalogc")).expect("copy");
    let github_path = tmp.path().join("path");
    let outputs = tmp.path().join("outputs");
    let run = |mode: &str| {
        Command::new("bash")
            .arg(root().join("action/run.sh"))
            .arg(mode)
            .env("CATALOGC_ROOT", &root_dir)
            .env("GITHUB_PATH", &github_path)
            .env("GITHUB_OUTPUT", &outputs)
            // No cargo: a cache hit must not build.
            .env("PATH", "/usr/bin:/bin")
            .output()
            .expect("bash runs")
    };
    let out = run("install");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let version = env!("CARGO_PKG_VERSION");
    assert!(stdout.contains(&format!("catalogc {version} already installed")));
    assert_eq!(
        read(&github_path),
        format!("{}\n", root_dir.join("bin").display())
    );
    let out = run("key");
    assert!(out.status.success());
    let key = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let digest = key
        .strip_prefix(&format!("{version}-"))
        .unwrap_or_else(|| panic!("{key}"));
    assert!(digest.len() == 16 && digest.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(read(&outputs), format!("key={key}\n"));
}

/// action.yml is checked against the published schema by `.ci/run` (check-jsonschema's
/// vendored SchemaStore `github-action.json`); this test pins what the schema cannot know:
/// every step runs this script, and every variable the script reads is set.
#[test]
fn action_yml_runs_this_script_with_every_input_it_reads() {
    let yml = read(&root().join("action.yml"));
    let script = read(&root().join("action/run.sh"));
    for mode in ["key", "install", "check"] {
        assert!(
            yml.contains(&format!(
                "run: '\"$GITHUB_ACTION_PATH/action/run.sh\" {mode}'"
            )),
            "action.yml runs `run.sh {mode}`"
        );
    }
    let mut vars: Vec<&str> = script
        .match_indices("CATALOGC_")
        .map(|(i, _)| {
            let rest = &script[i..];
            let end = rest
                .find(|c: char| !(c.is_ascii_uppercase() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        // `CATALOGC_*` in a comment names no variable.
        .filter(|v| v.len() > "CATALOGC_".len())
        .collect();
    vars.sort_unstable();
    vars.dedup();
    assert!(vars.len() >= 7, "{vars:?}");
    for v in vars {
        assert!(yml.contains(&format!("{v}: ${{{{")), "action.yml sets {v}");
    }
}
