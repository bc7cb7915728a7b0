//! The `bounds/example-invalid` rule: a field's `examples` satisfy its own schema; [`RULE`]
//! documents it.

use crate::contract::schema::ty_schema_text;
use crate::contract::shape::shape_of_text;
use crate::diag::Level;
use crate::lint::walk::{Site, site_finding};
use crate::lint::shared::listed;
use crate::lint::{Context, Finding};
use crate::runtime::validate::check as violations;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks each value of a field's `examples` against the field's own schema (its type,
    /// bounds, `enum`, `pattern`, `format` and `const`), with the runtime's checker, and reports
    /// each example that breaks it, naming the violation by JSON pointer.
    ///
    /// ## Why is this bad?
    /// The schema publishes `examples` beside the constraints: a model imitates examples before it
    /// reads bounds, so an example the server rejects teaches a call that fails validation.
    ///
    /// ## Example
    /// ```kdl
    /// field "page_size" "integer" min=1 max=50 {
    ///     doc "How many notes to return."
    ///     examples 20 100
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "page_size" "integer" min=1 max=50 {
    ///     doc "How many notes to return."
    ///     examples 20 50
    /// }
    /// ```
    pub static RULE = Rule {
        id: "bounds/example-invalid",
        level: Level::Error,
        summary: "a field's `examples` satisfy its own type and constraints",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    // The field's own type only: an array's items are reached as a site of their own.
    let Some(field) = site.field.filter(|f| std::ptr::eq(&f.ty, site.ty)) else {
        return;
    };
    if field.examples.is_empty() {
        return;
    }
    // Shapes are built only for fields with examples (see contract::shape on their lifetime).
    let Ok(shape) = shape_of_text(&ty_schema_text(site.catalog, field)) else {
        return;
    };
    for example in &field.examples {
        let found = violations(shape, &example.value);
        if found.is_empty() {
            continue;
        }
        let message = format!("`{}`: the example {} breaks the field's schema: {}", site.path, example.value, listed(&found));
        out.push(
            site_finding(site, example.span, message)
                .help("change the example to a value the field accepts, or the constraints if the example is right"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::sites::*;
    use crate::model::Effect;
    use serde_json::json;

    #[test]
    fn examples_are_checked_against_their_own_field() {
        let mut n = field("n", int(Some(0), Some(9)));
        n.examples = vec![sp(json!(3)), sp(json!(12))];
        let mut ok = field("ok", int(Some(0), Some(9)));
        ok.examples = vec![sp(json!(9))];
        let t = tool("a_b", Effect::Read, vec![n, ok], None);
        let found = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&found), ["input.n"]);
        assert!(found[0].message.contains("greater than the maximum 9"), "{}", found[0].message);
    }
}
