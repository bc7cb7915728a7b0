//! A string `enum`: a fieldless Rust enum whose variants stand for the catalog's values.

use super::{At, Options, doc, ident, may_be_unused, schemars_parts};
use crate::codegen::plan::EnumPlan;
use proc_macro2::TokenStream;
use quote::quote;

/// The enum, its `as_str`, `StrEnum` table and serde impls.
pub(super) fn enumeration(e: &EnumPlan<'_>, at: At, opts: &Options) -> TokenStream {
    let unused = may_be_unused(at);
    let (schemars_derive, schemars_attr) = schemars_parts(opts, TokenStream::new());
    let id = ident(&e.ident);
    let d = doc(e.doc);
    let variants = e.variants.iter().map(|(v, value)| {
        let vid = ident(v);
        let d = format!(" `{value:?}` in JSON.");
        if opts.json_schema_derive {
            quote!(#[doc = #d] #[serde(rename = #value)] #vid,)
        } else {
            quote!(#[doc = #d] #vid,)
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
        #unused
        #[derive(__rt::Debug, __rt::Clone, __rt::Copy, __rt::PartialEq, __rt::Eq, __rt::Hash
            #schemars_derive)]
        #schemars_attr
        pub enum #id {
            #(#variants)*
        }
        #unused
        impl #id {
            /// The value as it appears in JSON.
            #[must_use]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::plan::Item;
    use crate::codegen::tests::{has, planned, printed, with_plan};

    const CATALOG: &str = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input { field "status" "string" required=#true { enum "open" "on-hold"; } }
}
"#;

    fn emitted(opts: &Options) -> String {
        with_plan(CATALOG, |plan, _| {
            let Item::Enum(e) = planned(&plan.tools[0].items, "Status") else {
                panic!("Status is not an enum")
            };
            printed(enumeration(e, At::Tool, opts))
        })
    }

    #[test]
    fn variants_stand_for_the_values_in_declaration_order() {
        let rs = emitted(&Options::default());
        for part in [
            r#"pub enum Status { /// `"open"` in JSON.
            Open, /// `"on-hold"` in JSON.
            OnHold }"#,
            r#"const VALUES: &'static [&'static str] = &["open", "on-hold"];"#,
            "const ALL: &'static [Self] = &[Self::Open, Self::OnHold];",
            "<Self as __rt::StrEnum>::VALUES[self as usize]",
            "__rt::deserialize_enum(d)",
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
        assert!(!rs.contains("schemars"), "{rs}");
    }

    #[test]
    fn schemars_reads_each_value_from_a_rename() {
        let rs = emitted(&Options {
            json_schema_derive: true,
            ..Options::default()
        });
        assert!(has(&rs, r#"#[serde(rename = "on-hold")] OnHold"#), "{rs}");
        assert!(
            has(&rs, "::catalogc::runtime::schemars::JsonSchema"),
            "{rs}"
        );
    }
}
