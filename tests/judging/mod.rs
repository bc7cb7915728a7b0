//! The judged findings of a corpus split (`judged.tsv` beside its servers' `tools.json`,
//! docs/corpus.md): reading the verdicts, naming today's findings as the file does, and the
//! figures per rule and level that docs/corpus.md shows. Each test crate uses a part of them.
#![allow(dead_code)]

use catalogc::diag::{Diagnostic, Level};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The folder of a split, below the crate root (`tests/corpus`).
pub fn root(split: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(split)
}

/// Each server's folder name and its tools/list text, in name order.
pub fn servers(split: &str) -> Vec<(String, String)> {
    let root = root(split);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display())) {
        let path = entry.map(|e| e.path()).unwrap_or_default();
        let file = path.join("tools.json");
        if file.is_file() {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
            out.push((name, text));
        }
    }
    out.sort();
    out
}

/// `server|tool|rule|path|n` of each finding, `n` counting findings with the same first four
/// parts in report order: the IDs of judged.tsv.
pub fn finding_ids(server: &str, diags: &[Diagnostic]) -> Vec<(String, Level)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    diags
        .iter()
        .map(|d| {
            let key = format!(
                "{server}|{}|{}|{}",
                d.tool.as_deref().unwrap_or(""),
                d.rule,
                d.path.as_deref().unwrap_or("")
            );
            let n = seen.entry(key.clone()).or_default();
            *n += 1;
            (format!("{key}|{n}"), d.level)
        })
        .collect()
}

/// One line of judged.tsv.
pub struct Verdict {
    /// `None` for `unclear`: careful authors would disagree; left out of the figures.
    pub real: Option<bool>,
    /// The `now` column: `error`, `warn`, `info`, or `fixed` (no longer reported).
    pub now: String,
}

/// The verdicts of `split`'s judged.tsv by finding ID.
pub fn judged(split: &str) -> BTreeMap<String, Verdict> {
    let path = root(split).join("judged.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty() && !l.starts_with("id\t"))
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [id, verdict, _level, now, reason] = cols.as_slice() else {
            panic!("judged.tsv: malformed line {line:?}");
        };
        assert!(!reason.is_empty(), "{id}: no reason");
        let real = match *verdict {
            "true" => Some(true),
            "false" => Some(false),
            "unclear" => None,
            other => panic!("{id}: verdict {other:?}"),
        };
        let now = now.to_string();
        out.insert(id.to_string(), Verdict { real, now });
    }
    out
}

/// Fails unless every finding of today's rules is judged and judged.tsv's `now` column
/// states the level each finding is reported at today (`fixed` for one no longer reported).
pub fn assert_in_step(
    split: &str,
    judged: &BTreeMap<String, Verdict>,
    current: &BTreeMap<String, Level>,
) {
    let unjudged: Vec<&String> = current
        .keys()
        .filter(|id| !judged.contains_key(*id))
        .collect();
    assert!(
        unjudged.is_empty(),
        "{split}: {} findings have no verdict in judged.tsv; judge them by docs/corpus.md's standard: {unjudged:#?}",
        unjudged.len()
    );
    assert_now_in_step(split, judged, current);
}

/// Fails unless judged.tsv's `now` column states the level each judged finding is reported
/// at today (`fixed` for one no longer reported).
pub fn assert_now_in_step(
    split: &str,
    judged: &BTreeMap<String, Verdict>,
    current: &BTreeMap<String, Level>,
) {
    let moved: Vec<String> = judged
        .iter()
        .filter_map(|(id, v)| {
            let now = current.get(id).map_or("fixed", |l| l.as_str());
            (v.now != now).then(|| format!("{id}: now {now}, judged.tsv says {}", v.now))
        })
        .collect();
    assert!(
        moved.is_empty(),
        "{split}: judged.tsv's `now` column is out of date: {moved:#?}"
    );
}

/// `server|rule|level` of a finding at warning or error level: the groups a sampled split
/// judges some findings of.
fn group(id: &str, level: Level) -> Option<String> {
    let mut parts = id.split('|');
    let (server, _tool, rule) = (parts.next()?, parts.next()?, parts.next()?);
    matches!(level, Level::Error | Level::Warn)
        .then(|| format!("{server}|{rule}|{}", level.as_str()))
}

/// For a split whose judged.tsv holds a sample: fails unless the `now` column is in step and
/// every server, rule and level reported at warning or error level today has at least one
/// judged finding.
pub fn assert_sample_in_step(
    split: &str,
    judged: &BTreeMap<String, Verdict>,
    current: &BTreeMap<String, Level>,
) {
    assert_now_in_step(split, judged, current);
    let mut groups: BTreeMap<String, bool> = BTreeMap::new();
    for (id, level) in current {
        if let Some(g) = group(id, *level) {
            *groups.entry(g).or_default() |= judged.contains_key(id);
        }
    }
    let unsampled: Vec<&String> = groups
        .iter()
        .filter(|(_, j)| !**j)
        .map(|(g, _)| g)
        .collect();
    assert!(
        unsampled.is_empty(),
        "{split}: no finding of these servers, rules and levels is judged; judge a sample of them by docs/corpus.md's standard: {unsampled:#?}"
    );
}

/// Precision per level over every finding at warning or error level, estimated from a sample:
/// each server, rule and level's judged precision weighted by how many findings it has.
pub fn weighted_precision(
    judged: &BTreeMap<String, Verdict>,
    current: &BTreeMap<String, Level>,
) -> BTreeMap<&'static str, f64> {
    // Per group: findings, real and judged (unclear left out) among them.
    let mut groups: BTreeMap<String, (&'static str, usize, usize, usize)> = BTreeMap::new();
    for (id, level) in current {
        let Some(g) = group(id, *level) else { continue };
        let entry = groups.entry(g).or_insert((level.as_str(), 0, 0, 0));
        entry.1 += 1;
        if let Some(Some(real)) = judged.get(id).map(|v| v.real) {
            entry.2 += usize::from(real);
            entry.3 += 1;
        }
    }
    let mut sums: BTreeMap<&'static str, (f64, f64)> = BTreeMap::new();
    for (level, findings, real, judged) in groups.into_values() {
        if judged > 0 {
            let sum = sums.entry(level).or_default();
            sum.0 += findings as f64 * real as f64 / judged as f64;
            sum.1 += findings as f64;
        }
    }
    sums.into_iter()
        .map(|(level, (real, all))| (level, real / all))
        .collect()
}

/// Real, judged (real or not) and unclear findings.
pub type Figures = (usize, usize, usize);

/// [`Figures`] per rule and level.
pub type ByRule = BTreeMap<(String, &'static str), Figures>;

/// [`Figures`] per level.
pub type ByLevel = BTreeMap<&'static str, Figures>;

/// Per rule and level of today's findings, then the totals per level.
pub fn precision(
    judged: &BTreeMap<String, Verdict>,
    current: &BTreeMap<String, Level>,
) -> (ByRule, ByLevel) {
    let mut rules = ByRule::new();
    let mut totals = ByLevel::new();
    for (id, level) in current {
        let rule = id.split('|').nth(2).unwrap_or_default().to_string();
        for entry in [
            rules.entry((rule.clone(), level.as_str())).or_default(),
            totals.entry(level.as_str()).or_default(),
        ] {
            match judged.get(id).map(|v| v.real) {
                Some(Some(real)) => {
                    entry.0 += usize::from(real);
                    entry.1 += 1;
                }
                Some(None) => entry.2 += 1,
                None => {}
            }
        }
    }
    (rules, totals)
}

/// The findings judged true and how many of them today's rules report at warning or error
/// level.
pub fn true_findings_kept(judged: &BTreeMap<String, Verdict>) -> (usize, usize) {
    let real = judged.values().filter(|v| v.real == Some(true));
    let kept = real.clone().filter(|v| v.now == "error" || v.now == "warn");
    (kept.count(), real.count())
}

/// The last cells of a docs/corpus.md precision row: `| real / judged | precision | unclear |`.
pub fn cells((real, judged, unclear): Figures) -> String {
    let unclear = if unclear == 0 {
        String::new()
    } else {
        unclear.to_string()
    };
    let precision = real as f64 / judged.max(1) as f64;
    format!("| {real} / {judged} | {precision:.2} | {unclear} |")
}

/// The rows of `table` (the heading line a table follows in docs/corpus.md) that do not end
/// with today's figures; prints every row's figures.
pub fn stale_rows(doc: &str, table: &str, rules: &ByRule, totals: &ByLevel) -> Vec<String> {
    let start = doc
        .find(table)
        .unwrap_or_else(|| panic!("docs/corpus.md has no {table:?}"));
    let rows: Vec<&str> = doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .collect();
    let mut wanted: Vec<(String, Figures)> = totals
        .iter()
        .map(|(level, f)| (format!("| **all {level}** |"), *f))
        .collect();
    wanted.extend(
        rules
            .iter()
            .map(|((rule, level), f)| (format!("| `{rule}` | {level} |"), *f)),
    );
    let mut stale = Vec::new();
    for (row, figures) in wanted {
        let cells = cells(figures);
        eprintln!("{row} {cells}");
        if !rows
            .iter()
            .any(|l| l.starts_with(&row) && l.ends_with(&cells))
        {
            stale.push(format!("{row} … {cells}"));
        }
    }
    stale
}

/// A published list imported, loaded and linted as `catalogc lint FILE.json` does.
pub struct Linted {
    pub imported: catalogc::import::Imported,
    pub loaded: catalogc::project::Loaded,
    pub artifacts: catalogc::contract::Artifacts,
    pub diags: Vec<Diagnostic>,
}

/// Imports `text` (the tools/list of `server`), loads it without syntax or model errors and
/// lints it with the rules of a published list.
pub fn lint(server: &str, text: &str) -> Linted {
    use catalogc::contract::{Artifacts, Templates};
    let imported =
        catalogc::import::import(text, server).unwrap_or_else(|e| panic!("{server}: {e}"));
    let loaded = catalogc::project::load_source(
        PathBuf::from(format!("{server}/tools.json.kdl")),
        imported.text.clone(),
    );
    let broken: Vec<&Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.level == Level::Error)
        .collect();
    assert!(broken.is_empty(), "{server}: {broken:#?}");
    let artifacts = Artifacts::build(&loaded.project, &Templates::builtin())
        .unwrap_or_else(|e| panic!("{server}: {e}"));
    let (config, _) = catalogc::lint::published::config(&Default::default());
    let diags = catalogc::lint::check_project(&loaded, &config, &artifacts);
    Linted {
        imported,
        loaded,
        artifacts,
        diags,
    }
}

/// What a sampled split's test checks (docs/corpus.md's section `heading`): every list
/// imports, loads and lints (`tools` tools in all); judged.tsv's `now` column follows the
/// rules and every server, rule and level reported at warning or error level has a judged
/// finding; the section's precision table and its estimate over every finding are what the
/// sample gives. Returns the precision per rule and level (rows with verdicts only). The
/// figures are printed, never held to a threshold: a rule change that lowers them is
/// reported, not tuned away.
pub fn check_sampled_split(split: &str, tools: usize, heading: &str) -> ByRule {
    let judged = judged(split);
    let mut current = BTreeMap::new();
    let mut counted = 0;
    for (server, text) in servers(split) {
        let linted = lint(&server, &text);
        counted += linted.imported.tools;
        current.extend(finding_ids(&server, &linted.diags));
    }
    assert_eq!(counted, tools);
    assert_sample_in_step(split, &judged, &current);
    let (mut rules, mut totals) = precision(&judged, &current);
    // Findings at info level are not sampled: rows only for what has verdicts.
    rules.retain(|_, f| f.1 + f.2 > 0);
    totals.retain(|_, f| f.1 + f.2 > 0);
    let (kept, real) = true_findings_kept(&judged);
    eprintln!("{split}: real defects reported at warning or error level: {kept} / {real}");
    let doc = std::fs::read_to_string(root("docs/corpus.md"))
        .unwrap_or_else(|e| panic!("docs/corpus.md: {e}"));
    let stale = stale_rows(&doc, heading, &rules, &totals);
    assert!(
        stale.is_empty(),
        "docs/corpus.md's table under {heading} is out of date; rows should end: {stale:#?}"
    );
    let weighted = weighted_precision(&judged, &current);
    let line = format!(
        "Estimated over every finding at these levels: error {:.2}, warning {:.2}.",
        weighted.get("error").copied().unwrap_or_default(),
        weighted.get("warn").copied().unwrap_or_default()
    );
    eprintln!("{split}: {line}");
    let section = doc.split(heading).nth(1).unwrap_or_default();
    let section = section.split("\n### ").next().unwrap_or_default();
    assert!(
        section.contains(&line),
        "docs/corpus.md's section {heading} should say: {line}"
    );
    rules
}
