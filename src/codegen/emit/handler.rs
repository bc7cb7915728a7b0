//! The handler trait (one method per tool) and `Catalog`, the `runtime::Catalog`
//! implementation that checks a call's arguments, runs the handler's method and encodes its
//! outcome.

use super::{doc, ident};
use crate::codegen::Options;
use crate::codegen::plan::CatalogPlan;
use proc_macro2::TokenStream;
use quote::quote;

/// The handler trait and `Catalog`, the bottom of a catalog's file.
pub(in crate::codegen) fn handler(plan: &CatalogPlan<'_>, opts: &Options) -> TokenStream {
    let project = project_consts(opts);
    let cat_doc = doc(plan.cat.summary.as_ref().map(|s| s.value.as_str()));
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
            fn #m(&self, ctx: &Self::Context, call: &#m::Call, input: #m::Input)
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
        if t.needs.is_empty() {
            quote! {
                #m::NAME => __rt::call::boxed(__rt::call::run(arguments, |input| handler.#m(ctx, call, input))),
            }
        } else {
            // The call with the answers typed as the tool declares them.
            quote! {
                #m::NAME => __rt::call::boxed(async move {
                    let call = call.typed::<#m::Answers>();
                    __rt::call::run_reply(arguments, |input| handler.#m(ctx, &call, input)).await
                }),
            }
        }
    });
    let dispatch = if plan.tools.is_empty() {
        quote! {
            let _ = (handler, ctx, call, arguments);
            __rt::Err(__rt::CallError::UnknownTool(name.into()))
        }
    } else {
        // One boxed future per arm and a single await: the `call` future holds one pointer
        // rather than a state per tool, which keeps checking a large catalog's dispatcher
        // linear and its future small.
        quote! {
            let running: __rt::call::BoxCall<'_> = match name {
                #(#arms)*
                _ => return __rt::Err(__rt::CallError::UnknownTool(name.into())),
            };
            __rt::Ok(running.await)
        }
    };
    quote! {
        #cat_doc
        ///
        /// One method per tool. The context carries what the server trusts about the request
        /// (identity, tenant, policy); it never comes from tool arguments. The call says what
        /// the protocol said of this one: its request id, deadline, cancellation, progress
        /// reporter, protocol era and, for a tool with `needs-input`, the user's answers.
        #[allow(dead_code)]
        pub trait #trait_ident: __rt::Send + __rt::Sync {
            /// Identity, tenant and policy from the authenticated request — never from arguments.
            type Context: __rt::Send + __rt::Sync;
            #(#methods)*
        }

        /// The catalog as served: tool definitions in declaration order and `call`.
        #[derive(Debug, Clone, Copy, Default)]
        #[allow(dead_code)]
        pub struct Catalog;

        impl<H: #trait_ident> __rt::Catalog<H> for Catalog {
            type Context = H::Context;
            const NAME: &'static str = NAME;
            const VERSION: &'static str = VERSION;
            const TOOLS: &'static [__rt::ToolInfo] = &[#(#infos),*];
            #project

            // One arm per tool: a large catalog's dispatcher is long by nature.
            #[allow(clippy::too_many_lines)]
            async fn call(
                handler: &H,
                ctx: &H::Context,
                call: &__rt::Call,
                name: &str,
                arguments: __rt::serde_json::Value,
            ) -> __rt::Result<__rt::CallResult, __rt::CallError> {
                #dispatch
            }
        }
    }
}

/// `Catalog::GUARD` and `Catalog::PROFILES` when the project declares them (without, the
/// trait's defaults apply and nothing is written).
fn project_consts(opts: &Options) -> TokenStream {
    let guard = opts.guard.map(|g| {
        let n = |v: u64| super::int_literal(i128::from(v), "");
        let (calls, ms, same, concurrent) = (
            n(g.max_calls),
            n(g.max_session_ms),
            n(g.max_same_failure),
            n(g.max_concurrent),
        );
        quote! {
            const GUARD: __rt::Option<__rt::Guard> = __rt::Some(__rt::Guard {
                max_calls: #calls,
                max_session_ms: #ms,
                max_same_failure: #same,
                max_concurrent: #concurrent,
            });
        }
    });
    let profiles = (!opts.profiles.is_empty()).then(|| {
        let each = opts.profiles.iter().map(|p| {
            let (name, disable, effects) = (&p.name, &p.disable, &p.require_approval);
            let (guard, mock) = (p.require_guard, p.forbid_mock);
            quote! {
                __rt::Profile {
                    name: #name,
                    disable: &[#(#disable),*],
                    require_approval: &[#(#effects),*],
                    require_guard: #guard,
                    forbid_mock: #mock,
                }
            }
        });
        quote!(const PROFILES: &'static [__rt::Profile<'static>] = &[#(#each),*];)
    });
    quote!(#guard #profiles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests::{has, printed, with_plan};

    #[test]
    fn one_method_and_one_dispatch_arm_per_tool() {
        let text = include_str!("../../../catalogs/billing.kdl");
        let rs = with_plan(text, |plan, _| printed(handler(plan, &Options::default())));
        for part in [
            "pub trait Billing: __rt::Send + __rt::Sync {",
            "type Context: __rt::Send + __rt::Sync;",
            "fn invoice_list(&self, ctx: &Self::Context, call: &invoice_list::Call, input: invoice_list::Input) -> impl __rt::Future<Output = __rt::Result<invoice_list::Output, invoice_list::Error>> + __rt::Send;",
            "-> impl __rt::Future<Output = __rt::Result<invoice_send_reminder::Reply, invoice_send_reminder::Error>>",
            "const TOOLS: &'static [__rt::ToolInfo] = &[invoice_list::INFO, invoice_get::INFO, invoice_send_reminder::INFO];",
            "__rt::call::boxed(__rt::call::run(arguments, |input| handler.invoice_list(ctx, call, input)))",
            "let call = call.typed::<invoice_send_reminder::Answers>();",
            "__rt::call::run_reply(arguments",
            "_ => return __rt::Err(__rt::CallError::UnknownTool(name.into())),",
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
    }

    #[test]
    fn a_catalog_without_tools_knows_no_tool() {
        let rs = with_plan("catalog \"c\" version=\"1.0.0\"\n", |plan, _| {
            printed(handler(plan, &Options::default()))
        });
        assert!(has(&rs, "let _ = (handler, ctx, call, arguments);"), "{rs}");
        assert!(
            has(&rs, "const TOOLS: &'static [__rt::ToolInfo] = &[];"),
            "{rs}"
        );
    }
}
