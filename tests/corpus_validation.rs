//! The validation split of round 7 (tests/corpus-validation/, 26 published servers'
//! tools/list; sources in its SOURCES.md). Nobody had tuned a rule on these lists until round
//! 8 set the levels of a published list from their blind verdicts; they are now training data,
//! and the holdout split (tests/corpus_holdout.rs) is the one nobody tunes on. Every list
//! imports, loads and lints; judged.tsv holds a sample of the findings at warning and error
//! level (up to four of each server, rule and level, a seeded random choice), its `now`
//! column follows the rules, and docs/corpus.md's table and estimate are what the sample
//! gives (`cargo test --test corpus_validation -- --nocapture` prints them).

mod judging;

#[test]
fn validation_sample_is_judged_and_its_precision_is_what_the_docs_say() {
    judging::check_sampled_split(
        "tests/corpus-validation",
        997,
        "### Validation split of round 7",
    );
}
