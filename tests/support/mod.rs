//! Helpers shared by the integration tests; each test crate uses a part of them.
#![allow(dead_code)]

use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use std::path::Path;

/// Runs git in `dir` with a fixed identity and none of the user's signing or hooks, so tests
/// that build throwaway repositories behave the same on every machine.
pub fn git(dir: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// The repository root, for catalogc's own test crates (where `CARGO_MANIFEST_DIR` is it).
pub fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The standard output of `catalogc export WHAT PATHS…` run from [`root`], which must exit 0.
pub fn export(what: &str, paths: &[&str]) -> String {
    // `option_env!`: the consumer crate includes these helpers too and has no such binary.
    let Some(bin) = option_env!("CARGO_BIN_EXE_catalogc") else {
        panic!("only catalogc's own test crates have the binary");
    };
    let out = std::process::Command::new(bin)
        .arg("export")
        .arg(what)
        .args(paths)
        .current_dir(root())
        .output()
        .expect("catalogc runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// `cases` random cases (or `PROPTEST_CASES`); under CI a fixed seed, so a run there is
/// reproducible, while local runs keep exploring new inputs.
pub fn proptest_config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        ..ProptestConfig::default()
    };
    if std::env::var_os("CI").is_some() {
        c.rng_seed = RngSeed::Fixed(0x6b64_6c32);
    }
    c
}

/// The vendored official KDL test suite (`tests/kdl-test-suite`, CC BY-SA 4.0): its
/// `test_cases` folder. Missing files fail loudly rather than letting a test pass on nothing.
pub fn kdl_suite_cases() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kdl-test-suite/test_cases");
    assert!(
        dir.join("input").is_dir(),
        "the vendored KDL test suite is missing at {}",
        dir.display()
    );
    dir
}

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic into `Err(message)` without printing it. Proptest re-runs a
/// failing case at every shrink step, and the default hook printed each panic (thousands of
/// lines that buried the cause); this way the cause is reported once, in proptest's final
/// verdict. The hook is silenced for this thread only, so parallel tests still report theirs.
pub fn quietly<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    r.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "panic with a non-string payload".to_owned())
    })
}

/// `quietly` for a property body: a panic becomes the case's failure, reported once.
pub fn prop_quietly<R>(f: impl FnOnce() -> R) -> Result<R, proptest::test_runner::TestCaseError> {
    quietly(f).map_err(|m| proptest::test_runner::TestCaseError::fail(format!("panicked: {m}")))
}

/// Every file below `dir` whose name ends in `.EXT`, appended to `out` (in no set order).
pub fn files_with_extension(dir: &Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_with_extension(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}
