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
