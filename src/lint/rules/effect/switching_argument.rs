//! The `effect/switching-argument` rule: no argument switches a tool between reading and
//! writing, or makes a non-destructive tool destroy; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::signals::{Verb, verb};
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::TyKind;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags an input argument that chooses what kind of effect the call has:
    ///
    /// - a string `enum` that chooses the operation (a field named `action`, `operation`,
    ///   `op`, `mode`, `method`, `command` or `verb`) whose values name
    ///   operations that only read (`get`, `list`, `get_comments`) next to operations that
    ///   write (`create`, `update`, `delete_pending`);
    /// - on a tool that is not destructive (read-only, or `destructiveHint: false`; a catalog's
    ///   `read`, `external-read`, `preview` or `append`), an `enum` value that destroys or stops
    ///   (`delete`, `cancel`, `stop`), or a top-level `boolean` whose name has `trash`,
    ///   `delete`, `drop`, `purge`, `destroy`, `wipe`, `erase` or `truncate` (`in_trash`,
    ///   `dropTarget`).
    ///
    /// Each value is classified by its first word; values that do not start with a verb
    /// (`labels`, `watch`) are not counted, and a set of HTTP method names (`GET`, `POST`,
    /// `DELETE`, and the WebDAV and extension methods such as `COPY`, `PURGE`, `PROPFIND`) is
    /// data, the method of a request the tool stores or sends, not an operation.
    ///
    /// ## Why is this bad?
    /// A tool has one set of hints, so it cannot describe both effects: marked read-only, its
    /// writes run without the approval clients ask for writes; marked as a write, every read
    /// asks the user to approve it. A flag that turns an update into a deletion hides the
    /// deletion from everything that reads the hints. Separate tools say what each call does.
    ///
    /// ## Example
    /// ```kdl
    /// field "action" "string" required=#true {
    ///     enum "list" "get" "create" "delete"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // `config_list` and `config_get` with `effect "read"`, `config_create` with
    /// // `effect "append"`, `config_delete` with `effect "destructive"`
    /// field "config_name" "string" required=#true max-length=253
    /// ```
    pub static RULE = Rule {
        id: "effect/switching-argument",
        level: Level::Warn,
        summary: "no argument switches a tool between reading and writing, or makes a non-destructive tool destroy",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

/// Last words of the names of fields that choose an operation.
const OPERATION_NAMES: &[&str] = &["action", "operation", "op", "mode", "method", "command", "cmd", "verb"];

/// Words of a boolean's name that delete what the tool works on.
const DELETING: &[&str] = &["trash", "delete", "drop", "purge", "destroy", "wipe", "erase", "truncate"];

const HTTP_METHODS: &[&str] = &[
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "COPY", "LINK",
    "UNLINK", "PURGE", "LOCK", "UNLOCK", "PROPFIND", "PROPPATCH", "MKCOL", "MOVE", "VIEW",
];

/// The first word of `value` when it is a verb, with what it does (`get_comments`, `delete`).
fn value_verb(value: &str) -> Option<(String, Verb)> {
    let first = crate::names::words(value).into_iter().next()?;
    let kind = verb(&first)?;
    Some((first, kind))
}

/// `values` quoted for a message.
fn quoted(values: &[&str]) -> String {
    let list: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    list.join(", ")
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let (Some(tool), Some(field)) = (site.tool, site.field) else { return };
    if site.side != Some(Side::Input) || !std::ptr::eq(&field.ty, site.ty) {
        return;
    }
    let destructive = tool.annotations().destructive;
    let span = field.name.span;
    match &field.ty.kind {
        TyKind::String(s) => {
            let Some(values) = &s.enum_values else { return };
            if !site.name_words().last().is_some_and(|w| OPERATION_NAMES.contains(&w.as_str())) {
                return;
            }
            let values: Vec<&str> = values.values.iter().map(|v| v.value.as_str()).collect();
            if values.iter().all(|v| HTTP_METHODS.contains(v)) {
                return;
            }
            let of = |kind: &[Verb]| -> Vec<&str> {
                values.iter().copied().filter(|v| value_verb(v).is_some_and(|(_, k)| kind.contains(&k))).collect()
            };
            let (reads, writes) = (of(&[Verb::Read]), of(&[Verb::Write, Verb::Destructive]));
            let destroys = of(&[Verb::Destructive]);
            if !reads.is_empty() && !writes.is_empty() {
                let message = format!("input field `{}` switches tool `{}` between reading ({}) and writing ({}): one set of hints cannot describe both", site.path, tool.name.value, quoted(&reads), quoted(&writes));
                out.push(site_finding(site, span, message).help("split the tool: one read-only tool for the reads, and a tool per kind of write with its own effect"));
            } else if !destroys.is_empty() && !destructive {
                let message = format!("input field `{}` makes non-destructive tool `{}` destroy ({}): its hints hide the deletion", site.path, tool.name.value, quoted(&destroys));
                out.push(site_finding(site, span, message).help("move the destructive values to a tool marked destructive (`destructiveHint: true`; in a catalog `effect \"destructive\"`), or mark this one destructive"));
            }
        }
        TyKind::Boolean if site.depth == 1 && !destructive => {
            let Some(word) = site.name_words().iter().find(|w| DELETING.contains(&w.as_str())) else { return };
            let message = format!("boolean input `{}` makes non-destructive tool `{}` {word} what it updates: its hints hide the deletion", site.path, tool.name.value);
            out.push(site_finding(site, span, message).help("take the flag out into a tool marked destructive (`destructiveHint: true`; in a catalog `effect \"destructive\"`), e.g. `page_trash` beside `page_update`"));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::value_verb;
    use crate::lint::signals::Verb;

    #[test]
    fn values_by_their_first_verb() {
        assert_eq!(value_verb("get_comments").map(|v| v.1), Some(Verb::Read));
        assert_eq!(value_verb("delete_pending").map(|v| v.1), Some(Verb::Destructive));
        assert_eq!(value_verb("submit_pending").map(|v| v.1), Some(Verb::Write));
        assert_eq!(value_verb("issue_types"), None);
        assert_eq!(value_verb("download_workflow_run_artifact").map(|v| v.1), Some(Verb::Read));
        assert_eq!(value_verb("workflow_run"), None);
    }
}
