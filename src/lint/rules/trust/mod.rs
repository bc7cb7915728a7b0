//! What must never come from the model: identity, authorization, policy, secrets.

crate::lint::declare_rules! {
    forbidden_field,
    internal_key,
    sensitive_unmarked,
}

/// The lowercase words of a name, whatever its case or separators: `tenantId`, `TENANT-ID`,
/// `tenant_id` and `Tenant ID` all give `["tenant", "id"]`; an upper-case run is one word
/// (`APIKey` → `["api", "key"]`); digits stay with the word they follow.
pub(crate) fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_uppercase() && !cur.is_empty() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_numeric() || (prev.is_uppercase() && next_lower) {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Words that, before `token`, make it a pagination cursor rather than a credential:
/// `page_token`, `next_page_token`, `next_token` (AWS), `continuation_token`, `sync_token`.
const PAGINATION_WORDS: &[&str] = &[
    "page",
    "next",
    "continuation",
    "pagination",
    "sync",
    "cursor",
    "resume",
];

/// A name ending in the word `token` that is not a pagination cursor (`access_token`,
/// `refreshToken`, `token`; not `page_token`, `token_count` or `max_tokens`).
pub(crate) fn is_credential_token(w: &[&str]) -> bool {
    match w {
        [.., before, "token"] => !PAGINATION_WORDS.contains(before),
        ["token"] => true,
        _ => false,
    }
}

/// `words` as `&str`s, for slice patterns.
pub(crate) fn word_refs(w: &[String]) -> Vec<&str> {
    w.iter().map(String::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::{is_credential_token, word_refs, words};

    #[test]
    fn words_ignore_case_and_separators() {
        for name in [
            "tenant_id",
            "tenantId",
            "TenantId",
            "TENANT-ID",
            "tenant.id",
            "Tenant ID",
            "TENANT_ID",
        ] {
            assert_eq!(words(name), ["tenant", "id"], "{name}");
        }
        assert_eq!(words("APIKey"), ["api", "key"]);
        assert_eq!(words("isSuperAdmin"), ["is", "super", "admin"]);
        assert_eq!(words("oauth2Token"), ["oauth2", "token"]);
        assert_eq!(words("address_line2"), ["address", "line2"]);
        assert_eq!(words("__x__"), ["x"]);
        assert!(words("").is_empty());
    }

    #[test]
    fn credential_tokens_are_not_pagination_tokens() {
        let t = |n: &str| is_credential_token(&word_refs(&words(n)));
        for yes in [
            "token",
            "access_token",
            "refreshToken",
            "AUTH-TOKEN",
            "id_token",
            "csrf_token",
        ] {
            assert!(t(yes), "{yes}");
        }
        for no in [
            "page_token",
            "nextPageToken",
            "next_token",
            "continuation_token",
            "token_count",
            "max_tokens",
            "tokens",
        ] {
            assert!(!t(no), "{no}");
        }
    }
}
