//! The round-10 split (tests/corpus-round10/, 30 published servers' tools/list; sources in its
//! SOURCES.md), collected after round 10's rules were written, to measure them on servers
//! nobody had read. Every list imports, loads and lints. Its findings at warning and error
//! level are judged on a sample stratified by server: judged.tsv holds up to four findings
//! of each server, rule and level (a seeded random choice), its `now` column follows the
//! rules, and every server, rule and level reported at warning or error level today has a
//! judged finding. docs/corpus.md's table and its estimate over every finding (each server,
//! rule and level weighted by its number of findings) are what the sample gives. The figures
//! are printed (`cargo test --test corpus_round10 -- --nocapture`), never held to a threshold.

mod judging;

#[test]
fn round10_sample_is_judged_and_its_precision_is_what_the_docs_say() {
    judging::check_sampled_split("tests/corpus-round10", 830, "### Round-10 split");
}
