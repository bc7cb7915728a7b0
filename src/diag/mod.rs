//! Diagnostics: what every layer (syntax, model, lint, compat) reports, and the source files
//! they point into. Output (human, json, sarif, github) is [`emit`].

pub mod emit;

pub mod suggest;

use crate::syntax::Span;
use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
/// How serious a finding is. Ordered: `Info < Warn < Error`.
pub enum Level {
    /// Worth knowing; never fails a run.
    Info,
    /// Fails a run only with `--deny warnings`.
    Warn,
    /// Fails the run (exit 1).
    Error,
}

impl Level {
    /// The spelling used in JSON output and configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// Index of a file in a [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub usize);

/// One finding, located in one file.
///
/// A hostile catalog yields hundreds of thousands of these, so the texts that repeat are not
/// copied into each: rule IDs and most help texts are `'static`, and catalog and tool names
/// are shared (`Arc<str>`) by every finding about the same catalog or tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Rule or error ID: `syntax/…`, `model/…`, a lint rule ID, `compat/…`.
    pub rule: Cow<'static, str>,
    /// Severity after configuration.
    pub level: Level,
    /// The file the finding is in.
    pub file: FileId,
    /// Byte range in that file.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<Cow<'static, str>>,
    /// Name of the catalog, when known.
    pub catalog: Option<Arc<str>>,
    /// Name of the tool, for tool-level and field-level findings.
    pub tool: Option<Arc<str>>,
    /// Dotted location inside the tool, e.g. `input.items[].amount_minor`.
    pub path: Option<String>,
    /// RFC 6901 JSON pointer to the place in a JSON input (a linted tools/list), when the
    /// finding is in one.
    pub pointer: Option<String>,
}

impl Diagnostic {
    /// A finding without help, catalog, tool or path; set those afterwards.
    pub fn new(
        rule: impl Into<Cow<'static, str>>,
        level: Level,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            rule: rule.into(),
            level,
            file,
            span,
            message: message.into(),
            help: None,
            catalog: None,
            tool: None,
            path: None,
            pointer: None,
        }
    }

    /// Adds how to fix it.
    pub fn with_help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// Sorts `items` stably by `cmp`, with one `u32` of scratch per item: the standard stable
/// sort's scratch is half the list, which for the hundreds of thousands of diagnostics of a
/// hostile catalog would be the largest allocation of `lint` after the list itself.
pub fn sort_stable_by<T>(items: &mut [T], mut cmp: impl FnMut(&T, &T) -> std::cmp::Ordering) {
    let Ok(len) = u32::try_from(items.len()) else {
        items.sort_by(cmp);
        return;
    };
    // Ties keep their order (the index decides), so this is the stable order.
    let mut order: Vec<u32> = (0..len).collect();
    order.sort_unstable_by(|&a, &b| cmp(&items[a as usize], &items[b as usize]).then(a.cmp(&b)));
    // Position `i` takes the item at `order[i]`: each cycle of the permutation is walked once,
    // swapping items into place and marking each position done.
    for start in 0..order.len() {
        let mut at = start;
        while order[at] as usize != start && order[at] as usize != at {
            let from = order[at] as usize;
            items.swap(at, from);
            order[at] = at as u32;
            at = from;
        }
        order[at] = at as u32;
    }
}

/// Catalog and tool names handed out as one shared `Arc<str>` per distinct name, for the
/// diagnostics of a run (each finding about a tool would otherwise copy its name).
#[derive(Debug, Default)]
pub struct SharedNames(crate::FastSet<Arc<str>>);

impl SharedNames {
    /// The shared copy of `name`, made on its first request.
    pub fn get(&mut self, name: &str) -> Arc<str> {
        if let Some(shared) = self.0.get(name) {
            return shared.clone();
        }
        let shared: Arc<str> = name.into();
        self.0.insert(shared.clone());
        shared
    }
}

/// A loaded source file with its line index.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// As given by the user (relative paths stay relative), used in every output.
    pub path: PathBuf,
    /// The whole file, as read (valid UTF-8).
    pub text: String,
    /// The [`LineIndex`] of `text`.
    line_starts: Vec<usize>,
    /// Characters before each block of `text`, for columns far into a line.
    char_blocks: BlockCounts,
}

/// Bytes of text a column is counted over at most: past this much of a line, counting goes
/// from the nearest block start (whose count is kept) instead of the line start.
const CHAR_BLOCK: usize = 4096;

/// A count over a text (characters, UTF-16 units) kept at the start of each [`CHAR_BLOCK`]
/// bytes, built on the first column asked for far into a line: counting each of a thousand
/// findings on an 8 MB line from the line start took seconds.
#[derive(Debug, Clone)]
struct BlockCounts {
    measure: fn(&str) -> usize,
    totals: OnceLock<Vec<usize>>,
}

impl BlockCounts {
    fn new(measure: fn(&str) -> usize) -> BlockCounts {
        BlockCounts {
            measure,
            totals: OnceLock::new(),
        }
    }

    /// The measure of `text[start..end]`, both character boundaries. `text` must be the same
    /// text on every call.
    fn between(&self, text: &str, start: usize, end: usize) -> usize {
        if end - start <= CHAR_BLOCK {
            return (self.measure)(&text[start..end]);
        }
        self.before(text, end) - self.before(text, start)
    }

    /// The measure of `text[..at]`: the total kept for `at`'s block plus the rest.
    fn before(&self, text: &str, at: usize) -> usize {
        let totals = self.totals.get_or_init(|| {
            let mut totals = Vec::with_capacity(text.len() / CHAR_BLOCK + 1);
            let mut total = 0;
            let mut from = 0;
            for k in 0..=text.len() / CHAR_BLOCK {
                let to = text.floor_char_boundary(k * CHAR_BLOCK);
                total += (self.measure)(&text[from..to]);
                totals.push(total);
                from = to;
            }
            totals
        });
        let k = at / CHAR_BLOCK;
        let from = text.floor_char_boundary(k * CHAR_BLOCK);
        totals.get(k).copied().unwrap_or(0) + (self.measure)(&text[from..at])
    }
}

fn count_chars(s: &str) -> usize {
    s.chars().count()
}

/// UTF-16 code units: one per character, two for those outside the Basic Multilingual
/// Plane (exactly the characters whose UTF-8 form starts with a byte from 0xF0).
fn count_utf16(s: &str) -> usize {
    s.chars().count() + s.bytes().filter(|&b| b >= 0xF0).count()
}

/// Where each line of a text starts: byte offsets, the first 0. Lines end at every KDL
/// newline (`\n`, `\r\n`, a lone `\r`, NEL, VT, FF, U+2028, U+2029), as the parser reads them.
#[derive(Debug, Clone)]
pub struct LineIndex(Vec<usize>);

impl LineIndex {
    /// The line starts of `text`.
    pub fn of(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            // A newline starts with a byte below 0x0E (`\n`, `\r`, VT, FF) or a non-ASCII
            // byte (NEL, LS, PS): skip the bytes between.
            i = crate::syntax::next_special(bytes, i, 0x0E, &[]);
            if i >= bytes.len() {
                break;
            }
            // Only these bytes can start a newline, and each is a character boundary.
            let n = match bytes[i] {
                b'\n' | b'\r' | 0x0B | 0x0C | 0xC2 | 0xE2 => crate::syntax::newline_len(text, i),
                _ => 0,
            };
            if n > 0 {
                i += n;
                line_starts.push(i);
            } else {
                i += 1;
            }
        }
        LineIndex(line_starts)
    }
}

impl SourceFile {
    /// Indexes the lines of `text`; `path` is kept as given for display.
    pub fn new(path: impl Into<PathBuf>, text: String) -> Self {
        let index = LineIndex::of(&text);
        SourceFile::indexed(path, text, index)
    }

    /// A file whose lines were indexed already (loading indexes each file on the core that
    /// parses it). `index` must be [`LineIndex::of`] this `text`.
    pub fn indexed(path: impl Into<PathBuf>, text: String, index: LineIndex) -> Self {
        SourceFile {
            path: path.into(),
            text,
            line_starts: index.0,
            char_blocks: BlockCounts::new(count_chars),
        }
    }

    /// 1-based line and column (in characters) of a byte offset; offsets past the end or inside
    /// a character are clamped.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let end = self.text.floor_char_boundary(offset);
        (
            line + 1,
            self.char_blocks.between(&self.text, start, end) + 1,
        )
    }

    /// Byte offset where a 1-based line starts (the end of the text past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(self.text.len())
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        let line = &self.text[start..end];
        line.strip_suffix("\r\n")
            .or_else(|| {
                line.strip_suffix([
                    '\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}',
                ])
            })
            .unwrap_or(line)
    }
}

/// Every file of one run, addressed by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    /// The files, indexed by [`FileId`].
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds `file` and returns its ID.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() - 1)
    }

    /// The file `id` names.
    ///
    /// # Panics
    ///
    /// When `id` comes from another map (IDs are only valid in the map that gave them).
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0]
    }
}

/// Positions as the Language Server Protocol counts them: 0-based lines ended by `\n`,
/// `\r\n` or `\r` only, and columns in UTF-16 code units. Built once per text version.
#[derive(Debug, Clone)]
pub struct Utf16Index {
    line_starts: Vec<usize>,
    /// UTF-16 units before each block, for columns far into a line.
    unit_blocks: BlockCounts,
}

impl Utf16Index {
    /// Indexes the lines of `text`.
    pub fn new(text: &str) -> Utf16Index {
        let mut line_starts = vec![0];
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\r' if b.get(i + 1) == Some(&b'\n') => {
                    i += 2;
                    line_starts.push(i);
                }
                b'\r' | b'\n' => {
                    i += 1;
                    line_starts.push(i);
                }
                _ => i += 1,
            }
        }
        Utf16Index {
            line_starts,
            unit_blocks: BlockCounts::new(count_utf16),
        }
    }

    /// The 0-based line and UTF-16 column of byte `offset` of `text` (clamped to the text
    /// and to a character boundary). `text` must be the text the index was built from.
    pub fn position(&self, text: &str, offset: usize) -> (u32, u32) {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self.unit_blocks.between(text, start, offset);
        (
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(col).unwrap_or(u32::MAX),
        )
    }

    /// The byte offset of a 0-based line and UTF-16 column of `text`; past the end of a
    /// line is its end, past the last line the end of the text, and inside a surrogate pair
    /// the start of its character.
    pub fn offset(&self, text: &str, line: u32, col: u32) -> usize {
        let Some(&start) = self.line_starts.get(line as usize) else {
            return text.len();
        };
        let end = self
            .line_starts
            .get(line as usize + 1)
            .copied()
            .unwrap_or(text.len());
        let mut units = 0usize;
        for (i, c) in text[start..end].char_indices() {
            if matches!(c, '\r' | '\n') {
                return start + i;
            }
            units += c.len_utf16();
            if units > col as usize {
                return start + i;
            }
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Columns far into long lines come from the kept block counts: they must be the
    /// characters counted from the line start, at every offset (inside a character too),
    /// across block edges and on lines of every kind.
    #[test]
    fn columns_on_long_lines_count_characters_from_the_line_start() {
        let mut text = String::new();
        for i in 0..3 * CHAR_BLOCK {
            text.push(match i % 7 {
                0 => 'é',
                1 => '€',
                2 => '𝄞',
                _ => 'a',
            });
        }
        text.push('\n');
        text.push_str(&"b".repeat(2 * CHAR_BLOCK + 5));
        text.push_str("\r\nshort ü\n");
        text.push_str(&"ß".repeat(CHAR_BLOCK));
        let f = SourceFile::new("long.kdl", text.clone());
        let naive = |offset: usize| {
            let before = &text[..text.floor_char_boundary(offset.min(text.len()))];
            let line_start = f.line_start(f.line_col(offset).0);
            (
                before.lines().count().max(1),
                text[line_start..before.len()].chars().count() + 1,
            )
        };
        for offset in (0..=text.len() + 2)
            .step_by(3)
            .chain([CHAR_BLOCK, 2 * CHAR_BLOCK + 1])
        {
            assert_eq!(f.line_col(offset).1, naive(offset).1, "offset {offset}");
        }
        assert_eq!(f.line_col(text.len()).0, 4);
    }

    /// The language server's UTF-16 columns come from block counts too: they must be the
    /// units counted from the line start, surrogate pairs and all.
    #[test]
    fn utf16_columns_on_long_lines_count_units_from_the_line_start() {
        let mut text = String::new();
        for i in 0..3 * CHAR_BLOCK {
            text.push(['é', '€', '𝄞', 'a', '\u{1F600}'][i % 5]);
        }
        text.push_str("\r\n");
        text.push_str(&"b".repeat(2 * CHAR_BLOCK + 5));
        text.push('\r');
        text.push_str(&"ß".repeat(CHAR_BLOCK));
        let index = Utf16Index::new(&text);
        let starts = [0, text.find('b').unwrap_or(0), text.find('ß').unwrap_or(0)];
        for offset in (0..=text.len() + 2).step_by(5).chain([CHAR_BLOCK + 1]) {
            let at = text.floor_char_boundary(offset.min(text.len()));
            let line = starts.iter().rposition(|&s| s <= at).unwrap_or(0);
            let col: usize = text[starts[line]..at].encode_utf16().count();
            assert_eq!(
                index.position(&text, offset),
                (line as u32, col as u32),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn sort_stable_by_gives_the_standard_stable_order() {
        // Many ties (keys 0..7) over distinct payloads, in a scrambled order.
        let items: Vec<(u32, u32)> = (0..500u32).map(|i| ((i * 7919) % 8, i)).collect();
        for n in [0, 1, 2, 3, 17, 500] {
            let mut want = items[..n].to_vec();
            want.sort_by_key(|a| a.0);
            let mut got = items[..n].to_vec();
            sort_stable_by(&mut got, |a, b| a.0.cmp(&b.0));
            assert_eq!(got, want, "{n} items");
        }
    }

    #[test]
    fn shared_names_hand_out_one_copy_per_name() {
        let mut names = SharedNames::default();
        let a = names.get("billing");
        let b = names.get("billing");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(&*names.get("other"), "other");
    }

    #[test]
    fn line_col_is_one_based_and_counts_characters() {
        let f = SourceFile::new("a.kdl", "ab\nçd\n".to_string());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(5), (2, 2));
        assert_eq!(f.line_col(100), (3, 1));
        assert_eq!(f.line_text(2), "çd");
        assert_eq!(f.line_text(9), "");
    }

    #[test]
    fn every_kdl_newline_breaks_lines() {
        for nl in [
            "\n", "\r\n", "\r", "\u{85}", "\u{0B}", "\u{0C}", "\u{2028}", "\u{2029}",
        ] {
            let text = format!("ab{nl}cd{nl}ef");
            let e = text.find('e').unwrap_or(0);
            let f = SourceFile::new("a.kdl", text);
            assert_eq!(f.line_col(e), (3, 1), "{nl:?}");
            assert_eq!(f.line_col(e + 1), (3, 2), "{nl:?}");
            assert_eq!(f.line_text(1), "ab", "{nl:?}");
            assert_eq!(f.line_text(2), "cd", "{nl:?}");
            assert_eq!(f.line_text(3), "ef", "{nl:?}");
        }
    }

    #[test]
    fn the_word_at_a_time_scan_finds_every_newline_at_every_offset() {
        // Each newline kind at each position within an 8-byte word, between plain text,
        // tabs (below 0x0E but no newline) and other non-ASCII characters.
        for nl in [
            "\n", "\r\n", "\r", "\u{85}", "\u{0B}", "\u{0C}", "\u{2028}", "\u{2029}",
        ] {
            for pad in 0..9 {
                let text = format!(
                    "{}{nl}\té{nl}{}{nl}x",
                    "a".repeat(pad),
                    "b".repeat(17 - pad)
                );
                let f = SourceFile::new("a.kdl", text.clone());
                let expected: Vec<usize> = std::iter::once(0)
                    .chain(text.match_indices(nl).map(|(i, m)| i + m.len()))
                    .collect();
                assert_eq!(f.line_starts, expected, "{nl:?} after {pad}");
            }
        }
    }

    #[test]
    fn utf16_positions_count_surrogate_pairs_and_lsp_newlines() {
        // `é` is one UTF-16 unit in two bytes, `🦀` two units in four bytes.
        let text = "aé🦀b\r\ncd\u{2028}e\rf";
        let ix = Utf16Index::new(text);
        let b = text.find('b').unwrap_or(0);
        assert_eq!(ix.position(text, b), (0, 4));
        assert_eq!(ix.offset(text, 0, 4), b);
        assert_eq!(ix.offset(text, 0, 3), text.find('🦀').unwrap_or(0));
        // U+2028 ends a KDL line but not an LSP one.
        let e = text.find('e').unwrap_or(0);
        assert_eq!(ix.position(text, e), (1, 3));
        assert_eq!(ix.position(text, text.len()), (2, 1));
        assert_eq!(ix.offset(text, 0, 99), text.find('\r').unwrap_or(0));
        assert_eq!(ix.offset(text, 9, 0), text.len());
    }
}
