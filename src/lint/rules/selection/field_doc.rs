//! The `selection/field-doc` rule: every field (input and output, any depth) has a `doc`; [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports every field without a (non-blank) `doc`: input and output fields at any depth,
    /// fields of objects inside arrays, and fields of named `type`s (reported once, where the
    /// type is declared, not at every use).
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) it leaves out what a careful
    /// author would rightly leave undocumented: fields whose name says it all (`owner`,
    /// `per_page`, `file_path`, `created_at`, `created_by`, `external_id`, `target_date`,
    /// `description_html`, `is_draft`: common words, not ending in an open one such as
    /// `type`, `status` or `data`; or, not a boolean, ending in a word that says the kind of
    /// value and its unit: `toolCallCount`, `agentName`, `webUrl`, `durationMs`,
    /// `timeWindowMinutes`), the id, name or number of a resource the tool names
    /// (`survey_id` in `survey-delete`), wrapper objects whose own fields carry the meaning,
    /// and fields the tool's description names (as a word, or by the field's exact name
    /// anywhere in the text: `filePattern`, `old_string`); and a field left undocumented in many tools
    /// (`input.project_id` everywhere) is reported once, at its first tool.
    ///
    /// ## Why is this bad?
    /// A field's doc becomes its JSON Schema `description`, the only thing besides the name the
    /// model reads to fill in the argument. Without it the model guesses what to pass (an ID or
    /// a name? cents or units?) and how to read what comes back.
    ///
    /// ## Example
    /// ```kdl
    /// input {
    ///     field "status" "string" required=#true { enum "open" "overdue" }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// input {
    ///     field "status" "string" required=#true {
    ///         doc "Invoice status to filter by."
    ///         enum "open" "overdue"
    ///     }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/field-doc",
        level: Level::Warn,
        summary: "every field (input and output, any depth) has a `doc`",
        hooks: crate::lint::Hooks::state(|_| Box::<Reported>::default()),
    };
}

/// The undocumented fields already reported in this catalog, by side and path below the
/// tool (`input.owner`), for published lists.
#[derive(Default)]
struct Reported(std::collections::HashSet<String>);

impl<'a> crate::lint::RuleState<'a> for Reported {
    fn catalog(&mut self, _: &Context<'a>, _: &'a crate::model::Catalog, _: &mut Vec<Finding>) {
        self.0.clear();
    }

    fn declaration(&mut self, cx: &Context<'a>, site: &Site<'a, '_>, out: &mut Vec<Finding>) {
        if cx.config.published && !self.worth_a_doc(site) {
            return;
        }
        check(site, out);
    }
}

impl Reported {
    /// On a published list: whether an undocumented field is worth a finding (see the rule
    /// doc); notes it as reported.
    fn worth_a_doc(&mut self, site: &Site) -> bool {
        let (Some(field), Some(tool)) = (site.field, site.tool) else {
            return true;
        };
        if field.doc.as_ref().is_some_and(|d| !d.value.trim().is_empty()) {
            return true;
        }
        let wrapper = match &field.ty.kind {
            crate::model::TyKind::Object(o) => !o.fields.is_empty(),
            _ => false,
        };
        let text = tool.summary.as_ref().map_or("", |s| s.value.as_str());
        let named = crate::names::words(text).iter().any(|w| *w == field.name.value.to_ascii_lowercase())
            || [&tool.summary, &tool.when, &tool.when_not]
                .into_iter()
                .flatten()
                .any(|t| names_field(&t.value, &field.name.value));
        let tool_words = crate::names::words(&tool.name.value);
        if wrapper || named || names_its_kind(site) || crate::lint::published::self_evident(site.name_words(), &tool_words, text) {
            return false;
        }
        self.0.insert(site.path.to_string())
    }
}

/// Last words that say what kind of value a field holds, and in which unit: a count, a name,
/// a URL, a text, a duration in milliseconds, seconds, minutes, hours or days.
/// Whether `text` names the field as written, as a whole token (`filePattern`, `old_string`,
/// in backticks or not): the description documents it.
fn names_field(text: &str, name: &str) -> bool {
    let token = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(token) && !text[i + name.len()..].chars().next().is_some_and(token)
    })
}

const KINDS: &[&str] = &[
    "count", "name", "url", "text", "title", "header", "label", "description", "message", "email",
    "ms", "seconds", "minutes", "hours", "days",
];

/// On a published list: a field of two or more words, not a boolean, whose last word says
/// what kind of value it holds (`toolCallCount`, `agentName`, `webUrl`, `durationMs`): the
/// leading words say of what, so a doc would repeat the name.
fn names_its_kind(site: &Site) -> bool {
    let w = site.name_words();
    w.len() >= 2
        && !matches!(site.ty.kind, crate::model::TyKind::Boolean)
        && w.last().is_some_and(|l| KINDS.contains(&l.as_str()))
}

fn check(site: &Site, out: &mut Vec<Finding>) {
    let catalog = site.catalog;
    let Some(field) = site.field else { return };
    if field.doc.as_ref().is_some_and(|d| !d.value.trim().is_empty()) {
        return;
    }
    let message = format!("field `{}` has no doc", site.path);
    let f = match site.tool {
        Some(tool) => Finding::in_tool(catalog, tool, field.name.span, message),
        None => Finding::in_catalog(catalog, field.name.span, message),
    };
    out.push(
        f.path(site.path)
            .help(format!("add `doc \"…\"` to field `{}`: what it holds, its unit, and where its value comes from", field.name.value)),
    );
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;
    use crate::model::*;

    #[test]
    fn reports_every_undocumented_declaration_once() {
        let item = Object {
            fields: vec![
                field("amount_minor", TyKind::Integer(Box::default()), None),
                field("note", TyKind::String(Box::default()), Some("Free text.")),
            ],
            span: Span::default(),
            extra: None,
        };
        let mut t = tool("ledger_entry_list");
        t.input.fields.push(field(
            "lines",
            TyKind::Array(Box::new(ArrayTy {
                min_items: None,
                max_items: None,
                unique: false,
                items_nullable: false,
                items: Box::new(Ty {
                    kind: TyKind::Object(item),
                    span: Span::default(),
                }),
            })),
            Some("The lines."),
        ));
        t.input.fields.push(field("blank", TyKind::Boolean, Some("  ")));
        t.output = Some(Object {
            fields: vec![
                field("entry", TyKind::Named(sp("Entry".into())), None),
                field("other", TyKind::Named(sp("Entry".into())), Some("Another.")),
            ],
            span: Span::default(),
            extra: None,
        });
        let mut c = catalog("ledger", vec![t]);
        c.types.push(TypeDef {
            name: sp("Entry".into()),
            doc: None,
            fields: vec![field("entry_reference", TyKind::String(Box::default()), None)],
            span: Span::default(),
        });
        let project = Project { catalogs: vec![c] };
        let found = run_with(&RULE, &project, &Default::default());
        let paths: Vec<(Option<&str>, Option<&str>)> = found
            .iter()
            .map(|f| (f.tool.as_deref(), f.path.as_deref()))
            .collect();
        assert_eq!(
            paths,
            [
                (Some("ledger_entry_list"), Some("input.lines[].amount_minor")),
                (Some("ledger_entry_list"), Some("input.blank")),
                (Some("ledger_entry_list"), Some("output.entry")),
                (None, Some("Entry.entry_reference")),
            ]
        );
    }

    #[test]
    fn a_published_list_skips_evident_fields_and_reports_a_repeated_one_once() {
        let mut a = tool("issue_list");
        a.input.fields = vec![
            field("owner", TyKind::String(Box::default()), None),
            field("issue_id", TyKind::String(Box::default()), None),
            field("state", TyKind::String(Box::default()), None),
            field("comment_count", TyKind::Integer(Box::default()), None),
            field("white_label", TyKind::Boolean, None),
            field("created_by", TyKind::String(Box::default()), None),
            field("description_html", TyKind::String(Box::default()), None),
            field("filePattern", TyKind::String(Box::default()), None),
        ];
        a.when = s("Use with a `filePattern` such as *.rs to narrow the issues.");
        let mut b = tool("issue_close");
        b.input.fields = vec![field("state", TyKind::String(Box::default()), None)];
        let project = Project {
            catalogs: vec![catalog("ledger", vec![a, b])],
        };
        let config = crate::lint::testkit::sites::published();
        let found = run_with(&RULE, &project, &config);
        let paths: Vec<(Option<&str>, Option<&str>)> = found
            .iter()
            .map(|f| (f.tool.as_deref(), f.path.as_deref()))
            .collect();
        assert_eq!(paths, [(Some("issue_list"), Some("input.state")), (Some("issue_list"), Some("input.white_label"))]);
        assert_eq!(run_with(&RULE, &project, &Default::default()).len(), 9);
    }
}
