//! The text that makes the model choose a tool: summary, when, when-not, docs, examples.
//!
//! Besides the rule list, this module holds what several text rules share: the walk over
//! every piece of text a catalog holds, word splitting with stop words, and narrowing a
//! finding's span to the offending words inside a string literal.

crate::lint::declare_rules! {
    missing_text,
    length,
    unknown_tool,
    secret_in_text,
    injection_phrase,
    effect_wording,
    confusable,
    missing_examples,
    tautology,
    field_doc,
}

use crate::diag::FileId;
use crate::lint::Context;
use crate::lint::walk;
use crate::model::{Catalog, Literal, Sp, Span, Tool, TyKind};

/// One piece of author-written text and where it sits.
pub(crate) struct Text<'a> {
    /// `None` for catalog-level text (the catalog summary, a named type's docs).
    pub tool: Option<&'a Tool>,
    /// What the text is, for messages: `summary`, `doc of input.items[].amount`.
    pub what: String,
    /// Dotted field path, for field docs and values.
    pub path: Option<String>,
    pub text: &'a Sp<String>,
}

/// Which texts a rule reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Texts {
    /// Everything, including examples and field values (`default`, `enum`): a credential is a
    /// leak wherever it is written.
    All,
    /// What the model reads as instructions about the tool: titles, summaries, when / when-not,
    /// docs, error messages and next steps, needs-input docs, deprecation reasons. Not the
    /// examples: they are user utterances, and a `no-call` example may quote an attack on
    /// purpose.
    Instructions,
}

/// Visit every text of a catalog, tool by tool in declaration order, then the named types.
pub(crate) fn for_each_text<'a>(catalog: &'a Catalog, which: Texts, f: &mut dyn FnMut(Text<'a>)) {
    let mut emit =
        |tool: Option<&'a Tool>, what: String, path: Option<String>, text: &'a Sp<String>| {
            f(Text {
                tool,
                what,
                path,
                text,
            })
        };
    if let Some(s) = &catalog.summary {
        emit(None, "catalog summary".into(), None, s);
    }
    for tool in &catalog.tools {
        let t = Some(tool);
        for (what, text) in [
            ("title", &tool.title),
            ("summary", &tool.summary),
            ("when", &tool.when),
            ("when-not", &tool.when_not),
        ] {
            if let Some(text) = text {
                emit(t, what.into(), None, text);
            }
        }
        for e in &tool.errors {
            if let Some(m) = &e.message {
                emit(t, format!("message of error `{}`", e.code.value), None, m);
            }
            if let Some(m) = &e.next_step {
                emit(t, format!("next-step of error `{}`", e.code.value), None, m);
            }
        }
        for n in &tool.needs_input {
            if let Some(d) = &n.doc {
                emit(t, format!("doc of needs-input `{}`", n.name.value), None, d);
            }
        }
        if let Some(r) = tool.deprecated.as_ref().and_then(|d| d.reason.as_ref()) {
            emit(t, "deprecation reason".into(), None, r);
        }
        if which == Texts::All {
            for c in &tool.examples.calls {
                emit(t, "`call` example".into(), None, c);
            }
            for c in &tool.examples.no_calls {
                emit(t, "`no-call` example".into(), None, c);
            }
        }
    }
    for ty in &catalog.types {
        if let Some(d) = &ty.doc {
            emit(
                None,
                format!("doc of type `{}`", ty.name.value),
                Some(ty.name.value.clone()),
                d,
            );
        }
    }
    // Field docs and values, each declaration once (named types on their own, not per use).
    walk::declarations(catalog, &mut |site| {
        let path = site.path.to_string();
        if let Some(d) = site.field.and_then(|f| f.doc.as_ref()) {
            emit(site.tool, format!("doc of `{path}`"), Some(path.clone()), d);
        }
        let enum_values = match &site.ty.kind {
            TyKind::String(s) | TyKind::Cursor(s) if which == Texts::All => s.enum_values.as_ref(),
            _ => None,
        };
        for v in enum_values.iter().flat_map(|e| &e.values) {
            emit(
                site.tool,
                format!("enum value of `{path}`"),
                Some(path.clone()),
                v,
            );
        }
    });
}

/// Visit every string `default=` of a catalog's fields, each declaration once. Separate from
/// [`for_each_text`] because a default is a [`Literal`], not a string.
pub(crate) fn for_each_string_default<'a>(
    catalog: &'a Catalog,
    f: &mut dyn FnMut(Option<&'a Tool>, String, &'a str, Span),
) {
    walk::declarations(catalog, &mut |site| {
        if let Some(Sp {
            value: Literal::String(s),
            span,
        }) = site.field.and_then(|field| field.default.as_ref())
        {
            f(site.tool, site.path.to_string(), s, *span);
        }
    });
}

/// The span of `part` (a byte range of `text`'s value) in the source, when the literal holds
/// the value verbatim (a plain string without escapes, or a raw string); otherwise the span
/// of the first verbatim occurrence of the part itself; otherwise the whole literal.
pub(crate) fn sub_span(
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

/// Common English words that say nothing about what a tool does, plus the boilerplate of
/// tool texts (`use`, `tool`). Sorted: looked up by binary search.
pub(crate) const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "but", "by", "can", "could", "do", "does", "each", "either", "for", "from",
    "has", "have", "how", "if", "in", "into", "is", "it", "its", "may", "more", "most", "must",
    "no", "nor", "not", "of", "on", "one", "only", "or", "other", "our", "own", "same", "should",
    "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "to", "tool", "tools", "under", "up", "use", "used", "uses", "using", "via",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "will", "with", "would",
    "you", "your",
];

pub(crate) fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Lowercase words of a text (runs of letters and digits), in order.
pub(crate) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// A light English stemmer, enough to equate `invoices` / `invoice`, `lists` / `list`,
/// `searches` / `search`, `entries` / `entry`: it only strips plural and third-person endings.
pub(crate) fn stem(word: &str) -> String {
    let n = word.len();
    if n > 4 && word.ends_with("ies") {
        return format!("{}y", &word[..n - 3]);
    }
    if n > 4
        && (word.ends_with("ches")
            || word.ends_with("shes")
            || word.ends_with("sses")
            || word.ends_with("xes"))
    {
        return word[..n - 2].to_string();
    }
    if n > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        return word[..n - 1].to_string();
    }
    word.to_string()
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Hand-built models for the rules' unit tests (fixture catalogs are covered by
    //! tests/lint_rules.rs once the loader exists).

    use crate::diag::{SourceFile, SourceMap};
    use crate::lint::{Config, Context, Finding, Rule};
    use crate::model::*;

    pub fn sp<T>(value: T) -> Sp<T> {
        Sp::new(value, Span::default())
    }

    pub fn s(text: &str) -> Option<Sp<String>> {
        Some(sp(text.to_string()))
    }

    /// A complete, clean read tool.
    pub fn tool(name: &str) -> Tool {
        Tool {
            summary: s("Look up the overdue ledger entries of one customer account."),
            when: s("Use when the user asks which ledger entries are overdue."),
            when_not: s("Not for payments; use payment_send to pay."),
            ..Tool::new(name, "1.0.0", Effect::Read)
        }
    }

    pub fn field(name: &str, kind: TyKind, doc: Option<&str>) -> Field {
        Field {
            doc: doc.map(|d| sp(d.to_string())),
            ..Field::new(name, kind)
        }
    }

    pub fn error(code: &str, class: ErrorClass, retry: Option<Retry>) -> ErrorDef {
        ErrorDef {
            code: sp(code.into()),
            class: sp(class),
            retry: retry.map(sp),
            message: None,
            next_step: None,
            span: Span::default(),
        }
    }

    pub fn catalog(name: &str, tools: Vec<Tool>) -> Catalog {
        crate::testing::catalog_with(name, tools, vec![])
    }

    pub fn run_with(rule: &Rule, project: &Project, config: &Config) -> Vec<Finding> {
        let mut sources = SourceMap::default();
        sources.add(SourceFile::new("test.kdl", String::new()));
        let artifacts = crate::testing::artifacts(project);
        let cx = Context::new(project, &sources, config, &artifacts);
        crate::lint::findings(&cx, &[rule])
            .into_iter()
            .flatten()
            .collect()
    }

    pub fn run(rule: &Rule, tools: Vec<Tool>) -> Vec<Finding> {
        let project = Project {
            catalogs: vec![catalog("test", tools)],
        };
        run_with(rule, &project, &Config::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_stop_word("the") && is_stop_word("tool") && !is_stop_word("invoice"));
    }

    #[test]
    fn stemming_equates_plurals_and_verb_forms() {
        assert_eq!(stem("invoices"), "invoice");
        assert_eq!(stem("lists"), "list");
        assert_eq!(stem("searches"), "search");
        assert_eq!(stem("entries"), "entry");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("address"), "address");
        assert_eq!(stem("gets"), "get");
    }
}
