//! Tokens for a planned catalog, one module per generated item: [`structure`] (a struct with
//! its serde, `Debug` and default impls), [`shape`] (its contract check, `Validate`),
//! [`enumeration`], [`union`], [`error`] (a tool's `Error`), [`tool`] (a tool's module:
//! constants, items, `Input` methods, `NeedsInput`) and [`handler`] (the handler trait and
//! the `Catalog` that dispatches to it).
//!
//! Every string from the catalog enters the tokens through `quote!`'s string literals
//! (`#text`), never as source text, so no doc, enum value or description can close a
//! literal or a comment.

mod enumeration;
mod error;
mod handler;
mod shape;
mod structure;
mod tool;
mod union;

pub(super) use handler::handler;
pub(super) use tool::module as tool;

use super::Options;
use super::plan::{CatalogPlan, Item, RTy};
use super::schemars;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// An identifier from the plan (`r#type` for a raw one).
fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// `#[doc]` lines for catalog text, one attribute per line so rustdoc reads it as written.
fn doc(text: Option<&str>) -> TokenStream {
    let Some(text) = text else {
        return TokenStream::new();
    };
    let lines = text.lines().map(|l| format!(" {}", l.trim_end()));
    quote! { #( #[doc = #lines] )* }
}

/// Where the tokens of a type are emitted: named types are `super::X` inside a tool module.
#[derive(Clone, Copy)]
enum At {
    Root,
    Tool,
}

fn rust_type(ty: &RTy, at: At) -> TokenStream {
    match ty {
        RTy::String => quote!(__rt::String),
        RTy::I64 => quote!(i64),
        RTy::F64 => quote!(f64),
        RTy::Bool => quote!(bool),
        RTy::Vec(inner) => {
            let inner = rust_type(inner, at);
            quote!(__rt::Vec<#inner>)
        }
        RTy::Map(inner) => {
            let inner = rust_type(inner, at);
            quote!(__rt::BTreeMap<__rt::String, #inner>)
        }
        RTy::Json => quote!(__rt::serde_json::Value),
        RTy::Nullable(inner) => {
            let inner = rust_type(inner, at);
            quote!(__rt::Option<#inner>)
        }
        RTy::Local(name) => {
            let id = ident(name);
            quote!(#id)
        }
        RTy::Root(name) => {
            let id = ident(name);
            match at {
                At::Root => quote!(#id),
                At::Tool => quote!(super::#id),
            }
        }
    }
}

/// The top of a catalog's file: the runtime import, the catalog's name and version, and its
/// named types.
pub(super) fn prelude(plan: &CatalogPlan<'_>, opts: &Options) -> TokenStream {
    let cat = plan.cat;
    let name = &cat.name.value;
    let version = &cat.version.value;
    let types = plan.types.iter().map(|i| item(i, At::Root, opts));
    quote! {
        use ::catalogc::runtime::support as __rt;
        /// The catalog name.
        pub const NAME: &str = #name;
        /// The catalog version.
        pub const VERSION: &str = #version;

        #(#types)*
    }
}

/// `text` as a raw string literal token (`r#"…"#`), with one `#` more than the longest run
/// after a `"` in it, so the text cannot close it. JSON is mostly quotes: unescaped, the
/// literal is shorter to print, to store and for rustc to read. A text without a quote, or
/// with a character an ordinary literal escapes (a control or a bidirectional one, which
/// rustc refuses unescaped), stays an ordinary literal.
pub(super) fn raw_str(text: &str) -> proc_macro2::Literal {
    let plain = |c: char| matches!(c, '"' | '\'' | '\\') || c.escape_debug().len() == 1;
    if !text.contains('"') || !text.chars().all(plain) {
        return proc_macro2::Literal::string(text);
    }
    let mut hashes = 0;
    for (i, _) in text.match_indices('"') {
        let run = text[i + 1..].bytes().take_while(|b| *b == b'#').count();
        hashes = hashes.max(run + 1);
    }
    let fence = "#".repeat(hashes);
    format!("r{fence}\"{text}\"{fence}")
        .parse()
        .unwrap_or_else(|_| proc_macro2::Literal::string(text))
}

/// A planned struct, enum or union.
fn item(i: &Item<'_>, at: At, opts: &Options) -> TokenStream {
    match i {
        Item::Struct(s) => structure::structure(s, at, opts),
        Item::Enum(e) => enumeration::enumeration(e, opts),
        Item::Union(u) => union::union(u, opts),
    }
}

/// The `JsonSchema` derive and container attributes, when asked for. The serde attributes
/// `serde` go with them only: schemars reads them (`deny_unknown_fields`), while the serde
/// impls are written out and need none.
fn schemars_parts(opts: &Options, serde: TokenStream) -> (TokenStream, TokenStream) {
    if opts.json_schema_derive {
        let container = schemars::container();
        let serde = if serde.is_empty() {
            serde
        } else {
            quote!(#[serde(#serde)])
        };
        (schemars::derive(), quote!(#serde #container))
    } else {
        (TokenStream::new(), TokenStream::new())
    }
}

/// An optional count as `Some(n)` or `None`.
fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => quote!(__rt::Some(#v)),
        None => quote!(__rt::None),
    }
}
