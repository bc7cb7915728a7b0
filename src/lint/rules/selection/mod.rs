//! The text that makes the model choose a tool: summary, when, when-not, docs, examples.
//!
//! Besides the rule list, this module holds what several text rules share: word splitting
//! with stop words and stemming. The texts themselves, and narrowing a finding's span to the
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
}

/// Common English words that say nothing about what a tool does, plus the boilerplate of
/// tool texts (`use`, `tool`).
pub(crate) fn is_stop_word(word: &str) -> bool {
    // A `match` on literals compiles to a branch on length and bytes; the confusable rule asks
    // for every word of every tool text, and a binary search over the list cost ten times more.
    matches!(
        word,
        "a" | "about"
            | "after"
            | "all"
            | "also"
            | "an"
            | "and"
            | "any"
            | "are"
            | "as"
            | "at"
            | "be"
            | "been"
            | "before"
            | "being"
            | "but"
            | "by"
            | "can"
            | "could"
            | "do"
            | "does"
            | "each"
            | "either"
            | "for"
            | "from"
            | "has"
            | "have"
            | "how"
            | "if"
            | "in"
            | "into"
            | "is"
            | "it"
            | "its"
            | "may"
            | "more"
            | "most"
            | "must"
            | "no"
            | "nor"
            | "not"
            | "of"
            | "on"
            | "one"
            | "only"
            | "or"
            | "other"
            | "our"
            | "own"
            | "same"
            | "should"
            | "so"
            | "some"
            | "such"
            | "than"
            | "that"
            | "the"
            | "their"
            | "them"
            | "then"
            | "there"
            | "these"
            | "they"
            | "this"
            | "those"
            | "to"
            | "tool"
            | "tools"
            | "under"
            | "up"
            | "use"
            | "used"
            | "uses"
            | "using"
            | "via"
            | "was"
            | "we"
            | "were"
            | "what"
            | "when"
            | "where"
            | "which"
            | "while"
            | "who"
            | "will"
            | "with"
            | "would"
            | "you"
            | "your"
    )
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
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_whole_words() {
        assert!(is_stop_word("the") && is_stop_word("tools") && is_stop_word("your"));
        assert!(!is_stop_word("") && !is_stop_word("th") && !is_stop_word("invoice"));
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
