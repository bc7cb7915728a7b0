//! The `selection/confusable` rule: no two tools with near-duplicate summary + when texts that do
//! not name each other; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::similarity::{Clusters, Index, index, is_stop_word, similar_pairs, stem};
use crate::lint::{Context, Finding};
use crate::model::{Catalog, Tool};
use crate::{FastMap, FastSet};


crate::lint::declare_rule! {
    /// ## What it does
    /// Compares every pair of tools of all the catalogs loaded together by the text the model
    /// chooses with, their `summary` and `when`, and reports tools whose texts are
    /// near-duplicates when neither names the other in its `when-not` or in
    /// `examples { confusable "…" }`. Such pairs join tools into clusters (a reads like b, b like
    /// c: one cluster), and each cluster is reported once, at its second tool's summary, naming
    /// the others (the first five, then how many more).
    ///
    /// The similarity is the cosine between the two texts' TF-IDF vectors. The terms are the words
    /// (lower-cased, plural and `-s` / `-es` endings stripped, stop words such as "the", "of",
    /// "use" removed) and the pairs of consecutive such words. A term's weight is its count in
    /// the text times its inverse document frequency over all the tools loaded together,
    /// `ln((1 + tools) / (1 + tools using the term)) + 1`: words every tool says ("record",
    /// "tenant") count for little, the words that tell tools apart ("shipment", "refund") for
    /// much. The similarity runs from 0 (no term in common) to 1 (the same terms in the same
    /// proportions). A pair is reported at or above `thresholds { confusable-similarity 0.8 }` in
    /// `catalogc.kdl` (the default): the 99.8th percentile of the similarity of the 11,301 pairs
    /// of tools of one server that share a term in the 540 tools of the corpus's first 20 public
    /// MCP servers (tests/corpus/): 14 pairs reach it (`add_sub_issue` / `sub_issue_write`,
    /// `list_directory` / `list_directory_with_sizes`, …), and the names then decide (below).
    ///
    /// The names decide how similar is too similar. Name words are compared as in the texts (the
    /// name split at `_`, `-` and case changes, stop words dropped, plurals stemmed):
    ///
    /// - **list variants**: two read-class tools whose names both have `list`, `find` or
    ///   `search` and one name's words are a strict subset of the other's (`pods_list` and
    ///   `pods_list_in_namespace`, `find_monitors` and `find_uptime_monitors`). The longer name
    ///   only narrows the shorter, the texts come from one template, and the model cannot tell
    ///   which to pick; such a pair is reported from `thresholds { confusable-list-similarity
    ///   0.54 }`, the 80th percentile of the similarity of the corpus's 21 pairs of list tools
    ///   with variant names (tests/corpus/'s first 20 servers, 540 tools): the pairs above it are the near-duplicates,
    ///   those below name different resources (`list_groups` and `list_group_users`);
    /// - **distinct names**: each name has a word the other lacks, each tool's text says its
    ///   own name's difference, and one of the texts does not also say the other's (`pods_get`
    ///   "Get a pod" and `pods_delete` "Delete a pod",
    ///   `confirm_delete_group` and `confirm_delete_application`): the names and texts already
    ///   tell the tools apart, and the pair is not reported at any similarity;
    /// - any other pair (`invoice_list` and `invoice_search` whose texts never say "search") is
    ///   reported from `confusable-similarity`.
    ///
    /// Terms are indexed once: only tools sharing a term are compared, and tools with the same
    /// text are compared as one, so a catalog of thousands of tools is checked in milliseconds.
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) a cluster is `info`, hardening
    /// advice: a published list has no `when-not` or `examples` to name the other tool, and
    /// there the names, which a model reads first, tell the tools apart in most pairs whose
    /// texts read alike (`add_issue_reaction` / `add_issue_comment_reaction`).
    ///
    /// ## Why is this bad?
    /// When two tools describe themselves in the same words, the model cannot tell which one a
    /// request is for and picks either, calling a write where a read was meant or the other way
    /// round. Saying in `when-not` when to use the other tool (or listing it as `confusable`, so
    /// the examples teach the difference) gives the model the distinction it needs.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List the invoices of the authenticated tenant."
    ///     when "Use to find invoices of the tenant."
    ///     when-not "Not for payments."
    ///     // …
    /// }
    /// tool "invoice_search" version="1.0.0" {
    ///     summary "List invoices of the authenticated tenant."
    ///     when "Use to find the invoices of the tenant."
    ///     when-not "Not for payments."
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     summary "List the invoices of the authenticated tenant."
    ///     when "Use to find invoices of the tenant."
    ///     when-not "Not for full-text search; use invoice_search for that."
    ///     // …
    /// }
    /// tool "invoice_search" version="1.0.0" {
    ///     summary "Search invoices of the authenticated tenant by words in their lines."
    ///     when "Use when the user remembers what was billed but not the invoice."
    ///     when-not "Not for listing by status; use invoice_list."
    ///     // …
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/confusable",
        level: Level::Warn,
        summary: "no two tools with near-duplicate summary + when texts that do not name each other",
        hooks: crate::lint::Hooks::project(check),
    };
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

/// The words `tool` names other tools with: its confusable examples and the tokens of its
/// when-not.
fn names(tool: &Tool) -> FastSet<&str> {
    let confusables = tool.examples.confusables.iter().map(|c| c.value.as_str());
    let when_not = tool
        .when_not
        .iter()
        .flat_map(|w| w.value.split(|c: char| !(c.is_alphanumeric() || c == '_')));
    confusables.chain(when_not).collect()
}

/// How two tool names relate, by their content words.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Names {
    /// Two read-class list tools, one name's words a strict subset of the other's.
    ListVariant,
    /// Each name has a word the other lacks, and each tool's text has its own name's.
    Distinct,
    /// Anything else.
    Other,
}

/// A name's content words, as the texts' terms are made.
fn name_words(name: &str) -> std::collections::BTreeSet<String> {
    crate::names::words(name)
        .into_iter()
        .filter(|w| !is_stop_word(w))
        .map(|w| stem(&w))
        .collect()
}

/// How two tools relate by their names, for the tests ([`Words::relation`] in the rule).
#[cfg(test)]
fn relation(a: &Tool, b: &Tool) -> Names {
    let index = index(&[tool_text(a), tool_text(b)]);
    Words::new(&index).relation(0, 1, a, b)
}

/// Each tool's name words, computed on first use, and the words its text says (from the
/// [`Index`] the similarity was computed over): a large catalog compares a tool with many
/// others, and splitting its texts again for each pair dominated the rule.
struct Words<'a> {
    index: &'a Index,
    names: Vec<std::cell::OnceCell<std::collections::BTreeSet<String>>>,
}

impl<'a> Words<'a> {
    fn new(index: &'a Index) -> Words<'a> {
        Words {
            index,
            names: index.said.iter().map(|_| std::cell::OnceCell::new()).collect(),
        }
    }

    /// Tool `i`'s name words.
    fn name(&self, i: usize, tool: &Tool) -> &std::collections::BTreeSet<String> {
        self.names[i].get_or_init(|| name_words(&tool.name.value))
    }

    /// Whether tool `i` is a read-class tool whose name lists, finds or searches: only two
    /// such tools can be [`Names::ListVariant`]s.
    fn lists(&self, i: usize, tool: &Tool) -> bool {
        tool.effect.value.is_read_class() && ["list", "find", "search"].iter().any(|v| self.name(i, tool).contains(*v))
    }

    /// How tools `i` (`a`) and `j` (`b`) relate by their names.
    fn relation(&self, i: usize, j: usize, a: &Tool, b: &Tool) -> Names {
        let (wa, wb) = (self.name(i, a), self.name(j, b));
        let only_a: Vec<&String> = wa.difference(wb).collect();
        let only_b: Vec<&String> = wb.difference(wa).collect();
        match (only_a.is_empty(), only_b.is_empty()) {
            (true, false) | (false, true) if self.lists(i, a) && self.lists(j, b) => Names::ListVariant,
            (true, false) | (false, true) => Names::Other,
            (false, false) => {
                // Name words are content words, so a text says one when its content words
                // hold it; a word no text has is said by none.
                let says = |k: usize, own: &[&String]| {
                    own.iter().all(|w| {
                        self.index.words.get(w.as_str()).is_some_and(|id| self.index.said[k].binary_search(id).is_ok())
                    })
                };
                // Identical texts that each mention both names' words tell nothing apart.
                let one_sided = !says(i, &only_b) || !says(j, &only_a);
                if says(i, &only_a) && says(j, &only_b) && one_sided {
                    Names::Distinct
                } else {
                    Names::Other
                }
            }
            (true, true) => Names::Other,
        }
    }
}

/// Joins similar tools into [`Clusters`], keeping each cluster's best similarity.
struct Joiner<'a, 't> {
    tools: &'a [(&'t Catalog, &'t Tool)],
    words: &'a Words<'a>,
    threshold: f64,
    variant_threshold: f64,
    clusters: Clusters,
    /// By cluster root: the best similarity of the pairs that joined the cluster.
    best: Vec<f64>,
    /// By tool, computed on first use: the tool names it names ([`names`]).
    named: Vec<std::cell::OnceCell<FastSet<&'t str>>>,
    /// Pairs of tools tried (for the tests: the work stays near-linear in the tools).
    tried: usize,
}

impl<'a, 't> Joiner<'a, 't> {
    fn new(tools: &'a [(&'t Catalog, &'t Tool)], words: &'a Words<'a>, threshold: f64, variant_threshold: f64) -> Self {
        Joiner {
            tools,
            words,
            threshold,
            variant_threshold,
            clusters: Clusters {
                parent: (0..tools.len()).collect(),
            },
            best: vec![0.0; tools.len()],
            named: tools.iter().map(|_| std::cell::OnceCell::new()).collect(),
            tried: 0,
        }
    }

    /// Joins the tools of every similar pair of groups, in the order of `similar` (the
    /// clusters keep the best similarity of the pairs that joined them, which depends on
    /// that order).
    fn similar(&mut self, groups: &[Vec<usize>], similar: Vec<(usize, usize, f64)>) {
        for (gi, gj, sim) in similar {
            self.groups(&groups[gi], &groups[gj], gi == gj, sim);
        }
    }

    /// Joins the tools of two groups of equal texts, `sim`-similar to each other (`same`:
    /// one group, its tools paired with each other). Trying each of the k² pairs took most
    /// of a lint run on thousands of copies of one text; the pairs that are not joinable are
    /// few (a tool names a handful of others), so the clusters are found by a search over the
    /// joinable pairs that tries each reached tool against the tools still unreached only:
    /// each try reaches a tool or meets one of the few pairs that are not joinable. Every
    /// pair has the same similarity, so the clusters and their best similarity are those of
    /// trying every pair in order.
    fn groups(&mut self, left: &[usize], right: &[usize], same: bool, sim: f64) {
        // Unreached tools by side; one group is one side paired with itself.
        let mut unreached = [left.to_vec(), if same { Vec::new() } else { right.to_vec() }];
        let other = |side: usize| if same { 0 } else { 1 - side };
        let mut kept = Vec::new();
        let mut queue: Vec<(usize, usize)> = Vec::new();
        while let Some(side) = (0..2).find(|&s| !unreached[s].is_empty()) {
            if let Some(u) = unreached[side].pop() {
                queue.push((side, u));
            }
            while let Some((side, u)) = queue.pop() {
                let to = other(side);
                for v in std::mem::take(&mut unreached[to]) {
                    if self.pair(u.min(v), u.max(v), sim) {
                        queue.push((to, v));
                    } else {
                        kept.push(v);
                    }
                }
                std::mem::swap(&mut unreached[to], &mut kept);
            }
        }
    }

    /// Tries tools `i` and `j`, `sim`-similar: joins them when they are apart and belong in
    /// one cluster, and says whether they are in one cluster now.
    fn pair(&mut self, i: usize, j: usize, sim: f64) -> bool {
        self.tried += 1;
        let (ri, rj) = (self.clusters.find(i), self.clusters.find(j));
        if ri == rj {
            return true;
        }
        if !self.joinable(i, j, sim) {
            return false;
        }
        let merged = self.best[ri].max(self.best[rj]).max(sim);
        self.clusters.union(i, j);
        self.best[self.clusters.find(i)] = merged;
        true
    }

    /// Whether tools `i` and `j`, `sim`-similar, belong in one cluster: neither names the
    /// other and their names allow it at that similarity.
    fn joinable(&self, i: usize, j: usize, sim: f64) -> bool {
        let (a, b) = (self.tools[i].1, self.tools[j].1);
        let (an, bn) = (a.name.value.as_str(), b.name.value.as_str());
        if an == bn || self.names(i).contains(bn) || self.names(j).contains(an) {
            return false;
        }
        match self.words.relation(i, j, a, b) {
            Names::ListVariant => sim + 1e-9 >= self.variant_threshold,
            Names::Distinct => false,
            Names::Other => sim + 1e-9 >= self.threshold,
        }
    }

    /// What tool `i` names, split once: a tool with a long `when-not` is tried against
    /// every tool of its group.
    fn names(&self, i: usize) -> &FastSet<&'t str> {
        self.named[i].get_or_init(|| names(self.tools[i].1))
    }
}

/// Tools named in a finding before the rest is summed up as "and N more".
const NAMED_AT_MOST: usize = 5;

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let tools: Vec<(&Catalog, &Tool)> = cx
        .project
        .catalogs
        .iter()
        .flat_map(|c| c.tools.iter().map(move |t| (c, t)))
        .collect();
    let texts: Vec<String> = tools.iter().map(|(_, t)| tool_text(t)).collect();
    let threshold = cx.config.thresholds.confusable_similarity;
    // Tools whose texts are identical are searched as one: the index compares distinct
    // texts, so a thousand copies of one text cost one comparison, not half a million.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: FastMap<&str, usize> = FastMap::default();
    for (i, text) in texts.iter().enumerate() {
        let next = groups.len();
        let g = *group_of.entry(text.as_str()).or_insert(next);
        if g == next {
            groups.push(Vec::new());
        }
        groups[g].push(i);
    }
    let variant_threshold = cx.config.thresholds.confusable_list_similarity.min(threshold);
    let index = index(&texts);
    let words = Words::new(&index);
    let mut similar: Vec<(usize, usize, f64)> = similar_pairs(&index.vectors, threshold, &groups);
    if variant_threshold < threshold {
        // Below `threshold` only list variants count, and both tools of such a pair list:
        // the lower threshold is searched among the groups holding such a tool only, so the
        // common words of all the other tools do not flood the search with candidates.
        let listing: Vec<usize> = (0..groups.len())
            .filter(|&g| groups[g].iter().any(|&i| words.lists(i, tools[i].1)))
            .collect();
        let sub: Vec<Vec<usize>> = listing.iter().map(|&g| groups[g].clone()).collect();
        let found = similar_pairs(&index.vectors, variant_threshold, &sub);
        similar.extend(found.into_iter().map(|(a, b, sim)| (listing[a], listing[b], sim)));
        // One list in the order of a single search (pairs of equal texts first, then by the
        // later group and the earlier one), each pair once: the clusters keep the best
        // similarity of the pairs that joined them, which depends on that order.
        similar.sort_by_key(|&(i, j, _)| (i != j, j, i));
        similar.dedup_by_key(|&mut (i, j, _)| (i, j));
    }
    let mut join = Joiner::new(&tools, &words, threshold, variant_threshold);
    join.similar(&groups, similar);
    let Joiner {
        mut clusters, best, ..
    } = join;
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); tools.len()];
    for i in 0..tools.len() {
        let root = clusters.find(i);
        members[root].push(i);
    }
    // Reported on each cluster's second tool, in the order of those tools (for a pair: the
    // later tool, as the pair is found).
    let mut reported: Vec<(usize, &[usize])> = members
        .iter()
        .enumerate()
        .filter(|(_, c)| c.len() > 1)
        .map(|(root, c)| (root, c.as_slice()))
        .collect();
    reported.sort_by_key(|(_, c)| c[1]);
    for (root, cluster) in reported {
        let [first, second, rest @ ..] = cluster else {
            continue;
        };
        let (cb, b) = tools[*second];
        let others: Vec<usize> = std::iter::once(*first).chain(rest.iter().copied()).collect();
        let named: Vec<String> = others
            .iter()
            .take(NAMED_AT_MOST)
            .map(|&i| {
                let (ca, a) = tools[i];
                if ca.name.value == cb.name.value {
                    format!("`{}`", a.name.value)
                } else {
                    format!("`{}` (catalog `{}`)", a.name.value, ca.name.value)
                }
            })
            .collect();
        let mut list = match named.as_slice() {
            [one] => one.clone(),
            [init @ .., last] if others.len() <= NAMED_AT_MOST => format!("{} and {last}", init.join(", ")),
            all => format!("{} and {} more", all.join(", "), others.len() - all.len()),
        };
        let sim = best[root];
        // A cluster joined only through list variants was held to the list threshold.
        let threshold = if sim + 1e-9 >= threshold { threshold } else { variant_threshold };
        let message = if rest.is_empty() {
            format!(
                "tool `{}` reads like {list}: their summary and when texts are {:.0}% similar (threshold {:.0}%)",
                b.name.value,
                sim * 100.0,
                threshold * 100.0
            )
        } else {
            list = format!("{list}: these {} tools' summary and when texts", cluster.len());
            format!(
                "tool `{}` reads like {list} are up to {:.0}% similar (threshold {:.0}%)",
                b.name.value,
                sim * 100.0,
                threshold * 100.0
            )
        };
        let an = &tools[*first].1.name.value;
        let span = b.summary.as_ref().map_or(b.name.span, |s| s.span);
        // On a published list the names, which a model reads first, usually tell the tools
        // apart where their texts alike: hardening advice there.
        let level = if cx.config.published { Level::Info } else { Level::Warn };
        out.push(
            Finding::in_tool(cb, b, span, message).level(level).help(if rest.is_empty() {
                format!(
                    "say what differs, and name the other tool in `when-not` (\"…; use {an} to …\") or in `examples {{ confusable \"{an}\" }}`"
                )
            } else {
                "say what differs, and have each tool name the others in `when-not` (\"…; use … to …\") or in `examples { confusable \"…\" }`".to_string()
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::similarity::{cosine, vectors};
    use crate::lint::testkit::texts::*;

    fn singletons(n: usize) -> Vec<Vec<usize>> {
        (0..n).map(|i| vec![i]).collect()
    }

    /// The similarity of two texts loaded alone together.
    fn similarity(a: &str, b: &str) -> f64 {
        let v = vectors(&[a.to_string(), b.to_string()]);
        cosine(&v[0], &v[1])
    }

    #[test]
    fn measure_ignores_case_stop_words_and_plurals() {
        let a = "List the invoices of the authenticated tenant.";
        assert!((similarity(a, "list INVOICE for an authenticated tenant") - 1.0).abs() < 1e-9);
        assert_eq!(similarity(a, "Send a reminder e-mail."), 0.0);
        assert_eq!(similarity("", a), 0.0);
    }

    #[test]
    fn measure_counts_words_and_word_pairs_weighted_by_rarity() {
        // Two texts: a term both use has idf ln(3/3) + 1 = 1, a term one uses ln(3/2) + 1.
        let rare = (1.5f64).ln() + 1.0;
        // Same words, different order: the three unigrams agree (weight 1), the two word
        // pairs on each side do not (weight `rare`).
        let s = similarity("refund invoice payment", "payment invoice refund");
        let expected = 3.0 / (3.0 + 2.0 * rare * rare);
        assert!((s - expected).abs() < 1e-9, "{s} {expected}");
        // {list, invoice, list invoice} vs {list, invoice, overdue, list invoice,
        // invoice overdue}: 3 shared terms of weight 1, 2 more of weight `rare`.
        let s = similarity("list invoices", "list invoices overdue");
        let expected = 3.0 / (3f64.sqrt() * (3.0 + 2.0 * rare * rare).sqrt());
        assert!((s - expected).abs() < 1e-9, "{s} {expected}");
    }

    #[test]
    fn words_every_tool_uses_weigh_less() {
        // `shipment` and `ticket` tell the two tools apart; with more tools saying "new
        // record of the open project", that boilerplate counts for less and the pair drops.
        let pair = [
            "Add a new record to the regional shipment records of the open project.",
            "Add a new record to the regional ticket records of the open project.",
        ];
        let alone = similar_pairs(&vectors(&pair.map(String::from)), 0.0, &singletons(2));
        let mut many: Vec<String> = pair.map(String::from).to_vec();
        many.extend((0..50).map(|i| format!("Add a new record to the w{i} records of the open project.")));
        let among_many = similar_pairs(&vectors(&many), 0.0, &singletons(many.len()));
        let sim = |pairs: &[(usize, usize, f64)]| {
            pairs.iter().find(|p| (p.0, p.1) == (0, 1)).map(|p| p.2).unwrap_or(0.0)
        };
        assert!(sim(&among_many) < sim(&alone), "{} {}", sim(&among_many), sim(&alone));
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
    fn a_thousand_identical_tools_are_one_finding_naming_the_others() {
        let tools: Vec<_> = (0..1000)
            .map(|i| with_text(&format!("record{i}_read"), "Read one record of the ledger.", "Use to read a record."))
            .collect();
        let found = run(&RULE, tools);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].tool.as_deref(), Some("record1_read"));
        assert_eq!(
            found[0].message,
            "tool `record1_read` reads like `record0_read`, `record2_read`, `record3_read`, `record4_read`, `record5_read` and 994 more: these 1000 tools' summary and when texts are up to 100% similar (threshold 80%)"
        );
    }

    #[test]
    fn a_cluster_joins_through_similar_pairs_and_skips_named_pairs() {
        let a = with_text("invoice_list", "List the invoices of the tenant.", "Use to find invoices.");
        let b = with_text("invoice_search", "List invoices of the tenant.", "Use to find the invoices.");
        let c = with_text("invoice_find", "List invoices of the tenant.", "Use to find invoices.");
        let mut d = with_text("invoice_show", "List invoices of the tenant.", "Use to find invoices.");
        d.when_not = s("Not for lists; use invoice_list, invoice_search or invoice_find.");
        let found = run(&RULE, vec![a, b, c, d]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            ["tool `invoice_search` reads like `invoice_list` and `invoice_find`: these 3 tools' summary and when texts are up to 100% similar (threshold 80%)"]
        );
    }

    #[test]
    fn names_decide_how_similar_is_too_similar() {
        let read = |name: &str, summary: &str| with_text(name, summary, "Use in the current namespace.");
        // Distinct names whose texts say the difference: not reported even when 90% alike.
        let get = read("pods_get", "Get a Kubernetes pod of the namespace with the provided name.");
        let delete = read("pods_delete", "Delete a Kubernetes pod of the namespace with the provided name.");
        assert_eq!(relation(&get, &delete), Names::Distinct);
        // The same words in both texts: the names' difference is not in the texts.
        let harvest = read("parcel_harvest_get", "Read the harvest yield of one parcel.");
        let yield_ = read("parcel_yield_get", "Read the harvest yield of one parcel.");
        assert_eq!(relation(&harvest, &yield_), Names::Other);
        // List variants are held to the lower threshold.
        let all = read("pods_list", "List Kubernetes pods in all namespaces of the cluster.");
        let one = read("pods_list_in_namespace", "List Kubernetes pods in one namespace of the cluster.");
        assert_eq!(relation(&all, &one), Names::ListVariant);
        let found = run(&RULE, vec![get, delete, harvest, yield_, all, one]);
        let tools: Vec<&str> = found.iter().filter_map(|f| f.tool.as_deref()).collect();
        assert_eq!(tools, ["parcel_yield_get", "pods_list_in_namespace"]);
    }

    #[test]
    fn confusable_example_silences_the_pair() {
        let mut a = with_text("invoice_list", "List the invoices of the tenant.", "Use to find invoices.");
        a.examples.confusables.push(sp("invoice_search".into()));
        let b = with_text("invoice_search", "List invoices of the tenant.", "Use to find the invoices.");
        assert!(run(&RULE, vec![a, b]).is_empty());
    }

    /// Clusters (sorted tool indices, by root) and best similarities of `tools` joined by
    /// `join`, with the tries it took.
    fn joined(
        tools: &[crate::model::Tool],
        join: impl Fn(&mut Joiner<'_, '_>),
    ) -> (Vec<Vec<usize>>, Vec<f64>, usize) {
        let cat = catalog("c", Vec::new());
        let pairs: Vec<(&Catalog, &Tool)> = tools.iter().map(|t| (&cat, t)).collect();
        let index = index(&tools.iter().map(tool_text).collect::<Vec<_>>());
        let words = Words::new(&index);
        let mut j = Joiner::new(&pairs, &words, 0.8, 0.54);
        join(&mut j);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); tools.len()];
        let mut best = vec![0.0; tools.len()];
        for i in 0..tools.len() {
            let root = j.clusters.find(i);
            members[root].push(i);
            best[root] = j.best[root];
        }
        (members, best, j.tried)
    }

    /// The join of every pair in order, as the rule did before searching groups.
    fn every_pair(j: &mut Joiner<'_, '_>, left: &[usize], right: &[usize], same: bool, sim: f64) {
        for &b in right {
            for &a in left.iter().take_while(|&&a| !same || a < b) {
                j.pair(a, b, sim);
            }
        }
    }

    /// Thousands of copies of one text joined pair by pair cost k² tries (two million for
    /// two thousand tools, most of a lint run on the hostile input of copies); the search
    /// tries each tool about once.
    #[test]
    fn a_group_of_equal_texts_is_joined_in_near_linear_tries() {
        let tools: Vec<_> = (0..2000)
            .map(|i| with_text(&format!("record{i}_read"), "Read one record of the ledger.", "Use to read a record."))
            .collect();
        let group: Vec<usize> = (0..tools.len()).collect();
        let (clusters, best, tried) = joined(&tools, |j| j.groups(&group, &group, true, 1.0));
        assert_eq!(clusters[0].len(), 2000);
        assert_eq!(best[0], 1.0);
        assert!(tried < 2 * tools.len(), "{tried} tries");
        // Pair by pair, as the rule joined a group before: the same clusters in k(k-1)/2.
        let (pairwise, _, every) = joined(&tools, |j| every_pair(j, &group, &group, true, 1.0));
        assert_eq!(pairwise, clusters);
        assert_eq!(every, 2000 * 1999 / 2);
    }

    /// Searching a group, or two groups, gives the clusters and best similarities of
    /// joining every pair in order, whichever pairs are not joinable (a tool naming
    /// another) and whatever clusters earlier pairs made.
    #[test]
    fn searching_groups_agrees_with_joining_every_pair() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as usize
        };
        for round in 0..60 {
            let n = 2 + next(14);
            let tools: Vec<_> = (0..n)
                .map(|i| {
                    let mut t = with_text(&format!("ledger{i}_read"), "Read one record of the ledger.", "Use to read a record.");
                    let named: Vec<String> = (0..next(4)).map(|_| format!("ledger{}_read", next(n as u64))).collect();
                    t.when_not = s(&format!("Not for writes; use {}.", named.join(", ")));
                    t
                })
                .collect();
            // Earlier pairs' clusters: a few joins at a lower similarity first.
            let earlier: Vec<(usize, usize)> = (0..next(3)).map(|_| (next(n as u64), next(n as u64))).collect();
            let split = 1 + next(n as u64 - 1);
            let (left, right): (Vec<usize>, Vec<usize>) = ((0..split).collect(), (split..n).collect());
            let all: Vec<usize> = (0..n).collect();
            let cases: [(&[usize], &[usize], bool); 2] = [(&all, &all, true), (&left, &right, false)];
            for (l, r, same) in cases {
                let before = |j: &mut Joiner<'_, '_>| {
                    for &(a, b) in &earlier {
                        if a != b {
                            j.pair(a.min(b), a.max(b), 0.85);
                        }
                    }
                };
                let searched = joined(&tools, |j| {
                    before(j);
                    j.groups(l, r, same, 1.0);
                });
                let paired = joined(&tools, |j| {
                    before(j);
                    every_pair(j, l, r, same, 1.0);
                });
                assert_eq!((searched.0, searched.1), (paired.0, paired.1), "round {round}, same {same}");
            }
        }
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
        for vocabulary in [12, 40] {
            let texts = synthetic(400, vocabulary);
            let docs = vectors(&texts);
            for threshold in [0.3, 0.6, 0.8, 0.95, 1.0] {
                let mut brute = Vec::new();
                for j in 0..texts.len() {
                    for i in 0..j {
                        let s = cosine(&docs[i], &docs[j]);
                        if s + 1e-9 >= threshold {
                            brute.push((i, j));
                        }
                    }
                }
                let indexed: Vec<(usize, usize)> = similar_pairs(&vectors(&texts), threshold, &singletons(texts.len()))
                    .into_iter()
                    .map(|(i, j, _)| (i, j))
                    .collect();
                if threshold <= 0.3 {
                    assert!(!brute.is_empty(), "{vocabulary} {threshold}");
                }
                assert_eq!(indexed, brute, "vocabulary {vocabulary}, threshold {threshold}");
            }
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

    #[test]
    fn a_published_list_reports_a_cluster_as_advice() {
        let a = with_text("invoice_list", "List the invoices of the tenant.", "Use to find invoices.");
        let b = with_text("invoice_search", "List invoices of the tenant.", "Use to find the invoices.");
        let project = crate::model::Project { catalogs: vec![catalog("test", vec![a, b])] };
        let found = run_with(&RULE, &project, &crate::lint::testkit::sites::published());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].level, Some(Level::Info));
    }
}
