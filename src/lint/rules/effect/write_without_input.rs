//! The `effect/write-without-input` rule: a write with input fields requires at least one; [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags a write tool (`update`, `append`, `destructive`) whose input declares fields but
    /// requires none of them. Not flagged: a tool that takes no input at all (`cache_clear`,
    /// `logging_toggle`) or whose name has the word `all` (`mark_all_notifications_read`), since
    /// what it changes is fixed by its name; and a tool whose every field has a `default`, since
    /// `{}` then means the documented defaults. On a published tools/list (`catalogc lint
    /// FILE.json`), where defaults often live only in the server, a write is flagged only when
    /// one of its optional fields names what it acts on (an `…id`, `…number`, `…slug` or
    /// `…url`): `git_push` or `git_add` with no arguments act on a default target.
    ///
    /// ## Why is this bad?
    /// The model may call the tool with `{}`, and the schema says that is fine. Then the server
    /// either fails at run time with an error the schema could have prevented, or, worse, writes
    /// with defaults: creates an empty assignment, deletes the first match, updates every record.
    /// The fields that say what the write acts on are required; when one of several ways to name
    /// the target is needed, that is one required field or separate tools.
    ///
    /// ## Example
    /// ```kdl
    /// tool "assignment_delete" version="1.0.0" {
    ///     effect "destructive"
    ///     // …
    ///     input { field "assignment_reference" "string" max-length=32 }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "assignment_delete" version="1.0.0" {
    ///     effect "destructive"
    ///     // …
    ///     input { field "assignment_reference" "string" required=#true max-length=32 }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "effect/write-without-input",
        level: Level::Warn,
        summary: "a write tool with input fields requires at least one of them",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// Fields named in the help before the rest is summed up.
const NAMED_AT_MOST: usize = 3;

/// A field that names what a write acts on: an id, a number, a slug or a link to a resource
/// (`issue_id`, `issueUrl`, `pull_number`). On a published list a write none of whose
/// optional fields does so (`git_add`, `git_push`) works on a default target the server
/// knows (the current directory, the tracked remote), and `{}` is a meaningful call.
fn names_a_target(field: &crate::model::Field) -> bool {
    let w = crate::names::words(&field.name.value);
    matches!(w.last().map(String::as_str), Some("id" | "ids" | "number" | "slug" | "uuid"))
        || (w.len() >= 2 && matches!(w.last().map(String::as_str), Some("url" | "uri")))
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let fields = &tool.input.fields;
            let by_name = crate::names::words(&tool.name.value).iter().any(|w| w == "all");
            if !tool.effect.value.is_write()
                || fields.is_empty()
                || by_name
                || fields.iter().any(|f| f.required)
                || fields.iter().all(|f| f.default.is_some())
                || (cx.config.published && !fields.iter().any(names_a_target))
            {
                continue;
            }
            let names: Vec<String> = fields.iter().take(NAMED_AT_MOST).map(|f| format!("`{}`", f.name.value)).collect();
            let more = if fields.len() > NAMED_AT_MOST { ", …" } else { "" };
            let name = &tool.name.value;
            out.push(
                Finding::in_tool(catalog, tool, tool.name.span, format!("write tool `{name}` requires none of its {} input fields: `{{}}` is a valid call", fields.len()))
                    .help(format!("mark the fields that say what `{name}` writes `required=#true` (of {}{more}); split the tool where different fields name the target", names.join(", "))),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::sites::*;
    use crate::model::Effect;

    #[test]
    fn writes_with_only_optional_fields() {
        let mut required = field("assignment_reference", bounded_string(32));
        required.required = true;
        let tools = vec![
            tool("assignment_delete", Effect::Destructive, vec![field("assignment_reference", bounded_string(32))], None),
            tool("assignment_close", Effect::Update, vec![required], None),
            tool("cache_clear", Effect::Destructive, vec![], None),
            tool("assignment_list", Effect::Read, vec![field("owner", bounded_string(32))], None),
            tool("assignments_close_all", Effect::Update, vec![field("owner", bounded_string(32))], None),
        ];
        let f = check(&RULE, catalog(tools, vec![]));
        let tools: Vec<_> = f.iter().filter_map(|f| f.tool.as_deref()).collect();
        assert_eq!(tools, ["assignment_delete"]);
        assert!(f[0].help.as_deref().unwrap_or("").contains("`assignment_reference`"));
    }
}
