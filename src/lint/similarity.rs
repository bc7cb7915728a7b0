//! Text similarity for the rules that compare tools: content words (stop words left out,
//! plurals stemmed), TF-IDF vectors over words and word pairs, the all-pairs search for
//! pairs above a cosine threshold, and union-find clusters of similar items.

use crate::FastMap;

/// Common English words that say nothing about what a tool does, plus the boilerplate of
/// tool texts (`use`, `tool`).
pub(crate) fn is_stop_word(word: &str) -> bool {
    // A `match` on literals compiles to a branch on length and bytes; the confusable rule asks
    // for every word of every tool text, where a binary search over a list would cost more.
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

/// A light English stemmer, enough to equate `invoices` / `invoice`, `lists` / `list`,
/// `searches` / `search`, `entries` / `entry`: it only strips plural and third-person endings.
pub(crate) fn stem(word: &str) -> String {
    let mut word = word.to_string();
    stem_in_place(&mut word);
    word
}

/// [`stem`] of `word`, written over it.
fn stem_in_place(word: &mut String) {
    let n = word.len();
    // Every ending taken off is ASCII, so each cut is at a character boundary.
    if n > 4 && word.ends_with("ies") {
        word.truncate(n - 3);
        word.push('y');
    } else if n > 4
        && (word.ends_with("ches")
            || word.ends_with("shes")
            || word.ends_with("sses")
            || word.ends_with("xes"))
    {
        word.truncate(n - 2);
    } else if n > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        word.truncate(n - 1);
    }
}

/// A text as a sparse TF-IDF vector over interned term ids (sorted by id), with its norm.
pub(crate) struct Vector {
    pub(crate) weights: Vec<(usize, f64)>,
    pub(crate) norm: f64,
}

/// Interned term ids: content words (lower-cased, stemmed, stop words left out) and pairs of
/// consecutive content words, one id space for both.
#[derive(Default)]
struct Terms {
    words: FastMap<String, usize>,
    pairs: FastMap<(usize, usize), usize>,
}

impl Terms {
    fn len(&self) -> usize {
        self.words.len() + self.pairs.len()
    }

    /// The term ids of `text` with their counts, sorted by id. Words are looked up without
    /// allocating when already known: a large catalog repeats the same few hundred words.
    fn count(&mut self, text: &str, content: &mut Vec<usize>) -> Vec<(usize, f64)> {
        content.clear();
        let mut lower = String::new();
        for w in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            lower.clear();
            // As `words` lower-cases (`str::to_lowercase` knows the final sigma).
            if w.is_ascii() {
                lower.push_str(w);
                lower.make_ascii_lowercase();
            } else {
                lower.push_str(&w.to_lowercase());
            }
            if is_stop_word(&lower) {
                continue;
            }
            stem_in_place(&mut lower);
            let id = match self.words.get(lower.as_str()) {
                Some(&id) => id,
                None => {
                    let id = self.len();
                    self.words.insert(lower.clone(), id);
                    id
                }
            };
            content.push(id);
        }
        let mut ids = content.clone();
        for pair in content.windows(2) {
            let next = self.len();
            ids.push(*self.pairs.entry((pair[0], pair[1])).or_insert(next));
        }
        ids.sort_unstable();
        let mut counted: Vec<(usize, f64)> = Vec::with_capacity(ids.len());
        for id in ids {
            match counted.last_mut() {
                Some((last, c)) if *last == id => *c += 1.0,
                _ => counted.push((id, 1.0)),
            }
        }
        counted
    }
}

/// The texts of a set of tools as the rule compares them.
pub(crate) struct Index {
    /// Each text's TF-IDF vector.
    pub(crate) vectors: Vec<Vector>,
    /// The content word ids (stemmed, stop words left out).
    pub(crate) words: FastMap<String, usize>,
    /// Each text's content word ids, sorted, each once: what the confusable rule asks
    /// whether a text says, without splitting the text again.
    pub(crate) said: Vec<Vec<usize>>,
}

/// The TF-IDF vectors of a set of texts: terms are interned and counted once.
#[cfg(test)]
pub(crate) fn vectors(texts: &[String]) -> Vec<Vector> {
    index(texts).vectors
}

/// Interns and counts the terms of `texts` once.
pub(crate) fn index(texts: &[String]) -> Index {
    let mut ids = Terms::default();
    let mut content = Vec::new();
    let mut said = Vec::with_capacity(texts.len());
    let counted: Vec<Vec<(usize, f64)>> = texts
        .iter()
        .map(|t| {
            let counted = ids.count(t, &mut content);
            content.sort_unstable();
            content.dedup();
            said.push(content.clone());
            counted
        })
        .collect();
    let mut df = vec![0usize; ids.len()];
    for v in &counted {
        for &(id, _) in v {
            df[id] += 1;
        }
    }
    let n = texts.len() as f64;
    let idf: Vec<f64> = df
        .iter()
        .map(|&d| ((1.0 + n) / (1.0 + d as f64)).ln() + 1.0)
        .collect();
    let vectors = counted
        .into_iter()
        .map(|v| {
            let weights: Vec<(usize, f64)> =
                v.into_iter().map(|(id, c)| (id, c * idf[id])).collect();
            let norm = weights.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
            Vector { weights, norm }
        })
        .collect();
    Index {
        vectors,
        words: ids.words,
        said,
    }
}

/// Cosine similarity of two vectors, the straightforward way, to check [`similar_pairs`]
/// against.
#[cfg(test)]
pub(crate) fn cosine(a: &Vector, b: &Vector) -> f64 {
    if a.norm == 0.0 || b.norm == 0.0 {
        return 0.0;
    }
    let bw: FastMap<usize, f64> = b.weights.iter().copied().collect();
    let dot: f64 = a
        .weights
        .iter()
        .filter_map(|(t, x)| bw.get(t).map(|y| x * y))
        .sum();
    dot / (a.norm * b.norm)
}

/// Every pair `(i, j, similarity)` with `i < j`, at least one term in common and similarity
/// ≥ `threshold`, in order.
///
/// All-pairs search with prefix filtering (Bayardo, Ma and Srikant, "Scaling up all pairs
/// similarity search", 2007): each unit vector's terms are ordered from the most to the least
/// common, and only a suffix of them is indexed, leaving out the longest prefix whose norm is
/// below the threshold. Two texts with cosine ≥ threshold share a term in each one's indexed
/// suffix (otherwise Cauchy–Schwarz bounds their dot product by that prefix norm), and their
/// rarest shared term is in both. So candidates come from the postings of indexed terms only,
/// where the common words that every tool says rarely go, and each candidate pair is then
/// scored exactly.
///
/// The weights count every text, but the search runs over `groups` (texts that are equal,
/// each group listed once): the pairs are of group indices.
pub(crate) fn similar_pairs(
    all: &[Vector],
    threshold: f64,
    groups: &[Vec<usize>],
) -> Vec<(usize, usize, f64)> {
    let docs: Vec<&Vector> = groups
        .iter()
        .filter_map(|g| g.first().and_then(|&i| all.get(i)))
        .collect();
    let terms = docs
        .iter()
        .flat_map(|d| d.weights.iter().map(|&(id, _)| id + 1))
        .max()
        .unwrap_or(0);
    // Rank 0 is the most common term; ties by id, so the order is total and deterministic.
    let mut df = vec![0usize; terms];
    for d in &docs {
        for &(id, _) in &d.weights {
            df[id] += 1;
        }
    }
    let mut by_df: Vec<usize> = (0..terms).collect();
    by_df.sort_unstable_by_key(|&id| (std::cmp::Reverse(df[id]), id));
    let mut rank = vec![0usize; terms];
    for (r, &id) in by_df.iter().enumerate() {
        rank[id] = r;
    }
    // Unit vectors over term ranks, most common first.
    let units: Vec<Vec<(usize, f64)>> = docs
        .iter()
        .map(|d| {
            if d.norm == 0.0 {
                return Vec::new();
            }
            let mut v: Vec<(usize, f64)> = d
                .weights
                .iter()
                .map(|&(id, w)| (rank[id], w / d.norm))
                .collect();
            v.sort_unstable_by_key(|&(r, _)| r);
            v
        })
        .collect();
    let mut postings: Vec<Vec<usize>> = vec![Vec::new(); terms];
    let mut seen = vec![usize::MAX; docs.len()];
    let mut candidates: Vec<usize> = Vec::new();
    // Equal texts are similar to each other (cosine 1) when they say anything at all.
    let mut pairs: Vec<(usize, usize, f64)> = units
        .iter()
        .enumerate()
        .filter(|(g, unit)| groups[*g].len() > 1 && !unit.is_empty() && 1.0 + 1e-9 >= threshold)
        .map(|(g, _)| (g, g, 1.0))
        .collect();
    for (j, unit) in units.iter().enumerate() {
        // The unindexed prefix: its norm stays below the threshold, with a margin so rounding
        // never drops a term that is needed.
        let mut prefix_sq = 0.0;
        let mut start = 0;
        for &(_, w) in unit {
            if (prefix_sq + w * w).sqrt() < threshold - 1e-9 {
                prefix_sq += w * w;
                start += 1;
            } else {
                break;
            }
        }
        let indexed = &unit[start..];
        for &(r, _) in indexed {
            for &i in &postings[r] {
                if seen[i] != j {
                    seen[i] = j;
                    candidates.push(i);
                }
            }
        }
        candidates.sort_unstable();
        for &i in &candidates {
            let sim = dot(&units[i], unit);
            // Rounding must not hide a pair exactly at the threshold (identical texts give
            // 0.9999999999999998).
            if sim + 1e-9 >= threshold {
                pairs.push((i, j, sim.min(1.0)));
            }
        }
        candidates.clear();
        for &(r, _) in indexed {
            postings[r].push(j);
        }
    }
    pairs
}

/// Dot product of two sparse vectors sorted by term.
fn dot(a: &[(usize, f64)], b: &[(usize, f64)]) -> f64 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

/// Union-find over tool indices: the clusters of confusable tools.
pub(crate) struct Clusters {
    pub(crate) parent: Vec<usize>,
}

impl Clusters {
    pub(crate) fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// Joins the clusters of `a` and `b`; the smaller index stays the root, so a cluster's
    /// root is its first tool.
    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        self.parent[a.max(b)] = a.min(b);
    }
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
