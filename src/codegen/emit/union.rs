//! A `union`: a serde internally tagged enum with one newtype variant per catalog variant.

use super::{At, Options, doc, ident, may_be_unused, schemars_parts};
use crate::codegen::plan::UnionPlan;
use proc_macro2::TokenStream;
use quote::quote;

/// A serde internally tagged enum: the discriminator is the tag, each variant's struct holds
/// the other fields; `validate()` picks the variant's rules by the tag.
pub(super) fn union(u: &UnionPlan<'_>, at: At, opts: &Options) -> TokenStream {
    let unused = may_be_unused(at);
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
    let eq = if u.hash {
        quote!(::core::cmp::Eq, ::core::hash::Hash,)
    } else {
        TokenStream::new()
    };
    quote! {
        #d
        #unused
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq, #eq
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::plan::Item;
    use crate::codegen::tests::{has, planned, printed, with_plan};

    #[test]
    fn a_union_is_a_tagged_enum_of_one_struct_per_variant() {
        let text = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "question" "union" required=#true discriminator="type" {
            variant "choice" { field "options" "array" required=#true max-items=10 { items "string" max-length=80; }; }
            variant "free-text" { field "max_words" "integer" min=1 max=500; }
        }
    }
}
"#;
        let rs = with_plan(text, |plan, _| {
            let Item::Union(u) = planned(&plan.tools[0].items, "Question") else {
                panic!("Question is not a union")
            };
            printed(union(u, At::Tool, &Options::default()))
        });
        for part in [
            r#"#[serde(crate = "::catalogc::runtime::serde", tag = "type")]"#,
            r#"pub enum Question { #[serde(rename = "choice")] Choice(QuestionChoice), #[serde(rename = "free-text")] FreeText(QuestionFreeText) }"#,
            r#"discriminator: "type""#,
            r#"("free-text", __rt::Shape::Named(<QuestionFreeText as __rt::Validate>::shape))"#,
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
    }
}
