//! Prints generated tokens as Rust source, straight from the token stream: no parse into a
//! syntax tree and no layout pass over one. At the opt-level 0 a build script runs at, syn's
//! parse of the stream and prettyplease's printing were three fifths of the whole build-script
//! run on a 1,000-tool catalog (callgrind); this walk costs a small part of that.
//!
//! The output is the token stream with whitespace between tokens, so it means exactly what
//! the tokens mean: no token is added or left out (not even a trailing comma), a space is left
//! out only where the two tokens cannot fuse into another one, and lines break only between
//! tokens. `codegen::check_printed` proves it on the example and hostile catalogs (unit
//! tests) and on any catalog (the codegen fuzz target). Layout, for people reading `generated/` and
//! the file in `OUT_DIR`: one item, statement, field, variant or match arm per line, four
//! spaces per level of braces; a parenthesised or bracketed list that does not fit in
//! [`WIDTH`] columns gets one element per line; a long method chain continues on indented
//! lines; `#[doc = "…"]` prints as `///…` when the text can be a line comment.

use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};
use std::fmt::Write as _;

/// Lines longer than this break where they can (rustfmt's default `max_width`).
const WIDTH: usize = 100;

/// `tokens` as source text, ending with a newline.
pub(super) fn print(tokens: TokenStream) -> String {
    let mut p = Printer {
        out: String::new(),
        indent: 0,
        col: 0,
        prev: Prev::Open,
        newline: false,
        flat_limit: None,
        overflow: false,
        closure_params: false,
        continued: false,
    };
    p.seq(tokens, Mode::Block);
    p.out.push('\n');
    p.out
}

/// How a sequence of tokens is laid out.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Inside braces or at the top: a line per item, statement and comma-separated entry.
    Block,
    /// A parenthesised or bracketed list on one line.
    Flat,
    /// A parenthesised or bracketed list, one element per line.
    Broken,
}

/// What was printed last, which decides the space before the next token.
#[derive(Clone, Copy, PartialEq)]
enum Prev {
    /// Nothing on this line yet, or an opening delimiter.
    Open,
    /// An identifier; `keyword` for the ones a `(`, `[` or `::` after is not a call, an
    /// index or a path segment of.
    Word {
        keyword: bool,
    },
    Lifetime,
    Literal,
    /// A punctuation character; `joint` when it is glued to the next one (`::`, `->`);
    /// `angle` for a `<` or `>` of generics (every `<`/`>` catalogc generates outside
    /// `->`/`=>` is one).
    Punct {
        ch: char,
        joint: bool,
        angle: bool,
    },
    Close(Delimiter),
}

struct Printer {
    out: String,
    indent: usize,
    col: usize,
    prev: Prev,
    /// A line break is due before the next token.
    newline: bool,
    /// While trying a list on one line: the column it must not pass.
    flat_limit: Option<usize>,
    /// The one-line attempt went past `flat_limit` or met a block.
    overflow: bool,
    /// Between the bars of a closure's parameters.
    closure_params: bool,
    /// The statement goes on on an extra-indented line (a broken method chain).
    continued: bool,
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "static", "struct", "trait", "type", "unsafe", "use", "where", "while",
];

impl Printer {
    fn seq(&mut self, tokens: TokenStream, mode: Mode) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        // Depth of generic angle brackets at this level: a comma inside them is no list
        // separator.
        let mut angles = 0usize;
        let mut i = 0;
        while i < tokens.len() {
            if self.overflow {
                return;
            }
            let next = tokens.get(i + 1);
            match &tokens[i] {
                TokenTree::Punct(p) if p.as_char() == '\'' && p.spacing() == Spacing::Joint => {
                    if let Some(TokenTree::Ident(name)) = next {
                        self.space_unless(matches!(
                            self.prev,
                            Prev::Open | Prev::Punct { ch: '<' | '&', .. }
                        ));
                        self.write_display(&format_args!("'{name}"));
                        self.prev = Prev::Lifetime;
                        i += 2;
                        continue;
                    }
                    self.punct('\'', Spacing::Joint, &mut angles);
                }
                TokenTree::Punct(p) => {
                    let ch = p.as_char();
                    if ch == '#'
                        && mode == Mode::Block
                        && let Some(TokenTree::Group(attr)) = next
                        && attr.delimiter() == Delimiter::Bracket
                    {
                        self.attribute(attr);
                        i += 2;
                        continue;
                    }
                    self.punct(ch, p.spacing(), &mut angles);
                    if angles == 0 {
                        match (ch, mode) {
                            (';' | ',', Mode::Block) => self.end_line(),
                            (',', Mode::Broken) => self.newline = true,
                            _ => {}
                        }
                    }
                }
                TokenTree::Ident(id) => {
                    let text = id.to_string();
                    let keyword = KEYWORDS.contains(&text.as_str());
                    let glued = matches!(
                        self.prev,
                        Prev::Open
                            | Prev::Punct {
                                ch: '&' | '#' | '!' | '*' | '.' | '<',
                                ..
                            }
                    ) || self.closure_params
                        && matches!(self.prev, Prev::Punct { ch: '|', .. });
                    self.space_unless(glued);
                    self.write(&text);
                    self.prev = Prev::Word { keyword };
                }
                TokenTree::Literal(lit) => {
                    let glued = matches!(
                        self.prev,
                        Prev::Open
                            | Prev::Punct {
                                ch: '&' | '!' | '.',
                                ..
                            }
                    );
                    self.space_unless(glued);
                    self.write_display(lit);
                    self.prev = Prev::Literal;
                }
                TokenTree::Group(g) => {
                    self.group(g, mode);
                    // A block that ends an item or statement ends its line.
                    if mode == Mode::Block
                        && g.delimiter() == Delimiter::Brace
                        && !continues_line(next)
                    {
                        self.end_line();
                    }
                }
            }
            i += 1;
        }
    }

    fn punct(&mut self, ch: char, spacing: Spacing, angles: &mut usize) {
        let (after_joint, prev_ch) = match self.prev {
            Prev::Punct { joint, ch, .. } => (joint, ch),
            _ => (false, ' '),
        };
        let generic_prev = matches!(
            self.prev,
            Prev::Punct {
                ch: '>',
                angle: true,
                ..
            }
        );
        let word_prev = matches!(self.prev, Prev::Word { keyword: false });
        let glued = after_joint
            || self.prev == Prev::Open
            || match ch {
                ',' | ';' | '.' | '?' => true,
                // `::` after a path segment or generics; `:` after a name.
                ':' => {
                    word_prev
                        || generic_prev
                        || matches!(self.prev, Prev::Literal | Prev::Lifetime | Prev::Close(_))
                        || spacing == Spacing::Alone
                }
                '<' => matches!(self.prev, Prev::Word { .. } | Prev::Punct { ch: '.', .. }),
                '>' => true,
                '!' => word_prev,
                '|' => self.closure_params,
                _ => matches!(
                    self.prev,
                    Prev::Punct {
                        ch: '&' | '#' | '!' | '*' | '.' | '<',
                        ..
                    }
                ),
            };
        // After a `->` or `=>`, and between two tokens of one operator, `>` is no bracket.
        let angle = match ch {
            '<' => !after_joint,
            '>' => !(after_joint && matches!(prev_ch, '-' | '=')),
            _ => false,
        };
        if angle {
            if ch == '<' {
                *angles += 1;
            } else {
                *angles = angles.saturating_sub(1);
            }
        }
        // Bars alternate: the first opens a closure's parameters, the second closes them.
        if ch == '|' {
            self.closure_params = !self.closure_params;
        }
        // A long statement continues a method chain on an indented line.
        if ch == '.'
            && self.flat_limit.is_none()
            && (self.continued || self.col > WIDTH - 20)
            && matches!(self.prev, Prev::Close(_) | Prev::Punct { ch: '?', .. })
        {
            self.continued = true;
            self.break_line();
        } else {
            self.space_unless(glued);
        }
        self.out.push(ch);
        self.col += 1;
        // The second colon of `::` glues to what follows, as `.` does.
        self.prev = if ch == ':' && after_joint && prev_ch == ':' {
            Prev::Punct {
                ch: '.',
                joint: false,
                angle: false,
            }
        } else {
            Prev::Punct {
                ch,
                joint: spacing == Spacing::Joint,
                angle,
            }
        };
    }

    fn group(&mut self, g: &Group, mode: Mode) {
        let path_brace = matches!(self.prev, Prev::Punct { ch: '.', .. });
        let glued = match g.delimiter() {
            Delimiter::Parenthesis => matches!(
                self.prev,
                Prev::Open
                    | Prev::Word { keyword: false }
                    | Prev::Punct {
                        ch: '!' | '&' | '*' | '.',
                        ..
                    }
                    | Prev::Punct {
                        ch: '>',
                        angle: true,
                        ..
                    }
                    | Prev::Close(Delimiter::Parenthesis | Delimiter::Bracket)
            ),
            Delimiter::Bracket => matches!(
                self.prev,
                Prev::Open
                    | Prev::Word { keyword: false }
                    | Prev::Punct {
                        ch: '#' | '&' | '!' | '.',
                        ..
                    }
                    | Prev::Close(Delimiter::Parenthesis | Delimiter::Bracket)
            ),
            Delimiter::Brace => self.prev == Prev::Open || path_brace,
            Delimiter::None => true,
        };
        let (open, close) = match g.delimiter() {
            Delimiter::Parenthesis => ('(', ')'),
            Delimiter::Bracket => ('[', ']'),
            Delimiter::Brace => ('{', '}'),
            Delimiter::None => {
                self.space_unless(glued);
                self.seq(g.stream(), mode);
                return;
            }
        };
        self.space_unless(glued);
        let inner = g.stream();
        self.out.push(open);
        self.col += 1;
        self.prev = Prev::Open;
        if inner.is_empty() {
        } else if g.delimiter() == Delimiter::Brace {
            if self.flat_limit.is_some() {
                // A block never fits a one-line list.
                self.overflow = true;
                return;
            }
            if path_brace {
                self.seq(inner, Mode::Flat);
            } else {
                let continued = std::mem::replace(&mut self.continued, false);
                self.indent += 1;
                self.newline = true;
                self.seq(inner, Mode::Block);
                self.indent -= 1;
                self.newline = true;
                self.continued = continued;
            }
        } else if self.flat_limit.is_some() {
            self.seq(inner, Mode::Flat);
        } else {
            self.list(inner);
        }
        if self.overflow {
            return;
        }
        if self.newline {
            self.break_line();
        }
        self.out.push(close);
        self.col += 1;
        self.prev = Prev::Close(g.delimiter());
    }

    /// A parenthesised or bracketed list: on one line when it fits and holds no block,
    /// else one element per line (a lone element stays on the opening line).
    fn list(&mut self, inner: TokenStream) {
        let (len, col, prev, closure) = (self.out.len(), self.col, self.prev, self.closure_params);
        self.flat_limit = Some(WIDTH);
        self.seq(inner.clone(), Mode::Flat);
        self.flat_limit = None;
        if !self.overflow {
            return;
        }
        self.overflow = false;
        self.out.truncate(len);
        self.col = col;
        self.prev = prev;
        self.closure_params = closure;
        if !has_top_level_comma(&inner) {
            self.seq(inner, Mode::Flat);
            return;
        }
        let continued = std::mem::replace(&mut self.continued, false);
        self.indent += 1;
        self.newline = true;
        self.seq(inner, Mode::Broken);
        self.indent -= 1;
        self.newline = true;
        self.continued = continued;
    }

    /// `#[…]` on its own line; `#[doc = "…"]` as `///…` when the text allows it.
    fn attribute(&mut self, attr: &Group) {
        self.space_unless(true);
        match doc_comment(attr) {
            Some(text) => {
                self.write("///");
                self.write(&text);
            }
            None => {
                self.write("#");
                self.prev = Prev::Punct {
                    ch: '#',
                    joint: false,
                    angle: false,
                };
                self.group(attr, Mode::Block);
            }
        }
        self.end_line();
    }

    fn end_line(&mut self) {
        self.newline = true;
        self.continued = false;
        self.prev = Prev::Open;
    }

    /// Writes the due line break, or a space unless `glued`.
    fn space_unless(&mut self, glued: bool) {
        if self.newline {
            self.break_line();
        } else if !glued && self.prev != Prev::Open {
            self.out.push(' ');
            self.col += 1;
        }
    }

    fn break_line(&mut self) {
        self.newline = false;
        if self.out.is_empty() {
            return;
        }
        self.out.push('\n');
        let depth = self.indent + usize::from(self.continued);
        for _ in 0..depth {
            self.out.push_str("    ");
        }
        self.col = depth * 4;
        self.prev = Prev::Open;
    }

    fn write(&mut self, text: &str) {
        self.out.push_str(text);
        self.col += text.len();
        if let Some(limit) = self.flat_limit
            && self.col > limit
        {
            self.overflow = true;
        }
    }

    fn write_display(&mut self, x: &dyn std::fmt::Display) {
        let start = self.out.len();
        let _ = write!(self.out, "{x}");
        self.col += self.out.len() - start;
        if let Some(limit) = self.flat_limit
            && self.col > limit
        {
            self.overflow = true;
        }
    }
}

/// Whether the token after a block goes on the block's line (`};`, `},`, `} else`, `})`).
fn continues_line(next: Option<&TokenTree>) -> bool {
    match next {
        Some(TokenTree::Punct(p)) => matches!(p.as_char(), ',' | ';' | '.' | '?'),
        Some(TokenTree::Ident(id)) => id == "else" || id == "as",
        _ => false,
    }
}

fn is_comma(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == ',')
}

fn has_top_level_comma(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|t| is_comma(&t))
}

/// The text of `#[doc = "…"]` when a `///` line comment says the same: a string literal
/// without escapes other than `\"`, `\'` and `\\`, and with nothing a line comment cannot
/// hold (line breaks, other control and bidirectional characters) or that would turn it
/// into a plain comment (a leading `/`).
fn doc_comment(attr: &Group) -> Option<String> {
    let mut it = attr.stream().into_iter();
    let (Some(TokenTree::Ident(name)), Some(TokenTree::Punct(eq)), Some(TokenTree::Literal(lit))) =
        (it.next(), it.next(), it.next())
    else {
        return None;
    };
    if it.next().is_some() || name != "doc" || eq.as_char() != '=' {
        return None;
    }
    let text = string_value(&lit.to_string())?;
    let plain = |c: char| matches!(c, '"' | '\'' | '\\') || c.escape_debug().len() == 1;
    (text.chars().all(plain) && !text.starts_with('/')).then_some(text)
}

/// The value of a plain or raw string literal as `proc_macro2` writes it (no suffix), `None`
/// for any other literal; the printer reads doc text with it and the re-tokenizing check
/// compares string literals by it.
pub(super) fn string_value(repr: &str) -> Option<String> {
    if let Some(raw) = repr.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let body = raw.get(hashes..)?.strip_prefix('"')?;
        let end = body.len().checked_sub(hashes + 1)?;
        let (body, fence) = (body.get(..end)?, body.get(end..)?);
        return (fence.strip_prefix('"')? == &raw[..hashes]).then(|| body.to_string());
    }
    let body = repr.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            e @ ('\\' | '\'' | '"') => out.push(e),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).ok()?));
            }
            'u' => {
                if chars.next()? != '{' {
                    return None;
                }
                let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            // A line continuation: the break and the next line's leading whitespace vanish.
            '\n' => while chars.next_if(|c| c.is_whitespace()).is_some() {},
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::print;
    use quote::quote;

    #[test]
    fn items_statements_and_fields_go_one_per_line() {
        let tokens = quote! {
            use ::catalogc::runtime::support as __rt;
            /// A record.
            #[derive(__rt::Debug, __rt::Clone)]
            pub struct Rec<'a> { pub name: &'a str, pub tags: __rt::Vec<__rt::String>, }
            impl<'de> __rt::Deserialize<'de> for Rec<'de> {
                fn deserialize<D: __rt::Deserializer<'de>>(d: D) -> __rt::DeResult<'de, Self, D> {
                    let mut f = __rt::Fields::new(d, Self::shape())?;
                    __rt::Ok(Self { name: f.req()?, tags: f.opt()?, })
                }
            }
        };
        let expected = "use ::catalogc::runtime::support as __rt;
/// A record.
#[derive(__rt::Debug, __rt::Clone)]
pub struct Rec<'a> {
    pub name: &'a str,
    pub tags: __rt::Vec<__rt::String>,
}
impl<'de> __rt::Deserialize<'de> for Rec<'de> {
    fn deserialize<D: __rt::Deserializer<'de>>(d: D) -> __rt::DeResult<'de, Self, D> {
        let mut f = __rt::Fields::new(d, Self::shape())?;
        __rt::Ok(Self {
            name: f.req()?,
            tags: f.opt()?,
        })
    }
}
";
        assert_eq!(print(tokens), expected);
    }

    #[test]
    fn long_lists_break_per_element_and_short_ones_stay() {
        let long = "x".repeat(60);
        let tokens = quote! {
            static A: [&str; 2] = [#long, #long];
            const B: &[u8] = &[1, 2];
            fn f(a: &'static [&'static str]) -> bool { match *self {} }
            let r = __rt::call::run(arguments, |input| handler.m(ctx, input));
        };
        let out = print(tokens);
        assert!(
            out.contains(&format!("= [\n    \"{long}\",\n    \"{long}\"\n];")),
            "{out}"
        );
        assert!(out.contains("const B: &[u8] = &[1, 2];"), "{out}");
        assert!(
            out.contains("fn f(a: &'static [&'static str]) -> bool {\n    match *self {}\n}"),
            "{out}"
        );
        assert!(
            out.contains("run(arguments, |input| handler.m(ctx, input));"),
            "{out}"
        );
        let chain = quote! {
            #[derive(A, B)]
            struct S;
            fn f() -> R {
                __rt::StructOut::new(s, "Invoice", Self::shape())?.field(&self.invoice_reference)?
                    .field(&self.customer_display_name)?.field(&self.status)?.end()
            }
        };
        let out = print(chain);
        assert!(out.starts_with("#[derive(A, B)]\nstruct S;\n"), "{out}");
        assert!(
            out.contains("?\n        .field(&self.customer_display_name)?\n        .field(&self.status)?\n        .end()\n}"),
            "{out}"
        );
    }

    #[test]
    fn doc_text_a_line_comment_cannot_hold_stays_an_attribute() {
        let plain = " says \"hi\" */ {}";
        let tokens = quote! {
            #[doc = #plain] struct A;
            #[doc = "/ slash first"] struct B;
            #[doc = "tab\there"] struct C;
            #[doc = "bidi \u{202e}"] struct D;
        };
        let out = print(tokens);
        assert!(
            out.starts_with("/// says \"hi\" */ {}\nstruct A;\n"),
            "{out}"
        );
        assert!(
            out.contains("#[doc = \"/ slash first\"]\nstruct B;"),
            "{out}"
        );
        assert!(out.contains("#[doc = \"tab\\there\"]\nstruct C;"), "{out}");
        assert!(!out.contains("/// bidi"), "{out}");
    }
}
