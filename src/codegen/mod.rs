//! Rust code for catalogs (codegen.md): per catalog one `NAME.rs` a server crate includes
//! (per tool a module with its constants, typed `Input`/`Output`, `Error` and contract
//! checks; one handler trait; the [`Catalog`](crate::runtime::Catalog) implementation that
//! serves it) and `NAME.tools.json`, the MCP `tools/list` payload.
//!
//! Pure: no IO. `plan` resolves every Rust name first, `emit` builds tokens with
//! `quote!`, `prettyplease` prints them, and the `@generated` header goes on top. Hashes,
//! descriptions and tool definitions come from [`Artifacts`], never recomputed here.

mod emit;
mod plan;
mod schemars;

use crate::contract::Artifacts;
use crate::model::{Catalog, Field, Project, Ty, TyKind};
use crate::names::{Case, Unique, rust_ident};

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
        let source = opts
            .source_names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("{}.kdl", cat.name.value));
        let contracts = artifacts
            .catalogs
            .get(i)
            .map(|c| c.tools.as_slice())
            .unwrap_or_default();
        let code = match open_object(cat) {
            // Generated structs are closed (their serde denies unknown fields): an open
            // object has no Rust form yet, and a silently closed one would reject what the
            // schema admits. The build of the including crate stops with this message.
            Some(at) => {
                let why = format!(
                    "catalogc: `{at}` in catalog `{}` is an open object (`extra`), which generated code cannot express yet; use a `map` field for the free properties, or leave this catalog out of code generation",
                    cat.name.value
                );
                format!("::core::compile_error!({why:?});\n")
            }
            None => print(emit::catalog(&plan::plan(cat), contracts, opts)),
        };
        out.push(File {
            name: format!("{stem}.rs"),
            contents: format!("{}{}", header(&source), code),
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

/// The path of the first open object (`object` with `extra`) of `cat`: `Type.field` or
/// `tool.input.field`, as lint writes paths.
fn open_object(cat: &Catalog) -> Option<String> {
    fn in_fields(fields: &[Field], path: &str) -> Option<String> {
        fields
            .iter()
            .find_map(|f| in_ty(&f.ty, &format!("{path}.{}", f.name.value)))
    }
    fn in_ty(ty: &Ty, path: &str) -> Option<String> {
        match &ty.kind {
            TyKind::Object(o) if o.extra.is_some() => Some(path.to_string()),
            TyKind::Object(o) => in_fields(&o.fields, path),
            TyKind::Array(a) => in_ty(&a.items, &format!("{path}[]")),
            TyKind::Map(m) => in_ty(&m.values, &format!("{path}{{}}")),
            TyKind::Union(u) => u
                .variants
                .iter()
                .find_map(|v| in_fields(&v.fields.fields, &format!("{path}<{}>", v.name.value))),
            _ => None,
        }
    }
    let types = cat
        .types
        .iter()
        .find_map(|t| in_fields(&t.fields, &t.name.value));
    types.or_else(|| {
        cat.tools.iter().find_map(|t| {
            let name = &t.name.value;
            in_fields(&t.input.fields, &format!("{name}.input")).or_else(|| {
                let output = t.output.as_ref()?;
                in_fields(&output.fields, &format!("{name}.output"))
            })
        })
    })
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

fn print(tokens: proc_macro2::TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens) {
        Ok(file) => prettyplease::unparse(&file),
        // Unreachable for tokens `emit` builds; if it happens, the build says why.
        Err(e) => {
            let why = format!("catalogc: {e}");
            format!("::core::compile_error!({why:?});\n")
        }
    }
}

#[cfg(test)]
mod tests;
