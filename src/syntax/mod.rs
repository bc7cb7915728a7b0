//! Our own KDL v2 reader: a lossless syntax tree (every byte belongs to a token) and a typed
//! view (documents, nodes, entries, values), which the model is lowered from.
//!
//! Offsets are byte offsets into the source text; line and column are computed only when a
//! diagnostic is rendered (see [`crate::diag::SourceFile`]).
//!
//! Entry points: [`parse`] for the typed view, [`parse_tree`] for the lossless tree; both
//! report the same errors. They never panic, run in time linear in the input, and after an
//! error resynchronize at the next node terminator or closing brace, so one run reports every
//! syntax error of a file together with a partial document.
//!
//! The typed view is compact (see [`Document`]): flat records with `u32` offsets and one
//! string arena, read through `Copy` handles — `doc.nodes()`, `node.name`, `node.ty`,
//! `node.entries()`, `node.children()` / `node.child_nodes()`, `entry.name`, `entry.ty`,
//! `entry.value` ([`Value`] borrows strings and numbers from the document). `parse` peaks at
//! under 4× the input (tokens included) on catalogs; `parse_tree` at 1.5×.
//!
//! Error codes ([`SyntaxError::code`]):
//! - KDL v1 habits: `syntax/v1-keyword` (`true` → `#true`), `syntax/v1-raw-string`
//!   (`r"…"` → `#"…"#`), `syntax/newline-in-string` (use a `"""` multi-line string);
//! - tokens: `syntax/unexpected-char`, `syntax/disallowed-char`, `syntax/unknown-keyword`,
//!   `syntax/invalid-number`, `syntax/number-too-large`, `syntax/invalid-escape`,
//!   `syntax/unclosed-string`, `syntax/unclosed-comment`, `syntax/multiline-string-start`,
//!   `syntax/multiline-string-end`, `syntax/multiline-string-indent`;
//! - structure: `syntax/expected-node-name`, `syntax/expected-type-name`,
//!   `syntax/unclosed-type`, `syntax/expected-value`, `syntax/invalid-property`,
//!   `syntax/missing-space`, `syntax/entry-after-children`, `syntax/extra-children`,
//!   `syntax/dangling-slashdash`, `syntax/invalid-escline`, `syntax/stray-semicolon`,
//!   `syntax/unexpected-token`, `syntax/unclosed-block`, `syntax/unmatched-brace`;
//! - limits: `syntax/too-deep` ([`MAX_DEPTH`]), `syntax/too-large` ([`MAX_INPUT_LEN`]),
//!   `syntax/too-many-errors` (after 1000 errors the rest are counted, not listed).

mod chars;
mod lexer;
mod parser;
mod tree;
mod value;
mod view;

pub use chars::{is_plain_identifier, quote};
pub(crate) use chars::{newline_len, next_special};
pub use parser::MAX_DEPTH;
pub use tree::{Group, GroupKind, SyntaxTree, Token, TokenKind};
pub(crate) use value::written_chars;
pub use view::{Children, Document, Entries, Entry, Node, Nodes, Value};

/// What every `syntax/…` error means, for output formats that describe rules (SARIF).
pub const ERROR_SUMMARY: &str = "The file is not valid KDL v2.";
/// How to fix any `syntax/…` error; the message says what exactly.
pub const ERROR_HELP: &str = "Fix the syntax as the message says.";

/// Largest input the parser reads: offsets are stored as `u32` in the lossless tree.
pub const MAX_INPUT_LEN: usize = u32::MAX as usize;

/// The result of [`parse`]: the typed view and every syntax error. When `errors` is empty the
/// document is exactly what the text means; otherwise it holds what could be read around the
/// errors.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// The typed view of the nodes that could be read.
    pub document: Document,
    /// Every syntax error, in source order.
    pub errors: Vec<SyntaxError>,
}

/// The result of [`parse_tree`]: the lossless tree and the same errors as [`parse`].
#[derive(Debug, Clone, Default)]
pub struct ParsedTree {
    /// The lossless tree: every byte of the text in one token.
    pub tree: SyntaxTree,
    /// Every syntax error, in source order.
    pub errors: Vec<SyntaxError>,
}

/// Parses KDL v2 text into the typed view. The lossless tree is not kept (see
/// [`parse_tree`]): the view alone is what the model is lowered from, and the tree would
/// add about 1.5× the input to the memory a parse takes.
pub fn parse(src: &str) -> Parsed {
    let (document, _, errors) = parse_with(src, Keep::DOCUMENT);
    Parsed { document, errors }
}

/// Parses KDL v2 text into the lossless tree, with the same errors as [`parse`]: for tools
/// that need every byte back, such as a formatter.
pub fn parse_tree(src: &str) -> ParsedTree {
    let (_, tree, errors) = parse_with(src, Keep::TREE);
    ParsedTree { tree, errors }
}

/// What [`parse_with`] builds besides the errors: the typed view, the tokens of the lossless
/// tree, its groups (which come with the tokens).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Keep {
    /// The typed view.
    pub document: bool,
    /// The tokens.
    pub tokens: bool,
    /// The groups over the tokens.
    pub groups: bool,
}

impl Keep {
    /// What [`parse`] builds.
    pub const DOCUMENT: Keep = Keep {
        document: true,
        tokens: false,
        groups: false,
    };
    /// What [`parse_tree`] builds.
    pub const TREE: Keep = Keep {
        document: false,
        tokens: true,
        groups: true,
    };
}

/// Parses `src` once into what `keep` asks for: the typed view (empty otherwise) and a tree
/// with the tokens (empty otherwise) and their groups (none otherwise). A reader that needs
/// the view and the tree of one text parses it once rather than twice.
pub(crate) fn parse_with(src: &str, keep: Keep) -> (Document, SyntaxTree, Vec<SyntaxError>) {
    if src.len() > MAX_INPUT_LEN {
        return (
            Document::default(),
            SyntaxTree::default(),
            vec![SyntaxError {
                code: "syntax/too-large",
                span: Span::new(0, 0),
                message: format!("the file is larger than {MAX_INPUT_LEN} bytes"),
                help: Some("split it into several catalog files".into()),
            }],
        );
    }
    let mut errors = lexer::Errors {
        list: Vec::new(),
        dropped: 0,
    };
    let lexed = lexer::lex(src, &mut errors);
    let (document, groups) = {
        let mut p = parser::Parser {
            src,
            kinds: &lexed.kinds,
            ends: &lexed.ends,
            pos: 0,
            groups: if keep.groups {
                // About one group per three tokens in typical catalogs.
                Vec::with_capacity(lexed.kinds.len() / 3 + 4)
            } else {
                Vec::new()
            },
            errors: &mut errors,
            doc: if keep.document {
                parser::reserve_document(src, &lexed.kinds, &lexed.ends)
            } else {
                Document::default()
            },
            node_stack: Vec::new(),
            keep_document: keep.document,
            keep_groups: keep.groups,
        };
        let top = p.parse_nodes(0, false);
        p.doc.top = top;
        (p.doc, p.groups)
    };
    let mut list = errors.list;
    // Lexer errors come first in the list; report in source order.
    list.sort_by_key(|e| (e.span.start, e.span.end));
    if errors.dropped > 0 {
        list.push(SyntaxError {
            code: "syntax/too-many-errors",
            span: Span::new(src.len(), src.len()),
            message: format!("{} more syntax errors were not reported", errors.dropped),
            help: Some("fix the errors above first".into()),
        });
    }
    let tree = if keep.tokens || keep.groups {
        // The lists grew by doubling from an estimate: a tree that is kept gives the room it
        // does not use back (up to half of each list).
        let mut tree = SyntaxTree {
            kinds: lexed.kinds,
            ends: lexed.ends,
            groups,
        };
        tree.kinds.shrink_to_fit();
        tree.ends.shrink_to_fit();
        tree.groups.shrink_to_fit();
        tree
    } else {
        SyntaxTree::default()
    };
    (document, tree, list)
}

/// A half-open byte range `start..end` into one source file.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`; callers keep `start <= end`.
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

thread_local! {
    /// Whether `Debug` writes spans without their offsets (see [`without_positions`]).
    static POSITIONS_HIDDEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `Span { start: N, end: M }`, or only `Span` while a model is dumped without its positions.
impl std::fmt::Debug for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if POSITIONS_HIDDEN.with(std::cell::Cell::get) {
            return f.write_str("Span");
        }
        f.debug_struct("Span")
            .field("start", &self.start)
            .field("end", &self.end)
            .finish()
    }
}

/// Runs `f` with every [`Span`] that `Debug` writes on this thread written as just `Span`:
/// a `Debug` dump of a model then says what it means and not where it was written, so two
/// layouts of one text dump alike.
pub(crate) fn without_positions<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the previous setting back, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            POSITIONS_HIDDEN.with(|h| h.set(self.0));
        }
    }
    let _restore = Restore(POSITIONS_HIDDEN.with(|h| h.replace(true)));
    f()
}

/// A value with the span it was written at. Equality, ordering and hashing look at the value
/// only: moving text around a file never changes what a catalog means.
#[derive(Debug, Clone, Copy, Default)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written; empty for values built in code.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// `value` located at `span`.
    pub const fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Spanned<T> {}

impl<T: std::hash::Hash> std::hash::Hash for Spanned<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.value.hash(state)
    }
}

impl<T> std::ops::Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

/// A KDL number. Integers of any size are read exactly; what catalogc accepts is decided when
/// lowering, so an overflow is reported rather than wrapped.
#[derive(Debug, Clone, PartialEq)]
pub enum Number {
    /// An integer that fits `i128`.
    Int(i128),
    /// An integer too large for `i128`: its value in decimal digits, with a leading `-` if
    /// negative.
    BigInt(String),
    /// A finite float written in decimal.
    Float(f64),
    /// A decimal float whose magnitude does not fit an `f64` (`1e400`).
    FloatOverflow,
    /// A decimal float with a non-zero digit whose magnitude is below the smallest normal
    /// `f64` (`1e-400`): it reads as 0 or as a subnormal holding only part of its digits.
    /// Carries that nearest `f64`.
    FloatUnderflow(f64),
    /// `#inf`.
    Inf,
    /// `#-inf`.
    NegInf,
    /// `#nan`.
    NaN,
}

/// One syntax error. The parser goes on after it, so a file yields all of them at once.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    /// Stable ID, `syntax/<kind>` (e.g. `syntax/v1-keyword`, `syntax/unclosed-block`).
    pub code: &'static str,
    /// Where the error is.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// What to write instead.
    pub help: Option<String>,
}

#[cfg(test)]
mod tests;
