//! `cargo +nightly fuzz run breaking`: `breaking` on two catalog files, the input split at its
//! first NUL byte into the old and the new one. Never a panic or hang; every report format
//! (human, JSON, SARIF, GitHub, Markdown) renders under both policies; a catalog compared with
//! itself has no change.
#![no_main]

use catalogc::compat::{self, Policy, report};
use catalogc::contract::Templates;
use catalogc::project;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let (old, new) = src.split_once('\0').unwrap_or((src, src));
    let old = project::load_source("old.kdl", old.to_string());
    let new = project::load_source("new.kdl", new.to_string());
    let templates = Templates::builtin();
    let hashes = |c: &_, t: &_| compat::order_insensitive_hashes(c, t, &templates).ok();
    let result = compat::compare(&old.project.catalogs, &new.project.catalogs, hashes);
    let sources = report::Sources {
        old: &old.sources,
        new: &new.sources,
    };
    let mut out = Vec::new();
    for policy in [Policy::Semver, Policy::NoMajor] {
        report::write_human(&mut out, &result, sources, policy).expect("writes to a Vec");
        report::write_github(&mut out, &result, sources, policy).expect("writes to a Vec");
        report::write_markdown(&mut out, &result, sources, policy).expect("writes to a Vec");
        let _ = report::to_sarif(&result, sources, policy);
        let _ = result.exit_code(policy);
    }
    report::write_json(&mut out, &result, sources).expect("writes to a Vec");

    let same = compat::compare(&new.project.catalogs, &new.project.catalogs, hashes);
    let changes: Vec<_> = same.changes().map(|(_, t, c)| (&t.name, c)).collect();
    assert!(changes.is_empty(), "a catalog differs from itself: {changes:?}");
});
