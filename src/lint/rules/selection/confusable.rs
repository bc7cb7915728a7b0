//! ## What it does
//! Compares every pair of tools of all the catalogs loaded together by the text the model
//! chooses with, their `summary` and `when`, and reports two tools whose texts are
//! near-duplicates when neither names the other in its `when-not` or in
//! `examples { confusable "…" }`.
//!
//! The similarity is the cosine between the two texts' term-count vectors, where the terms are
//! the words (lower-cased, plural and `-s` / `-es` endings stripped, stop words such as "the",
//! "of", "use" removed) and the pairs of consecutive such words. It runs from 0 (no term in
//! common) to 1 (the same terms, in the same proportions). A pair is reported at or above
//! `thresholds confusable-similarity` (default 0.8).
//!
//! Terms are indexed once: only tools sharing a term are compared, so a catalog of thousands
//! of tools is checked in milliseconds.
//!
//! ## Why is this bad?
//! When two tools describe themselves in the same words, the model cannot tell which one a
//! request is for and picks either, calling a write where a read was meant or the other way
//! round. Saying in `when-not` when to use the other tool (or listing it as `confusable`, so
//! the examples teach the difference) gives the model the distinction it needs.
//!
//! ## Example
//! ```kdl
//! tool "invoice_list" version="1.0.0" {
//!     summary "List the invoices of the authenticated tenant."
//!     when "Use to find invoices of the tenant."
//!     when-not "Not for payments."
//!     // …
//! }
//! tool "invoice_search" version="1.0.0" {
//!     summary "List invoices of the authenticated tenant."
//!     when "Use to find the invoices of the tenant."
//!     when-not "Not for payments."
//!     // …
//! }
//! ```
//!
//! ## Use instead
//! ```kdl
//! tool "invoice_list" version="1.0.0" {
//!     summary "List the invoices of the authenticated tenant."
//!     when "Use to find invoices of the tenant."
//!     when-not "Not for full-text search; use invoice_search for that."
//!     // …
//! }
//! tool "invoice_search" version="1.0.0" {
//!     summary "Search invoices of the authenticated tenant by words in their lines."
//!     when "Use when the user remembers what was billed but not the invoice."
//!     when-not "Not for listing by status; use invoice_list."
//!     // …
//! }
//! ```

use crate::diag::Level;
use crate::lint::rules::selection::{is_stop_word, stem, words};
use crate::lint::{Context, Finding, Rule};
use crate::model::{Catalog, Tool};
use std::collections::{HashMap, HashSet};

pub static RULE: Rule = Rule {
    id: "selection/confusable",
    level: Level::Warn,
    summary: "no two tools with near-duplicate summary + when texts that do not name each other",
    check,
    source: include_str!("confusable.rs"),
};

/// The terms of a text with their counts: content words and pairs of consecutive content
/// words.
fn terms(text: &str) -> HashMap<String, f64> {
    let content: Vec<String> = words(text)
        .filter(|w| !is_stop_word(w))
        .map(|w| stem(&w))
        .collect();
    let mut counts = HashMap::new();
    for w in &content {
        *counts.entry(w.clone()).or_insert(0.0) += 1.0;
    }
    for pair in content.windows(2) {
        *counts.entry(format!("{} {}", pair[0], pair[1])).or_insert(0.0) += 1.0;
    }
    counts
}

fn tool_text(tool: &Tool) -> String {
    let mut text = String::new();
    for t in [&tool.summary, &tool.when].into_iter().flatten() {
        text.push_str(&t.value);
        // A sentence break, so no word pair spans the two texts.
        text.push_str(" . ");
    }
    text
}

/// Cosine similarity of two term-count vectors; the straightforward form of what
/// [`similar_pairs`] computes through the index.
#[cfg(test)]
fn cosine(a: &HashMap<String, f64>, b: &HashMap<String, f64>) -> f64 {
    let dot: f64 = a.iter().filter_map(|(t, x)| b.get(t).map(|y| x * y)).sum();
    let norm = |v: &HashMap<String, f64>| v.values().map(|x| x * x).sum::<f64>().sqrt();
    let n = norm(a) * norm(b);
    if n == 0.0 { 0.0 } else { dot / n }
}

/// The similarity of two texts, as documented.
#[cfg(test)]
fn similarity(a: &str, b: &str) -> f64 {
    cosine(&terms(a), &terms(b))
}

/// Every pair `(i, j, similarity)` with `i < j` and similarity ≥ `threshold`, in order.
/// Terms are interned and indexed once; only documents sharing a term meet in the
/// accumulator, and only numbers are added per pair.
fn similar_pairs(texts: &[String], threshold: f64) -> Vec<(usize, usize, f64)> {
    let mut ids: HashMap<String, usize> = HashMap::new();
    let docs: Vec<(Vec<(usize, f64)>, f64)> = texts
        .iter()
        .map(|t| {
            let counts = terms(t);
            let norm = counts.values().map(|x| x * x).sum::<f64>().sqrt();
            let mut v: Vec<(usize, f64)> = counts
                .into_iter()
                .map(|(term, c)| {
                    let next = ids.len();
                    (*ids.entry(term).or_insert(next), c)
                })
                .collect();
            v.sort_unstable_by_key(|&(id, _)| id);
            (v, norm)
        })
        .collect();
    let mut postings: Vec<Vec<(usize, f64)>> = vec![Vec::new(); ids.len()];
    let mut acc = vec![0.0f64; texts.len()];
    let mut touched: Vec<usize> = Vec::new();
    let mut pairs = Vec::new();
    for (j, (vector, norm_j)) in docs.iter().enumerate() {
        if *norm_j == 0.0 {
            continue;
        }
        for &(term, x) in vector {
            for &(i, y) in &postings[term] {
                if acc[i] == 0.0 {
                    touched.push(i);
                }
                acc[i] += x * y;
            }
        }
        touched.sort_unstable();
        for &i in &touched {
            let sim = acc[i] / (docs[i].1 * norm_j);
            // Rounding must not hide a pair exactly at the threshold (identical texts give
            // 0.9999999999999998).
            if sim + 1e-9 >= threshold {
                pairs.push((i, j, sim.min(1.0)));
            }
            acc[i] = 0.0;
        }
        touched.clear();
        for &(term, x) in vector {
            postings[term].push((j, x));
        }
    }
    pairs
}

/// Whether `tool` names `other` in its when-not or its confusable examples.
fn names(tool: &Tool, other: &str) -> bool {
    tool.examples.confusables.iter().any(|c| c.value == other)
        || tool.when_not.as_ref().is_some_and(|w| {
            w.value
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|token| token == other)
        })
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let tools: Vec<(&Catalog, &Tool)> = cx
        .project
        .catalogs
        .iter()
        .flat_map(|c| c.tools.iter().map(move |t| (c, t)))
        .collect();
    let texts: Vec<String> = tools.iter().map(|(_, t)| tool_text(t)).collect();
    let threshold = cx.config.thresholds.confusable_similarity;
    let mut reported = HashSet::new();
    for (i, j, sim) in similar_pairs(&texts, threshold) {
        let ((ca, a), (cb, b)) = (tools[i], tools[j]);
        let (an, bn) = (&a.name.value, &b.name.value);
        if an == bn || names(a, bn) || names(b, an) || !reported.insert((i, j)) {
            continue;
        }
        let other = if ca.name.value == cb.name.value {
            format!("`{an}`")
        } else {
            format!("`{an}` (catalog `{}`)", ca.name.value)
        };
        let span = b.summary.as_ref().map_or(b.name.span, |s| s.span);
        out.push(
            Finding::in_tool(
                cb,
                b,
                span,
                format!(
                    "tool `{bn}` reads like {other}: their summary and when texts are {:.0}% similar (threshold {:.0}%)",
                    sim * 100.0,
                    threshold * 100.0
                ),
            )
            .help(format!(
                "say what differs, and name the other tool in `when-not` (\"…; use {an} to …\") or in `examples {{ confusable \"{an}\" }}`"
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::rules::selection::test_support::*;

    #[test]
    fn measure_ignores_case_stop_words_and_plurals() {
        let a = "List the invoices of the authenticated tenant.";
        assert!((similarity(a, "list INVOICE for an authenticated tenant") - 1.0).abs() < 1e-9);
        assert_eq!(similarity(a, "Send a reminder e-mail."), 0.0);
        assert_eq!(similarity("", a), 0.0);
    }

    #[test]
    fn measure_counts_words_and_word_pairs() {
        // Same words, different order: the unigrams agree, the word pairs do not.
        let s = similarity("refund invoice payment", "payment invoice refund");
        // 3 shared unigrams over 5 terms on each side: 3 / 5.
        assert!((s - 0.6).abs() < 1e-9, "{s}");
        // Terms: {list, invoice, list invoice} vs {list, invoice, overdue, list invoice,
        // invoice overdue}: 3 shared of 3 and 5 → 3 / √15.
        let s = similarity("list invoices", "list invoices overdue");
        assert!((s - 3.0 / 15f64.sqrt()).abs() < 1e-9, "{s}");
    }

    fn with_text(name: &str, summary: &str, when: &str) -> crate::model::Tool {
        let mut t = tool(name);
        t.summary = s(summary);
        t.when = s(when);
        t.when_not = s("Not for anything else.");
        t
    }

    #[test]
    fn reports_near_duplicates_unless_one_names_the_other() {
        let a = with_text("invoice_list", "List the invoices of the tenant.", "Use to find invoices.");
        let b = with_text("invoice_search", "List invoices of the tenant.", "Use to find the invoices.");
        let mut c = with_text("invoice_find", "List invoices of the tenant.", "Use to find invoices.");
        c.when_not = s("Not for search; use invoice_search, or invoice_list.");
        let d = with_text("payment_send", "Send a payment.", "Use to pay.");
        let found = run(&RULE, vec![a, b, c, d]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            ["tool `invoice_search` reads like `invoice_list`: their summary and when texts are 100% similar (threshold 80%)"]
        );
    }

    #[test]
    fn confusable_example_silences_the_pair() {
        let mut a = with_text("invoice_list", "List the invoices of the tenant.", "Use to find invoices.");
        a.examples.confusables.push(sp("invoice_search".into()));
        let b = with_text("invoice_search", "List invoices of the tenant.", "Use to find the invoices.");
        assert!(run(&RULE, vec![a, b]).is_empty());
    }

    /// A deterministic text generator over a small vocabulary, so that many tools share
    /// terms and the index has real work to do.
    fn synthetic(n: usize, vocabulary: usize) -> Vec<String> {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..n)
            .map(|_| {
                let len = 3 + (next() % 6) as usize;
                (0..len)
                    .map(|_| format!("w{}", next() % vocabulary as u64))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn index_agrees_with_comparing_every_pair() {
        let texts = synthetic(400, 12);
        for threshold in [0.3, 0.6, 0.8] {
            let mut brute = Vec::new();
            for j in 0..texts.len() {
                for i in 0..j {
                    let s = similarity(&texts[i], &texts[j]);
                    if s + 1e-9 >= threshold {
                        brute.push((i, j));
                    }
                }
            }
            let indexed: Vec<(usize, usize)> = similar_pairs(&texts, threshold)
                .into_iter()
                .map(|(i, j, _)| (i, j))
                .collect();
            assert!(!brute.is_empty());
            assert_eq!(indexed, brute, "threshold {threshold}");
        }
    }

    #[test]
    fn two_thousand_tools_find_exactly_the_planted_pairs() {
        // Each tool gets words of its own (`r{i}x…`), so only the planted copies are similar.
        let mut tools: Vec<crate::model::Tool> = (0..2000)
            .map(|i| {
                with_text(
                    &format!("resource{i}_read"),
                    &format!("Read r{i}a records of r{i}b kind for the r{i}c ledger."),
                    &format!("Use when the user asks about r{i}d or r{i}e."),
                )
            })
            .collect();
        for (from, to) in [(10, 1500), (999, 1000), (1998, 3)] {
            tools[to].summary = tools[from].summary.clone();
            tools[to].when = tools[from].when.clone();
        }
        let project = crate::model::Project {
            catalogs: vec![
                catalog("first", tools[..1000].to_vec()),
                catalog("second", tools[1000..].to_vec()),
            ],
        };
        let found = run_with(&RULE, &project, &Default::default());
        let pairs: Vec<(&str, &str)> = found
            .iter()
            .map(|f| {
                let other = f.message.split('`').nth(3).unwrap_or("");
                (f.tool.as_deref().unwrap_or(""), other)
            })
            .collect();
        assert_eq!(
            pairs,
            [
                ("resource1000_read", "resource999_read"),
                ("resource1500_read", "resource10_read"),
                ("resource1998_read", "resource3_read"),
            ]
        );
    }
}
