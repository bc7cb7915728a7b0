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
mod facts;
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
        RTy::Int(t) => {
            let t = ident(t.name());
            quote!(#t)
        }
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
        RTy::DateTime => quote!(__rt::DateTime),
        RTy::Date => quote!(__rt::Date),
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

/// `#[allow(dead_code)]` on an item of the catalog's root, where an item or method a crate
/// does not use would warn in a private module of a binary; a tool's module carries it once
/// for everything in it. Unused generated code is not a defect of the crate that includes it.
fn may_be_unused(at: At) -> TokenStream {
    match at {
        At::Root => quote!(#[allow(dead_code)]),
        At::Tool => TokenStream::new(),
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
        #[allow(dead_code)]
        pub const NAME: &str = #name;
        /// The catalog version.
        #[allow(dead_code)]
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
        Item::Enum(e) => enumeration::enumeration(e, at, opts),
        Item::Union(u) => union::union(u, at, opts),
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

/// An integer literal without a suffix (its type comes from where it stands), its digits in
/// groups of three from six digits on, as clippy's `unreadable_literal` asks.
fn int(v: impl Into<i128>) -> TokenStream {
    int_literal(v.into(), "")
}

/// The integer `v` as a literal followed by `suffix` (`i64`, or none), its digits in groups
/// of three from six digits on.
pub(super) fn int_literal(v: i128, suffix: &str) -> TokenStream {
    let digits = v.unsigned_abs();
    let plain = digits.to_string();
    let mut grouped = String::with_capacity(plain.len() * 4 / 3 + suffix.len());
    for (i, d) in plain.chars().enumerate() {
        if plain.len() > 5 && i > 0 && (plain.len() - i).is_multiple_of(3) {
            grouped.push('_');
        }
        grouped.push(d);
    }
    grouped.push_str(suffix);
    let lit = grouped
        .parse()
        .unwrap_or_else(|_| proc_macro2::Literal::u128_unsuffixed(digits));
    if v < 0 { quote!(-#lit) } else { quote!(#lit) }
}

/// An optional count as `Some(n)` or `None`.
fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => {
            let v = int(v);
            quote!(__rt::Some(#v))
        }
        None => quote!(__rt::None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_integer_literals_have_digit_separators() {
        let lit = |v: i128, suffix| int_literal(v, suffix).to_string();
        assert_eq!(lit(20, ""), "20");
        assert_eq!(lit(99_999, ""), "99999");
        assert_eq!(lit(100_000, ""), "100_000");
        assert_eq!(lit(-1_000_000, "i64"), "- 1_000_000i64");
        assert_eq!(lit(i128::from(i64::MIN), ""), "- 9_223_372_036_854_775_808");
    }
}
