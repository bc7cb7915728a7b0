//! A tool's module: its constants (name, version, description, hashes, definition and the
//! `ToolInfo` of them), its `Input`/`Output` and nested types, `Input`'s idempotency and
//! approval methods, its `Error` and its `NeedsInput`.

use super::{At, Options, doc, ident, item, opt_u64};
use crate::codegen::plan::{FieldPlan, Item, RTy, ToolPlan};
use crate::contract::ToolContract;
use crate::model::{ConfirmDigest, ContentKind, InputKind};
use proc_macro2::TokenStream;
use quote::quote;

/// The module of tool `t`, whose contract is `c`.
pub(in crate::codegen) fn module(
    t: &ToolPlan<'_>,
    c: &ToolContract,
    opts: &Options,
) -> TokenStream {
    let tool = t.tool;
    let m = ident(&t.module);
    let name = &tool.name.value;
    let version = &tool.version.value;
    let description = &c.description;
    let h = c.hashes();
    let (ih, oh, ch) = (&h.input, &h.output, &h.contract);
    let definition = super::raw_str(c.definition());
    let mdoc = doc(tool.summary.as_ref().map(|s| s.value.as_str()));
    let items = t.items.iter().map(|i| item(i, At::Tool, opts));
    let input_impl = input_methods(t);
    let error = super::error::error_enum(t);
    let needs = needs_input(t);
    let policy = policy(t);
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
        #[allow(dead_code)]
        pub mod #m {
            use ::catalogc::runtime::support as __rt;
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
                policy: #policy,
            };

            #(#items)*
            #content
            #input_impl
            #error
            #needs
        }
    }
}

/// The tool's run-time policy as a `Policy` literal (`catalogc::runtime::policy`). Its
/// `idempotency` is `Some` exactly when `Input::idempotency_key()` exists ([`key_field`]).
fn policy(t: &ToolPlan<'_>) -> TokenStream {
    let tool = t.tool;
    let sensitive = tool.sensitive_inputs();
    let scope = tool.idempotency_scope();
    let p = tool.policy(&sensitive, &scope);
    let opt_str = |v: Option<&str>| match v {
        Some(s) => quote!(__rt::Some(#s)),
        None => quote!(__rt::None),
    };
    let effect = p.effect;
    let timeout = opt_u64(p.timeout_ms);
    let max_bytes = opt_u64(p.max_result_bytes);
    let on_timeout = opt_str(p.on_timeout);
    let status = opt_str(p.status_tool);
    let confirm = opt_str(p.confirm);
    let idempotency = match (p.idempotency, key_field(t)) {
        (Some(idem), Some(_)) => {
            let key = idem.key;
            let scope = idem.scope;
            let ttl = opt_u64(idem.ttl_s);
            quote!(__rt::Some(__rt::Idempotency::new(#key, &[#(#scope),*], #ttl)))
        }
        _ => quote!(__rt::None),
    };
    let fields = p.sensitive;
    let resource = opt_str(p.resource);
    let approval = p.approval;
    quote! {
        __rt::Policy {
            effect: #effect,
            timeout_ms: #timeout,
            max_result_bytes: #max_bytes,
            on_timeout: #on_timeout,
            status_tool: #status,
            confirm: #confirm,
            idempotency: #idempotency,
            sensitive: &[#(#fields),*],
            resource: #resource,
            approval: #approval,
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
            #[must_use]
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
                #[must_use]
                pub fn approval_digest(&self) -> __rt::String {
                    __rt::approval_digest(self, __rt::None)
                }
            },
            ConfirmDigest::ArgumentsResourceVersion => quote! {
                /// The approval digest: `sha256:` over the RFC 8785 canonical arguments and
                /// the current `resource_version` of what the call changes.
                #[must_use]
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

/// `NeedsInput`, `Reply` and `Answers`, when the tool declares `needs-input`; and `Call`,
/// what the handler learns of its call (with the typed answers).
fn needs_input(t: &ToolPlan<'_>) -> TokenStream {
    if t.needs.is_empty() {
        return quote! {
            /// What the handler learns of its call: request id, deadline, cancellation,
            /// progress, protocol era.
            pub type Call = __rt::Call;
        };
    }
    let answers = answers(t);
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
        #answers
        /// What the handler learns of its call: request id, deadline, cancellation,
        /// progress, protocol era, and the user's [`Answers`].
        pub type Call = __rt::Call<Answers>;
    }
}

/// `Answers`: one field per `needs-input`, its outcome typed by its kind (a confirmation's
/// outcome, the text of a `text` or `choice`, a redacted `credential`).
fn answers(t: &ToolPlan<'_>) -> TokenStream {
    let fields = t.needs.iter().zip(&t.answer_fields).map(|((_, n), f)| {
        let fid = ident(f);
        let (name, kind) = (n.name.value.as_str(), n.kind.value);
        let (ty, read) = match kind {
            InputKind::Confirmation => (
                quote!(__rt::Confirmation),
                quote!(__rt::Confirmation::read(answers, #name)),
            ),
            InputKind::Credential => (
                quote!(__rt::Option<__rt::Credential>),
                quote!(__rt::Credential::read(answers, #name)),
            ),
            InputKind::Choice | InputKind::Text => (
                quote!(__rt::Option<__rt::String>),
                quote!(__rt::answer_text(answers, #name)),
            ),
        };
        let what = format!(
            " The answer to `needs-input \"{name}\" kind=\"{}\"`.",
            kind.as_str()
        );
        let d = doc(n.doc.as_ref().map(|d| d.value.as_str()));
        (
            quote! {
                #d
                #[doc = #what]
                pub #fid: #ty,
            },
            quote!(#fid: #read,),
        )
    });
    let (decls, reads): (Vec<_>, Vec<_>) = fields.unzip();
    quote! {
        /// The user's answers to this tool's input requests in this call, as the server
        /// verified them: each is bound to this tool, these arguments and this caller.
        #[derive(__rt::Debug, __rt::Clone, __rt::Default,
            __rt::PartialEq, __rt::Eq, __rt::Hash)]
        pub struct Answers {
            #(#decls)*
        }
        impl __rt::FromAnswers for Answers {
            fn from_answers(answers: &__rt::RawAnswers) -> Self {
                Answers { #(#reads)* }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests::{has, printed, with_plan};

    #[test]
    fn a_tool_module_holds_its_contract_and_its_items() {
        let text = include_str!("../../../catalogs/billing.kdl");
        let rs = with_plan(text, |plan, contracts| {
            let t = plan
                .tools
                .iter()
                .position(|t| t.module == "invoice_send_reminder")
                .unwrap_or_else(|| panic!("no invoice_send_reminder"));
            printed(module(&plan.tools[t], &contracts[t], &Options::default()))
        });
        for part in [
            "pub mod invoice_send_reminder {",
            "use ::catalogc::runtime::support as __rt;",
            r#"pub const NAME: &str = "invoice_send_reminder";"#,
            "pub const CONTRACT_HASH: &str = \"sha256:",
            "pub const DEFINITION: &str = r#\"{",
            "pub const INFO: __rt::ToolInfo = __rt::ToolInfo {",
            r#"pub const IDEMPOTENCY_SCOPE: &'static [&'static str] = &["tenant", "operation"];"#,
            "pub const IDEMPOTENCY_TTL_S: __rt::Option<u64> = __rt::Some(86400);",
            "pub fn idempotency_key(&self) -> &str { &self.idempotency_key }",
            "pub fn approval_digest(&self) -> __rt::String { __rt::approval_digest(self, __rt::None) }",
            "pub enum NeedsInput {",
            "pub type Reply = __rt::Reply<Output, NeedsInput>;",
            "pub struct Answers {",
            "pub approval: __rt::Confirmation,",
            r#"approval: __rt::Confirmation::read(answers, "approval"),"#,
            "pub type Call = __rt::Call<Answers>;",
            "pub enum Error {",
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
    }

    #[test]
    fn an_unstructured_result_is_a_runtime_type() {
        let text = include_str!("../../../tests/consumer/content/notes.kdl");
        let rs = with_plan(text, |plan, contracts| {
            let all: Vec<String> = plan
                .tools
                .iter()
                .zip(contracts)
                .map(|(t, c)| printed(module(t, c, &Options::default())))
                .collect();
            all.concat()
        });
        assert!(
            has(&rs, "pub type Output = __rt::Text;")
                || has(&rs, "pub type Output = __rt::Markdown;"),
            "{rs}"
        );
    }
}
