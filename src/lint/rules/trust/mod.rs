//! What must never come from the model: identity, authorization, policy, secrets.

crate::lint::declare_rules! {
    forbidden_field,
    authority_field,
    internal_key,
    sensitive_unmarked,
    general_execution,
    url_fetch,
    model_path,
    debug_tool,
    code_input,
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

#[cfg(test)]
mod tests {
    use super::is_credential_token;
    use crate::names::{word_refs, words};

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
