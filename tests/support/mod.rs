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
