//! A tool's `Error`: one variant per declared error, each with an optional detail for the
//! model, and `Internal`, described by one static table of `ErrorInfo` rows
//! (`runtime::ToolError`).

use super::{doc, ident};
use crate::codegen::plan::ToolPlan;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The `Error` enum of tool `t` and its `ToolError`, `Display` and `Error` impls.
pub(super) fn error_enum(t: &ToolPlan<'_>) -> TokenStream {
    let variants = t.errors.iter().zip(&t.details).map(|((v, e), detail)| {
        let vid = ident(v);
        let d = doc(e.message.as_ref().map(|m| m.value.as_str()));
        let code = format!(" `{}`", e.code.value);
        let gap = if d.is_empty() {
            TokenStream::new()
        } else {
            quote!(#[doc = ""])
        };
        let data = match detail {
            Some(s) => {
                let s = ident(s);
                quote!(#s)
            }
            None => quote!(__rt::Option<__rt::String>),
        };
        quote!(#d #gap #[doc = #code] #vid(#data),)
    });
    // One table row per error; `info` picks the variant's (declaration order).
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
    let arms = t.errors.iter().enumerate().map(|(i, (v, _))| {
        let vid = ident(v);
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        quote!(Self::#vid(_) => &TABLE[#i],)
    });
    // Variants with a text detail, and those with a typed one.
    let (text, typed): (Vec<_>, Vec<_>) = t
        .errors
        .iter()
        .zip(&t.details)
        .partition(|(_, detail)| detail.is_none());
    let declared: Vec<TokenStream> = text
        .iter()
        .map(|((v, _), _)| {
            let vid = ident(v);
            quote!(Self::#vid(detail))
        })
        .collect();
    let typed: Vec<Ident> = typed.iter().map(|((v, _), _)| ident(v)).collect();
    let info = if t.errors.is_empty() {
        quote! {
            match self {
                Self::Internal(_) => &__rt::ErrorInfo::INTERNAL,
            }
        }
    } else {
        quote! {
            static TABLE: [__rt::ErrorInfo; #n] = [#(#rows),*];
            match self {
                #(#arms)*
                Self::Internal(_) => &__rt::ErrorInfo::INTERNAL,
            }
        }
    };
    let text_arm = (!declared.is_empty()).then(|| quote!(#(#declared)|* => detail.as_deref(),));
    let typed_arm = (!typed.is_empty()).then(|| quote!(#(Self::#typed(_))|* => __rt::None,));
    let detail = quote! {
        match self {
            #text_arm
            #typed_arm
            Self::Internal(detail) => __rt::Some(detail),
        }
    };
    // Only a tool with a typed detail overrides the trait's `None`.
    let detail_value = (!typed.is_empty()).then(|| {
        quote! {
            fn detail_value(
                &self,
            ) -> __rt::Option<__rt::Result<__rt::serde_json::Value, __rt::Violations>> {
                match self {
                    // One arm each: every detail is a type of its own.
                    #(Self::#typed(detail) => __rt::Some(__rt::error_detail(detail)),)*
                    _ => __rt::None,
                }
            }
        }
    });
    let display_typed = (!typed.is_empty()).then(|| {
        quote! {
            if let __rt::Some(__rt::Ok(detail)) = __rt::ToolError::detail_value(self) {
                return ::core::write!(f, ": {detail}");
            }
        }
    });
    let eq = if t.error_hash {
        quote!(, __rt::Eq, __rt::Hash)
    } else {
        TokenStream::new()
    };
    quote! {
        /// The errors the catalog declares for this tool, each with the detail that reaches
        /// the model beside the catalog's message (the typed fields the catalog declares for
        /// it, else an optional text), and `Internal`; nothing else reaches the client.
        #[derive(__rt::Debug, __rt::Clone, __rt::PartialEq #eq)]
        pub enum Error {
            #(#variants)*
            /// A failure that should not happen (a broken invariant, an unreachable store): the
            /// model learns only `INTERNAL_ERROR`; the detail is logged for the operator.
            Internal(__rt::String),
        }
        impl __rt::ToolError for Error {
            fn info(&self) -> &'static __rt::ErrorInfo { #info }
            fn detail(&self) -> __rt::Option<&str> { #detail }
            #detail_value
            fn is_internal(&self) -> bool { ::core::matches!(self, Self::Internal(_)) }
            fn policy(&self) -> &'static __rt::Policy<'static> { &INFO.policy }
        }
        impl __rt::Display for Error {
            fn fmt(&self, f: &mut __rt::fmt::Formatter<'_>) -> __rt::fmt::Result {
                f.write_str(__rt::ToolError::message(self))?;
                #display_typed
                match __rt::ToolError::detail(self) {
                    __rt::Some(detail) => ::core::write!(f, ": {detail}"),
                    __rt::None => __rt::Ok(()),
                }
            }
        }
        impl __rt::StdError for Error {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests::{has, printed, with_plan};

    #[test]
    fn each_declared_error_is_a_variant_and_a_row_of_its_table() {
        let text = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input
    error "NOT_FOUND" class="not-found" { message "No such thing."; }
    error "BUSY" class="unavailable" { next-step "Try again in a minute."; }
}
"#;
        let rs = with_plan(text, |plan, _| printed(error_enum(&plan.tools[0])));
        for part in [
            "pub enum Error { /// No such thing.\n///\n/// `NOT_FOUND`\nNotFound(__rt::Option<__rt::String>), /// `BUSY`\nBusy(__rt::Option<__rt::String>),",
            "Internal(__rt::String), }",
            "static TABLE: [__rt::ErrorInfo; 2]",
            r#"__rt::ErrorInfo::new("NOT_FOUND", "not-found", "never", __rt::None, "No such thing.")"#,
            r#"__rt::Some("Try again in a minute.")"#,
            "Self::NotFound(_) => &TABLE[0], Self::Busy(_) => &TABLE[1], Self::Internal(_) => &__rt::ErrorInfo::INTERNAL,",
            "Self::NotFound(detail) | Self::Busy(detail) => detail.as_deref(),",
            "fn policy(&self) -> &'static __rt::Policy<'static> { &INFO.policy }",
            "impl __rt::StdError for Error {}",
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
    }

    #[test]
    fn an_error_with_detail_fields_carries_its_typed_detail() {
        let text = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input
    error "FUNDS" class="business-rejected" {
        detail { field "available" "integer" required=#true min=0 max=100 { doc "Left."; }; }
    }
    error "RATE" class="business-rejected" {
        detail { field "ratio" "number" { doc "A ratio."; }; }
    }
    error "BUSY" class="unavailable"
}
"#;
        let (rs, items) = with_plan(text, |plan, contracts| {
            let t = &plan.tools[0];
            let opts = super::super::Options::default();
            let module = printed(super::super::tool(t, &contracts[0], &opts));
            (printed(error_enum(t)), module)
        });
        for (text, part) in [
            (
                &rs,
                "/// `FUNDS`\nFunds(FundsDetail), /// `RATE`\nRate(RateDetail), /// `BUSY`\nBusy(__rt::Option<__rt::String>),",
            ),
            (
                &rs,
                "Self::Busy(detail) => detail.as_deref(), Self::Funds(_) | Self::Rate(_) => __rt::None,",
            ),
            (
                &rs,
                "Self::Funds(detail) => __rt::Some(__rt::error_detail(detail)), Self::Rate(detail) => __rt::Some(__rt::error_detail(detail)), _ => __rt::None,",
            ),
            // `RateDetail` holds an `f64`: no `Eq`, no `Hash`.
            (
                &rs,
                "#[derive(__rt::Debug, __rt::Clone, __rt::PartialEq)] pub enum Error",
            ),
            (
                &items,
                "/// The detail of error `FUNDS`, sent to the model beside its message.",
            ),
            (&items, "pub struct FundsDetail { /// Left."),
            (&items, "pub available: u8,"),
            (&items, "impl __rt::Validate for FundsDetail"),
        ] {
            assert!(has(text, part), "no `{part}` in\n{text}");
        }
    }

    #[test]
    fn a_tool_without_errors_has_only_the_internal_error() {
        let text = "catalog \"c\" version=\"1.0.0\"\ntool \"t\" version=\"1.0.0\" { effect \"read\"; input; }\n";
        let rs = with_plan(text, |plan, _| printed(error_enum(&plan.tools[0])));
        assert!(has(&rs, "pub enum Error { /// A failure"), "{rs}");
        assert!(
            has(
                &rs,
                "match self { Self::Internal(_) => &__rt::ErrorInfo::INTERNAL, }"
            ),
            "{rs}"
        );
    }
}
