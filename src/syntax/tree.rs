//! The lossless syntax tree: a flat list of tokens covering every byte of the input, plus
//! the groups (nodes, entries, types, children blocks, slashdashed parts) the parser found
//! over them. Tokens store only a kind and an end offset (their start is the previous end),
//! so the tree costs about 5 bytes per token and never copies text.

use super::Span;

/// What a token is. Trivia (whitespace, newlines, comments, slashdash, line continuation)
/// are tokens like any other, so printing every token gives the input back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TokenKind {
    /// U+FEFF at offset 0.
    Bom,
    /// A run of non-newline white space.
    Whitespace,
    /// One newline (CRLF counts as one).
    Newline,
    /// `// ...` up to, not including, the newline.
    LineComment,
    /// `/* ... */`, nested.
    BlockComment,
    /// `/-`.
    Slashdash,
    /// The `\` of a line continuation.
    EscLine,
    /// `{`.
    LBrace,
    /// `}`.
    RBrace,
    /// `(`.
    LParen,
    /// `)`.
    RParen,
    /// `;`, a node terminator.
    Semicolon,
    /// `=` between a property key and its value.
    Equals,
    /// A bare identifier string.
    Ident,
    /// `"..."`.
    QuotedString,
    /// `#"..."#`.
    RawString,
    /// `"""` + newline ... `"""`.
    MultiLineString,
    /// `#"""` + newline ... `"""#`.
    RawMultiLineString,
    /// A decimal, hexadecimal, octal or binary number.
    Number,
    /// `#true`, `#false`, `#null`, `#inf`, `#-inf`, `#nan`.
    Keyword,
    /// A bare `true`/`false`/`null`/`inf`/`-inf`/`nan` (an error, read as the keyword).
    V1Keyword,
    /// `r"..."` / `r#"..."#` (an error, read as the v2 raw string).
    V1RawString,
    /// Bytes that form no token; an error was reported for them.
    Invalid,
}

impl TokenKind {
    /// White space, newlines and comments (not slashdash, which comments out what follows).
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            TokenKind::Bom
                | TokenKind::Whitespace
                | TokenKind::Newline
                | TokenKind::LineComment
                | TokenKind::BlockComment
        )
    }

    /// Tokens that read as a string (node names, property keys, type names).
    pub fn is_string(self) -> bool {
        matches!(
            self,
            TokenKind::Ident
                | TokenKind::QuotedString
                | TokenKind::RawString
                | TokenKind::MultiLineString
                | TokenKind::RawMultiLineString
                | TokenKind::V1RawString
        )
    }
}

/// One token, as returned by [`SyntaxTree::tokens`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Its bytes in the source text.
    pub span: Span,
}

/// What a [`Group`] covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupKind {
    /// A node, from its type annotation or name to its terminator (inclusive).
    Node,
    /// An argument or property.
    Entry,
    /// `(type)`.
    Type,
    /// `{ ... }`.
    Children,
    /// `/-` and the node, entry or children block it comments out.
    Slashdashed,
}

/// A range of tokens `first..end` forming one syntactic unit. Groups are stored in pre-order
/// (a parent before its descendants), so nesting follows from the ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// What the tokens form.
    pub kind: GroupKind,
    /// Index of the first token.
    pub first: u32,
    /// Index one past the last token.
    pub end: u32,
}

/// The lossless tree of one source text. It does not hold the text: pass the same text to
/// [`SyntaxTree::print`] or [`SyntaxTree::text`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyntaxTree {
    pub(crate) kinds: Vec<TokenKind>,
    pub(crate) ends: Vec<u32>,
    pub(crate) groups: Vec<Group>,
}

impl SyntaxTree {
    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// The text had no tokens (it was empty).
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The `i`-th token.
    pub fn token(&self, i: usize) -> Option<Token> {
        let kind = *self.kinds.get(i)?;
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Some(Token {
            kind,
            span: Span::new(start, end),
        })
    }

    /// All tokens in source order; their spans are contiguous and start at 0.
    pub fn tokens(&self) -> impl Iterator<Item = Token> + '_ {
        let mut start = 0usize;
        self.kinds.iter().zip(&self.ends).map(move |(&kind, &end)| {
            let span = Span::new(start, end as usize);
            start = end as usize;
            Token { kind, span }
        })
    }

    /// Nodes, entries, types, children blocks and slashdashed parts, parents first.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The byte span of a group.
    pub fn group_span(&self, g: &Group) -> Span {
        let start = match g.first {
            0 => 0,
            f => self.ends.get(f as usize - 1).map_or(0, |&e| e as usize),
        };
        let end = match g.end {
            0 => start,
            e => self.ends.get(e as usize - 1).map_or(start, |&e| e as usize),
        };
        Span::new(start, end.max(start))
    }

    /// The text of one token (empty if `src` is not the text this tree was parsed from).
    pub fn text<'s>(&self, src: &'s str, token: Token) -> &'s str {
        src.get(token.span.start..token.span.end).unwrap_or("")
    }

    /// Prints the tree back: the concatenation of every token's text, which is the input
    /// byte for byte.
    pub fn print(&self, src: &str) -> String {
        let mut out = String::with_capacity(src.len());
        for t in self.tokens() {
            out.push_str(self.text(src, t));
        }
        out
    }

    /// Approximate heap bytes held by the tree.
    pub fn heap_size(&self) -> usize {
        self.kinds.capacity()
            + self.ends.capacity() * 4
            + self.groups.capacity() * std::mem::size_of::<Group>()
    }
}
