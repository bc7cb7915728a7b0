//! Names in every style catalogc reads or writes: splitting a name into words, case
//! conversion, and turning any catalog name into a valid Rust identifier.
//!
//! One splitter serves the lint rules (which compare names whatever their style) and code
//! generation (which must derive Rust names that are stable across catalogc versions: a
//! changed derivation renames a user's types). Its rules:
//! - any character that is not alphanumeric separates words (`tenant_id`, `TENANT-ID`,
//!   `tenant.id`, `Tenant ID`);
//! - a lower-case letter or digit followed by an upper-case letter starts a word
//!   (`tenantId`, `oauth2Token` → `oauth2`, `token`);
//! - an upper-case run is one word, except that its last letter starts the next word when a
//!   lower-case letter follows (`APIKey` → `api`, `key`; `HTTPServer2` → `http`, `server2`);
//! - digits stay with the word they follow (`address_line2`), and a leading digit run is a
//!   word of its own kind (`2fa_code` → `2fa`, `code`).

/// The lowercase words of `name`, whatever its case or separators: `tenantId`, `TENANT-ID`,
/// `tenant_id` and `Tenant ID` all give `["tenant", "id"]`.
pub fn words(name: &str) -> Vec<String> {
    if name.is_ascii() {
        ascii_words(name)
    } else {
        unicode_words(name)
    }
}

/// [`words`] of an ASCII name, cutting the bytes into slices: one allocation of the right
/// size per word, where pushing char by char grew each word's buffer several times (lint
/// splits every field and tool name of a catalog).
fn ascii_words(name: &str) -> Vec<String> {
    let mut out = Vec::with_capacity(4);
    ascii_word_ranges(name.as_bytes(), |from, to| {
        let mut w = name[from..to].to_string();
        w.make_ascii_lowercase();
        out.push(w);
    });
    out
}

/// How many [`words`] `name` has, without building them: deciding a catalog's naming
/// convention asks this of every field name.
pub fn word_count(name: &str) -> usize {
    if name.is_ascii() {
        let mut n = 0;
        ascii_word_ranges(name.as_bytes(), |_, _| n += 1);
        n
    } else {
        unicode_words(name).len()
    }
}

/// Calls `cut(from, to)` for the byte range of each word of an ASCII name, in order.
fn ascii_word_ranges(b: &[u8], mut cut: impl FnMut(usize, usize)) {
    let mut start = None;
    for (i, &c) in b.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if let Some(s) = start.take() {
                cut(s, i);
            }
            continue;
        }
        match start {
            None => start = Some(i),
            Some(s) if c.is_ascii_uppercase() => {
                let prev = b[i - 1];
                let next_lower = b.get(i + 1).is_some_and(u8::is_ascii_lowercase);
                if prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next_lower)
                {
                    cut(s, i);
                    start = Some(i);
                }
            }
            Some(_) => {}
        }
    }
    if let Some(s) = start {
        cut(s, b.len());
    }
}

/// [`words`] of any name, char by char.
fn unicode_words(name: &str) -> Vec<String> {
    // One pass over the characters, remembering the previous one and peeking at the next.
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev = Some(c);
            continue;
        }
        if let Some(prev) = prev.filter(|_| c.is_uppercase() && !cur.is_empty()) {
            let next_lower = chars.peek().is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_numeric() || (prev.is_uppercase() && next_lower) {
                out.push(std::mem::take(&mut cur));
            }
        }
        if c.is_ascii() {
            cur.push(c.to_ascii_lowercase());
        } else {
            cur.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `words` as `&str`s, for slice patterns.
pub fn word_refs(w: &[String]) -> Vec<&str> {
    w.iter().map(String::as_str).collect()
}

/// `invoiceList`, `Invoice-List` → `invoice_list`.
pub fn snake_case(name: &str) -> String {
    words(name).join("_")
}

/// `invoice_list` → `INVOICE_LIST`.
pub fn screaming_snake_case(name: &str) -> String {
    snake_case(name).to_uppercase()
}

/// `invoice_list` → `invoice-list`.
pub fn kebab_case(name: &str) -> String {
    words(name).join("-")
}

/// `invoice_list`, `INVOICE-LIST` → `InvoiceList`; `ipv4_addr` → `Ipv4Addr`.
pub fn pascal_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for w in words(name) {
        let mut cs = w.chars();
        if let Some(first) = cs.next() {
            out.extend(first.to_uppercase());
            out.push_str(cs.as_str());
        }
    }
    out
}

/// A naming convention for tool and field names: each is a valid MCP name, and a catalog
/// should keep to one (lint `naming/*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Convention {
    /// `invoice_list`.
    Snake,
    /// `invoiceList`.
    Camel,
    /// `invoice-list`.
    Kebab,
}

impl Convention {
    /// Every convention, the default first.
    pub const ALL: [Convention; 3] = [Convention::Snake, Convention::Camel, Convention::Kebab];

    /// Its name as configured and reported: `snake_case`, `camelCase`, `kebab-case`.
    pub fn as_str(self) -> &'static str {
        match self {
            Convention::Snake => "snake_case",
            Convention::Camel => "camelCase",
            Convention::Kebab => "kebab-case",
        }
    }

    /// The convention named `s` (see [`Convention::as_str`]).
    pub fn parse(s: &str) -> Option<Convention> {
        Convention::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// `name` follows the convention: lowercase ASCII words (digits allowed after the first
    /// letter) joined by `_`, by `-`, or by an upper-case letter. A one-word name follows all.
    pub fn matches(self, name: &str) -> bool {
        let bytes = name.as_bytes();
        if !bytes.first().is_some_and(u8::is_ascii_lowercase) {
            return false;
        }
        let sep = match self {
            Convention::Snake => b'_',
            Convention::Kebab => b'-',
            Convention::Camel => return bytes.iter().all(u8::is_ascii_alphanumeric),
        };
        // One pass over the bytes (lint asks this of every name): words of lowercase letters
        // and digits, one separator between two words, none at the end.
        let mut after_sep = false;
        for &b in bytes {
            if b == sep {
                if after_sep {
                    return false;
                }
                after_sep = true;
            } else if b.is_ascii_lowercase() || b.is_ascii_digit() {
                after_sep = false;
            } else {
                return false;
            }
        }
        !after_sep
    }

    /// `name` rewritten in the convention.
    pub fn apply(self, name: &str) -> String {
        match self {
            Convention::Snake => snake_case(name),
            Convention::Kebab => kebab_case(name),
            Convention::Camel => {
                let pascal = pascal_case(name);
                let mut cs = pascal.chars();
                cs.next()
                    .map(|c| c.to_lowercase().chain(cs).collect())
                    .unwrap_or_default()
            }
        }
    }

    /// The convention most of `names` that have two or more words follow; snake_case on a
    /// tie or when none has two words.
    pub fn dominant<'a>(names: impl IntoIterator<Item = &'a str>) -> Convention {
        let mut counts = [0usize; 3];
        for name in names {
            if word_count(name) < 2 {
                continue;
            }
            for (i, c) in Convention::ALL.into_iter().enumerate() {
                if c.matches(name) {
                    counts[i] += 1;
                }
            }
        }
        let best = counts.iter().copied().max().unwrap_or(0);
        let winners: Vec<usize> = (0..3).filter(|i| counts[*i] == best).collect();
        match winners.as_slice() {
            [one] => Convention::ALL[*one],
            _ => Convention::Snake,
        }
    }
}

/// Words Rust reserves in edition 2024 (strict, reserved and edition keywords). Most can be
/// used raw (`r#type`); those in [`NOT_RAW`] cannot.
const RUST_KEYWORDS: &[&str] = &[
    "Self", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub",
    "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that are not allowed as raw identifiers.
const NOT_RAW: &[&str] = &["Self", "crate", "self", "super", "_"];

/// The longest catalog name [`is_catalog_name`] accepts.
pub const MAX_CATALOG_NAME: usize = 64;

/// Whether `name` can name a catalog: ASCII letters, digits, `-` and `_`, starting with a
/// letter or digit, at most [`MAX_CATALOG_NAME`] characters. The name becomes file names
/// (`NAME.lock`, `NAME.md`, `NAME.rs`) beside the catalog or in an output folder, so nothing
/// that could climb out of a folder (`..`, `/`), be empty, or read as an option is allowed.
pub fn is_catalog_name(name: &str) -> bool {
    name.len() <= MAX_CATALOG_NAME
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
}

/// Whether `ident` is a Rust keyword (so it needs `r#` or a suffix).
pub fn is_rust_keyword(ident: &str) -> bool {
    RUST_KEYWORDS.contains(&ident)
}

/// Case conventions for [`rust_ident`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// `snake_case`: fields, functions, modules.
    Snake,
    /// `PascalCase`: types and enum variants.
    Pascal,
    /// `SCREAMING_SNAKE_CASE`: constants.
    ScreamingSnake,
}

/// A valid Rust identifier in `case` for any catalog name, as the text of the identifier
/// (`r#type` for a keyword that can be raw; `self_` for one that cannot).
///
/// Names with no alphanumeric character become `_` + a fallback (`x`/`X`); a leading digit
/// gets a prefix (`_2fa_code` for a field, `V2fa` for a type), so the result always starts
/// with a letter or `_`. The result is deterministic; callers that need distinct names for
/// distinct catalog names resolve collisions themselves ([`Unique`]).
pub fn rust_ident(name: &str, case: Case) -> String {
    let mut s = match case {
        Case::Snake => snake_case(name),
        Case::Pascal => pascal_case(name),
        Case::ScreamingSnake => screaming_snake_case(name),
    };
    // Non-ASCII letters are valid in Rust identifiers only when they are XID characters;
    // keep ASCII alone so generated code reads the same on every terminal and tool.
    s = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if case == Case::Pascal && s.contains('_') {
        // `Über` → `_ber` → `Ber`: an underscore in a type name is a rustc warning.
        s = pascal_case(&s);
    }
    if s.trim_matches('_').is_empty() {
        s = match case {
            Case::Snake => "x".to_string(),
            Case::Pascal => "X".to_string(),
            Case::ScreamingSnake => "X".to_string(),
        } + &s;
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = match case {
            Case::Pascal => format!("V{s}"),
            Case::Snake | Case::ScreamingSnake => format!("_{s}"),
        };
    }
    if NOT_RAW.contains(&s.as_str()) {
        s.push('_');
    } else if is_rust_keyword(&s) {
        s.insert_str(0, "r#");
    }
    s
}

/// Hands out identifiers that are distinct within one scope: the second `invoice-id` next
/// to an `invoice_id` becomes `invoice_id_2`, in the order names are offered, so the same
/// catalog always gets the same names.
#[derive(Debug, Default, Clone)]
pub struct Unique {
    taken: std::collections::HashSet<String>,
}

impl Unique {
    /// An empty scope.
    pub fn new() -> Unique {
        Unique::default()
    }

    /// A scope in which `reserved` are already taken (e.g. `Input`, `Output`, `Error`).
    pub fn with_reserved<'a>(reserved: impl IntoIterator<Item = &'a str>) -> Unique {
        Unique {
            taken: reserved.into_iter().map(str::to_string).collect(),
        }
    }

    /// Whether `ident` is still free in this scope.
    pub fn is_free(&self, ident: &str) -> bool {
        !self.taken.contains(bare(ident))
    }

    /// The first of `candidates` still free, else the last numbered (`claim`).
    pub fn claim_first(&mut self, candidates: &[String], case: Case) -> String {
        let free = candidates.iter().find(|c| self.is_free(c));
        let pick = free.or(candidates.last()).cloned().unwrap_or_default();
        self.claim(pick, case)
    }

    /// `ident` if still free in this scope, else `ident_2`, `ident_3`, … (`Ident2` in
    /// Pascal case), which is then taken.
    pub fn claim(&mut self, ident: String, case: Case) -> String {
        if self.taken.insert(bare(&ident).to_string()) {
            return ident;
        }
        // `Self_` and `self_` (keyword escapes) number as `Self2` and `self_2`.
        let bare_ident = bare(&ident);
        let trimmed = bare_ident.trim_end_matches('_');
        let base = if trimmed.is_empty() {
            bare_ident
        } else {
            trimmed
        }
        .to_string();
        let mut n = 2u32;
        loop {
            let candidate = match case {
                Case::Pascal => format!("{base}{n}"),
                Case::Snake | Case::ScreamingSnake => format!("{base}_{n}"),
            };
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

/// `r#type` → `type`: raw and plain spellings name the same identifier.
fn bare(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions_match_as_their_words_say() {
        // The word-by-word definition, against the one-pass test, on every short name.
        let by_words = |c: Convention, name: &str| {
            let word = |w: &str| {
                !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            };
            name.starts_with(|c: char| c.is_ascii_lowercase())
                && match c {
                    Convention::Snake => name.split('_').all(word),
                    Convention::Kebab => name.split('-').all(word),
                    Convention::Camel => name.bytes().all(|b| b.is_ascii_alphanumeric()),
                }
        };
        let alphabet = ["a", "B", "1", "_", "-", "é"];
        let mut names = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = names
                .iter()
                .flat_map(|n| alphabet.iter().map(move |c| format!("{n}{c}")))
                .collect();
            names.extend(longer);
        }
        for name in &names {
            for c in Convention::ALL {
                assert_eq!(c.matches(name), by_words(c, name), "{c:?} {name:?}");
            }
        }
    }

    #[test]
    fn ascii_words_split_as_the_general_splitter() {
        // Every name of up to five chars over letters of both cases, digits and separators.
        let alphabet = ['a', 'b', 'A', 'B', '1', '_', '-', ' '];
        let mut names = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = names
                .iter()
                .filter(|n| n.len() == names.last().map_or(0, String::len))
                .flat_map(|n| alphabet.iter().map(move |c| format!("{n}{c}")))
                .collect();
            names.extend(longer);
        }
        for name in names
            .iter()
            .chain(&["HTTPServerID".to_string(), "getURLs2FA".to_string()])
        {
            assert_eq!(ascii_words(name), unicode_words(name), "{name:?}");
            assert_eq!(word_count(name), unicode_words(name).len(), "{name:?}");
        }
    }

    #[test]
    fn words_ignore_case_and_separators() {
        for name in [
            "tenant_id",
            "tenantId",
            "TenantId",
            "TENANT-ID",
            "tenant.id",
            "Tenant ID",
            "TENANT_ID",
        ] {
            assert_eq!(words(name), ["tenant", "id"], "{name}");
        }
        assert_eq!(words("APIKey"), ["api", "key"]);
        assert_eq!(words("HTTPServer2"), ["http", "server2"]);
        assert_eq!(words("isSuperAdmin"), ["is", "super", "admin"]);
        assert_eq!(words("oauth2Token"), ["oauth2", "token"]);
        assert_eq!(words("address_line2"), ["address", "line2"]);
        assert_eq!(words("runSql"), ["run", "sql"]);
        assert_eq!(words("invoice_list2"), ["invoice", "list2"]);
        assert_eq!(words("__x__"), ["x"]);
        assert!(words("").is_empty());
        assert!(words("__").is_empty());
    }

    #[test]
    fn cases() {
        assert_eq!(snake_case("InvoiceList"), "invoice_list");
        assert_eq!(pascal_case("invoice_list"), "InvoiceList");
        assert_eq!(pascal_case("APIKey"), "ApiKey");
        assert_eq!(kebab_case("tenantId"), "tenant-id");
        assert_eq!(screaming_snake_case("tenantId"), "TENANT_ID");
    }

    #[test]
    fn rust_idents_are_always_valid() {
        assert_eq!(rust_ident("type", Case::Snake), "r#type");
        assert_eq!(rust_ident("self", Case::Snake), "self_");
        assert_eq!(rust_ident("Self", Case::Pascal), "Self_");
        assert_eq!(rust_ident("super", Case::Snake), "super_");
        assert_eq!(rust_ident("2fa_code", Case::Snake), "_2fa_code");
        assert_eq!(rust_ident("2fa", Case::Pascal), "V2fa");
        assert_eq!(rust_ident("", Case::Snake), "x");
        assert_eq!(rust_ident("--", Case::Pascal), "X");
        assert_eq!(rust_ident("café_total", Case::Snake), "caf__total");
        assert_eq!(rust_ident("über_item", Case::Pascal), "BerItem");
        assert_eq!(rust_ident("ß", Case::Pascal), "SS");
        assert_eq!(rust_ident("ßü", Case::Pascal), "Ss");
        assert_eq!(rust_ident("invoice-id", Case::ScreamingSnake), "INVOICE_ID");
        for name in [
            "type", "2fa", "", "self", "match", "über", "a b", "_", "async",
        ] {
            for case in [Case::Snake, Case::Pascal, Case::ScreamingSnake] {
                let id = rust_ident(name, case);
                let plain = id.strip_prefix("r#").unwrap_or(&id);
                assert!(
                    plain.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'),
                    "{name:?} → {id}"
                );
                assert!(plain.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
                assert!(id.starts_with("r#") || !is_rust_keyword(&id), "{id}");
            }
        }
    }

    #[test]
    fn unique_resolves_collisions_in_order() {
        let mut u = Unique::with_reserved(["Input"]);
        assert_eq!(u.claim("Input".into(), Case::Pascal), "Input2");
        assert_eq!(u.claim("invoice_id".into(), Case::Snake), "invoice_id");
        assert_eq!(u.claim("invoice_id".into(), Case::Snake), "invoice_id_2");
        assert_eq!(u.claim("r#type".into(), Case::Snake), "r#type");
        assert_eq!(u.claim("type".into(), Case::Snake), "type_2");
        assert_eq!(u.claim("Self_".into(), Case::Pascal), "Self_");
        assert_eq!(u.claim("Self_".into(), Case::Pascal), "Self2");
        assert_eq!(u.claim("self_".into(), Case::Snake), "self_");
        assert_eq!(u.claim("self_".into(), Case::Snake), "self_2");
        let pick =
            |u: &mut Unique| u.claim_first(&["Status".into(), "OutputStatus".into()], Case::Pascal);
        assert_eq!(pick(&mut u), "Status");
        assert_eq!(pick(&mut u), "OutputStatus");
        assert_eq!(pick(&mut u), "OutputStatus2");
    }
}
