//! Support for tests and benchmarks: models built in code, catalogs loaded with no error
//! allowed, contracts from the built-in templates, and synthetic catalogs of any size.
//!
//! Compiled for this crate's own unit tests and, behind the `test-support` feature, for the
//! integration tests and benchmarks (the crate is its own dev-dependency with that feature),
//! so no release build carries it. Everything here may panic: a failed expectation in a
//! test is a test failure.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod fixture;
mod synth;

pub use fixture::Fx;

pub use synth::{
    chain_catalog, dag_catalog, synthetic_catalog, synthetic_catalog_nested, synthetic_catalog_part,
};

use crate::contract::{Artifacts, Templates, ToolContract, ToolHashes};
use crate::diag::Level;
use crate::model::*;
use crate::project::{self, LoadOptions, Loaded};
use std::path::PathBuf;

/// `value` at an empty span.
pub fn sp<T>(value: T) -> Sp<T> {
    Sp::new(value, Span::default())
}

/// Optional text at an empty span.
pub fn text(value: &str) -> Option<Sp<String>> {
    Some(sp(value.to_string()))
}

/// An unconstrained string type.
pub fn string() -> TyKind {
    TyKind::String(Box::default())
}

/// An object type of `fields`.
pub fn object(fields: Vec<Field>) -> TyKind {
    TyKind::Object(Object {
        fields,
        span: Span::default(),
        extra: None,
    })
}

/// A tool of `effect` with these input fields and, when given, output fields.
pub fn tool_with(
    name: &str,
    effect: Effect,
    input: Vec<Field>,
    output: Option<Vec<Field>>,
) -> Tool {
    Tool {
        input: Object {
            fields: input,
            span: Span::default(),
            extra: None,
        },
        output: output.map(|fields| Object {
            fields,
            span: Span::default(),
            extra: None,
        }),
        ..Tool::new(name, "1.0.0", effect)
    }
}

/// Catalog `name` with these tools and types.
pub fn catalog_with(name: &str, tools: Vec<Tool>, types: Vec<TypeDef>) -> Catalog {
    Catalog {
        types,
        tools,
        ..Catalog::new(name)
    }
}

/// The contracts of every tool of `project`, descriptions from the built-in templates.
pub fn artifacts(project: &Project) -> Artifacts {
    Artifacts::build(project, &Templates::builtin()).expect("the built-in templates render")
}

/// The contract of one tool, description from the built-in templates.
pub fn contract(cat: &Catalog, tool: &Tool) -> ToolContract {
    ToolContract::build(cat, tool, &Templates::builtin()).expect("the built-in templates render")
}

/// `breaking`'s order-insensitive hashes, descriptions from the built-in templates.
pub fn order_insensitive_hashes(cat: &Catalog, tool: &Tool) -> ToolHashes {
    crate::compat::order_insensitive_hashes(cat, tool, &Templates::builtin())
        .expect("the built-in templates render")
}

/// Loads catalog files or folders and fails the test on any error-level diagnostic.
pub fn load_clean(paths: &[PathBuf]) -> Loaded {
    let loaded = project::load(paths, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{paths:?} does not load: {e}"));
    assert_clean(loaded)
}

/// Loads one catalog from text and fails the test on any error-level diagnostic.
pub fn load_clean_source(name: &str, text: impl Into<String>) -> Loaded {
    assert_clean(project::load_source(name, text))
}

/// Loads the one catalog in file `path` and fails the test on any error-level diagnostic.
pub fn load_clean_catalog(path: &std::path::Path) -> Catalog {
    let mut loaded = load_clean(&[path.to_path_buf()]);
    assert_eq!(loaded.project.catalogs.len(), 1, "{}", path.display());
    loaded.project.catalogs.remove(0)
}

fn assert_clean(loaded: Loaded) -> Loaded {
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.level == Level::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    loaded
}

/// The error object of a JSON-RPC response holding an MCP tool error: its JSON text block.
/// Asserts what the wire promises: `isError`, and no `structuredContent` (which MCP reserves
/// for output conforming to the `outputSchema`).
pub fn tool_error(response: &serde_json::Value) -> serde_json::Value {
    let result = &response["result"];
    assert_eq!(result["isError"], serde_json::json!(true), "{response}");
    assert_eq!(result.get("structuredContent"), None, "{response}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {response}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_models_render_and_hash() {
        let t = tool_with(
            "ledger_entry_get",
            Effect::Read,
            vec![Field {
                required: true,
                ..Field::new("entry_id", string())
            }],
            None,
        );
        let cat = catalog_with("ledger", vec![t], vec![]);
        let project = Project {
            catalogs: vec![cat.clone()],
        };
        let art = artifacts(&project);
        assert_eq!(art.tool(0, 0), Some(&contract(&cat, &cat.tools[0])));
        assert_eq!(
            art.tools_list(&project)["tools"][0]["inputSchema"]["required"],
            serde_json::json!(["entry_id"])
        );
    }

    #[test]
    fn synthetic_catalogs_load_clean() {
        let loaded = load_clean_source("synthetic.kdl", synthetic_catalog("synthetic", 12));
        assert_eq!(loaded.tool_count(), 12);
    }
}
