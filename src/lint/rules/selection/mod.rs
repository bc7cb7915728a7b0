//! The text that makes the model choose a tool: summary, when, when-not, docs, examples.
//!
//! Besides the rule list, this module holds what several text rules share: word splitting,
//! with the stop words and stemming of `lint::similarity`. The texts themselves, and narrowing a finding's span to the
//! offending words inside a string literal, are the linter's ([`crate::lint::text`]).

crate::lint::declare_rules! {
    missing_text,
    length,
    unknown_tool,
    unknown_tool_in_text,
    secret_in_text,
    injection_phrase,
    manipulation,
    hidden_character,
    effect_wording,
    confusable,
    missing_examples,
    tautology,
    field_doc,
    doc_contradiction,
}

pub(crate) use crate::lint::similarity::{is_stop_word, stem};

/// Lowercase words of a text (runs of letters and digits), in order.
pub(crate) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}
