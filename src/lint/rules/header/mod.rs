//! Arguments mirrored into HTTP headers (`header="Name"`, MCP `x-mcp-header`): a client
//! rejects a tool whose header declarations break the transport's rules, so they are checked
//! before the tool is served.

crate::lint::declare_rules! {
    name,
    duplicate,
    placement,
}

/// RFC 9110 `tchar`: the characters of an HTTP field-name token.
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// `1*tchar`: a non-empty HTTP token.
pub(crate) fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_tchar)
}

#[cfg(test)]
mod tests {
    use super::is_token;

    #[test]
    fn tokens() {
        for good in ["Region", "x-tenant", "a.b", "A1_~|`^"] {
            assert!(is_token(good), "{good}");
        }
        for bad in [
            "",
            "Region Name",
            "a:b",
            "é",
            "a\r\nb",
            "(x)",
            "a/b",
            "a\"b",
        ] {
            assert!(!is_token(bad), "{bad}");
        }
    }
}
