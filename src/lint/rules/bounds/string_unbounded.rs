//! The `bounds/string-unbounded` rule: strings have `max-length`, an `enum` or a bounded `format`
//! (error in input, warn in output); [`RULE`] documents it.

use crate::lint::string_is_bounded;
use crate::lint::walk::site_span;
use crate::diag::Level;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding};
use crate::model::TyKind;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every `string` field, and every array `items` of type `string`, has a
    /// `max-length`, an `enum`, a format of bounded length (`date-time`, `date`, `uuid`, `ipv4`, `ipv6`, `hostname`, `time`), or a
    /// `pattern` anchored as a whole (`^…$`) whose matches have a finite length (`^[0-9a-f]{40}$`).
    /// `cursor` is bounded by default (512 characters). An error in `input` (at any depth,
    /// through named types), a warning in `output`.
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) the rule keeps those levels only
    /// where the field's doc or name states what a bound would encode — a format (`uuid`, an
    /// ISO 8601 date, an email, a hex colour, a language code), values listed in prose, or a
    /// length limit; values given as examples (after "e.g." or "such as" in their sentence,
    /// or followed by "and many others") are an open set, no bound — and reports every other unbounded string (identifiers, names, URLs,
    /// paths, queries, free content) as `info`, hardening advice: there its author would
    /// have to invent a limit. An output string is a warning there only when its doc states
    /// such a format, values or limit (`"ISO 8601 timestamp"`, `"Abbreviated commit hash (7
    /// characters)"`): the schema then leaves out what the text promises a client; any other
    /// output string is `info`, its length being the server's data. A string whose schema
    /// already carries a `format` or a `pattern` (an `email` with `format: email`) is `info`
    /// there too: what its text states is encoded, and a length on top would be invented. A
    /// field named `…cursor` is not reported there.
    ///
    /// ## Why is this bad?
    /// An unbounded input string is where the model pastes a whole document, a prompt, or an
    /// injection payload, and where a server's buffers and logs grow without limit; clients that
    /// validate arguments cannot reject it. An unbounded output string can flood the model's
    /// context with one result.
    ///
    /// ## Example
    /// ```kdl
    /// input {
    ///     field "note" "string" { doc "A note for the payee." }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// input {
    ///     field "note" "string" max-length=280 { doc "A note for the payee." }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "bounds/string-unbounded",
        level: Level::Error,
        summary: "strings have `max-length`, an `enum` or a bounded `format` (error in input, warn in output)",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

// Per use: the level depends on the side a named type is used on.
fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    let catalog = site.catalog;
    let (Some(tool), Some(side)) = (site.tool, site.side) else { return };
    let TyKind::String(s) = &site.ty.kind else {
        return;
    };
    if string_is_bounded(s) || crate::lint::has_const(site) || s.pattern.as_ref().is_some_and(|p| crate::lint::shared::pattern_max_len(&p.value).is_some()) {
        return;
    }
    let what = match site.field {
        Some(_) => "string field",
        None => "string items",
    };
    let mut level = match side {
        Side::Input => Level::Error,
        Side::Output => Level::Warn,
    };
    if cx.config.published {
        // The field's own name (none for an array's items) and doc (the array's for its items).
        let words = site.name_words();
        if words.last().is_some_and(|w| w == "cursor") {
            return;
        }
        let doc = site.owner().and_then(|f| f.doc.as_ref()).map(|d| d.value.as_str());
        // An output string's length is the server's data: a bound there would be invented.
        let stated = match side {
            // What the server returns: only its text's promise is worth encoding.
            Side::Output => doc.is_some_and(crate::lint::published::doc_states_a_bound),
            Side::Input => crate::lint::published::states_a_bound(words, doc),
        };
        // A format or pattern in the schema already encodes what the text states (an
        // `email` with `format: email`): a length on top of it would be invented.
        let encoded = s.format.is_some() || s.pattern.is_some();
        if !stated || encoded {
            level = Level::Info;
        }
    }
    out.push(
        Finding::in_tool(
            catalog,
            tool,
            site_span(site),
            format!("{} `{}` has no `max-length`, `enum` or bounded `format`", what, site.path),
        )
        .path(site.path)
        .level(level)
        .help("add `max-length=N` (or an `enum`, or `format=\"uuid\"`/`\"date\"`/`\"date-time\"` when the value is one)"),
    );
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::RULE;
    use crate::diag::Level;
    use crate::model::{Effect, Format, StringTy, TyKind};

    #[test]
    fn input_is_error_output_is_warn_and_items_count() {
        let uuid = TyKind::String(Box::new(StringTy {
            format: Some(sp(Format::Uuid)),
            ..StringTy::default()
        }));
        let email = TyKind::String(Box::new(StringTy {
            format: Some(sp(Format::Email)),
            ..StringTy::default()
        }));
        let t = tool(
            "note_add",
            Effect::Update,
            vec![
                field("note", string()),
                field("title", bounded_string(80)),
                field("id", uuid),
                field("email", email),
                field("tags", array(string(), Some(5))),
                field("cursor", TyKind::Cursor(Box::default())),
            ],
            Some(vec![field("body", string())]),
        );
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["input.note", "input.email", "input.tags[]", "output.body"]);
        assert_eq!(f[0].level, Some(Level::Error));
        assert_eq!(f[3].level, Some(Level::Warn));
    }

    #[test]
    fn named_types_are_checked_per_use() {
        let ty = type_def("Address", vec![field("street", string())]);
        let t = tool(
            "address_set",
            Effect::Update,
            vec![field("address", named("Address"))],
            Some(vec![field("address", named("Address"))]),
        );
        let f = check(&RULE, catalog(vec![t], vec![ty]));
        assert_eq!(paths(&f), ["input.address.street", "output.address.street"]);
    }

    #[test]
    fn a_published_list_keeps_the_level_only_where_the_text_states_a_bound() {
        let documented = |name: &str, doc: &str| crate::model::Field {
            doc: Some(sp(doc.to_string())),
            ..field(name, string())
        };
        let t = tool(
            "event_list",
            Effect::Read,
            vec![
                documented("project_id", "The project to list events of."),
                documented("since", "Start of the window (ISO 8601)."),
                documented("sort", "Sort order: 'asc' or 'desc'."),
                field("page_cursor", string()),
                crate::model::Field {
                    doc: Some(sp("The contact's email.".to_string())),
                    ..field(
                        "email",
                        TyKind::String(Box::new(StringTy { format: Some(sp(Format::Email)), ..StringTy::default() })),
                    )
                },
            ],
            Some(vec![
                documented("created", "When the event was created (ISO 8601)."),
                documented("updated_at", "When the event last changed."),
                documented("title", "The event's title."),
            ]),
        );
        let f = check_with(&RULE, vec![catalog(vec![t], vec![])], &published());
        assert_eq!(
            paths(&f),
            ["input.project_id", "input.since", "input.sort", "input.email", "output.created", "output.updated_at", "output.title"]
        );
        let levels: Vec<Option<Level>> = f.iter().map(|f| f.level).collect();
        // An output string is the server's data: a warning only where its doc states a format.
        assert_eq!(
            levels,
            [
                Some(Level::Info),
                Some(Level::Error),
                Some(Level::Error),
                Some(Level::Info),
                Some(Level::Warn),
                Some(Level::Info),
                Some(Level::Info)
            ]
        );
    }
}
