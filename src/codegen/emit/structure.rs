//! A struct: its fields, its `Serialize`/`Deserialize` impls over `runtime::serial`, a
//! redacting `Debug` when a field is `sensitive`, its fields' default functions, and its
//! contract check ([`super::shape`]).

use super::{At, Options, doc, ident, int, may_be_unused, rust_type, schemars_parts};
use crate::codegen::plan::{FieldPlan, RTy, StructPlan};
use crate::model::Literal;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Struct `s`, emitted in the root (`at`) or in a tool module.
pub(super) fn structure(s: &StructPlan<'_>, at: At, opts: &Options) -> TokenStream {
    let id = ident(&s.ident);
    let d = doc(s.doc.as_deref());
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
    let (default_derive, default_impl_all) = default_impl(s);
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
    // `Eq` and `Hash` where every field has them (no `f64`, no JSON value).
    let eq = if s.hash {
        quote!(, __rt::Eq, __rt::Hash)
    } else {
        TokenStream::new()
    };
    let validate = super::shape::validate_impl(s, at);
    let unused = may_be_unused(at);
    quote! {
        #d
        #unused
        #[derive(#debug __rt::Clone, #default_derive __rt::PartialEq #eq #schemars_derive)]
        #schemars_attr
        pub struct #id {
            #(#fields)*
        }
        #serde_impls
        #debug_impl
        #default_impl
        #default_impl_all
        #validate
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
        (RTy::DateTime, Literal::String(s)) => Some(quote!(__rt::time::date_time(#s))),
        (RTy::Date, Literal::String(s)) => Some(quote!(__rt::time::date(#s))),
        (RTy::Int(_), Literal::Int(i)) => Some(int(*i)),
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
        // Only a tool's field names a root enum this way (the root names its own locally).
        (RTy::Root(e), Literal::String(_)) => {
            let e = ident(e);
            let v = ident(f.default_variant.as_deref()?);
            Some(quote!(super::#e::#v))
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
    let d = format!(" The value of `{}` when it is absent.", f.field.name.value);
    // A nullable field's default is `Some`: the field's type is an `Option` (`null`).
    if f.field.nullable {
        return Some(quote! {
            #[doc = #d]
            #[allow(clippy::unnecessary_wraps)]
            fn #fname() -> __rt::Option<#ty> { __rt::Some(#value) }
        });
    }
    Some(quote! {
        #[doc = #d]
        fn #fname() -> #ty { #value }
    })
}

/// `Default` of a struct none of whose fields is required: every field absent, which is
/// its default where the catalog gives one and `None` elsewhere (an open object's extras
/// empty). Derived (the first part) when no field has a catalog default, else an impl.
fn default_impl(s: &StructPlan<'_>) -> (TokenStream, TokenStream) {
    if s.fields.iter().any(|f| presence(f) == Presence::Required) {
        return (TokenStream::new(), TokenStream::new());
    }
    if !s.fields.iter().any(|f| presence(f) == Presence::Default) {
        return (quote!(__rt::Default,), TokenStream::new());
    }
    let id = ident(&s.ident);
    let fields = s.fields.iter().map(|f| {
        let fid = ident(&f.ident);
        if presence(f) == Presence::Default {
            let def = default_fn_ident(f);
            quote!(#fid: Self::#def(),)
        } else {
            quote!(#fid: __rt::None,)
        }
    });
    let extra = s.extra.as_ref().map(|x| {
        let xid = ident(&x.ident);
        quote!(#xid: __rt::BTreeMap::new(),)
    });
    let default = quote! {
        impl __rt::Default for #id {
            fn default() -> Self {
                Self { #(#fields)* #extra }
            }
        }
    };
    (TokenStream::new(), default)
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
    let facts = match super::facts::facts(f.field) {
        Some(text) if d.is_empty() => doc(Some(&text)),
        Some(text) => {
            let text = doc(Some(&text));
            quote!(#[doc = ""] #text)
        }
        None => TokenStream::new(),
    };
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
    quote! { #d #facts #deprecated #attrs pub #id: #field_ty, }
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
    let schemars = crate::codegen::schemars::field_attrs(f, with);
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
                quote!(__rt::StructOut::open(s, <Self as __rt::Validate>::shape())?),
                quote!(open),
            )
        }
        None => (
            quote!(__rt::StructOut::new(s, #name, <Self as __rt::Validate>::shape())?),
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
                let #f = __rt::Fields::#read(d, <Self as __rt::Validate>::shape())?;
                __rt::Ok(Self { #(#reads)* })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::plan::Item;
    use crate::codegen::tests::{has, planned, printed, with_plan};

    const CATALOG: &str = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "name" "string" required=#true max-length=8 sensitive=#true { doc "Who."; }
        field "size" "integer" min=1 max=50 default=20
        field "note" "string" max-length=8 nullable=#true
        field "tag" "string" max-length=8
    }
}
"#;

    fn input(opts: &Options) -> String {
        input_of(CATALOG, opts)
    }

    /// The first tool's `Input` of catalog `text`, emitted and printed.
    fn input_of(text: &str, opts: &Options) -> String {
        with_plan(text, |plan, _| {
            let Item::Struct(s) = planned(&plan.tools[0].items, "Input") else {
                panic!("Input is not a struct")
            };
            printed(structure(s, At::Tool, opts))
        })
    }

    #[test]
    fn fields_are_read_and_written_by_presence() {
        let rs = input(&Options::default());
        for part in [
            "/// Who.\n///\n/// Bounds: at most `8` characters.\npub name: __rt::String,",
            "pub size: u8,",
            "pub note: __rt::Option<__rt::String>,",
            "pub tag: __rt::Option<__rt::String>",
            r#"__rt::StructOut::new(s, "Input", <Self as __rt::Validate>::shape())?"#,
            ".field(&self.name)?.field(&self.size)?.opt(&self.note)?.opt(&self.tag)?.end()",
            "name: f.req()?, size: f.or(Self::default_size)?, note: f.opt_null()?, tag: f.opt()?,",
            "fn default_size() -> u8 { 20 }",
            "impl __rt::Validate for Input",
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
    }

    #[test]
    fn a_struct_without_required_fields_has_a_default() {
        let text = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "size" "integer" min=1 max=50 default=20
        field "tag" "string" max-length=8
    }
}
"#;
        let rs = input_of(text, &Options::default());
        let part = "impl __rt::Default for Input { fn default() -> Self { Self { size: Self::default_size(), tag: __rt::None } } }";
        assert!(has(&rs, part), "{rs}");
        // Without a catalog default, `Default` is derived.
        assert!(!has(&input(&Options::default()), "__rt::Default"));
    }

    #[test]
    fn a_sensitive_field_is_redacted_in_debug() {
        let rs = input(&Options::default());
        assert!(has(&rs, r#".field("name", &"<redacted>")"#), "{rs}");
        assert!(!has(&rs, "#[derive(__rt::Debug"), "{rs}");
    }

    #[test]
    fn schemars_reads_defaults_and_optional_fields_from_serde_attributes() {
        let rs = input(&Options {
            json_schema_derive: true,
            ..Options::default()
        });
        for part in [
            r#"#[serde(deny_unknown_fields)]"#,
            r#"#[serde(default = "Input::default_size")]"#,
            r#"#[serde(default, skip_serializing_if = "__rt::Option::is_none")]"#,
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
    }
}
