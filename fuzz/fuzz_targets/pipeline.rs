//! `cargo +nightly fuzz run pipeline`: what `lint`, `hash` and `export` do with a catalog file,
//! end to end: load, build every contract, lint, render the findings in every format, export.
//! Never a panic or hang; every finding points inside its file; the export is JSON that reads
//! back as itself; building the contracts twice gives the same hashes.
#![no_main]

use catalogc::contract::{Artifacts, Templates};
use catalogc::diag::emit::{self, Summary};
use catalogc::lint::{self, Config};
use catalogc::project;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let loaded = project::load_source("fuzz.kdl", src.to_string());
    let templates = Templates::builtin();
    let Ok(artifacts) = Artifacts::build(&loaded.project, &templates) else {
        return;
    };
    let diags = lint::check_project(&loaded, &Config::default(), &artifacts);
    for d in &diags {
        let len = loaded.sources.get(d.file).text.len();
        assert!(d.span.start <= d.span.end && d.span.end <= len, "{d:?}");
    }
    let summary = Summary::new(&diags, loaded.tool_count(), loaded.project.catalogs.len());
    let human = emit::human::render(&diags, &loaded.sources, &summary, false);
    assert!(!human.contains('\u{1b}'), "escape sequence in uncoloured output");
    let records = emit::records(&diags, &loaded.sources);
    let _ = emit::json::to_json(&records, &summary);
    let _ = emit::github::render(&records, true);

    let export = serde_json::to_string(&artifacts.tools_list(&loaded.project));
    let export = export.expect("a JSON value serialises");
    let back: serde_json::Value = serde_json::from_str(&export).expect("export is JSON");
    assert_eq!(back, artifacts.tools_list(&loaded.project));

    let again = Artifacts::build(&loaded.project, &templates).expect("built once already");
    for (a, b) in artifacts.catalogs.iter().zip(&again.catalogs) {
        for (a, b) in a.tools.iter().zip(&b.tools) {
            assert_eq!(a.hashes(), b.hashes(), "hashes are deterministic");
        }
    }
});
