//! `cargo +nightly fuzz run pipeline`: what `lint`, `hash` and `export` do with a catalog file,
//! end to end: load, build every contract, lint, render the findings in every format (human,
//! JSON, SARIF, GitHub), export (tools-json, the providers', eval, vectors).
//! Never a panic or hang; every finding points inside its file; `export tools-json` is JSON
//! that reads back as itself, byte for byte what serde_json prints for it; building the
//! contracts twice gives the same hashes.
#![no_main]

use catalogc::contract::targets::{self, Target};
use catalogc::contract::{Artifacts, Templates, vectors};
use catalogc::diag::Level;
use catalogc::diag::emit::{self, Summary, sarif};
use catalogc::lint::docs::LintRules;
use catalogc::lint::{self, Config};
use catalogc::model::codes::CoreRules;
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
    let ids = records.iter().map(|r| r.rule.as_str());
    let rules = sarif::used_rules(ids, &[&LintRules, &CoreRules]);
    let _ = sarif::to_sarif(&records, &rules, sarif::Shape::DIAGNOSTICS);

    // `export tools-json` prints the view without building a tree: it must print what
    // serde_json prints for the tree, and read back as it.
    let list = artifacts.tools_list(&loaded.project);
    let mut export = Vec::new();
    let view = artifacts.tools_list_view(&loaded.project);
    view.write_pretty(&mut export).expect("writes to a Vec");
    let back: serde_json::Value = serde_json::from_slice(&export).expect("export is JSON");
    assert_eq!(back, list, "the export reads back as itself");
    let tree = serde_json::to_vec_pretty(&list).expect("a JSON value serialises");
    assert!(export == tree, "the streamed export differs from the tree's");
    if loaded.diagnostics.iter().all(|d| d.level != Level::Error) {
        // The other exports, which run only on catalogs without errors.
        for target in [Target::Openai, Target::Anthropic, Target::Gemini] {
            let _ = targets::export(target, &loaded.project, &artifacts);
        }
        let _ = catalogc::eval::eval_jsonl(&loaded.project);
        let _ = vectors::records(&loaded.project, &artifacts);
    }

    let again = Artifacts::build(&loaded.project, &templates).expect("built once already");
    for (a, b) in artifacts.catalogs.iter().zip(&again.catalogs) {
        for (a, b) in a.tools.iter().zip(&b.tools) {
            assert_eq!(a.hashes(), b.hashes(), "hashes are deterministic");
        }
    }
});
