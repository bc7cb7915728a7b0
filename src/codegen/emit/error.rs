//! A tool's `Error`: one variant per declared error, described by one static table of
//! `ErrorInfo` rows (`runtime::ToolError`).

use super::{doc, ident};
use crate::codegen::plan::ToolPlan;
use proc_macro2::TokenStream;
use quote::quote;

/// The `Error` enum of tool `t` and its `ToolError`, `Display` and `Error` impls.
pub(super) fn error_enum(t: &ToolPlan<'_>) -> TokenStream {
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
            "pub enum Error { /// No such thing.\nNotFound, Busy }",
            "static INFO: [__rt::ErrorInfo; 2]",
            r#"__rt::ErrorInfo::new("NOT_FOUND", "not-found", "never", __rt::None, "No such thing.")"#,
            r#"__rt::Some("Try again in a minute.")"#,
            "&INFO[*self as usize]",
            "impl __rt::StdError for Error {}",
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
    }

    #[test]
    fn a_tool_without_errors_has_an_empty_error() {
        let text = "catalog \"c\" version=\"1.0.0\"\ntool \"t\" version=\"1.0.0\" { effect \"read\"; input; }\n";
        let rs = with_plan(text, |plan, _| printed(error_enum(&plan.tools[0])));
        assert!(has(&rs, "pub enum Error {}"), "{rs}");
        assert!(has(&rs, "match *self {}"), "{rs}");
    }
}
