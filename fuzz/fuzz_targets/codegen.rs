//! `cargo +nightly fuzz run codegen`: code generation for any catalog that loads without
//! errors, with and without schemars derives. Never a panic or hang; every generated Rust
//! file parses with `syn` as a file of items, and every generated JSON file is JSON.
#![no_main]

use catalogc::codegen::{self, Options};
use catalogc::contract::{Artifacts, Templates};
use catalogc::diag::Level;
use catalogc::project;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let loaded = project::load_source("fuzz.kdl", src.to_string());
    if loaded.diagnostics.iter().any(|d| d.level == Level::Error) {
        return;
    }
    let Ok(artifacts) = Artifacts::build(&loaded.project, &Templates::builtin()) else {
        return;
    };
    for json_schema_derive in [false, true] {
        let opts = Options {
            json_schema_derive,
            ..Options::default()
        };
        for file in codegen::generate(&loaded.project, &artifacts, &opts) {
            if codegen::is_rust(&file) {
                if let Err(e) = syn::parse_file(&file.contents) {
                    panic!("{} does not parse: {e}\n{}", file.name, file.contents);
                }
            } else {
                let parsed: Result<serde_json::Value, _> = serde_json::from_str(&file.contents);
                assert!(parsed.is_ok(), "{} is not JSON", file.name);
            }
        }
    }
});
