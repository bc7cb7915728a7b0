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
        hooks: crate::lint::Hooks::declaration(check),
    };
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
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
}
