//! Did-you-mean help for every layer: unknown nodes, keywords, rule IDs, tool names.

/// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
/// (at most a third of the word's length, and at least 1).
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    did_you_mean_within(word, candidates, (word.chars().count() / 3).max(1))
}

/// The candidate closest to `word` within `limit` edits; ties go to the smallest candidate, so
/// the answer does not depend on the candidates' order.
pub fn did_you_mean_within<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

/// Edit distance over characters where a swap of two neighbours counts as one edit (optimal
/// string alignment), so `wran` is one edit from `warn`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let mut v = (d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1)
                    .min(d[(i - 1) * w + j - 1] + usize::from(a[i - 1] != b[j - 1]));
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[(i - 2) * w + j - 2] + 1);
                }
                v
            };
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_close_candidates_only() {
        let ids = ["naming/vague-name", "naming/tool-name", "catalog/budget"];
        assert_eq!(
            did_you_mean("naming/vage-name", ids),
            Some("naming/vague-name")
        );
        assert_eq!(did_you_mean("catalog/budgets", ids), Some("catalog/budget"));
        assert_eq!(did_you_mean("bounds", ids), None);
        assert_eq!(did_you_mean_within("ab", ["cd"], 2), Some("cd"));
    }

    #[test]
    fn swaps_count_as_one_edit() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("wran", "warn"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
