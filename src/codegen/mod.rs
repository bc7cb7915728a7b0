//! Rust code for catalogs (codegen.md): per catalog one `NAME.rs` a server crate includes
//! (per tool a module with its constants, typed `Input`/`Output`, `Error` and contract
//! checks; one handler trait; the [`Catalog`](crate::runtime::Catalog) implementation that
//! serves it) and `NAME.tools.json`, the MCP `tools/list` payload.
//!
//! Pure: no IO. `plan` resolves every Rust name first, `emit` builds tokens with
//! `quote!`, `print` lays them out as source (without parsing them back), and the
//! `@generated` header goes on top. Hashes,
//! descriptions and tool definitions come from [`Artifacts`], never recomputed here.

mod emit;
mod plan;
mod print;
#[cfg(any(test, feature = "test-support"))]
mod retoken;
mod schemars;

use crate::contract::Artifacts;
use crate::model::{Catalog, Project};
use crate::names::{Case, Unique, rust_ident};
use proc_macro2::TokenStream;

/// What to generate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The catalog source file name for the header, per catalog (e.g. `billing.kdl`);
    /// missing entries default to `NAME.kdl`.
    pub source_names: Vec<String>,
    /// Derive `schemars::JsonSchema` on every generated type, with the attributes that make
    /// its schema carry the catalog's bounds (needs catalogc's `schemars` feature in the
    /// crate that compiles the code).
    pub json_schema_derive: bool,
}

/// One generated file: its name (no folder) and contents. Generation does no IO: the caller
/// (`catalogc gen`, the [`Builder`](crate::Builder)) decides where it goes and writes it only
/// when its bytes changed, so an unchanged catalog never triggers a rebuild.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// The file name, e.g. `billing.rs`: the catalog's stem plus what the file holds.
    pub name: String,
    /// The whole file, deterministic for the same catalogs and options.
    pub contents: String,
}

/// Whether `file` is Rust source (the code `include_catalog!` includes), as opposed to the
/// JSON or Markdown written beside it.
pub fn is_rust(file: &File) -> bool {
    file.name.ends_with(".rs")
}

/// Per catalog, in project order: `STEM.rs` then `STEM.tools.json`, where `STEM` is the
/// catalog name as a Rust module name (what `include_catalog!` takes), distinct per project.
pub fn generate(project: &Project, artifacts: &Artifacts, opts: &Options) -> Vec<File> {
    let mut stems = Unique::new();
    let mut out = Vec::with_capacity(project.catalogs.len() * 2);
    for (i, cat) in project.catalogs.iter().enumerate() {
        let stem = file_stem(&mut stems, &cat.name.value);
        let tokens = catalog_tokens(i, cat, artifacts, opts);
        out.push(File {
            name: format!("{stem}.rs"),
            contents: rust_file(&source_name(i, cat, opts), tokens),
        });
        let mut json = artifacts.catalog_tools_list(i).to_pretty_string();
        json.push('\n');
        out.push(File {
            name: format!("{stem}.tools.json"),
            contents: json,
        });
    }
    out
}

/// Checks, for every catalog, that the Rust file [`generate`] writes reads back as exactly
/// the tokens built for it (whitespace and the spelling of doc comments and string literals
/// aside), so printing cannot change what the code means. Tests and the codegen fuzz target
/// run it.
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub fn check_printed(
    project: &Project,
    artifacts: &Artifacts,
    opts: &Options,
) -> Result<(), String> {
    for (i, cat) in project.catalogs.iter().enumerate() {
        let tokens = catalog_tokens(i, cat, artifacts, opts);
        let text = rust_file(&source_name(i, cat, opts), tokens.clone());
        retoken::same_tokens(tokens, &text)
            .map_err(|e| format!("catalog {:?}: {e}", cat.name.value))?;
    }
    Ok(())
}

/// The tokens of catalog `i`'s Rust file.
fn catalog_tokens(i: usize, cat: &Catalog, artifacts: &Artifacts, opts: &Options) -> TokenStream {
    let contracts = artifacts
        .catalogs
        .get(i)
        .map(|c| c.tools.as_slice())
        .unwrap_or_default();
    emit::catalog(&plan::plan(cat), contracts, opts)
}

/// The source file name the header names.
fn source_name(i: usize, cat: &Catalog, opts: &Options) -> String {
    opts.source_names
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("{}.kdl", cat.name.value))
}

/// The header, then the printed tokens.
fn rust_file(source: &str, tokens: TokenStream) -> String {
    format!("{}{}", header(source), print::print(tokens))
}

/// The catalog's file stem: its name as a module name, without `r#`.
fn file_stem(stems: &mut Unique, name: &str) -> String {
    let id = stems.claim(rust_ident(name, Case::Snake), Case::Snake);
    id.strip_prefix("r#").unwrap_or(&id).to_string()
}

/// The `@generated` header. The source name comes from the file system: anything but a plain
/// name is quoted and escaped, so a newline in it cannot end the comment.
fn header(source: &str) -> String {
    let plain = source
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'));
    let shown = if plain {
        source.to_string()
    } else {
        format!("{source:?}")
    };
    format!(
        "// @generated by catalogc from {shown}. Do not edit: change the catalog and regenerate.\n\n"
    )
}

#[cfg(test)]
mod tests;
