//! The `trust/forbidden-field` rule: input fields never carry identity, authorization, policy or
//! credentials; [`RULE`] documents it.

use super::is_credential_token;
use crate::names::{word_refs, words};
use crate::diag::Level;
use crate::lint::walk::site_finding;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Rejects input fields, at any depth (inside objects, array items and named types), whose
    /// name carries identity, authorization or policy. Names are compared by words, ignoring
    /// case and separators (`tenantId`, `TENANT-ID` and `tenant_id` are the same name). Forbidden:
    /// - identity: `principal_id`, `tenant_id` (also with a prefix: `caller_tenant_id`);
    /// - authorization: `role`, `roles`, `is_admin` and every `is_…admin…` (`is_super_admin`,
    ///   `isSuperadmin`, `is_administrator`: a later word starting or ending with `admin`, so
    ///   not `is_badminton_player`), `approved`, `is_approved` (not `approved_at`, `approved_by_note`),
    ///   `policy_decision`, `authoritative_price`;
    /// - credentials: `credential`, `credentials` (also `aws_credentials`), `password` anywhere
    ///   in the name (`new_password`, `passwd`), `api_key` anywhere (`x_api_key`, `apikey`),
    ///   a name ending in the word `secret` (`client_secret`, `secret`; not `secret_name`), a
    ///   name ending in the word `token` (`access_token`, `token`). A `…_token` whose previous
    ///   word is `page`, `next`, `continuation`, `pagination`, `sync`, `cursor` or `resume`
    ///   (`page_token`, `nextPageToken`) is a pagination cursor, not a credential, and passes;
    ///   so do `token_count` and `max_tokens`, which do not end in the word `token`;
    /// - on a published tools/list (`catalogc lint FILE.json`) the `role` of a list element
    ///   (`messages[].role`, a chat message's author) is not flagged;
    /// - a bare `role`/`roles` is flagged even where it filters other users by role; name
    ///   such a filter for what it is (`member_role_filter`), which passes. On a published
    ///   tools/list a `role` whose doc opens "Filter by …" (a real `list_platform_users
    ///   role=`) is not flagged: renaming a published field breaks its callers, and the doc
    ///   already says it filters;
    /// - the project's own names (`forbidden-fields "org_id" ...` in the `lint` block of
    ///   `catalogc.kdl`), matched as whole names by the same word comparison.
    ///
    /// ## Why is this bad?
    /// Whatever is in the arguments, the model chose, and a prompt injection can choose it too.
    /// Who the caller is, what they may do, what was approved and the secrets they hold come from
    /// the authenticated context of the call, never from arguments.
    ///
    /// ## Example
    /// ```kdl
    /// input {
    ///     field "tenant_id" "string" required=#true max-length=64
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // the server takes the tenant from the authenticated session
    /// input {
    ///     field "invoice_reference" "string" required=#true max-length=32
    /// }
    /// ```
    pub static RULE = Rule {
        id: "trust/forbidden-field",
        level: Level::Error,
        summary: "input fields never carry identity, authorization, policy or credentials",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

/// `admin`, `superadmin`, `sysadmin`, `administrator`; not `badminton`, which a literal
/// `*admin*` glob would take.
fn is_admin_word(w: &str) -> bool {
    w.starts_with("admin") || w.ends_with("admin")
}

/// What the name carries, when it is forbidden.
fn built_in(w: &[&str]) -> Option<&'static str> {
    let ends = |suffix: &[&str]| w.ends_with(suffix);
    let contains = |seq: &[&str]| w.windows(seq.len()).any(|x| x == seq);
    if ends(&["principal", "id"]) || ends(&["tenant", "id"]) {
        return Some("caller identity");
    }
    if matches!(w, ["role"] | ["roles"] | ["approved"] | ["is", "approved"])
        || matches!(w, ["is", rest @ ..] if rest.iter().any(|x| is_admin_word(x)))
        || ends(&["policy", "decision"])
        || w == ["authoritative", "price"]
    {
        return Some("an authorization or policy decision");
    }
    if ends(&["credential"])
        || ends(&["credentials"])
        || w.iter().any(|x| *x == "password" || *x == "passwd")
        || contains(&["api", "key"])
        || w.contains(&"apikey")
        || ends(&["secret"])
        || is_credential_token(w)
    {
        return Some("a credential");
    }
    None
}

/// Whether the project's `forbidden-fields` list names these words. Most projects list none,
/// so the list is split per field only when there is one.
fn forbidden_by_config(cx: &Context, words_of_field: &[String]) -> bool {
    cx.config.forbidden_fields.iter().any(|n| {
        let w = words(n);
        !w.is_empty() && w == words_of_field
    })
}

fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    if site.side != Some(Side::Input) {
        return;
    }
    let Some(field) = site.field else { return };
    let w = site.name_words();
    let what = built_in(&word_refs(w)).or_else(|| forbidden_by_config(cx, w).then_some("what the project forbids"));
    let Some(what) = what else { return };
    // On a published list, the `role` of an element of a list (a chat message's `role`) is
    // the element's data, not the caller's authorization.
    if cx.config.published && matches!(word_refs(w).as_slice(), ["role"]) && site.path.contains("[].") {
        return;
    }
    // Nor is a `role` whose doc opens "Filter by …": the role the listed users hold.
    let filter = field.doc.as_ref().is_some_and(|d| d.value.trim_start().to_ascii_lowercase().starts_with("filter"));
    if cx.config.published && matches!(word_refs(w).as_slice(), ["role"]) && filter {
        return;
    }
    out.push(
        site_finding(site, field.name.span, format!("input field `{}` carries {what}", site.path))
            .help("remove it from the input: take it from the authenticated context of the call on the server"),
    );
}

#[cfg(test)]
mod tests {
    use crate::names::{word_refs, words};
    use super::{RULE, built_in};
    use crate::lint::Config;
    use crate::lint::testkit::sites::*;
    use crate::model::{Effect, TyKind};

    fn forbidden(name: &str) -> bool {
        built_in(&word_refs(&words(name))).is_some()
    }

    #[test]
    fn listed_names_and_spelling_variants() {
        for name in [
            "principal_id", "principalId", "tenant_id", "tenantId", "TENANT-ID", "TenantID", "caller_tenant_id",
            "roles", "role", "ROLES", "is_admin", "isAdmin", "is_super_admin", "isSuperadmin", "IS_ADMIN_USER", "is_administrator", "is_sysadmin",
            "approved", "is_approved", "authoritative_price", "AuthoritativePrice", "credential", "credentials",
            "aws_credentials", "policy_decision", "policyDecision", "password", "new_password", "passwd",
            "api_key", "apiKey", "API-KEY", "x_api_key", "apikey", "access_token", "refreshToken", "token",
            "client_secret", "clientSecret", "secret",
        ] {
            assert!(forbidden(name), "{name} should be forbidden");
        }
    }

    #[test]
    fn near_misses_pass() {
        for name in [
            "approved_at", "approved_by_note", "token_count", "max_tokens", "page_token", "nextPageToken",
            "next_token", "continuation_token", "secret_name", "role_description", "user_roles_count",
            "tenant", "principal", "admin_note", "member_role_filter", "is_active", "is_badminton_player", "key", "keyword", "price", "passage",
            "id", "user_id", "tokenizer",
        ] {
            assert!(!forbidden(name), "{name} should pass");
        }
    }

    #[test]
    fn a_published_role_filter_passes() {
        let filter = crate::model::Field {
            doc: Some(sp("Filter by user role (admins, auditor).".to_string())),
            ..field("role", bounded_string(16))
        };
        let t = tool("list_platform_users", Effect::Read, vec![filter], None);
        assert!(check_with(&RULE, vec![catalog(vec![t.clone()], vec![])], &published()).is_empty());
        assert_eq!(check(&RULE, catalog(vec![t], vec![])).len(), 1);
    }

    #[test]
    fn any_depth_items_named_types_and_project_names() {
        let ty = type_def("Ctx", vec![field("tenantId", bounded_string(8))]);
        let t = tool(
            "a_b",
            Effect::Read,
            vec![
                field("ctx", named("Ctx")),
                field("list", array(object(vec![field("Is-Admin", TyKind::Boolean)]), Some(2))),
                field("cost_center", bounded_string(8)),
            ],
            Some(vec![field("tenant_id", bounded_string(8))]),
        );
        let config = Config {
            forbidden_fields: vec!["CostCenter".to_string()],
            ..Config::default()
        };
        let f = check_with(&RULE, vec![catalog(vec![t], vec![ty])], &config);
        assert_eq!(paths(&f), ["input.ctx.tenantId", "input.list[].Is-Admin", "input.cost_center"]);
    }
}
