//! The `trust/model-path` rule: a filesystem path the model writes stays under a root the
//! tool states; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::text::pattern;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::{Tool, TyKind};
use regex::Regex;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags an input string (or array of strings) that is a path on the server's own
    /// filesystem, chosen by the model, when neither the field nor the tool says which
    /// directory it must stay in. The field is a path by its name (the last word is `path`,
    /// `paths`, `file`, `dir`, `directory` or `folder`) and a local one by its doc or the
    /// tool's summary (`absolute path`, `local path`, `on the server`, `file system`, `on
    /// disk`, `/tmp/…`). A path inside a repository or a service (`path` of a GitHub file) is
    /// not local and is not reported; nor is a field with a `pattern` or `enum`, or one whose
    /// texts state the root (`within the allowed directories`, `inside a permitted
    /// directory`, `relative to the workspace`).
    ///
    /// ## Why is this bad?
    /// The server opens the file with its own rights. A model steered by a prompt injection can
    /// name `~/.ssh/id_rsa` or `/etc/passwd` for a tool that uploads "an image", or write an
    /// export over a file the server needs. Unless the server confines paths to a directory and
    /// says so, the user approving "upload the logo" cannot see that any file can leave.
    ///
    /// ## Example
    /// ```kdl
    /// field "file_path" "string" required=#true max-length=1024 {
    ///     doc "Absolute path to the image file on the server."
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "file_name" "string" required=#true max-length=255 pattern="^[A-Za-z0-9._-]+$" {
    ///     doc "Name of an image in the server's upload directory (configured by the operator)."
    /// }
    /// ```
    pub static RULE = Rule {
        id: "trust/model-path",
        level: Level::Warn,
        summary: "a filesystem path the model writes stays under a root the tool states",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

const PATH_WORDS: &[&str] = &["path", "paths", "file", "dir", "directory", "folder"];

/// Text that says a path is on the server's own filesystem.
static LOCAL: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\b(?:absolute|local)\s+(?:file\s+)?path|\bon\s+the\s+server\b|\bfile\s?system\b|\bon\s+disk\b|(?:^|[\s`'(])(?:/tmp/|~/|/home/|/var/)")
});

/// Text that states the directory paths must stay in.
static ROOTED: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\b(?:allowed|permitted|configured|approved)\s+(?:\w+\s+)?director(?:y|ies)|\bwithin\s+(?:the\s+|a\s+|an\s+)?(?:allowed|permitted|configured|root|workspace|sandbox|project)|\brelative\s+to\b|\bsandbox")
});

fn texts<'t>(tool: &'t Tool, doc: Option<&'t str>) -> impl Iterator<Item = &'t str> {
    let tool_texts = [tool.summary.as_ref(), tool.when.as_ref(), tool.when_not.as_ref()];
    tool_texts.into_iter().flatten().map(|t| t.value.as_str()).chain(doc)
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let (Some(tool), Some(field)) = (site.tool, site.field) else { return };
    if site.side != Some(Side::Input) || !std::ptr::eq(&field.ty, site.ty) || field.constant.is_some() {
        return;
    }
    let string = match &field.ty.kind {
        TyKind::String(s) => Some(s),
        TyKind::Array(a) => match &a.items.kind {
            TyKind::String(s) => Some(s),
            _ => None,
        },
        _ => None,
    };
    let Some(s) = string else { return };
    if s.pattern.is_some() || s.enum_values.is_some() {
        return;
    }
    if !site.name_words().last().is_some_and(|w| PATH_WORDS.contains(&w.as_str())) {
        return;
    }
    let doc = field.doc.as_ref().map(|d| d.value.as_str());
    if !texts(tool, doc).any(|t| LOCAL.is_match(t)) || texts(tool, doc).any(|t| ROOTED.is_match(t)) {
        return;
    }
    let message = format!("input field `{}` is a path on the server's filesystem that the model chooses, with no directory it must stay in", site.path);
    out.push(
        site_finding(site, field.name.span, message).help("confine the path to one directory the server is configured with (resolve it, refuse `..` and links out of it) and say so in the doc, or take a file name under that directory instead of a path"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_and_rooted_texts() {
        assert!(LOCAL.is_match("Absolute path to the image file on the server (e.g. \"/tmp/logo.png\")."));
        assert!(LOCAL.is_match("Read a file from the file system."));
        assert!(!LOCAL.is_match("Path to the file in the repository."));
        assert!(ROOTED.is_match("The file must reside inside a permitted directory."));
        assert!(ROOTED.is_match("Only works within allowed directories."));
        assert!(ROOTED.is_match("Path relative to the repository root."));
        assert!(!ROOTED.is_match("Absolute path where the CSV file will be written."));
    }
}
