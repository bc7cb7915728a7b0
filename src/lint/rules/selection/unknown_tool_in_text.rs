//! The `selection/unknown-tool-in-text` rule: texts name only tools that exist; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::text::{Text, pattern, sub_span};
use crate::lint::walk::declarations;
use crate::lint::{Context, Finding, RuleState};
use crate::model::Catalog;
use crate::names::{Convention, words};
use regex::Regex;
use crate::FastSet;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Looks in a tool's texts (title, summary, when / when-not, field docs, error messages and
    /// next steps) for a name the text calls a tool that no catalog loaded together has: a
    /// name written in the catalog's tool naming convention, with at least two words, one of
    /// which some tool of the catalog also has, and used as a tool — after "use", "call",
    /// "calling", "using", "invoke", "try" or "see" (optionally "the" and a quote), or before
    /// "tool" or `()`. Names of fields of the catalog and values of its enums (a `method`
    /// enum's `update_project_item`) are not tool names. The help suggests the
    /// closest existing tool.
    ///
    /// `selection/unknown-tool` checks the references the format states (`confusable`,
    /// `on-timeout tool=`, `replacement=`); this rule reads the prose.
    ///
    /// ## Why is this bad?
    /// The model follows the text: told to "use the `update_issue` tool" when the server offers
    /// `issue_write`, it calls a tool that does not exist, gets an error, and guesses. Such
    /// references go stale whenever a tool is renamed or merged, and no test notices.
    ///
    /// ## Example
    /// ```kdl
    /// tool "label_write" version="1.0.0" {
    ///     summary "Create or rename a label. To set labels on issues, use the update_issue tool."
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "label_write" version="1.0.0" {
    ///     summary "Create or rename a label. To set labels on issues, use the issue_write tool."
    ///     // …
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/unknown-tool-in-text",
        level: Level::Warn,
        summary: "texts that tell the model to use a tool name a tool that exists",
        hooks: crate::lint::Hooks::state(|cx| Box::new(Names::new(cx))),
    };
}

/// A name-like token (two or more words in any of the conventions) with what is around it.
static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?P<before>\b(?i:use|call|calling|using|invoke|try|see)\s+(?i:the\s+)?)?[`'‘“]{0,2}\b(?P<name>[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+)\b[`'’”]{0,2}(?P<after>\(\)|\s+(?i:tools?)\b)?")
});

/// Whether `text` has what every name [`TOKEN`] matches has: a lowercase letter or digit,
/// then `_`, `-` or an uppercase letter, then a lowercase letter or digit. Most texts are
/// prose without one, and this byte scan is far cheaper than the capturing search.
fn has_compound(text: &str) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let splat = |b: u8| ONES * u64::from(b);
    let low = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let bytes = text.as_bytes();
    let joint_at = |k: usize| {
        k > 0
            && matches!(bytes[k], b'_' | b'-' | b'A'..=b'Z')
            && low(bytes[k - 1])
            && bytes.get(k + 1).copied().is_some_and(low)
    };
    // Eight bytes at a time, flagging every byte that may be a joint (`_`, `-`, `A`-`Z`; the
    // tests may flag more, never fewer), each flag then checked exactly: prose has a joint
    // candidate only at its few capitals.
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let ascii = !x & HIGH;
        let y = x & !HIGH;
        // High bit of each byte of `y + (0x80 - c)` is set when that byte is at least `c`
        // (no byte carries into the next: both terms are below 0x80).
        let upper = y.wrapping_add(splat(0x80 - b'A')) & !y.wrapping_add(splat(0x80 - b'[')) & ascii;
        let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
        let mut flags = upper | zero(x ^ splat(b'_')) | zero(x ^ splat(b'-'));
        while flags != 0 {
            if joint_at(i + (flags.trailing_zeros() / 8) as usize) {
                return true;
            }
            flags &= flags - 1;
        }
        i += 8;
    }
    (i..bytes.len()).any(joint_at)
}

struct Names<'a> {
    tools: FastSet<&'a str>,
    /// Field names and enum values of the current catalog.
    fields: FastSet<&'a str>,
    tool_words: FastSet<String>,
    convention: Convention,
    catalog_tools: Vec<&'a str>,
}

impl<'a> Names<'a> {
    fn new(cx: &Context<'a>) -> Self {
        let tools = cx.project.catalogs.iter().flat_map(|c| c.tools.iter().map(|t| t.name.value.as_str())).collect();
        Names {
            tools,
            fields: FastSet::default(),
            tool_words: FastSet::default(),
            convention: Convention::Snake,
            catalog_tools: Vec::new(),
        }
    }

    /// The unknown tool names `text` uses as tools, each once, with their byte ranges.
    fn unknown(&self, text: &str) -> Vec<(std::ops::Range<usize>, String)> {
        let mut seen = FastSet::default();
        let mut out = Vec::new();
        if !has_compound(text) {
            return out;
        }
        // The matches are those of the capturing search; a match of name characters only has
        // neither `before` (which ends in a space) nor `after` (a space or `()`), so it is no
        // use as a tool and skips the capturing pass, which costs several times a search.
        let bare = |s: &str| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        let matches = TOKEN.find_iter(text).filter(|m| !bare(m.as_str()));
        for c in matches.filter_map(|m| TOKEN.captures_at(text, m.start())) {
            let Some(m) = c.name("name") else { continue };
            let name = m.as_str();
            let used_as_tool = c.name("before").is_some() || c.name("after").is_some();
            if !used_as_tool
                || self.tools.contains(name)
                || self.fields.contains(name)
                || !self.convention.matches(name)
                || words(name).len() < 2
                || !words(name).iter().any(|w| self.tool_words.contains(w))
                || !seen.insert(name)
            {
                continue;
            }
            out.push((m.range(), name.to_string()));
        }
        out
    }
}

impl<'a> RuleState<'a> for Names<'a> {
    fn catalog(&mut self, _: &Context<'a>, catalog: &'a Catalog, _: &mut Vec<Finding>) {
        self.catalog_tools = catalog.tools.iter().map(|t| t.name.value.as_str()).collect();
        self.convention = Convention::dominant(self.catalog_tools.iter().copied());
        self.tool_words = self.catalog_tools.iter().flat_map(|n| words(n)).collect();
        // A name of one word is never taken for a tool (see `unknown`), so only names of
        // several words need to be known: an enum of 850,000 one-word values held them all.
        let mut fields = FastSet::default();
        let mut known = |name: &'a str| {
            if crate::names::word_count(name) >= 2 {
                fields.insert(name);
            }
        };
        declarations(catalog, &mut |site| {
            if let Some(f) = site.field {
                known(f.name.value.as_str());
            }
            if let crate::model::TyKind::String(s) = &site.ty.kind {
                for v in s.enum_values.iter().flat_map(|e| e.values.iter()) {
                    known(v.value.as_str());
                }
            }
        });
        self.fields = fields;
    }

    fn text(&mut self, cx: &Context<'a>, t: &Text<'a, '_>, out: &mut Vec<Finding>) {
        if !t.instructs || t.tool.is_none() {
            return;
        }
        for (range, name) in self.unknown(&t.text.value) {
            let suggestion = crate::lint::did_you_mean(&name, self.catalog_tools.iter().copied());
            let help = match suggestion {
                Some(s) => format!("no tool is named `{name}`: name the tool that exists, probably `{s}`, or remove the reference"),
                None => format!("no tool is named `{name}`: name the tool that does this among the catalog's tools, or remove the reference"),
            };
            let span = sub_span(cx, t.catalog.file, t.text, range);
            out.push(t.finding(span, format!("{} points the model at tool `{name}`, which does not exist", t.what)).help(help));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::texts::*;

    #[test]
    fn names_used_as_tools_that_do_not_exist() {
        let mut a = tool("label_write");
        a.summary = s("Create a label. To set labels, use the 'issue_update' tool, or call label_read().");
        a.when = s("Use when a label is missing; see the ledger_entry_list tool for entries.");
        let b = tool("issue_write");
        let c = tool("ledger_entry_list");
        let found = run(&RULE, vec![a, b, c]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "summary points the model at tool `issue_update`, which does not exist",
                "summary points the model at tool `label_read`, which does not exist",
            ]
        );
        assert!(found[0].help.as_deref().unwrap_or("").contains("no tool is named `issue_update`"));
    }

    #[test]
    fn has_compound_agrees_with_looking_at_each_window() {
        let naive = |t: &str| {
            let low = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
            t.as_bytes()
                .windows(3)
                .any(|w| matches!(w[1], b'_' | b'-' | b'A'..=b'Z') && low(w[0]) && low(w[2]))
        };
        let parts = ["a", "Z", "_", "-", " ", "9", "@", "[", "`", "é", "\u{7f}", "\u{80}", "{", "/"];
        // Every text of up to four parts, at every offset of an eight-byte word.
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> =
                texts.iter().flat_map(|t| parts.iter().map(move |p| format!("{t}{p}"))).collect();
            texts.extend(longer);
        }
        for t in &texts {
            for pad in 0..9 {
                let padded = format!("{}{t}", " ".repeat(pad));
                assert_eq!(super::has_compound(&padded), naive(&padded), "{padded:?}");
            }
        }
    }

    #[test]
    fn prose_fields_and_other_conventions_stay_quiet() {
        let mut a = tool("label_write");
        a.summary = s("Use the built-in sign-in page; use endCursor from the previous page; the top_level map lists labels.");
        assert!(run(&RULE, vec![a]).is_empty());
    }
}
