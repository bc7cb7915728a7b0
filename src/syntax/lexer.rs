//! One linear pass from text to tokens. Every byte ends up in exactly one token; a token that
//! is malformed keeps its bytes and gets an error, so the parser can go on after it.

use super::chars::{is_disallowed, is_ident_char, is_newline, is_space, newline_len, next_special};
use super::tree::TokenKind;
use super::{Span, SyntaxError};

pub(crate) struct Lexed {
    pub kinds: Vec<TokenKind>,
    pub ends: Vec<u32>,
}

pub(crate) fn lex(src: &str, errors: &mut Errors) -> Lexed {
    let mut lx = Lexer {
        src,
        b: src.as_bytes(),
        pos: 0,
        kinds: Vec::with_capacity(src.len() / 6 + 16),
        ends: Vec::with_capacity(src.len() / 6 + 16),
        errors,
    };
    lx.run();
    Lexed {
        kinds: lx.kinds,
        ends: lx.ends,
    }
}

/// Collected errors, capped so that a file full of garbage stays cheap to report.
pub(crate) struct Errors {
    pub list: Vec<SyntaxError>,
    pub dropped: usize,
}

pub(crate) const MAX_ERRORS: usize = 1000;

impl Errors {
    pub fn push(&mut self, code: &'static str, span: Span, message: String, help: Option<String>) {
        if self.list.len() >= MAX_ERRORS {
            self.dropped += 1;
            return;
        }
        self.list.push(SyntaxError {
            code,
            span,
            message,
            help,
        });
    }
}

struct Lexer<'a, 'e> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    kinds: Vec<TokenKind>,
    ends: Vec<u32>,
    errors: &'e mut Errors,
}

const KEYWORDS_V1: [(&str, &str); 6] = [
    ("true", "#true"),
    ("false", "#false"),
    ("null", "#null"),
    ("inf", "#inf"),
    ("-inf", "#-inf"),
    ("nan", "#nan"),
];

impl Lexer<'_, '_> {
    fn char_at(&self, i: usize) -> Option<char> {
        let b = *self.b.get(i)?;
        if b < 0x80 {
            Some(b as char)
        } else {
            self.src.get(i..)?.chars().next()
        }
    }

    fn push(&mut self, kind: TokenKind, end: usize) {
        self.kinds.push(kind);
        self.ends.push(end as u32);
        self.pos = end;
    }

    fn err(
        &mut self,
        code: &'static str,
        start: usize,
        end: usize,
        msg: String,
        help: Option<&str>,
    ) {
        self.errors
            .push(code, Span::new(start, end), msg, help.map(str::to_owned));
    }

    fn run(&mut self) {
        if self.src.starts_with('\u{FEFF}') {
            self.push(TokenKind::Bom, 3);
        }
        while self.pos < self.b.len() {
            let start = self.pos;
            let byte = self.b[start];
            match byte {
                b'\n' | b'\r' | 0x0B | 0x0C => {
                    let n = newline_len(self.src, start);
                    self.push(TokenKind::Newline, start + n);
                }
                b' ' | b'\t' => self.whitespace(),
                b'{' => self.push(TokenKind::LBrace, start + 1),
                b'}' => self.push(TokenKind::RBrace, start + 1),
                b'(' => self.push(TokenKind::LParen, start + 1),
                b')' => self.push(TokenKind::RParen, start + 1),
                b';' => self.push(TokenKind::Semicolon, start + 1),
                b'=' => self.push(TokenKind::Equals, start + 1),
                b'\\' => self.push(TokenKind::EscLine, start + 1),
                b'/' => self.slash(),
                b'"' => self.quoted(
                    start,
                    TokenKind::QuotedString,
                    TokenKind::MultiLineString,
                    0,
                ),
                b'#' => self.hash(),
                b'[' | b']' => {
                    self.err(
                        "syntax/unexpected-char",
                        start,
                        start + 1,
                        format!("`{}` is not part of KDL syntax", byte as char),
                        Some("KDL has no lists: repeat the argument (`node 1 2 3`) or use child nodes; quote the text (`\"[x]\"`) if it is a string"),
                    );
                    self.push(TokenKind::Invalid, start + 1);
                }
                _ => {
                    let Some(c) = self.char_at(start) else {
                        // Not on a char boundary cannot happen: we only ever advance by whole chars.
                        self.push(TokenKind::Invalid, self.b.len());
                        continue;
                    };
                    if is_newline(c) {
                        self.push(TokenKind::Newline, start + c.len_utf8());
                    } else if is_space(c) {
                        self.whitespace();
                    } else if is_disallowed(c) {
                        let (msg, help) = if c == '\u{FEFF}' {
                            (
                                "a byte order mark (U+FEFF) is only allowed at the very start of a file".to_string(),
                                "delete it",
                            )
                        } else {
                            (
                                format!(
                                    "the code point U+{:04X} may not appear literally in KDL",
                                    c as u32
                                ),
                                "delete it, or write it as a `\\u{...}` escape inside a quoted string",
                            )
                        };
                        self.err(
                            "syntax/disallowed-char",
                            start,
                            start + c.len_utf8(),
                            msg,
                            Some(help),
                        );
                        self.push(TokenKind::Invalid, start + c.len_utf8());
                    } else {
                        self.word();
                    }
                }
            }
        }
    }

    fn whitespace(&mut self) {
        let mut i = self.pos;
        while i < self.b.len() {
            let byte = self.b[i];
            if byte == b' ' || byte == b'\t' {
                i += 1;
            } else if byte >= 0x80 {
                match self.char_at(i) {
                    Some(c) if is_space(c) => i += c.len_utf8(),
                    _ => break,
                }
            } else {
                break;
            }
        }
        self.push(TokenKind::Whitespace, i);
    }

    fn slash(&mut self) {
        let start = self.pos;
        match self.b.get(start + 1) {
            Some(b'/') => {
                let mut i = start + 2;
                while i < self.b.len() {
                    if (0x20..0x7F).contains(&self.b[i]) {
                        i += 1;
                    } else if newline_len(self.src, i) == 0 {
                        i = self.check_char(i);
                    } else {
                        break;
                    }
                }
                self.push(TokenKind::LineComment, i);
            }
            Some(b'*') => {
                let mut depth = 1usize;
                let mut i = start + 2;
                while i < self.b.len() {
                    match (self.b[i], self.b.get(i + 1)) {
                        (b'*', Some(b'/')) => {
                            depth -= 1;
                            i += 2;
                            if depth == 0 {
                                break;
                            }
                        }
                        (b'/', Some(b'*')) => {
                            depth += 1;
                            i += 2;
                        }
                        _ => i = self.check_char(i),
                    }
                }
                if depth > 0 {
                    self.err(
                        "syntax/unclosed-comment",
                        start,
                        start + 2,
                        "this `/*` comment is never closed".into(),
                        Some("close it with `*/` (block comments nest: every `/*` inside needs its own `*/`)"),
                    );
                }
                self.push(TokenKind::BlockComment, i);
            }
            Some(b'-') => self.push(TokenKind::Slashdash, start + 2),
            _ => {
                self.err(
                    "syntax/unexpected-char",
                    start,
                    start + 1,
                    "a lone `/` is not valid here".into(),
                    Some("comments are `// ...` or `/* ... */`; `/-` comments out the next node or entry; quote the text if it is a string (`\"a/b\"`)"),
                );
                self.push(TokenKind::Invalid, start + 1);
            }
        }
    }

    /// Advances past the char at `i`, reporting it if it is disallowed.
    fn check_char(&mut self, i: usize) -> usize {
        let byte = self.b[i];
        if (0x20..0x7F).contains(&byte) {
            return i + 1;
        }
        let Some(c) = self.char_at(i) else {
            return i + 1;
        };
        let n = c.len_utf8();
        if is_disallowed(c) {
            self.err(
                "syntax/disallowed-char",
                i,
                i + n,
                format!(
                    "the code point U+{:04X} may not appear literally in KDL",
                    c as u32
                ),
                Some("delete it, or write it as a `\\u{...}` escape inside a quoted string"),
            );
        }
        i + n
    }

    fn hash(&mut self) {
        let start = self.pos;
        let mut i = start;
        while self.b.get(i) == Some(&b'#') {
            i += 1;
        }
        let hashes = i - start;
        if self.b.get(i) == Some(&b'"') {
            self.pos = i;
            self.quoted(
                start,
                TokenKind::RawString,
                TokenKind::RawMultiLineString,
                hashes,
            );
            return;
        }
        let mut j = i;
        while let Some(c) = self.char_at(j) {
            if !is_ident_char(c) {
                break;
            }
            j += c.len_utf8();
        }
        let word = &self.src[i..j];
        if hashes == 1 && matches!(word, "true" | "false" | "null" | "inf" | "-inf" | "nan") {
            self.push(TokenKind::Keyword, j);
            return;
        }
        let end = j.max(start + hashes);
        let help = match word.to_ascii_lowercase().as_str() {
            "true" | "false" | "null" | "inf" | "-inf" | "nan" => {
                format!("keywords are lowercase with one `#`: `#{}`", word.to_ascii_lowercase())
            }
            _ => "the keywords are `#true`, `#false`, `#null`, `#inf`, `#-inf` and `#nan`; a raw string is `#\"...\"#`; quote the text if it is a string".into(),
        };
        self.errors.push(
            "syntax/unknown-keyword",
            Span::new(start, end),
            format!("`{}` is not a KDL keyword", &self.src[start..end]),
            Some(help),
        );
        self.push(TokenKind::Invalid, end);
    }

    /// A quoted string; `self.pos` is at the opening `"`, `start` at its first `#` if raw.
    fn quoted(&mut self, start: usize, single: TokenKind, multi: TokenKind, hashes: usize) {
        let open = self.pos;
        let raw = hashes > 0 || single == TokenKind::V1RawString;
        if self.b[open..].starts_with(b"\"\"\"") {
            let body = open + 3;
            let nl = newline_len(self.src, body);
            if nl == 0 {
                self.err(
                    "syntax/multiline-string-start",
                    open,
                    body,
                    "a `\"\"\"` multi-line string must start with a newline right after `\"\"\"`".into(),
                    Some("for a single-line string write `\"...\"`; otherwise break the line right after the opening `\"\"\"`"),
                );
            }
            let end = self.scan_to_close(body, raw, hashes, true);
            match end {
                Some(e) => self.push(multi, e),
                None => {
                    self.err(
                        "syntax/unclosed-string",
                        start,
                        body,
                        "this multi-line string is never closed".into(),
                        Some(&format!(
                            "close it with `\"\"\"{}` on a line of its own",
                            "#".repeat(hashes)
                        )),
                    );
                    self.push(multi, self.b.len());
                }
            }
            return;
        }
        let end = self.scan_to_close(open + 1, raw, hashes, false);
        match end {
            Some(e) => self.push(single, e),
            None => {
                self.err(
                    "syntax/unclosed-string",
                    start,
                    open + 1,
                    "this string is never closed".into(),
                    Some(&format!("close it with `\"{}`", "#".repeat(hashes))),
                );
                self.push(single, self.b.len());
            }
        }
    }

    /// Finds the end (exclusive) of the closing delimiter, reporting literal newlines in
    /// single-line strings once per string.
    fn scan_to_close(
        &mut self,
        mut i: usize,
        raw: bool,
        hashes: usize,
        multi: bool,
    ) -> Option<usize> {
        let quotes = if multi { 3 } else { 1 };
        let mut newline_reported = false;
        while i < self.b.len() {
            // Fast path: printable ASCII that neither closes nor escapes.
            i = next_special(self.b, i, 0x20, b"\"\\\x7F");
            let Some(&byte) = self.b.get(i) else {
                break;
            };
            if byte == b'"' {
                let q = &self.b[i..];
                if q.len() >= quotes + hashes
                    && q[..quotes].iter().all(|&x| x == b'"')
                    && q[quotes..quotes + hashes].iter().all(|&x| x == b'#')
                {
                    return Some(i + quotes + hashes);
                }
                i += 1;
            } else if byte == b'\\' && !raw {
                // Skip the escaped char so `\"` does not close; escapes are checked when decoding.
                i += 1;
                let ws_escape = self
                    .char_at(i)
                    .is_some_and(|c| is_space(c) || is_newline(c));
                if ws_escape {
                    // A whitespace escape swallows every following space and newline.
                    loop {
                        let nl = newline_len(self.src, i);
                        if nl > 0 {
                            i += nl;
                            continue;
                        }
                        match self.char_at(i) {
                            Some(c) if is_space(c) => i += c.len_utf8(),
                            _ => break,
                        }
                    }
                } else if i < self.b.len() {
                    i = self.check_char(i);
                }
            } else {
                let nl = newline_len(self.src, i);
                if nl > 0 {
                    if !multi && !newline_reported {
                        newline_reported = true;
                        let help = if raw {
                            format!(
                                "a string spanning lines is a multi-line raw string: `{h}\"\"\"` + newline, the lines, then `\"\"\"{h}` on its own line",
                                h = "#".repeat(hashes.max(1))
                            )
                        } else {
                            "use a multi-line string (`\"\"\"` + newline, the lines, then `\"\"\"` on its own line), or write `\\n` for the newline".to_string()
                        };
                        self.err(
                            "syntax/newline-in-string",
                            i,
                            i + nl,
                            "a `\"...\"` string cannot contain a literal newline".into(),
                            Some(&help),
                        );
                    }
                    i += nl;
                } else {
                    i = self.check_char(i);
                }
            }
        }
        None
    }

    fn word(&mut self) {
        let start = self.pos;
        let mut i = start;
        while i < self.b.len() {
            let byte = self.b[i];
            if byte < 0x80 {
                if is_ident_char(byte as char) {
                    i += 1;
                } else {
                    break;
                }
            } else {
                match self.char_at(i) {
                    Some(c) if is_ident_char(c) => i += c.len_utf8(),
                    _ => break,
                }
            }
        }
        if i == start {
            // Unreachable by construction (callers only send identifier chars here), but a
            // lexer that cannot advance must not loop.
            let n = self.char_at(start).map_or(1, char::len_utf8);
            self.err(
                "syntax/unexpected-char",
                start,
                start + n,
                "unexpected character".into(),
                Some("delete it"),
            );
            self.push(TokenKind::Invalid, start + n);
            return;
        }
        let word = &self.src[start..i];
        let w = word.as_bytes();
        let digit = |k: usize| w.get(k).is_some_and(|x| x.is_ascii_digit());
        let signed = matches!(w[0], b'+' | b'-');
        let numberish = digit(0) || (signed && digit(1));
        if numberish {
            if valid_number(word) {
                self.push(TokenKind::Number, i);
            } else {
                self.err(
                    "syntax/invalid-number",
                    start,
                    i,
                    format!("`{word}` is not a valid number"),
                    Some(number_help(word)),
                );
                self.push(TokenKind::Invalid, i);
            }
            return;
        }
        let dotted = (w[0] == b'.' && digit(1)) || (signed && w.get(1) == Some(&b'.') && digit(2));
        if dotted {
            let fixed = if signed {
                format!("{}0{}", &word[..1], &word[1..])
            } else {
                format!("0{word}")
            };
            self.err(
                "syntax/invalid-number",
                start,
                i,
                format!("`{word}` is neither a number nor a valid identifier"),
                Some(&format!("numbers need a digit before the `.`: write `{fixed}`, or quote it (`\"{word}\"`) if it is a string")),
            );
            self.push(TokenKind::Invalid, i);
            return;
        }
        if let Some((_, fix)) = KEYWORDS_V1.iter().find(|(k, _)| *k == word) {
            self.err(
                "syntax/v1-keyword",
                start,
                i,
                format!("bare `{word}` is not allowed in KDL v2"),
                Some(&format!(
                    "write `{fix}` (KDL v2 keywords start with `#`), or `\"{word}\"` for the string"
                )),
            );
            self.push(TokenKind::V1Keyword, i);
            return;
        }
        // KDL v1 raw strings: `r"..."`, `r#"..."#`.
        if word == "r" && matches!(self.b.get(i), Some(b'"') | Some(b'#')) {
            let mut j = i;
            while self.b.get(j) == Some(&b'#') {
                j += 1;
            }
            if self.b.get(j) == Some(&b'"') {
                let hashes = j - i;
                let h = "#".repeat(hashes.max(1));
                self.err(
                    "syntax/v1-raw-string",
                    start,
                    j + 1,
                    "`r\"...\"` raw strings are KDL v1 syntax".into(),
                    Some(&format!("drop the `r` and write `{h}\"...\"{h}` (KDL v2 raw strings are fenced by `#`)")),
                );
                self.pos = j;
                // Closes on `"` followed by the same number of `#` as it opened with.
                let end = self
                    .scan_to_close(j + 1, true, hashes, false)
                    .unwrap_or(self.b.len());
                self.push(TokenKind::V1RawString, end);
                return;
            }
        }
        self.push(TokenKind::Ident, i);
    }
}

fn number_help(word: &str) -> &'static str {
    let body = word.trim_start_matches(['+', '-']);
    if body.starts_with("0x") || body.starts_with("0X") {
        "hex numbers are `0x` followed by hex digits and `_` (`0x1f_ff`)"
    } else if body.starts_with("0o") {
        "octal numbers are `0o` followed by digits 0-7 and `_`"
    } else if body.starts_with("0b") {
        "binary numbers are `0b` followed by 0, 1 and `_`"
    } else {
        "numbers look like `12`, `-3.5`, `1e10` or `1_000`; quote it (`\"...\"`) if it is a string"
    }
}

/// Whether a word that starts like a number is exactly one of the number forms.
pub(crate) fn valid_number(word: &str) -> bool {
    let w = word.as_bytes();
    let mut i = usize::from(matches!(w.first(), Some(b'+') | Some(b'-')));
    let radix = |rest: &[u8], ok: fn(u8) -> bool| -> bool {
        matches!(rest.first(), Some(&c) if ok(c)) && rest.iter().all(|&c| c == b'_' || ok(c))
    };
    if w.len() >= i + 2 && w[i] == b'0' {
        match w[i + 1] {
            b'x' => return radix(&w[i + 2..], |c| c.is_ascii_hexdigit()),
            b'o' => return radix(&w[i + 2..], |c| (b'0'..=b'7').contains(&c)),
            b'b' => return radix(&w[i + 2..], |c| c == b'0' || c == b'1'),
            _ => {}
        }
    }
    let integer = |i: &mut usize| -> bool {
        if !w.get(*i).is_some_and(u8::is_ascii_digit) {
            return false;
        }
        while w.get(*i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
            *i += 1;
        }
        true
    };
    if !integer(&mut i) {
        return false;
    }
    if w.get(i) == Some(&b'.') {
        i += 1;
        if !integer(&mut i) {
            return false;
        }
    }
    if matches!(w.get(i), Some(b'e') | Some(b'E')) {
        i += 1;
        if matches!(w.get(i), Some(b'+') | Some(b'-')) {
            i += 1;
        }
        if !integer(&mut i) {
            return false;
        }
    }
    i == w.len()
}
