//! JSON Schema `pattern`s (ECMA-262 with the `u` flag) checked in bounded time.
//!
//! A backtracking engine (`regress`, like every JavaScript one) takes time exponential in
//! the length of a value that almost matches `^(.*a){20}$`: one request can hold a server
//! for minutes. So a pattern is checked by one of three means:
//! - **linear**: the pattern is translated into the syntax of the `regex` crate (finite
//!   automata, time linear in the value) wherever the translation means exactly the same
//!   set of strings — every class is spelled out as code point ranges (`\d` is `[0-9]`,
//!   `\w` `[0-9A-Za-z_]`, `\s` ECMA-262's white space and line terminators, `.` anything but
//!   a line terminator), `\b` is the ASCII word boundary. Whether a value matches somewhere
//!   does not depend on which match an engine prefers, so lazy and greedy, and the order of
//!   alternatives, change nothing;
//! - **budgeted**: a pattern with lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) has no finite
//!   automaton; it runs on `fancy-regex`, a backtracking engine that stops after
//!   [`STEP_BUDGET`] backtracking steps with [`Undecided`];
//! - **refused**: what neither can express with the same meaning (backreferences, `\p{…}`
//!   inside a class, a class that matches nothing, counts too large to compile) is never
//!   run: every value is [`Undecided`].
//!
//! `regress` stays the judge of what is a valid pattern: a pattern it rejects does not
//! compile here either. Lint reports every pattern that is not linear
//! (`bounds/pattern-backtracking`), so a catalog that passes lint never meets the budget.

use std::fmt;

/// Backtracking steps a budgeted pattern may take on one value before giving up.
pub const STEP_BUDGET: usize = 1_000_000;

/// How a pattern is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Finite automata: time linear in the value.
    Linear,
    /// Backtracking under [`STEP_BUDGET`] (the pattern has lookaround).
    Budgeted,
    /// No engine means the same as ECMA-262 in bounded time: every value is undecided.
    Refused,
}

/// A value the pattern could not be decided for within its budget (or at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undecided;

impl fmt::Display for Undecided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("could not be checked against the pattern within its step budget")
    }
}

/// A compiled pattern.
pub struct Compiled {
    engine: Inner,
}

enum Inner {
    Linear(regex::Regex),
    Budgeted(fancy_regex::Regex),
    Refused(String),
}

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Compiled").field(&self.engine()).finish()
    }
}

impl Compiled {
    /// Compiles `source`; an error when it is not a valid ECMA-262 `u`-mode pattern.
    pub fn new(source: &str) -> Result<Compiled, String> {
        regress::Regex::with_flags(source, "u").map_err(|e| e.to_string())?;
        let engine = match translate(source, Flavor::Regex) {
            Ok(t) if !t.lookaround => match regex::RegexBuilder::new(&t.text)
                .size_limit(SIZE_LIMIT)
                .build()
            {
                Ok(re) => Inner::Linear(re),
                Err(_) => Inner::Refused(TOO_LARGE.into()),
            },
            Ok(_) => match translate(source, Flavor::Fancy) {
                Ok(t) => match fancy_regex::RegexBuilder::new(&t.text)
                    .backtrack_limit(STEP_BUDGET)
                    .delegate_size_limit(SIZE_LIMIT)
                    .build()
                {
                    Ok(re) => Inner::Budgeted(re),
                    Err(_) => Inner::Refused(TOO_LARGE.into()),
                },
                Err(why) => Inner::Refused(why),
            },
            Err(why) => Inner::Refused(why),
        };
        Ok(Compiled { engine })
    }

    /// How this pattern is checked.
    pub fn engine(&self) -> Engine {
        match self.engine {
            Inner::Linear(_) => Engine::Linear,
            Inner::Budgeted(_) => Engine::Budgeted,
            Inner::Refused(_) => Engine::Refused,
        }
    }

    /// Why the pattern is refused, when it is.
    pub fn refused(&self) -> Option<&str> {
        match &self.engine {
            Inner::Refused(why) => Some(why),
            _ => None,
        }
    }

    /// Whether the pattern matches somewhere in `s` (unanchored, like JSON Schema).
    pub fn is_match(&self, s: &str) -> Result<bool, Undecided> {
        match &self.engine {
            Inner::Linear(re) => Ok(re.is_match(s)),
            Inner::Budgeted(re) => re.is_match(s).map_err(|_| Undecided),
            Inner::Refused(_) => Err(Undecided),
        }
    }
}

const TOO_LARGE: &str = "its counts are too large to compile";

/// The compiled-program size a pattern may reach (`regex`'s default is 10 MiB per program).
const SIZE_LIMIT: usize = 4 * 1024 * 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavor {
    /// The `regex` crate: no lookaround; `\b` is `(?-u:\b)`.
    Regex,
    /// `fancy-regex`: lookaround; `\b` spelled with lookaround.
    Fancy,
}

struct Translation {
    text: String,
    lookaround: bool,
}

/// Closed ranges of code points, sorted and disjoint after [`normalize`].
type Set = Vec<(u32, u32)>;

const MAX_CHAR: u32 = 0x10_FFFF;
const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
const SPACE: &[(u32, u32)] = &[
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];
const LINE_TERMINATOR: &[(u32, u32)] = &[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];

fn normalize(mut set: Set) -> Set {
    set.sort_unstable();
    let mut out: Set = Vec::with_capacity(set.len());
    for (s, e) in set {
        match out.last_mut() {
            Some(last) if s <= last.1.saturating_add(1) => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

fn complement(set: &[(u32, u32)]) -> Set {
    let mut out = Vec::new();
    let mut next = 0u32;
    for &(s, e) in &normalize(set.to_vec()) {
        if s > next {
            out.push((next, s - 1));
        }
        next = e.saturating_add(1);
    }
    if next <= MAX_CHAR {
        out.push((next, MAX_CHAR));
    }
    out
}

/// The translation of an ECMA-262 pattern, or why there is none with the same meaning. The
/// pattern has been validated by `regress`, but anything unexpected is still refused rather
/// than guessed.
fn translate(source: &str, flavor: Flavor) -> Result<Translation, String> {
    let mut t = Translator {
        chars: source.chars().collect(),
        at: 0,
        out: String::with_capacity(source.len() * 2),
        flavor,
        lookaround: false,
        depth: 0,
    };
    t.disjunction()?;
    if t.at != t.chars.len() {
        return Err("it has a construct catalogc does not translate".into());
    }
    Ok(Translation {
        text: t.out,
        lookaround: t.lookaround,
    })
}

struct Translator {
    chars: Vec<char>,
    at: usize,
    out: String,
    flavor: Flavor,
    lookaround: bool,
    depth: usize,
}

/// Groups nested deeper than this are refused (the translation recurses per group).
const MAX_DEPTH: usize = 64;

impl Translator {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.at + n).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn disjunction(&mut self) -> Result<(), String> {
        loop {
            self.alternative()?;
            if !self.eat('|') {
                return Ok(());
            }
            self.out.push('|');
        }
    }

    fn alternative(&mut self) -> Result<(), String> {
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                return Ok(());
            }
            let quantifiable = self.term()?;
            if quantifiable {
                self.quantifier()?;
            }
        }
        Ok(())
    }

    /// One term; whether a quantifier may follow it.
    fn term(&mut self) -> Result<bool, String> {
        let Some(c) = self.peek() else {
            return Ok(false);
        };
        self.at += 1;
        match c {
            '^' => self.out.push('^'),
            '$' => self.out.push('$'),
            '.' => self.set(&complement(LINE_TERMINATOR))?,
            '[' => self.class()?,
            '(' => return self.group(),
            '\\' => return self.escape(),
            '*' | '+' | '?' | '{' | '}' | ']' | ')' | '|' => {
                return Err(format!("`{c}` where a term was expected"));
            }
            c => self.literal(c),
        }
        Ok(true)
    }

    fn group(&mut self) -> Result<bool, String> {
        if self.depth >= MAX_DEPTH {
            return Err("its groups are nested too deeply".into());
        }
        let mut quantifiable = true;
        if self.eat('?') {
            match (self.peek(), self.peek_at(1)) {
                (Some(':'), _) => {
                    self.at += 1;
                    self.out.push_str("(?:");
                }
                (Some('=' | '!'), _) => {
                    let c = self.peek().unwrap_or('=');
                    self.at += 1;
                    self.look(&format!("(?{c}"))?;
                    quantifiable = false;
                }
                (Some('<'), Some('=' | '!')) => {
                    let c = self.peek_at(1).unwrap_or('=');
                    self.at += 2;
                    self.look(&format!("(?<{c}"))?;
                    quantifiable = false;
                }
                (Some('<'), _) => {
                    // A named group: numbered like any capturing group; its name matters only
                    // to backreferences, which are refused.
                    self.at += 1;
                    while let Some(c) = self.peek() {
                        self.at += 1;
                        if c == '>' {
                            break;
                        }
                    }
                    self.out.push('(');
                }
                _ => return Err("it uses a group modifier".into()),
            }
        } else {
            self.out.push('(');
        }
        if quantifiable {
            self.depth += 1;
            self.disjunction()?;
            self.depth -= 1;
        }
        if !self.eat(')') {
            return Err("a group is not closed".into());
        }
        self.out.push(')');
        Ok(quantifiable)
    }

    /// A lookaround group's body, opened with `open`.
    fn look(&mut self, open: &str) -> Result<(), String> {
        self.lookaround = true;
        if self.flavor == Flavor::Regex {
            // The caller translates again for the backtracking engine; the text is unused.
            self.out.push_str("(?:");
        } else {
            self.out.push_str(open);
        }
        self.depth += 1;
        self.disjunction()?;
        self.depth -= 1;
        Ok(())
    }

    fn quantifier(&mut self) -> Result<(), String> {
        match self.peek() {
            Some(c @ ('*' | '+' | '?')) => {
                self.at += 1;
                self.out.push(c);
            }
            Some('{') => {
                let start = self.at;
                self.at += 1;
                let mut text = String::from("{");
                while let Some(c) = self.peek() {
                    self.at += 1;
                    if !(c.is_ascii_digit() || c == ',' || c == '}') {
                        self.at = start;
                        return Err("a malformed count".into());
                    }
                    text.push(c);
                    if c == '}' {
                        break;
                    }
                }
                if !text.ends_with('}') {
                    return Err("a count is not closed".into());
                }
                self.out.push_str(&text);
            }
            _ => return Ok(()),
        }
        if self.eat('?') {
            self.out.push('?');
        }
        Ok(())
    }

    fn escape(&mut self) -> Result<bool, String> {
        let Some(c) = self.peek() else {
            return Err("a trailing backslash".into());
        };
        match c {
            'b' | 'B' => {
                self.at += 1;
                self.boundary(c == 'b');
                Ok(false)
            }
            '1'..='9' | 'k' => Err("it uses a backreference".into()),
            'p' | 'P' => {
                // A property outside a class: `regex` reads ECMA-262's names (`L`,
                // `Letter`, `gc=L`, `Script=Greek`, `sc=Grek`, binary properties) alike.
                self.at += 1;
                if !self.eat('{') {
                    return Err("a malformed property escape".into());
                }
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=')
                {
                    self.at += 1;
                }
                let name: String = self.chars[start..self.at].iter().collect();
                if name.is_empty() || !self.eat('}') {
                    return Err("a malformed property escape".into());
                }
                self.out.push('\\');
                self.out.push(c);
                self.out.push('{');
                self.out.push_str(&name);
                self.out.push('}');
                Ok(true)
            }
            _ => {
                let set = self.atom_escape(false)?;
                self.set(&set)?;
                Ok(true)
            }
        }
    }

    fn boundary(&mut self, at: bool) {
        match (self.flavor, at) {
            (Flavor::Regex, true) => self.out.push_str(r"(?-u:\b)"),
            (Flavor::Regex, false) => self.out.push_str(r"(?-u:\B)"),
            (Flavor::Fancy, true) => self.out.push_str(
                r"(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))",
            ),
            (Flavor::Fancy, false) => self.out.push_str(
                r"(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))",
            ),
        }
    }

    /// The set of one escape after `\` (in a class when `in_class`).
    fn atom_escape(&mut self, in_class: bool) -> Result<Set, String> {
        let Some(c) = self.peek() else {
            return Err("a trailing backslash".into());
        };
        self.at += 1;
        let one = |cp: u32| Ok(vec![(cp, cp)]);
        match c {
            'd' => Ok(DIGIT.to_vec()),
            'D' => Ok(complement(DIGIT)),
            'w' => Ok(WORD.to_vec()),
            'W' => Ok(complement(WORD)),
            's' => Ok(SPACE.to_vec()),
            'S' => Ok(complement(SPACE)),
            'f' => one(0x0C),
            'n' => one(0x0A),
            'r' => one(0x0D),
            't' => one(0x09),
            'v' => one(0x0B),
            'b' if in_class => one(0x08),
            '-' if in_class => one(u32::from('-')),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => one(0),
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.at += 1;
                    one(u32::from(l) % 32)
                }
                _ => Err("a malformed control escape".into()),
            },
            'x' => {
                let cp = self.hex(2)?;
                one(cp)
            }
            'u' => {
                let cp = self.unicode_escape()?;
                one(cp)
            }
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => one(u32::from(c)),
            'p' | 'P' => Err("it uses a Unicode property escape inside a class".into()),
            _ => Err(format!("it uses the escape `\\{c}`")),
        }
    }

    fn hex(&mut self, n: usize) -> Result<u32, String> {
        let mut v = 0u32;
        for _ in 0..n {
            let d = self
                .peek()
                .and_then(|c| c.to_digit(16))
                .ok_or("a malformed hex escape")?;
            self.at += 1;
            v = v * 16 + d;
        }
        Ok(v)
    }

    /// `\uXXXX`, a surrogate pair of two, or `\u{X…}`, after `\u`.
    fn unicode_escape(&mut self) -> Result<u32, String> {
        if self.eat('{') {
            let mut v = 0u32;
            let mut digits = 0;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                self.at += 1;
                digits += 1;
                v = v.saturating_mul(16).saturating_add(d);
            }
            if digits == 0 || !self.eat('}') || v > MAX_CHAR {
                return Err("a malformed `\\u{…}` escape".into());
            }
            return no_surrogate(v);
        }
        let high = self.hex(4)?;
        if (0xD800..0xDC00).contains(&high)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let save = self.at;
            self.at += 2;
            if let Ok(low) = self.hex(4)
                && (0xDC00..0xE000).contains(&low)
            {
                return Ok(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
            }
            self.at = save;
        }
        no_surrogate(high)
    }

    fn class(&mut self) -> Result<(), String> {
        let negated = self.eat('^');
        let mut set: Set = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err("a class is not closed".into());
            };
            if c == ']' {
                self.at += 1;
                break;
            }
            let (low, single) = self.class_atom()?;
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.at += 1;
                let (_, single_high) = self.class_atom()?;
                match (single, single_high) {
                    (Some(a), Some(b)) if a <= b => set.push((a, b)),
                    _ => return Err("a malformed class range".into()),
                }
            } else {
                set.extend(low);
            }
        }
        let set = if negated { complement(&set) } else { set };
        self.set(&set)
    }

    /// One class atom: its set, and its code point when it is one character.
    fn class_atom(&mut self) -> Result<(Set, Option<u32>), String> {
        let Some(c) = self.peek() else {
            return Err("a class is not closed".into());
        };
        self.at += 1;
        let set = if c == '\\' {
            self.atom_escape(true)?
        } else {
            vec![(u32::from(c), u32::from(c))]
        };
        let single = match set.as_slice() {
            [(a, b)] if a == b => Some(*a),
            _ => None,
        };
        Ok((set, single))
    }

    fn literal(&mut self, c: char) {
        push_char(&mut self.out, u32::from(c));
    }

    /// A set of code points as one class; a set matching nothing is refused (neither
    /// engine spells an empty class the same way).
    fn set(&mut self, set: &[(u32, u32)]) -> Result<(), String> {
        // A `&str` holds no surrogate code points.
        let set: Set = normalize(set.to_vec())
            .into_iter()
            .flat_map(|(s, e)| {
                let below = (s < 0xD800).then(|| (s, e.min(0xD7FF)));
                let above = (e > 0xDFFF).then(|| (s.max(0xE000), e));
                below.into_iter().chain(above)
            })
            .collect();
        if set.is_empty() {
            return Err("it has a class that matches nothing".into());
        }
        if let [(a, b)] = set.as_slice()
            && a == b
        {
            push_char(&mut self.out, *a);
            return Ok(());
        }
        self.out.push('[');
        for (a, b) in set {
            push_char(&mut self.out, a);
            if b != a {
                self.out.push('-');
                push_char(&mut self.out, b);
            }
        }
        self.out.push(']');
        Ok(())
    }
}

fn no_surrogate(cp: u32) -> Result<u32, String> {
    if (0xD800..0xE000).contains(&cp) {
        Err("it names a lone surrogate, which no string holds".into())
    } else {
        Ok(cp)
    }
}

/// One code point as a literal both engines read the same, inside or outside a class.
fn push_char(out: &mut String, cp: u32) {
    match char::from_u32(cp) {
        Some(c) if c.is_ascii_alphanumeric() => out.push(c),
        _ => {
            use fmt::Write as _;
            let _ = write!(out, "\\x{{{cp:X}}}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Compiled, Engine, Undecided};

    fn matches(pattern: &str, s: &str) -> Result<bool, Undecided> {
        Compiled::new(pattern)
            .map_err(|e| panic!("{pattern}: {e}"))
            .and_then(|c| c.is_match(s))
    }

    #[test]
    fn the_catastrophic_patterns_run_in_linear_time() {
        for p in ["^(.*a){20}$", "^(.*?,){11}P$", "^(a+)+$", "^(a|aa)+$"] {
            let c = Compiled::new(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            assert_eq!(c.engine(), Engine::Linear, "{p}");
            // Far past where a backtracking engine stops returning.
            let long = format!("{}!", "a".repeat(5_000));
            assert_eq!(c.is_match(&long), Ok(false), "{p}");
        }
        assert_eq!(matches("^(.*a){20}$", &"a".repeat(20)), Ok(true));
        assert_eq!(
            matches("^(.*?,){11}P$", &format!("{}P", ",".repeat(11))),
            Ok(true)
        );
    }

    #[test]
    fn a_backtracking_pattern_stops_at_its_budget() {
        let c = Compiled::new("^((?=a)a+)+$").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.engine(), Engine::Budgeted);
        assert_eq!(c.is_match(&format!("{}!", "a".repeat(64))), Err(Undecided));
        assert_eq!(matches("^(?!.*--)[a-z-]+$", "a-b"), Ok(true));
        assert_eq!(matches("^(?!.*--)[a-z-]+$", "a--b"), Ok(false));
        assert_eq!(matches(r"(?<=\$)\d+", "$12"), Ok(true));
        assert_eq!(matches(r"(?<=\$)\d+", "12"), Ok(false));
    }

    #[test]
    fn what_cannot_be_translated_is_refused() {
        for p in [r"^(a)\1$", r"^(?<x>a)\k<x>$", r"^[\p{Lu}]$", r"^[^\s\S]$"] {
            let c = Compiled::new(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            assert_eq!(c.engine(), Engine::Refused, "{p}");
            assert_eq!(c.is_match("aa"), Err(Undecided), "{p}");
        }
        assert!(Compiled::new("^(").is_err());
    }

    /// The translation means what ECMA-262 means (regress is the reference).
    #[test]
    fn translated_patterns_agree_with_ecma_262() {
        let patterns = [
            r"^\d+$",
            r"^\w+$",
            r"^\s$",
            r"^.$",
            r"^[^a-c]$",
            r"^[\d-]+$",
            r"^[\w.-]+@[a-z]+$",
            r"\bcat\b",
            r"\Bat",
            r"^[.*+?]$",
            r"^\u{1F600}$",
            r"^\uD83D\uDE00$",
            r"^\x41\u0042$",
            r"^a{2,3}?$",
            r"^(?:ab|cd)*$",
            r"^(?<y>\d{4})-\d\d$",
            r"^\cJ$",
            r"^[\b]$",
            r"^\/$",
            r"^\0$",
            "^é+$",
            r"^[\u{1F600}-\u{1F64F}]$",
            r"^\p{L}+\d$",
            r"^\P{Lu}$",
            r"^\p{Script=Greek}$",
        ];
        let values = [
            "", "a", "b", "d", "ab", "aab", "abc", "cd", "0", "٣", "12", "x_1", "é", "éé", " ",
            "\u{a0}", "\u{85}", "\u{feff}", "\n", "\r", "\u{2028}", "a-b", "a.b@c", "the cat",
            "concat", "cat!", "*", "😀", "😈", "AB", "aa", "aaa", "abcd", "2024-01", "\u{8}", "/",
            "\0", "z",
        ];
        for p in patterns {
            let ours = Compiled::new(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            assert_eq!(ours.engine(), Engine::Linear, "{p}");
            let reference = regress::Regex::with_flags(p, "u").unwrap_or_else(|e| panic!("{e}"));
            for v in values {
                assert_eq!(
                    ours.is_match(v),
                    Ok(reference.find(v).is_some()),
                    "{p} on {v:?}"
                );
            }
        }
    }
}
