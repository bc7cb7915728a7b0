//! The `header/name` rule: `header=` values are HTTP tokens; [`RULE`] documents it.

use super::is_token;
use crate::diag::Level;
use crate::lint::walk::{Site, site_finding};
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every `header=` value is an HTTP field-name token (RFC 9110 `1*tchar`:
    /// letters, digits and ``!#$%&'*+-.^_`|~``; no space, `:`, control character or non-ASCII
    /// letter), as MCP 2026-07-28 requires of `x-mcp-header`.
    ///
    /// ## Why is this bad?
    /// The client sends the argument as the header `Mcp-Param-{Name}`. A name that is not a
    /// token cannot be a header name, and clients drop the whole tool from `tools/list` when
    /// they see one: the model never sees the tool.
    ///
    /// ## Example
    /// ```kdl
    /// field "region" "string" required=#true max-length=16 header="Cloud Region"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "region" "string" required=#true max-length=16 header="Region"
    /// ```
    pub static RULE = Rule {
        id: "header/name",
        level: Level::Error,
        summary: "`header=` values are HTTP field-name tokens (RFC 9110 `tchar`)",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let Some(header) = site.field.and_then(|f| f.header.as_ref()) else {
        return;
    };
    if is_token(&header.value) {
        return;
    }
    let problem = if header.value.is_empty() {
        "is empty".to_string()
    } else {
        format!("`{}` is not an HTTP token", header.value.escape_debug())
    };
    let suggestion: String = header
        .value
        .split(|c: char| !c.is_ascii() || !super::is_tchar(c as u8))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let help = if suggestion.is_empty() {
        "use letters, digits and `-`, e.g. `Region`".to_string()
    } else {
        format!("use letters, digits and `-`, e.g. `{suggestion}`")
    };
    out.push(
        site_finding(site, header.span, format!("the header name of `{}` {problem}", site.path))
            .help(help),
    );
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::sites::*;
    use crate::model::Effect;


    #[test]
    fn only_tokens_pass() {
        let t = tool(
            "region_get",
            Effect::Read,
            vec![
                headed("region", bounded_string(16), "Region"),
                headed("zone", bounded_string(16), "Cloud Zone"),
                headed("rack", bounded_string(16), ""),
            ],
            None,
        );
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["input.zone", "input.rack"]);
        assert!(f[0].help.as_deref().is_some_and(|h| h.contains("Cloud-Zone")));
    }
}
