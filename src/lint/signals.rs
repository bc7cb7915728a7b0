//! What a tool's words and `catalogc import`'s notes say about it, for the rules that compare
//! a tool's declared effect and inputs with what its texts say: whether a published tool
//! stated any effect hint, and which verbs read or destroy.

use crate::lint::Context;
use crate::model::{Catalog, Tool};

/// The note `catalogc import` writes in a tool whose published definition states none of
/// `readOnlyHint`, `destructiveHint` and `idempotentHint` (its effect is then a guess).
pub(crate) const NO_HINTS_NOTE: &str = "no effect hints:";

/// Whether `catalogc import` left a `// catalogc import: NOTE…` comment inside `tool`'s node:
/// a published list is linted through the catalog import writes, and what the list did not
/// state is known only from these notes.
pub(crate) fn import_note(cx: &Context, catalog: &Catalog, tool: &Tool, note: &str) -> bool {
    let file = cx.sources.get(catalog.file);
    let Some(text) = file.text.get(tool.span.start..tool.span.end) else {
        return false;
    };
    let prefix = crate::import::COMMENT_PREFIX;
    text.lines().any(|line| {
        line.trim_start()
            .strip_prefix("//")
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix(prefix))
            .is_some_and(|l| l.trim_start().starts_with(note))
    })
}

/// Whether the published tool states no effect hint at all (see [`NO_HINTS_NOTE`]).
pub(crate) fn hints_guessed(cx: &Context, catalog: &Catalog, tool: &Tool) -> bool {
    import_note(cx, catalog, tool, NO_HINTS_NOTE)
}

/// Verbs of operations that only read.
pub(crate) const READ_VERBS: &[&str] = &[
    "get", "list", "search", "read", "find", "fetch", "describe", "show", "view", "query", "count",
    "lookup", "inspect", "retrieve", "browse", "preview", "download",
];

/// Verbs of operations that destroy, stop or cannot be undone by calling the tool again, in
/// alphabetical order.
pub(crate) const DESTRUCTIVE_VERBS: &[&str] = &[
    "cancel",
    "deactivate",
    "delete",
    "destroy",
    "drop",
    "erase",
    "kill",
    "pause",
    "purge",
    "remove",
    "reset",
    "revoke",
    "stop",
    "suspend",
    "terminate",
    "trash",
    "truncate",
    "unassign",
    "uninstall",
    "unpublish",
    "wipe",
];

/// Verbs of operations that write without destroying.
pub(crate) const WRITE_VERBS: &[&str] = &[
    "create", "add", "update", "set", "edit", "rename", "replace", "patch", "modify", "insert",
    "upsert", "start", "restart", "run", "send", "post", "publish", "submit", "assign", "move",
    "enable", "disable", "resolve", "merge", "reply", "write", "apply", "install", "mark",
    "archive", "upload",
];

/// A verb in its base form: `Deletes` → `delete`, `searches` → `search`, `lists` → `list`
/// (only when the base is one of the lists above).
pub(crate) fn base_verb(word: &str) -> String {
    let w = word.to_lowercase();
    let known = |b: &str| {
        READ_VERBS.contains(&b) || DESTRUCTIVE_VERBS.contains(&b) || WRITE_VERBS.contains(&b)
    };
    if known(&w) {
        return w;
    }
    for suffix in ["es", "s"] {
        if let Some(b) = w.strip_suffix(suffix)
            && known(b)
        {
            return b.to_string();
        }
    }
    w
}

/// What a verb does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verb {
    /// Only reads ([`READ_VERBS`]).
    Read,
    /// Writes without destroying ([`WRITE_VERBS`]).
    Write,
    /// Destroys or stops ([`DESTRUCTIVE_VERBS`]).
    Destructive,
}

/// What `word` does as a verb, in any of its forms ([`base_verb`]); `None` for other words.
pub(crate) fn verb(word: &str) -> Option<Verb> {
    let b = base_verb(word);
    let b = b.as_str();
    if READ_VERBS.contains(&b) {
        Some(Verb::Read)
    } else if DESTRUCTIVE_VERBS.contains(&b) {
        Some(Verb::Destructive)
    } else if WRITE_VERBS.contains(&b) {
        Some(Verb::Write)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_in_base_form() {
        assert_eq!(base_verb("Deletes"), "delete");
        assert_eq!(base_verb("searches"), "search");
        assert_eq!(base_verb("Lists"), "list");
        assert_eq!(base_verb("status"), "status");
        assert_eq!(verb("Pauses"), Some(Verb::Destructive));
        assert_eq!(verb("get"), Some(Verb::Read));
        assert_eq!(verb("marks"), Some(Verb::Write));
        assert_eq!(verb("notifications"), None);
    }
}
