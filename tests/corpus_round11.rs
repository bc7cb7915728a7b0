//! The round-11 split (tests/corpus-round11/, 30 published servers' tools/list; sources in its
//! SOURCES.md), collected after round 11's rules were written, to measure them on servers
//! nobody had read. Every list imports, loads and lints. Its findings at warning and error
//! level are judged on a sample stratified by server: judged.tsv holds up to four findings
//! of each server, rule and level (a seeded random choice), its `now` column follows the
//! rules, and every server, rule and level reported at warning or error level today has a
//! judged finding. docs/corpus.md's table and its estimate over every finding (each server,
//! rule and level weighted by its number of findings) are what the sample gives, and so is
//! the precision docs/rules.md shows under each rule. The figures are printed (`cargo test
//! --test corpus_round11 -- --nocapture`), never held to a threshold.

mod judging;

use std::collections::BTreeMap;

#[test]
fn round11_sample_is_judged_and_its_precision_is_what_the_docs_say() {
    let rules = judging::check_sampled_split("tests/corpus-round11", 996, "### Round-11 split");
    // docs/rules.md's measured precision is generated from this table.
    let measured: BTreeMap<(String, &str), (usize, usize)> = catalogc::lint::docs::UNSEEN
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
        "catalogc::lint::docs::UNSEEN (docs/rules.md) differs from the measured precision"
    );
}
