//! The validation split (tests/corpus-validation/, 26 published servers' tools/list; sources
//! in its SOURCES.md): lists no rule or threshold is tuned on. Every list imports, loads and
//! lints. Its findings at warning and error level are judged on a sample stratified by server:
//! judged.tsv holds up to four findings of each server, rule and level (a seeded random
//! choice), its `now` column follows the rules, and every server, rule and level reported at
//! warning or error level today has a judged finding. The precision docs/corpus.md and
//! docs/rules.md show is what the rules measure on that sample, and docs/corpus.md's estimate
//! over every finding (each server, rule and level weighted by its number of findings) is what
//! the sample gives. The figures are printed (`cargo test --test corpus_validation --
//! --nocapture`), never held to a threshold: a rule change that lowers them is reported, not
//! tuned away.

mod judging;

use std::collections::BTreeMap;

const SPLIT: &str = "tests/corpus-validation";

#[test]
fn validation_sample_is_judged_and_its_precision_is_what_the_docs_say() {
    let judged = judging::judged(SPLIT);
    let mut current = BTreeMap::new();
    let mut tools = 0;
    for (server, text) in judging::servers(SPLIT) {
        let linted = judging::lint(&server, &text);
        tools += linted.imported.tools;
        current.extend(judging::finding_ids(&server, &linted.diags));
    }
    assert_eq!(tools, 997);
    judging::assert_sample_in_step(SPLIT, &judged, &current);
    let (mut rules, mut totals) = judging::precision(&judged, &current);
    // Findings at info level are not sampled: rows only for what has verdicts.
    rules.retain(|_, f| f.1 + f.2 > 0);
    totals.retain(|_, f| f.1 + f.2 > 0);
    let (kept, real) = judging::true_findings_kept(&judged);
    eprintln!("real defects reported at warning or error level: {kept} / {real}");
    let doc = std::fs::read_to_string(judging::root("docs/corpus.md"))
        .unwrap_or_else(|e| panic!("docs/corpus.md: {e}"));
    let stale = judging::stale_rows(&doc, "### Validation split", &rules, &totals);
    assert!(
        stale.is_empty(),
        "docs/corpus.md's validation precision table is out of date; rows should end: {stale:#?}"
    );
    let weighted = judging::weighted_precision(&judged, &current);
    let line = format!(
        "Estimated over every finding at these levels: error {:.2}, warning {:.2}.",
        weighted.get("error").copied().unwrap_or_default(),
        weighted.get("warn").copied().unwrap_or_default()
    );
    eprintln!("{line}");
    assert!(
        doc.contains(&line),
        "docs/corpus.md's validation section should say: {line}"
    );
    // docs/rules.md's measured precision is generated from this table.
    let measured: BTreeMap<(String, &str), (usize, usize)> = catalogc::lint::docs::VALIDATION
        .iter()
        .map(|m| ((m.rule.to_string(), m.level), (m.real, m.judged)))
        .collect();
    let now: BTreeMap<(String, &str), (usize, usize)> = rules
        .iter()
        .filter(|(_, f)| f.1 > 0)
        .map(|((rule, level), f)| ((rule.clone(), *level), (f.0, f.1)))
        .collect();
    assert_eq!(
        measured, now,
        "catalogc::lint::docs::VALIDATION (docs/rules.md) differs from the measured precision"
    );
}
