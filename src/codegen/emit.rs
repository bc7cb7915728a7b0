//! Tokens for a planned catalog. Every string from the catalog enters the tokens through
//! `quote!`'s string literals (`#text`), never as source text, so no doc, enum value or
//! description can close a literal or a comment.

use super::Options;
use super::plan::{CatalogPlan, EnumPlan, FieldPlan, Item, RTy, StructPlan, ToolPlan, UnionPlan};
use crate::contract::ToolContract;
use crate::model::{
    CURSOR_DEFAULT_MAX_LENGTH, ConfirmDigest, ContentKind, Literal, Num, NumTy, StringTy, Ty,
    TyKind,
};
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

/// The catalog's whole file (without the header).
pub fn catalog(plan: &CatalogPlan<'_>, contracts: &[ToolContract], opts: &Options) -> TokenStream {
    let cat = plan.cat;
    let name = &cat.name.value;
    let version = &cat.version.value;
    let cat_doc = doc(cat.summary.as_ref().map(|s| s.value.as_str()));
    let types = plan.types.iter().map(|i| item(i, At::Root, opts));
    let tools = plan
        .tools
        .iter()
        .zip(contracts)
        .map(|(t, c)| tool_module(t, c, opts));
    // The serde impls read each struct's field names from `Self::shape()`; the root holds
    // structs only when the catalog has named types (an unused import would warn).
    let validate_in_scope = if plan.types.iter().any(|i| matches!(i, Item::Struct(_))) {
        quote!(
            use __rt::Validate as _;
        )
    } else {
        TokenStream::new()
    };
    let trait_ident = ident(&plan.trait_ident);
    let methods = plan.tools.iter().map(|t| {
        let m = ident(&t.module);
        let d = doc(t.tool.summary.as_ref().map(|s| s.value.as_str()));
        let ok = if t.needs.is_empty() {
            quote!(#m::Output)
        } else {
            quote!(#m::Reply)
        };
        quote! {
            #d
            fn #m(&self, ctx: &Self::Context, input: #m::Input)
                -> impl __rt::Future<Output = __rt::Result<#ok, #m::Error>>
                + __rt::Send;
        }
    });
    let infos = plan.tools.iter().map(|t| {
        let m = ident(&t.module);
        quote!(#m::INFO)
    });
    let arms = plan.tools.iter().map(|t| {
        let m = ident(&t.module);
        let run = if t.needs.is_empty() {
            quote!(run)
        } else {
            quote!(run_reply)
        };
        quote! {
            #m::NAME => __rt::call::boxed(__rt::call::#run(arguments, |input| handler.#m(ctx, input))),
        }
    });
    let dispatch = if plan.tools.is_empty() {
        quote! {
            let _ = (handler, ctx, arguments);
            __rt::Err(__rt::CallError::UnknownTool(name.into()))
        }
    } else {
        // One boxed future per arm and a single await: the `call` future holds one pointer
        // rather than a state per tool, which keeps checking a large catalog's dispatcher
        // linear and its future small.
        quote! {
            let call: __rt::call::BoxCall<'_> = match name {
                #(#arms)*
                _ => return __rt::Err(__rt::CallError::UnknownTool(name.into())),
            };
            __rt::Ok(call.await)
        }
    };
    quote! {
        use ::catalogc::runtime::support as __rt;
        #validate_in_scope
        /// The catalog name.
        pub const NAME: &str = #name;
        /// The catalog version.
        pub const VERSION: &str = #version;

        #(#types)*
        #(#tools)*

        #cat_doc
        ///
        /// One method per tool. The context carries what the server trusts about the request
        /// (identity, tenant, policy); it never comes from tool arguments.
        pub trait #trait_ident: __rt::Send + __rt::Sync {
            /// Identity, tenant and policy from the authenticated request — never from arguments.
            type Context: __rt::Send + __rt::Sync;
            #(#methods)*
        }

        /// The catalog as served: tool definitions in declaration order and `call`.
        #[derive(Debug, Clone, Copy, Default)]
        pub struct Catalog;

        impl<H: #trait_ident> __rt::Catalog<H> for Catalog {
            type Context = H::Context;
            const NAME: &'static str = NAME;
            const VERSION: &'static str = VERSION;
            const TOOLS: &'static [__rt::ToolInfo] = &[#(#infos),*];

            async fn call(
                handler: &H,
                ctx: &H::Context,
                name: &str,
                arguments: __rt::serde_json::Value,
            ) -> __rt::Result<__rt::CallResult, __rt::CallError> {
                #dispatch
            }
        }
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

fn tool_module(t: &ToolPlan<'_>, c: &ToolContract, opts: &Options) -> TokenStream {
    let tool = t.tool;
    let m = ident(&t.module);
    let name = &tool.name.value;
    let version = &tool.version.value;
    let description = &c.description;
    let h = c.hashes();
    let (ih, oh, ch) = (&h.input, &h.output, &h.contract);
    let definition = raw_str(c.definition());
    let mdoc = doc(tool.summary.as_ref().map(|s| s.value.as_str()));
    let items = t.items.iter().map(|i| item(i, At::Tool, opts));
    let input_impl = input_methods(t);
    let idempotency = idempotency_info(t);
    let error = error_enum(t);
    let needs = needs_input(t);
    let content = tool.content.as_ref().map(|k| {
        let (ty, what) = match k.value {
            ContentKind::Text => (quote!(Text), "plain text"),
            ContentKind::Markdown => (quote!(Markdown), "Markdown"),
            ContentKind::Image => (quote!(Image), "an image"),
        };
        let d = format!(
            " The result: {what}, sent as one MCP content block (`output kind=\"{}\"`).",
            k.value.as_str()
        );
        quote! {
            #[doc = #d]
            pub type Output = __rt::#ty;
        }
    });
    quote! {
        #mdoc
        pub mod #m {
            use ::catalogc::runtime::support as __rt;
            use __rt::Validate as _;
            /// The tool name.
            pub const NAME: &str = #name;
            /// The tool version.
            pub const VERSION: &str = #version;
            /// The model-facing description (the MCP `description`).
            pub const DESCRIPTION: &str = #description;
            /// `sha256:` of the canonical input schema.
            pub const INPUT_HASH: &str = #ih;
            /// `sha256:` of the canonical output schema.
            pub const OUTPUT_HASH: &str = #oh;
            /// `sha256:` of the tool's contract (as `catalogc hash` and the lock file).
            pub const CONTRACT_HASH: &str = #ch;
            /// The MCP tool definition (an entry of `tools/list`), as JSON.
            pub const DEFINITION: &str = #definition;
            /// Everything above, for the catalog's tool list.
            pub const INFO: __rt::ToolInfo = __rt::ToolInfo {
                name: NAME,
                version: VERSION,
                definition: DEFINITION,
                input_hash: INPUT_HASH,
                output_hash: OUTPUT_HASH,
                contract_hash: CONTRACT_HASH,
                idempotency: #idempotency,
            };

            #(#items)*
            #content
            #input_impl
            #error
            #needs
        }
    }
}

fn item(i: &Item<'_>, at: At, opts: &Options) -> TokenStream {
    match i {
        Item::Struct(s) => structure(s, at, opts),
        Item::Enum(e) => enumeration(e, opts),
        Item::Union(u) => union(u, opts),
    }
}

/// A serde internally tagged enum: the discriminator is the tag, each variant's struct holds
/// the other fields; `validate()` picks the variant's rules by the tag.
fn union(u: &UnionPlan<'_>, opts: &Options) -> TokenStream {
    let (schemars_derive, schemars_attr) = schemars_parts(opts, TokenStream::new());
    let id = ident(&u.ident);
    let d = doc(u.doc);
    let tag = u.discriminator;
    let variants = u.variants.iter().map(|(v, name, s)| {
        let vid = ident(v);
        let sid = ident(s);
        quote!(#[serde(rename = #name)] #vid(#sid),)
    });
    let rules = u.variants.iter().map(|(_, name, s)| {
        let sid = ident(s);
        quote!((#name, __rt::Shape::Named(<#sid as __rt::Validate>::shape)))
    });
    quote! {
        #d
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq,
            ::catalogc::runtime::serde::Serialize, ::catalogc::runtime::serde::Deserialize
            #schemars_derive)]
        #[serde(crate = "::catalogc::runtime::serde", tag = #tag)]
        #schemars_attr
        pub enum #id {
            #(#variants)*
        }
        impl ::catalogc::runtime::Validate for #id {
            fn shape() -> &'static ::catalogc::runtime::Shape {
                use ::catalogc::runtime as __rt;
                static SHAPE: __rt::Shape = __rt::Shape::Union(&__rt::UnionRule {
                    discriminator: #tag,
                    variants: &[#(#rules),*],
                });
                &SHAPE
            }
        }
    }
}

/// The `JsonSchema` derive and container attributes, when asked for. The serde attributes
/// `serde` go with them only: schemars reads them (`deny_unknown_fields`), while the serde
/// impls are written out and need none.
fn schemars_parts(opts: &Options, serde: TokenStream) -> (TokenStream, TokenStream) {
    if opts.json_schema_derive {
        let container = super::schemars::container();
        let serde = if serde.is_empty() {
            serde
        } else {
            quote!(#[serde(#serde)])
        };
        (super::schemars::derive(), quote!(#serde #container))
    } else {
        (TokenStream::new(), TokenStream::new())
    }
}

fn structure(s: &StructPlan<'_>, at: At, opts: &Options) -> TokenStream {
    let id = ident(&s.ident);
    let d = doc(s.doc);
    let redact = s.fields.iter().any(|f| f.field.sensitive);
    let debug = if redact {
        TokenStream::new()
    } else {
        quote!(__rt::Debug,)
    };
    // An open object's extras are not unknown fields (schemars reads `deny_unknown_fields`).
    let deny = if s.extra.is_some() {
        TokenStream::new()
    } else {
        quote!(deny_unknown_fields)
    };
    let (schemars_derive, mut schemars_attr) = schemars_parts(opts, deny);
    if let Some(x) = s.extra.as_ref().filter(|_| opts.json_schema_derive) {
        let counts: Vec<TokenStream> = [
            ("minProperties", &x.extra.min_entries),
            ("maxProperties", &x.extra.max_entries),
        ]
        .into_iter()
        .filter_map(|(k, v)| {
            v.as_ref().map(|v| {
                let v = v.value;
                quote!(#k = #v)
            })
        })
        .collect();
        if !counts.is_empty() {
            schemars_attr = quote!(#schemars_attr #[schemars(extend(#(#counts),*))]);
        }
    }
    let mut fields: Vec<TokenStream> = s
        .fields
        .iter()
        .map(|f| field(&s.ident, f, at, opts))
        .collect();
    if let Some(x) = &s.extra {
        let id = ident(&x.ident);
        let ty = rust_type(&x.ty, at);
        // schemars describes the map's entries as properties beside the fields.
        let flatten = if opts.json_schema_derive {
            quote!(#[serde(flatten)])
        } else {
            TokenStream::new()
        };
        fields.push(quote! {
            #[doc = " The properties the fields do not name (the catalog's `extra`)."]
            #flatten
            pub #id: __rt::BTreeMap<__rt::String, #ty>,
        });
    }
    let serde_impls = struct_serde(s);
    let defaults = s.fields.iter().filter_map(|f| default_fn(f, at));
    let defaults: Vec<TokenStream> = defaults.collect();
    let default_impl = if defaults.is_empty() {
        TokenStream::new()
    } else {
        quote! { impl #id { #(#defaults)* } }
    };
    let debug_impl = if redact {
        let name = &s.ident;
        let extra = s.extra.as_ref().map(|x| {
            let id = ident(&x.ident);
            let label = x.ident.strip_prefix("r#").unwrap_or(&x.ident);
            quote!(.field(#label, &self.#id))
        });
        let entries = s
            .fields
            .iter()
            .map(|f| {
                let fid = ident(&f.ident);
                let label = f.ident.strip_prefix("r#").unwrap_or(&f.ident);
                if f.field.sensitive {
                    quote!(.field(#label, &"<redacted>"))
                } else {
                    quote!(.field(#label, &self.#fid))
                }
            })
            .chain(extra);
        quote! {
            impl __rt::Debug for #id {
                fn fmt(&self, f: &mut __rt::fmt::Formatter<'_>) -> __rt::fmt::Result {
                    f.debug_struct(#name) #(#entries)* .finish()
                }
            }
        }
    } else {
        TokenStream::new()
    };
    let patterns = s
        .fields
        .iter()
        .flat_map(|f| patterns_of(&f.field.ty))
        .enumerate()
        .map(|(i, p)| {
            let pid = pattern_ident(i);
            quote!(static #pid: __rt::Pattern = __rt::Pattern::new(#p);)
        });
    let mut counter = 0usize;
    let extra_values = s
        .extra
        .as_ref()
        .map(|x| element_shape(&x.extra.values, &x.ty, at, &mut counter));
    let rules: Vec<TokenStream> = s
        .fields
        .iter()
        .map(|f| {
            let name = &f.field.name.value;
            let required = f.field.required;
            let mut shape = shape(&f.field.ty, &f.ty, at, &mut counter);
            if let Some(c) = &f.field.constant {
                let value = scalar(&c.value);
                shape = quote!(__rt::Shape::Const(&__rt::ConstRule::new(#value, #shape)));
            }
            if f.field.nullable {
                shape = quote!(__rt::Shape::Nullable(&#shape));
            }
            quote!(__rt::FieldRule::new(#name, #required, #shape))
        })
        .collect();
    // An open object is the runtime's map with fields: named properties checked as
    // fields, the rest against the extras' shape.
    let object_shape = match (&s.extra, extra_values) {
        (Some(x), Some(values)) => {
            let r = with_bounds(
                quote!(__rt::MapRule::of(#values).fields(&[#(#rules),*])),
                vec![
                    ("min_entries", count(&x.extra.min_entries)),
                    ("max_entries", count(&x.extra.max_entries)),
                ],
            );
            quote!(__rt::Shape::Map(&#r))
        }
        _ => quote!(__rt::Shape::Object(&[#(#rules),*])),
    };
    quote! {
        #d
        #[derive(#debug __rt::Clone, __rt::PartialEq #schemars_derive)]
        #schemars_attr
        pub struct #id {
            #(#fields)*
        }
        #serde_impls
        #debug_impl
        #default_impl
        impl __rt::Validate for #id {
            fn shape() -> &'static __rt::Shape {
                #(#patterns)*
                static SHAPE: __rt::Shape = #object_shape;
                &SHAPE
            }
        }
    }
}

fn pattern_ident(i: usize) -> Ident {
    Ident::new(&format!("PATTERN_{i}"), Span::call_site())
}

/// The patterns of a field's type, in the order [`shape`] numbers them.
fn patterns_of(ty: &Ty) -> Vec<&str> {
    match &ty.kind {
        TyKind::String(s) | TyKind::Cursor(s) => {
            s.pattern.iter().map(|p| p.value.as_str()).collect()
        }
        TyKind::Array(a) => patterns_of(&a.items),
        TyKind::Map(m) => patterns_of(&m.values),
        _ => Vec::new(),
    }
}

fn default_fn_ident(f: &FieldPlan<'_>) -> Ident {
    let bare = f.ident.strip_prefix("r#").unwrap_or(&f.ident);
    Ident::new(&format!("default_{bare}"), Span::call_site())
}

/// The value of a field's `default=`, when it fits the field's Rust type.
fn default_value(f: &FieldPlan<'_>) -> Option<TokenStream> {
    let lit = &f.field.default.as_ref()?.value;
    match (&f.ty, lit) {
        (RTy::String, Literal::String(s)) => Some(quote!(__rt::String::from(#s))),
        (RTy::I64, Literal::Int(i)) => Some(quote!(#i)),
        (RTy::F64, Literal::Float(x)) => Some(quote!(#x)),
        (RTy::F64, Literal::Int(i)) => {
            let x = *i as f64;
            Some(quote!(#x))
        }
        (RTy::Bool, Literal::Bool(b)) => Some(quote!(#b)),
        (RTy::Local(e), Literal::String(_)) => {
            let e = ident(e);
            let v = ident(f.default_variant.as_deref()?);
            Some(quote!(#e::#v))
        }
        _ => None,
    }
}

fn default_fn(f: &FieldPlan<'_>, at: At) -> Option<TokenStream> {
    if f.field.required {
        return None;
    }
    let value = default_value(f)?;
    let fname = default_fn_ident(f);
    let ty = rust_type(&f.ty, at);
    if f.field.nullable {
        return Some(quote! {
            fn #fname() -> __rt::Option<#ty> { __rt::Some(#value) }
        });
    }
    Some(quote! {
        fn #fname() -> #ty { #value }
    })
}

/// How a field is read and written, which decides both its Rust type and the serde impls:
/// a `nullable=#true` field is an `Option` whose `None` is `null`; a required one is always
/// written (`null` included), an optional one without a non-null default leaves `None` out
/// (which means the same to a reader), one with such a default writes `null`, since leaving
/// it out would mean the default.
#[derive(Clone, Copy, PartialEq)]
enum Presence {
    /// Required: missing is an error (a nullable one reads `null` as `None`).
    Required,
    /// Optional with a `default=`: filled in when absent, always written.
    Default,
    /// Optional, not nullable: `None` only when absent (`null` is not a value of its type).
    Optional,
    /// Optional and nullable, no default: `None` when absent or `null`.
    OptionalNull,
}

fn presence(f: &FieldPlan<'_>) -> Presence {
    if f.field.required {
        Presence::Required
    } else if default_value(f).is_some() {
        Presence::Default
    } else if f.field.nullable {
        Presence::OptionalNull
    } else {
        Presence::Optional
    }
}

fn field(owner: &str, f: &FieldPlan<'_>, at: At, opts: &Options) -> TokenStream {
    let id = ident(&f.ident);
    let d = doc(f.field.doc.as_ref().map(|d| d.value.as_str()));
    let ty = rust_type(&f.ty, at);
    let deprecated = if f.field.deprecated {
        quote!(#[doc = ""] #[doc = " Deprecated in the catalog."])
    } else {
        TokenStream::new()
    };
    let presence = presence(f);
    let optional = f.field.nullable || !matches!(presence, Presence::Required | Presence::Default);
    let field_ty = if optional {
        quote!(__rt::Option<#ty>)
    } else {
        ty.clone()
    };
    let attrs = if opts.json_schema_derive {
        schemars_field_attrs(owner, f, presence, &ty)
    } else {
        TokenStream::new()
    };
    quote! { #d #deprecated #attrs pub #id: #field_ty, }
}

/// With `json_schema_derive`, the serde attributes schemars reads (the serde impls are
/// written out and need none) and schemars' own field attributes.
fn schemars_field_attrs(
    owner: &str,
    f: &FieldPlan<'_>,
    presence: Presence,
    ty: &TokenStream,
) -> TokenStream {
    let json = &f.field.name.value;
    let bare = f.ident.strip_prefix("r#").unwrap_or(&f.ident);
    let rename = if bare != json {
        quote!(#[serde(rename = #json)])
    } else {
        TokenStream::new()
    };
    let serde = match presence {
        Presence::Required => TokenStream::new(),
        Presence::Default => {
            let path = format!("{owner}::{}", default_fn_ident(f));
            quote!(#[serde(default = #path)])
        }
        Presence::Optional | Presence::OptionalNull => {
            quote!(#[serde(default, skip_serializing_if = "__rt::Option::is_none")])
        }
    };
    // schemars reads an `Option` as nullable and, unless told, as optional: a required
    // nullable field is told through `OrNull`, an optional one needs no `with`.
    let or_null = quote!(__rt::OrNull<#ty>);
    let with = match (f.field.nullable, presence) {
        (true, Presence::Required) => Some(&or_null),
        (true, _) | (false, Presence::Required | Presence::Default) => None,
        (false, _) => Some(ty),
    };
    let schemars = super::schemars::field_attrs(f, with);
    quote!(#rename #serde #schemars)
}

/// `Serialize` and `Deserialize` written out over the runtime's helpers
/// ([`crate::runtime::serial`]): one call per field, in declaration order, the JSON names
/// coming from the struct's shape, instead of serde's derived visitors, which were most of
/// the time `cargo check` spent on a large generated crate.
fn struct_serde(s: &StructPlan<'_>) -> TokenStream {
    let id = ident(&s.ident);
    let name = s.ident.strip_prefix("r#").unwrap_or(&s.ident);
    let mut writes = Vec::with_capacity(s.fields.len());
    let mut reads = Vec::with_capacity(s.fields.len());
    for f in &s.fields {
        let fid = ident(&f.ident);
        let (write, read) = match presence(f) {
            Presence::Required => (quote!(field), quote!(req())),
            Presence::Default => {
                let def = default_fn_ident(f);
                (quote!(field), quote!(or(Self::#def)))
            }
            Presence::Optional => (quote!(opt), quote!(opt())),
            Presence::OptionalNull => (quote!(opt), quote!(opt_null())),
        };
        writes.push(quote!(.#write(&self.#fid)?));
        reads.push(quote!(#fid: f.#read?,));
    }
    // An open object writes a map (the extras' names are not known in advance) and reads
    // the properties its fields do not name into the extras.
    let (out, read) = match &s.extra {
        Some(x) => {
            let xid = ident(&x.ident);
            writes.push(quote!(.rest(&self.#xid)?));
            reads.push(quote!(#xid: f.rest()?,));
            (
                quote!(__rt::StructOut::open(s, Self::shape())?),
                quote!(open),
            )
        }
        None => (
            quote!(__rt::StructOut::new(s, #name, Self::shape())?),
            quote!(new),
        ),
    };
    // A struct without fields reads nothing (no `unused_mut` in users' builds).
    let f = if reads.is_empty() {
        quote!(_)
    } else {
        quote!(mut f)
    };
    quote! {
        impl __rt::Serialize for #id {
            fn serialize<S: __rt::Serializer>(&self, s: S) -> __rt::SerResult<S> {
                #out #(#writes)* .end()
            }
        }
        impl<'de> __rt::Deserialize<'de> for #id {
            fn deserialize<D: __rt::Deserializer<'de>>(d: D) -> __rt::DeResult<'de, Self, D> {
                let #f = __rt::Fields::#read(d, Self::shape())?;
                __rt::Ok(Self { #(#reads)* })
            }
        }
    }
}

fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => quote!(__rt::Some(#v)),
        None => quote!(__rt::None),
    }
}

/// `BASE.key(value)` for each set key: rules state only their bounds, through the runtime's
/// `const fn` builders (far fewer tokens than struct literals, which dominate large catalogs).
fn with_bounds(base: TokenStream, bounds: Vec<(&str, Option<TokenStream>)>) -> TokenStream {
    let set = bounds.into_iter().filter_map(|(k, v)| {
        let k = ident(k);
        v.map(|v| quote!(.#k(#v)))
    });
    quote!(#base #(#set)*)
}

fn bound(n: &Option<crate::model::Sp<Num>>) -> Option<TokenStream> {
    n.as_ref().map(|n| match n.value {
        Num::Int(i) => quote!(__rt::Bound::Int(#i)),
        Num::Float(f) => quote!(__rt::Bound::Float(#f)),
    })
}

/// A count bound (`max-items`, `max-entries`) as a literal, when set.
fn count(v: &Option<crate::model::Sp<u64>>) -> Option<TokenStream> {
    v.as_ref().map(|v| unsuffixed(v.value))
}

/// A count or length as a literal without a suffix (its type comes from the builder).
fn unsuffixed(v: u64) -> TokenStream {
    let v = proc_macro2::Literal::u64_unsuffixed(v);
    quote!(#v)
}

fn shape(ty: &Ty, rty: &RTy, at: At, counter: &mut usize) -> TokenStream {
    match (&ty.kind, rty) {
        (TyKind::String(s), _) => string_rule(s, None, counter),
        (TyKind::Cursor(s), _) => string_rule(s, Some(CURSOR_DEFAULT_MAX_LENGTH), counter),
        (TyKind::Timestamp, _) => {
            quote!(__rt::Shape::String(
                &__rt::StrRule::ANY.format(__rt::Format::DateTime)
            ))
        }
        (TyKind::Integer(n), _) => {
            let r = num_rule(n);
            quote!(__rt::Shape::Integer(&#r))
        }
        (TyKind::Number(n), _) => {
            let r = num_rule(n);
            quote!(__rt::Shape::Number(&#r))
        }
        (TyKind::Boolean, _) => quote!(__rt::Shape::Boolean),
        (TyKind::Array(a), RTy::Vec(inner)) => {
            let items = element_shape(&a.items, inner, at, counter);
            let mut r = with_bounds(
                quote!(__rt::ArrayRule::of(#items)),
                vec![
                    ("min_items", count(&a.min_items)),
                    ("max_items", count(&a.max_items)),
                ],
            );
            if a.unique {
                r = quote!(#r.unique());
            }
            quote!(__rt::Shape::Array(&#r))
        }
        (TyKind::Map(m), RTy::Map(inner)) => {
            let values = element_shape(&m.values, inner, at, counter);
            let r = with_bounds(
                quote!(__rt::MapRule::of(#values)),
                vec![
                    ("min_entries", count(&m.min_entries)),
                    ("max_entries", count(&m.max_entries)),
                ],
            );
            quote!(__rt::Shape::Map(&#r))
        }
        (TyKind::Json, _) => quote!(__rt::Shape::Any),
        (TyKind::Object(_) | TyKind::Union(_), rty) | (TyKind::Named(_), rty @ RTy::Root(_)) => {
            let t = rust_type(rty, at);
            quote!(__rt::Shape::Named(<#t as __rt::Validate>::shape))
        }
        // A plan/model mismatch cannot come out of `plan`; fail closed as free text.
        _ => quote!(__rt::Shape::String(&__rt::StrRule::ANY)),
    }
}

/// The shape of an array item, map value or extra property: [`shape`], admitting `null`
/// when the plan made it an `Option`.
fn element_shape(ty: &Ty, rty: &RTy, at: At, counter: &mut usize) -> TokenStream {
    match rty {
        RTy::Nullable(inner) => {
            let s = shape(ty, inner, at, counter);
            quote!(__rt::Shape::Nullable(&#s))
        }
        rty => shape(ty, rty, at, counter),
    }
}

fn string_rule(s: &StringTy, default_max: Option<u64>, counter: &mut usize) -> TokenStream {
    let len = |v: Option<u64>| v.map(unsuffixed);
    let pattern = s.pattern.as_ref().map(|_| {
        let pid = pattern_ident(*counter);
        *counter += 1;
        quote!(&#pid)
    });
    let format = s.format.as_ref().map(|f| {
        let v = ident(match f.value {
            crate::model::Format::DateTime => "DateTime",
            crate::model::Format::Date => "Date",
            crate::model::Format::Email => "Email",
            crate::model::Format::Uri => "Uri",
            crate::model::Format::Uuid => "Uuid",
            crate::model::Format::Ipv4 => "Ipv4",
            crate::model::Format::Ipv6 => "Ipv6",
            crate::model::Format::Hostname => "Hostname",
            crate::model::Format::Time => "Time",
        });
        quote!(__rt::Format::#v)
    });
    let values = s.enum_values.as_ref().map(|e| {
        let vs = e.values.iter().map(|v| v.value.as_str());
        quote!(&[#(#vs),*])
    });
    let r = with_bounds(
        quote!(__rt::StrRule::ANY),
        vec![
            ("min_length", len(s.min_length.as_ref().map(|v| v.value))),
            (
                "max_length",
                len(s.max_length.as_ref().map(|v| v.value).or(default_max)),
            ),
            ("pattern", pattern),
            ("format", format),
            ("values", values),
        ],
    );
    quote!(__rt::Shape::String(&#r))
}

/// A `const=` value as the runtime's `Scalar` (lowering admits no `null` and no `const` on
/// a nullable field).
fn scalar(l: &Literal) -> TokenStream {
    match l {
        Literal::String(s) => quote!(__rt::Scalar::Str(#s)),
        Literal::Int(i) => quote!(__rt::Scalar::Int(#i)),
        Literal::Float(f) => quote!(__rt::Scalar::Float(#f)),
        Literal::Bool(b) => quote!(__rt::Scalar::Bool(#b)),
        Literal::Null => quote!(::core::compile_error!(
            "catalogc: a `const=#null` field cannot be generated"
        )),
    }
}

fn num_rule(n: &NumTy) -> TokenStream {
    let values = n.enum_values.as_ref().map(|e| {
        let vs = e.values.iter().map(|v| bound(&Some(*v)));
        quote!(&[#(#vs),*])
    });
    with_bounds(
        quote!(__rt::NumRule::ANY),
        vec![
            ("min", bound(&n.min)),
            ("max", bound(&n.max)),
            ("exclusive_min", bound(&n.exclusive_min)),
            ("exclusive_max", bound(&n.exclusive_max)),
            ("multiple_of", bound(&n.multiple_of)),
            ("values", values),
        ],
    )
}

fn enumeration(e: &EnumPlan<'_>, opts: &Options) -> TokenStream {
    let (schemars_derive, schemars_attr) = schemars_parts(opts, TokenStream::new());
    let id = ident(&e.ident);
    let d = doc(e.doc);
    let variants = e.variants.iter().map(|(v, value)| {
        let vid = ident(v);
        if opts.json_schema_derive {
            quote!(#[serde(rename = #value)] #vid,)
        } else {
            quote!(#vid,)
        }
    });
    let values = e.variants.iter().map(|(_, value)| value);
    let all = e.variants.iter().map(|(v, _)| {
        let vid = ident(v);
        quote!(Self::#vid)
    });
    // Variants are declared in the order of `VALUES`, so the discriminant indexes it.
    quote! {
        #d
        #[derive(__rt::Debug, __rt::Clone, __rt::Copy, __rt::PartialEq, __rt::Eq, __rt::Hash
            #schemars_derive)]
        #schemars_attr
        pub enum #id {
            #(#variants)*
        }
        impl #id {
            /// The value as it appears in JSON.
            pub fn as_str(self) -> &'static str {
                <Self as __rt::StrEnum>::VALUES[self as usize]
            }
        }
        impl __rt::StrEnum for #id {
            const VALUES: &'static [&'static str] = &[#(#values),*];
            const ALL: &'static [Self] = &[#(#all),*];
        }
        impl __rt::Serialize for #id {
            fn serialize<S: __rt::Serializer>(&self, s: S) -> __rt::SerResult<S> {
                s.serialize_str(self.as_str())
            }
        }
        impl<'de> __rt::Deserialize<'de> for #id {
            fn deserialize<D: __rt::Deserializer<'de>>(d: D) -> __rt::DeResult<'de, Self, D> {
                __rt::deserialize_enum(d)
            }
        }
    }
}

/// The `Input` field carrying the tool's idempotency key, when the key names a required
/// string field (lint reports any other key; the runtime then enforces nothing).
fn key_field<'p>(t: &'p ToolPlan<'_>) -> Option<&'p FieldPlan<'p>> {
    let idem = t.tool.idempotency.as_ref()?;
    let input = t.items.iter().find_map(|i| match i {
        Item::Struct(s) if s.ident == "Input" => Some(s),
        _ => None,
    })?;
    input
        .fields
        .iter()
        .find(|f| f.field.name.value == idem.key.value && f.field.required && f.ty == RTy::String)
}

/// The tool's `ToolInfo::idempotency`: `Some` exactly when `Input::idempotency_key()` exists.
fn idempotency_info(t: &ToolPlan<'_>) -> TokenStream {
    match (&t.tool.idempotency, key_field(t)) {
        (Some(idem), Some(_)) => {
            let key = &idem.key.value;
            let scope = idem.scope.iter().map(|s| s.value.as_str());
            let ttl = opt_u64(idem.ttl_s.as_ref().map(|v| v.value));
            let timeout = opt_u64(
                t.tool
                    .limits
                    .as_ref()
                    .and_then(|l| l.timeout_ms.as_ref())
                    .map(|v| v.value),
            );
            quote!(__rt::Some(__rt::Idempotency::new(#key, &[#(#scope),*], #ttl, #timeout)))
        }
        _ => quote!(__rt::None),
    }
}

/// `idempotency_key()` and `approval_digest()` on `Input`, when the tool declares them.
fn input_methods(t: &ToolPlan<'_>) -> TokenStream {
    let tool = t.tool;
    let mut methods = Vec::new();
    if let Some(idem) = &tool.idempotency
        && let Some(key) = key_field(t)
    {
        let fid = ident(&key.ident);
        let scope = idem.scope.iter().map(|s| s.value.as_str());
        let ttl = opt_u64(idem.ttl_s.as_ref().map(|v| v.value));
        methods.push(quote! {
            /// What an idempotency key is unique within (`idempotency scope=…`).
            pub const IDEMPOTENCY_SCOPE: &'static [&'static str] = &[#(#scope),*];
            /// How long a key is remembered, in seconds.
            pub const IDEMPOTENCY_TTL_S: __rt::Option<u64> = #ttl;
            /// The idempotency key: a retry with the same key must not repeat the effect.
            pub fn idempotency_key(&self) -> &str {
                &self.#fid
            }
        });
    }
    if let Some(confirm) = &tool.confirm {
        methods.push(match confirm.digest.value {
            ConfirmDigest::Arguments => quote! {
                /// The approval digest: `sha256:` over the RFC 8785 canonical arguments. The
                /// user approves this digest; the call proceeds only when it matches.
                pub fn approval_digest(&self) -> __rt::String {
                    __rt::approval_digest(self, __rt::None)
                }
            },
            ConfirmDigest::ArgumentsResourceVersion => quote! {
                /// The approval digest: `sha256:` over the RFC 8785 canonical arguments and
                /// the current `resource_version` of what the call changes.
                pub fn approval_digest(&self, resource_version: &str) -> __rt::String {
                    __rt::approval_digest(
                        self,
                        __rt::Some(resource_version),
                    )
                }
            },
        });
    }
    if methods.is_empty() {
        return TokenStream::new();
    }
    quote! { impl Input { #(#methods)* } }
}

fn error_enum(t: &ToolPlan<'_>) -> TokenStream {
    let variants = t.errors.iter().map(|(v, e)| {
        let vid = ident(v);
        let d = doc(e.message.as_ref().map(|m| m.value.as_str()));
        quote!(#d #vid,)
    });
    // One table row per error; `info` indexes it by the variant (declaration order).
    let rows = t.errors.iter().map(|(_, e)| {
        let code = &e.code.value;
        let class = e.class.value.as_str();
        let retry = e.retry().as_str();
        let next = match &e.next_step {
            Some(n) => {
                let n = &n.value;
                quote!(__rt::Some(#n))
            }
            None => quote!(__rt::None),
        };
        let message = e.message.as_ref().map_or(code, |m| &m.value);
        quote!(__rt::ErrorInfo::new(#code, #class, #retry, #next, #message))
    });
    let n = proc_macro2::Literal::usize_unsuffixed(t.errors.len());
    let info = if t.errors.is_empty() {
        quote!(match *self {})
    } else {
        quote! {
            static INFO: [__rt::ErrorInfo; #n] = [#(#rows),*];
            &INFO[*self as usize]
        }
    };
    quote! {
        /// The errors the catalog declares for this tool; nothing else reaches the client.
        #[derive(__rt::Debug, __rt::Clone, __rt::Copy,
            __rt::PartialEq, __rt::Eq, __rt::Hash)]
        pub enum Error {
            #(#variants)*
        }
        impl __rt::ToolError for Error {
            fn info(&self) -> &'static __rt::ErrorInfo { #info }
        }
        impl __rt::Display for Error {
            fn fmt(&self, f: &mut __rt::fmt::Formatter<'_>) -> __rt::fmt::Result {
                f.write_str(__rt::ToolError::message(self))
            }
        }
        impl __rt::StdError for Error {}
    }
}

fn needs_input(t: &ToolPlan<'_>) -> TokenStream {
    if t.needs.is_empty() {
        return TokenStream::new();
    }
    let variants = t.needs.iter().map(|(v, n)| {
        let vid = ident(v);
        let d = doc(n.doc.as_ref().map(|d| d.value.as_str()));
        quote!(#d #vid,)
    });
    let names = t.needs.iter().map(|(v, n)| {
        let vid = ident(v);
        let name = &n.name.value;
        quote!(NeedsInput::#vid => #name,)
    });
    let kinds = t.needs.iter().map(|(v, n)| {
        let vid = ident(v);
        let kind = n.kind.value.as_str();
        quote!(NeedsInput::#vid => #kind,)
    });
    quote! {
        /// What this tool may ask the user for before it completes (`needs-input`).
        #[derive(__rt::Debug, __rt::Clone, __rt::Copy,
            __rt::PartialEq, __rt::Eq, __rt::Hash)]
        pub enum NeedsInput {
            #(#variants)*
        }
        impl __rt::InputRequest for NeedsInput {
            fn name(&self) -> &'static str { match self { #(#names)* } }
            fn kind(&self) -> &'static str { match self { #(#kinds)* } }
        }
        /// The handler's answer: more input from the user, or the output.
        pub type Reply = __rt::Reply<Output, NeedsInput>;
    }
}
