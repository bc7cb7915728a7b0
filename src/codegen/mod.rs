//! Rust code for catalogs (codegen.md): per catalog one `NAME.rs` a server crate includes
//! (per tool a module with its constants, typed `Input`/`Output`, `Error` and contract
//! checks; one handler trait; the [`Catalog`](crate::runtime::Catalog) implementation that
//! serves it) and `NAME.tools.json`, the MCP `tools/list` payload.
//!
//! Pure: no IO. `plan` resolves every Rust name first, `emit` builds tokens with
//! `quote!`, `syn` parses them into a syntax tree, `prettyplease` lays it out, and the
//! `@generated` header goes on top. Hashes, descriptions and tool definitions come from
//! [`Artifacts`], never recomputed here.

mod emit;
mod plan;
mod schemars;

use crate::contract::Artifacts;
use crate::model::{Catalog, Project};
use crate::names::{Case, Unique, rust_ident};
use proc_macro2::TokenStream;
use rayon::prelude::*;

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
    /// The project's `guard { … }`: stated as `Catalog::GUARD`, the budgets a server of the
    /// catalog holds every session to.
    pub guard: Option<crate::runtime::Guard>,
    /// The project's profiles: stated as `Catalog::PROFILES`, which a server checks itself
    /// against when started with one (`Server::with_profile`).
    pub profiles: Vec<ProfileSpec>,
}

/// One `profile "NAME" { … }` of the project, as generated code states it
/// (`catalogc::runtime::Profile`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileSpec {
    /// The profile's name.
    pub name: String,
    /// `disable "TOOL"…`.
    pub disable: Vec<String>,
    /// `require-approval "EFFECT"…`.
    pub require_approval: Vec<String>,
    /// `require-guard`.
    pub require_guard: bool,
    /// `forbid-mock`.
    pub forbid_mock: bool,
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
        out.push(File {
            name: format!("{stem}.rs"),
            contents: format!(
                "{}{}",
                header(&source_name(i, cat, opts)),
                catalog_source(i, cat, artifacts, opts)
            ),
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

/// The Rust source of catalog `i`: the prelude and named types, each tool's module, then
/// the handler trait and `Catalog`. Each part is parsed and printed on its own, a large
/// catalog's tool modules on every core (the tokens are built on the thread that prints
/// them); printing a file's items one by one lays them out as printing the whole file does.
fn catalog_source(i: usize, cat: &Catalog, artifacts: &Artifacts, opts: &Options) -> String {
    let contracts = artifacts
        .catalogs
        .get(i)
        .map(|c| c.tools.as_slice())
        .unwrap_or_default();
    let plan = plan::plan(cat);
    let tools: Vec<_> = plan.tools.iter().zip(contracts).collect();
    let mut out = print(emit::prelude(&plan, opts));
    let modules: Vec<String> = tools
        .par_iter()
        .map(|(t, c)| print(emit::tool(t, c, opts)))
        .collect();
    out.extend(modules);
    out.push_str(&print(emit::handler(&plan, opts)));
    out
}

/// `tokens`, a sequence of items, as prettyplease lays them out. `emit` builds only items
/// that parse; should one not, the file holds a `compile_error!` saying why, so the build
/// that includes it stops there.
fn print(tokens: TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens) {
        Ok(file) => prettyplease::unparse(&file),
        Err(e) => {
            let why = format!("catalogc generated code that does not parse: {e}");
            format!("::core::compile_error!({why:?});\n")
        }
    }
}

/// The source file name the header names.
fn source_name(i: usize, cat: &Catalog, opts: &Options) -> String {
    opts.source_names
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("{}.kdl", cat.name.value))
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
