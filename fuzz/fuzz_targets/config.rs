//! `cargo +nightly fuzz run config`: the project configuration reader (`catalogc.kdl`). Never
//! a panic or hang; every problem points inside the file.
#![no_main]

use catalogc::config::ProjectConfig;
use catalogc::diag::{SourceFile, SourceMap};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut sources = SourceMap::default();
    let id = sources.add(SourceFile::new("catalogc.kdl", text.to_string()));
    let parsed = catalogc::syntax::parse(text);
    if !parsed.errors.is_empty() {
        return;
    }
    if let Err(diags) = ProjectConfig::from_document(&parsed.document, id, Path::new("")) {
        assert!(!diags.is_empty(), "an error names its problems");
        for d in &diags {
            assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?}");
        }
    }
});
