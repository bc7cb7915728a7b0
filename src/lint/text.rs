//! The author-written texts of a catalog the model reads (summaries, docs, error messages,
//! examples, enum values), and where a part of one sits in the source.
//!
//! The linter visits each text once per run and hands it to every rule with a `text` hook;
//! the label of a text (`doc of input.items[].amount`) is written into one reused buffer, and
//! only a rule that reports a finding copies it.

use crate::diag::FileId;
use crate::lint::walk::{self, Site};
use crate::lint::{Context, Finding};
use crate::model::{Catalog, Sp, Span, Tool, TyKind};
use std::fmt::Write;

/// One piece of author-written text and where it sits.
#[derive(Debug, Clone, Copy)]
pub struct Text<'a, 'l> {
    /// The catalog the text is written in.
    pub catalog: &'a Catalog,
    /// `None` for catalog-level text (the catalog summary, a named type's docs).
    pub tool: Option<&'a Tool>,
    /// What the text is, for messages: `summary`, `doc of input.items[].amount`.
    pub what: &'l str,
    /// Dotted field path, for field docs and values (a named type's name for its doc).
    pub path: Option<&'l str>,
    /// The text itself, with its span.
    pub text: &'a Sp<String>,
    /// The model reads the text as an instruction about the tool: titles, summaries, when /
    /// when-not, docs, error messages and next steps, needs-input docs, deprecation reasons.
    /// Not the examples (user utterances; a `no-call` example may quote an attack on purpose)
    /// nor enum values.
    pub instructs: bool,
}

impl Text<'_, '_> {
    /// A finding about this text: in its tool (in the catalog for catalog-level text), at its
    /// path.
    pub fn finding(&self, span: Span, message: impl Into<String>) -> Finding {
        let f = match self.tool {
            Some(tool) => Finding::in_tool(self.catalog, tool, span, message),
            None => Finding::in_catalog(self.catalog, span, message),
        };
        match self.path {
            Some(p) => f.path(p),
            None => f,
        }
    }
}

/// Which texts a rule reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Texts {
    /// Everything, including examples and field values (`enum`): a credential is a leak
    /// wherever it is written.
    All,
    /// What the model reads as instructions about the tool ([`Text::instructs`]).
    Instructions,
}

impl Texts {
    /// Whether a rule reading these texts reads `text`.
    pub fn includes(self, text: &Text<'_, '_>) -> bool {
        self == Texts::All || text.instructs
    }
}

/// Visit the texts of a catalog that are not at a type site: the catalog summary, each tool's
/// texts tool by tool in declaration order, then the named types' docs. `label` is the reused
/// buffer the texts' `what` is written into.
pub fn catalog_texts<'a>(
    catalog: &'a Catalog,
    label: &mut String,
    f: &mut dyn FnMut(&Text<'a, '_>),
) {
    let mut emit = |tool: Option<&'a Tool>,
                    what: std::fmt::Arguments<'_>,
                    path: Option<&str>,
                    text: &'a Sp<String>,
                    instructs: bool| {
        label.clear();
        // Writing into a String cannot fail.
        let _ = label.write_fmt(what);
        f(&Text {
            catalog,
            tool,
            what: label,
            path,
            text,
            instructs,
        })
    };
    if let Some(s) = &catalog.summary {
        emit(None, format_args!("catalog summary"), None, s, true);
    }
    for tool in &catalog.tools {
        let t = Some(tool);
        for (what, text) in [
            ("title", tool.title.as_deref()),
            ("summary", tool.summary.as_ref()),
            ("when", tool.when.as_ref()),
            ("when-not", tool.when_not.as_ref()),
        ] {
            if let Some(text) = text {
                emit(t, format_args!("{what}"), None, text, true);
            }
        }
        for e in &tool.errors {
            let code = &e.code.value;
            if let Some(m) = &e.message {
                emit(t, format_args!("message of error `{code}`"), None, m, true);
            }
            if let Some(m) = &e.next_step {
                emit(
                    t,
                    format_args!("next-step of error `{code}`"),
                    None,
                    m,
                    true,
                );
            }
        }
        for n in &tool.needs_input {
            if let Some(d) = &n.doc {
                let name = &n.name.value;
                emit(
                    t,
                    format_args!("doc of needs-input `{name}`"),
                    None,
                    d,
                    true,
                );
            }
        }
        if let Some(r) = tool.deprecated.as_ref().and_then(|d| d.reason.as_ref()) {
            emit(t, format_args!("deprecation reason"), None, r, true);
        }
        for c in &tool.examples.calls {
            emit(t, format_args!("`call` example"), None, c, false);
        }
        for c in &tool.examples.no_calls {
            emit(t, format_args!("`no-call` example"), None, c, false);
        }
    }
    for ty in &catalog.types {
        if let Some(d) = &ty.doc {
            let name = ty.name.value.as_str();
            emit(
                None,
                format_args!("doc of type `{name}`"),
                Some(name),
                d,
                true,
            );
        }
    }
}

/// Visit the texts written at a type site: the field's doc, then its `enum` values.
pub fn site_texts<'a>(site: &Site<'a, '_>, label: &mut String, f: &mut dyn FnMut(&Text<'a, '_>)) {
    let path = site.path;
    let mut emit = |what: &str, text: &'a Sp<String>, instructs: bool| {
        label.clear();
        label.push_str(what);
        label.push_str(" `");
        label.push_str(path);
        label.push('`');
        f(&Text {
            catalog: site.catalog,
            tool: site.tool,
            what: label,
            path: Some(path),
            text,
            instructs,
        })
    };
    if let Some(d) = site.field.and_then(|f| f.doc.as_ref()) {
        emit("doc of", d, true);
    }
    let enum_values = match &site.ty.kind {
        TyKind::String(s) | TyKind::Cursor(s) => s.enum_values.as_ref(),
        _ => None,
    };
    for v in enum_values.iter().flat_map(|e| &e.values) {
        emit("enum value of", v, false);
    }
}

/// Visit the texts of a catalog `which` selects, in the order the linter's walk visits them:
/// [`catalog_texts`], then each declaration's [`site_texts`].
pub fn for_each_text<'a>(catalog: &'a Catalog, which: Texts, f: &mut dyn FnMut(&Text<'a, '_>)) {
    let mut label = String::new();
    let mut pick = |t: &Text<'a, '_>| {
        if which.includes(t) {
            f(t)
        }
    };
    catalog_texts(catalog, &mut label, &mut pick);
    walk::declarations(catalog, &mut |site| site_texts(site, &mut label, &mut pick));
}

/// The span of `part` (a byte range of `text`'s value) in the source, when the literal holds
/// the value verbatim (a plain string without escapes, or a raw string); otherwise the span
/// of the first verbatim occurrence of the part itself; otherwise the whole literal.
pub fn sub_span(
    cx: &Context,
    file: FileId,
    text: &Sp<String>,
    part: std::ops::Range<usize>,
) -> Span {
    let whole = text.span;
    let Some(source) = cx.sources.files.get(file.0) else {
        return whole;
    };
    let Some(slice) = source.text.get(whole.start..whole.end) else {
        return whole;
    };
    let Some(needle) = text.value.get(part.clone()) else {
        return whole;
    };
    if let Some(pos) = slice
        .find(text.value.as_str())
        .filter(|_| !text.value.is_empty())
    {
        return Span::new(whole.start + pos + part.start, whole.start + pos + part.end);
    }
    match slice.find(needle) {
        Some(pos) if !needle.is_empty() => {
            Span::new(whole.start + pos, whole.start + pos + needle.len())
        }
        _ => whole,
    }
}

/// A built-in pattern for scanning text, with `\b` meaning an ASCII word boundary.
///
/// A Unicode `\b` makes the regex engine give up its DFA on any text holding a non-ASCII
/// character and fall back to an NFA simulation, orders of magnitude slower: one long
/// summary of zero-width spaces would keep `lint` busy for seconds. An ASCII boundary keeps
/// the DFA and differs only next to a non-ASCII letter, where it also breaks a word (text in
/// scripts written without spaces is then matched too). The patterns spell no escaped `\\b`.
pub fn pattern(source: &str) -> regex::Regex {
    regex::Regex::new(&ascii_boundaries(source))
        .unwrap_or_else(|e| panic!("built-in pattern {source}: {e}"))
}

/// [`pattern`] for a set of patterns.
pub fn pattern_set<'s>(sources: impl IntoIterator<Item = &'s str>) -> regex::RegexSet {
    regex::RegexSet::new(sources.into_iter().map(ascii_boundaries))
        .unwrap_or_else(|e| panic!("built-in pattern set: {e}"))
}

fn ascii_boundaries(source: &str) -> String {
    source.replace(r"\b", r"(?-u:\b)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Effect, EnumValues, Field, StringTy};
    use crate::testing::{catalog_with, sp, text, tool_with};

    #[test]
    fn labels_paths_and_which_texts_instruct() {
        let mut t = tool_with(
            "entry_list",
            Effect::Read,
            vec![Field {
                doc: text("The status."),
                ..Field::new(
                    "status",
                    TyKind::String(Box::new(StringTy {
                        enum_values: Some(EnumValues {
                            values: vec![sp("open".to_string())],
                            extensible: false,
                            span: Span::default(),
                        }),
                        ..StringTy::default()
                    })),
                )
            }],
            None,
        );
        t.summary = text("Lists entries.");
        t.examples.calls.push(sp("list my entries".into()));
        let c = catalog_with("ledger", vec![t], vec![]);
        let seen = |which| {
            let mut seen = Vec::new();
            for_each_text(&c, which, &mut |t| {
                seen.push(format!("{} {:?} {}", t.what, t.path, t.instructs))
            });
            seen
        };
        assert_eq!(
            seen(Texts::All),
            [
                "summary None true",
                "`call` example None false",
                "doc of `input.status` Some(\"input.status\") true",
                "enum value of `input.status` Some(\"input.status\") false",
            ]
        );
        assert_eq!(
            seen(Texts::Instructions),
            [
                "summary None true",
                "doc of `input.status` Some(\"input.status\") true"
            ]
        );
    }

    #[test]
    fn word_boundaries_are_ascii() {
        let re = pattern(r"(?i)\bsystem\s+prompt\b");
        assert!(re.is_match("the SYSTEM prompt."));
        assert!(!re.is_match("ecosystem prompt"));
        // A non-ASCII letter ends an ASCII word like a space does.
        assert!(re.is_match("调用system prompt"));
        assert!(re.is_match("a\u{200B}system prompt\u{200B}"));
        let set = pattern_set([r"\bsk-[a-z]{3}", r"\bAKIA\b"]);
        assert_eq!(set.matches("é sk-abc").into_iter().collect::<Vec<_>>(), [0]);
    }
}
