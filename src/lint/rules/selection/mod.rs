//! The text that makes the model choose a tool: summary, when, when-not, docs, examples.
//!
//! Besides the rule list, this module holds what several text rules share: word splitting
//! with stop words and stemming. The texts themselves, and narrowing a finding's span to the
//! offending words inside a string literal, are the linter's ([`crate::lint::text`]).

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
