//! The `naming/opaque-field` rule: field names are words, not one or two letters or bare
//! abbreviations; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks for field names the model cannot read: one or two letters (`q`, `n`, `dt`), or
    /// built only from abbreviations (`cnt`, `usr`, `tmp`, `val`, `obj`, `args`, `usr_cnt`).
    /// Short names every reader understands are accepted: `id`, `ip` (also in `src_ip`), `to`
    /// (the end of a relation), the operands and coordinates `a`, `b`, `x`, `y`, `z`, and
    /// `params` (the domain term of pipeline and template parameters).
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) a `string` named `q` is not
    /// reported: it is the search parameter of the web's query strings (`?q=`), kept by the
    /// upstream APIs (GitHub's, Okta's) that published tools mirror, and renaming a published
    /// field breaks its callers.
    ///
    /// ## Why is this bad?
    /// The model fills arguments from the field name and its `doc`. `q` could be a search query,
    /// a quantity or a quarter; the model guesses, and a guess that fits the schema is a silent
    /// wrong call. A readable name costs a few tokens and removes the guess.
    ///
    /// ## Example
    /// ```kdl
    /// field "q" "string" max-length=200 { doc "Search text." }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "search_text" "string" max-length=200 { doc "Search text." }
    /// ```
    pub static RULE = Rule {
        id: "naming/opaque-field",
        level: Level::Warn,
        summary: "field names are words, not one or two letters or bare abbreviations",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

/// Abbreviations that say nothing on their own.
const ABBREVIATIONS: &[&str] = &[
    "args", "arg", "cnt", "ctx", "cfg", "conf", "dat", "idx", "obj", "opt", "opts", "ptr", "req", "res", "resp", "ret", "str", "tmp", "temp", "usr", "val", "vals",
    "var", "buf", "num", "msg", "misc", "info", "elem", "itm", "qty", "amt", "desc", "src",
    "dst", "dest",
];

/// Short names everyone reads correctly: identifiers, the network address, the ends of a
/// relation, and the operands of arithmetic (the four corpus false positives' classes).
const READABLE_SHORT: &[&str] = &["id", "ip", "to", "a", "b", "x", "y", "z"];

fn is_opaque(name: &str, words: &[String]) -> bool {
    let lower = name.to_ascii_lowercase();
    if READABLE_SHORT.contains(&lower.as_str()) {
        return false;
    }
    if lower.chars().filter(|c| c.is_alphanumeric()).count() <= 2 {
        return true;
    }
    !words.is_empty()
        && words
            .iter()
            .all(|w| ABBREVIATIONS.contains(&w.as_str()) || (w.len() <= 2 && !READABLE_SHORT.contains(&w.as_str())))
}

fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    let catalog = site.catalog;
    let Some(field) = site.field else { return };
    let name = &field.name.value;
    if !is_opaque(name, site.name_words()) {
        return;
    }
    // The search parameter of a query string, as the upstream API names it.
    if cx.config.published && name == "q" && matches!(site.ty.kind, crate::model::TyKind::String(_)) {
        return;
    }
    let message = format!("field name `{name}` does not say what the field holds");
    let finding = match site.tool {
        Some(tool) => Finding::in_tool(catalog, tool, field.name.span, message),
        None => Finding::in_catalog(catalog, field.name.span, message),
    };
    out.push(
        finding
            .path(site.path)
            .help("spell the name out in words the model can read, e.g. `search_text` instead of `q`, `item_count` instead of `cnt`"),
    );
}

#[cfg(test)]
mod tests {
    use crate::names::words;
    use super::is_opaque;

    #[test]
    fn a_published_search_parameter_q_is_readable() {
        use crate::lint::testkit::sites::*;
        use crate::model::Effect;
        let t = tool("user_search", Effect::Read, vec![field("q", string()), field("n", int(None, None))], None);
        let f = check_with(&super::RULE, vec![catalog(vec![t.clone()], vec![])], &published());
        assert_eq!(paths(&f), ["input.n"]);
        assert_eq!(check(&super::RULE, catalog(vec![t], vec![])).len(), 2);
    }

    #[test]
    fn opaque_names() {
        for bad in ["q", "n", "s", "dt", "cnt", "usr", "tmp", "val", "obj", "args", "usr_cnt", "tmp_val"] {
            assert!(is_opaque(bad, &words(bad)), "{bad}");
        }
    }

    #[test]
    fn readable_names() {
        for good in ["id", "ip", "src_ip", "to", "a", "x", "params", "query_text", "user_count", "page_size", "value", "status", "usr_name", "amount_minor"] {
            assert!(!is_opaque(good, &words(good)), "{good}");
        }
    }
}
