//! The proof that printing never changes what generated code means: the printed text, read
//! back into tokens, is the token stream `quote!` built, token for token. Only whitespace
//! may differ, and the two spellings a token has: `#[doc = "…"]` printed as a `///` line
//! (read back as a `doc` attribute again) and a string literal escaped another way (compared
//! by value); and generics closing together may print glued (`>>`, see [`same`]). The spacing of a punctuation character is compared wherever the next one could
//! fuse with it, because there it decides the operator (`- >` is not `->`, `& &x` is not
//! `&&x`).
//!
//! Used by the codegen unit tests on the example and hostile catalogs and by the codegen fuzz
//! target on any catalog (`test-support`), so no release build carries it.

use super::print::string_value;
use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use std::str::FromStr;

/// One token of a flattened stream, in the form that decides its meaning.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Open(Delimiter),
    Close(Delimiter),
    Ident(String),
    /// The character, and when the next one could fuse with it: that one and whether the two
    /// are glued.
    Punct(char, Option<(char, bool)>),
    /// A string literal by value (plain or raw).
    Str(String),
    /// Any other literal as written.
    Lit(String),
}

/// `Ok` when `printed` reads back as exactly `built`; else where the first difference is,
/// with the tokens around it.
pub(super) fn same_tokens(built: TokenStream, printed: &str) -> Result<(), String> {
    let read = TokenStream::from_str(printed)
        .map_err(|e| format!("the printed code does not tokenize: {e}"))?;
    let (mut want, mut got) = (Vec::new(), Vec::new());
    flatten(built, &mut want);
    flatten(read, &mut got);
    let first = want.iter().zip(&got).position(|(a, b)| !same(a, b));
    let at = match first {
        Some(i) => i,
        None if want.len() == got.len() => return Ok(()),
        None => want.len().min(got.len()),
    };
    let around = |toks: &[Tok]| {
        let from = at.saturating_sub(8);
        toks[from..(at + 8).min(toks.len())]
            .iter()
            .map(|t| format!("{t:?}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    Err(format!(
        "token {at} of {} built / {} printed differs\n  built:   {}\n  printed: {}",
        want.len(),
        got.len(),
        around(&want),
        around(&got)
    ))
}

/// Whether printed token `got` means what built token `want` does. Equal tokens do; so does
/// a `>` glued to a following `>` that was built apart: `> >` is only valid where the first
/// closes generics (no operator starts with `>`), and there the parser splits a `>>` as well
/// (`Vec<Vec<u8>>`).
fn same(want: &Tok, got: &Tok) -> bool {
    want == got
        || matches!(
            (want, got),
            (
                Tok::Punct('>', Some(('>', false))),
                Tok::Punct('>', Some(('>', true)))
            )
        )
}

fn flatten(tokens: TokenStream, out: &mut Vec<Tok>) {
    let mut it = tokens.into_iter().peekable();
    while let Some(tree) = it.next() {
        match tree {
            TokenTree::Group(g) => {
                out.push(Tok::Open(g.delimiter()));
                flatten(g.stream(), out);
                out.push(Tok::Close(g.delimiter()));
            }
            TokenTree::Ident(id) => out.push(Tok::Ident(id.to_string())),
            TokenTree::Punct(p) => {
                let joint = match it.peek() {
                    Some(TokenTree::Punct(next)) if fuses(p.as_char(), next.as_char()) => {
                        Some((next.as_char(), p.spacing() == Spacing::Joint))
                    }
                    _ => None,
                };
                out.push(Tok::Punct(p.as_char(), joint));
            }
            TokenTree::Literal(lit) => {
                let repr = lit.to_string();
                // A negative number built as one literal reads back as `-` and the number.
                let repr = match repr.strip_prefix('-') {
                    Some(rest) => {
                        out.push(Tok::Punct('-', None));
                        rest.to_string()
                    }
                    None => repr,
                };
                out.push(match string_value(&repr) {
                    Some(value) => Tok::Str(value),
                    None => Tok::Lit(repr),
                });
            }
        }
    }
}

/// Whether `a` glued to `b` starts one of Rust's multi-character operators (`->`, `::`,
/// `&&`, `>>=`, `..=` …): only there does the spacing between them change the meaning.
fn fuses(a: char, b: char) -> bool {
    matches!(
        (a, b),
        (
            '+' | '-' | '*' | '/' | '%' | '^' | '!' | '=' | '<' | '>' | '&' | '|' | '.',
            '='
        ) | ('-' | '=', '>')
            | ('<', '<' | '-')
            | ('>', '>')
            | ('&', '&')
            | ('|', '|')
            | ('.', '.')
            | (':', ':')
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn spelling_and_whitespace_do_not_count() {
        let built = quote! {
            #[doc = " a \"doc\""]
            pub fn f<'a>(x: &'a str) -> __rt::Vec<__rt::Vec<u8>> { g(-1, "t\u{e9}", r#"x"#) }
        };
        let printed = "/// a \"doc\"\npub fn f<'a>(x: &'a str)->__rt::Vec<__rt::Vec<u8>> {\n    g( - 1, \"té\", \"x\")\n}\n";
        assert_eq!(same_tokens(built, printed), Ok(()));
    }

    #[test]
    fn a_changed_token_operator_or_delimiter_is_found() {
        let built = quote! { fn f() -> A { a && b } };
        for printed in [
            "fn f() - > A { a && b }",
            "fn f() -> A { a & & b }",
            "fn f() -> A ( a && b )",
            "fn f() -> A { a && b, }",
            "fn f() -> A { a && c }",
            "fn f() -> A { a && b",
        ] {
            let found = same_tokens(built.clone(), printed);
            assert!(found.is_err(), "{printed} passed");
        }
        let built = quote! { f(x,) };
        assert!(same_tokens(built, "f(x)").is_err());
        // Generics closing together may glue; a shift may not come apart.
        let built = quote! { type A = Vec<Vec<u8> >; const B: u8 = 1 >> 2; };
        assert_eq!(
            same_tokens(
                built.clone(),
                "type A = Vec<Vec<u8>>; const B: u8 = 1 >> 2;"
            ),
            Ok(())
        );
        assert!(same_tokens(built, "type A = Vec<Vec<u8>>; const B: u8 = 1 > > 2;").is_err());
    }

    #[test]
    fn string_values_decode_every_escape() {
        assert_eq!(
            string_value(r#""a\n\t\\\"\'\x41\u{1F600}\0""#).as_deref(),
            Some("a\n\t\\\"'A\u{1F600}\0")
        );
        assert_eq!(string_value("\"a\\\n    b\"").as_deref(), Some("ab"));
        assert_eq!(string_value(r###"r##"x"#y"##"###).as_deref(), Some("x\"#y"));
        assert_eq!(string_value("1u8"), None);
        assert_eq!(string_value("'c'"), None);
        assert_eq!(string_value(r#"b"x""#), None);
    }
}
