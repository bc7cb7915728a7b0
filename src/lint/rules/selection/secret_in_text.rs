//! The `selection/secret-in-text` rule: no credential (API key, token, private key, password, URL
//! user info) in any text; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::text::{Text, pattern, pattern_set, sub_span};
use crate::lint::walk::Site;
use crate::lint::{Context, Finding, RuleState};
use crate::model::{Catalog, Literal, Sp, Span, Tool};
use regex::{Regex, RegexSet};
use std::ops::Range;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Looks for credentials in every text of a catalog: the catalog summary, tool titles,
    /// summaries, when / when-not, field and type docs, string defaults and enum values, error
    /// messages and next steps, needs-input docs, `call` / `no-call` examples and deprecation
    /// reasons. A text is reported when it matches one of these patterns:
    ///
    /// | pattern | matches | does not match |
    /// |---|---|---|
    /// | API key `sk-…` | `sk-` (optionally `proj-`, `live-`, `test-`) and 20+ key characters holding a digit | `sk-ills`, `sk-learn` |
    /// | AWS access key ID | `AKIA` or `ASIA` and exactly 16 upper-case letters or digits | `AKIA` alone, `AKIAEXAMPLE` |
    /// | GitHub token | `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` and 36+ letters or digits; `github_pat_` and 22+ | `ghp_short` |
    /// | private key | `-----BEGIN … KEY-----` (RSA, EC, OPENSSH, PGP, encrypted, plain) followed by key material (40+ base64 characters) | `-----BEGIN CERTIFICATE-----`; the header alone, naming the expected file format |
    /// | password assignment | `password`, `passwd`, `pwd`, `secret`, `api_key`, `api-key`, `apikey`, `access_token`, `client_secret`, `auth_token` followed by `=` or `:` and a value (not a `<placeholder>`, `{template}`, `$VARIABLE` or `***`) | `the password: ask the user`, `password=<your password>` |
    /// | bearer token | `Bearer` and a 20+ character token holding a letter and a digit | `a Bearer token in the header` |
    /// | JSON Web Token | `eyJ…` three dot-separated base64url parts | `eyJ` alone |
    /// | long hex run | 32+ hex digits holding both a digit and a letter | 31 hex digits, a long decimal number; a run labelled as an identifier in the 40 characters before it (`eventId='…'`, `trace ID e.g. …`, `commit …`, `"version": "…"`, a `/versions/…` or `/blob/…` URL path) |
    /// | long base64 run | 40+ base64 characters holding upper-case, lower-case and a digit, with `/` at most once every 10 characters | a long lower-case identifier, a `/a/b/c` path; a run labelled as an identifier or a cursor in the 40 characters before it (`?cursor=…`) |
    /// | URL with user info | `scheme://user@host` or `scheme://user:password@host` | `https://example.com/path@v2`, `ops@example.com` |
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) a long hex or base64 run, a guess
    /// from its look alone, is `info`: there such runs are example IDs and hashes far more
    /// often than keys. The token formats above keep the rule's level.
    ///
    /// The message names the pattern but never repeats the matched text. A 32-digit hex example
    /// of an event, trace or commit ID is what real servers write to show the format, so a run
    /// labelled as an identifier is not reported; an unlabelled one still is. Nor is a match
    /// that shows a format or a public value rather than a credential: a blockchain address
    /// (`0x` and 40 hex digits), a run of four or fewer distinct
    /// characters (`AC00000000000000000000000000000000`), or URL user info made of template
    /// words (`user:password`, `USERNAME:PASSWORD`) or written as a `<placeholder>`,
    /// `{template}` or `$VARIABLE`.
    ///
    /// ## Why is this bad?
    /// Catalog texts are sent to every model, client and log that lists the tools, and are
    /// committed to the repository: a credential written there is leaked to all of them. Even an
    /// "example" key teaches the model to pass keys in arguments.
    ///
    /// ## Example
    /// ```kdl
    /// tool "report_fetch" version="1.0.0" {
    ///     summary "Fetch a report from https://svc:hunter2@reports.example.com."
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "report_fetch" version="1.0.0" {
    ///     summary "Fetch a monthly sales report of the authenticated tenant."
    ///     // …
    /// }
    /// ```
    pub static RULE = Rule {
        id: "selection/secret-in-text",
        level: Level::Error,
        summary: "no credential (API key, token, private key, password, URL user info) in any text",
        hooks: crate::lint::Hooks::state(|_| Box::<Defaults>::default()).and_prepare(|| {
            LazyLock::force(&SCREEN);
        }),
    };
}

struct Pattern {
    /// For messages: "an AWS access key ID".
    name: &'static str,
    regex: &'static str,
    /// Extra test on the match, for what a regex says badly (mixed character classes).
    accept: fn(&str) -> bool,
}

fn any(_: &str) -> bool {
    true
}

fn has_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
}

fn has_letter_and_digit(s: &str) -> bool {
    has_digit(s) && s.bytes().any(|b| b.is_ascii_alphabetic())
}

fn hex_mixed(s: &str) -> bool {
    has_digit(s) && s.bytes().any(|b| matches!(b, b'a'..=b'f' | b'A'..=b'F'))
}

fn base64_like(s: &str) -> bool {
    let slashes = s.bytes().filter(|&b| b == b'/').count();
    s.bytes().any(|b| b.is_ascii_uppercase())
        && s.bytes().any(|b| b.is_ascii_lowercase())
        && has_digit(s)
        && slashes * 10 <= s.len()
}

fn key_part_has_digit(s: &str) -> bool {
    has_digit(s.trim_start_matches("sk-"))
}

static PATTERNS: [Pattern; 10] = [
    Pattern {
        name: "an API secret key (`sk-…`)",
        regex: r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}",
        accept: key_part_has_digit,
    },
    Pattern {
        name: "an AWS access key ID (`AKIA…`)",
        regex: r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
        accept: any,
    },
    Pattern {
        name: "a GitHub token (`ghp_…`)",
        regex: r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
        accept: any,
    },
    Pattern {
        name: "a private key (`-----BEGIN … KEY-----`)",
        regex: r"-----BEGIN (?:[A-Z0-9]+ )*KEY(?: BLOCK)?-----\s*[A-Za-z0-9+/=\s]{40,}",
        accept: any,
    },
    Pattern {
        name: "a password or secret assignment (`password=…`)",
        regex: r#"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)(?:\s*=\s*|:)[^\s"'<>{}$*,;]+"#,
        accept: any,
    },
    Pattern {
        name: "a bearer token",
        regex: r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*",
        accept: has_letter_and_digit,
    },
    Pattern {
        name: "a JSON Web Token (`eyJ…`)",
        regex: r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        accept: any,
    },
    Pattern {
        name: "a long hexadecimal run (32+ digits)",
        regex: r"\b[0-9A-Fa-f]{32,}\b",
        accept: hex_mixed,
    },
    Pattern {
        name: "a long base64 run (40+ characters)",
        regex: r"[A-Za-z0-9+/]{40,}={0,2}",
        accept: base64_like,
    },
    Pattern {
        name: "a URL with user info (`scheme://user:password@host`)",
        regex: r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@]+@[^\s/?#@]+",
        accept: any,
    },
];

/// The index of the long-hex pattern in [`PATTERNS`].
const HEX: usize = 7;
const BASE64: usize = 8;
const USER_INFO: usize = 9;

/// Words that stand for a credential in a format template (`mysql://user:password@host`).
const TEMPLATE_WORDS: &[&str] = &[
    "user", "username", "login", "name", "password", "pass", "passwd", "pwd", "secret", "token",
    "your",
];

/// A match that shows a format or a public value rather than a credential: a blockchain
/// address (`0x` and 40 hex digits), a run of (nearly) one repeated
/// character (`AC00000000000000000000000000000000`), or URL user info made of template
/// words (`user:password`) or written as a `<placeholder>`, `{template}` or `$VARIABLE`.
fn placeholder(pattern: usize, m: &str) -> bool {
    // A `0x` and 40 hex digits is a blockchain address, public by design.
    if let Some(hex) = m.strip_prefix("0x")
        && hex.len() == 40
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return true;
    }
    if pattern == USER_INFO {
        let info = m.split("://").nth(1).and_then(|rest| rest.split('@').next()).unwrap_or("");
        return info.contains(['<', '{', '$', '*', '['])
            || info
                .split([':', '_', '-', '.'])
                .all(|w| TEMPLATE_WORDS.contains(&w.to_ascii_lowercase().as_str()));
    }
    let mut seen = [false; 256];
    for b in m.bytes() {
        seen[usize::from(b)] = true;
    }
    seen.iter().filter(|&&s| s).count() <= 4
}

/// Words that label a hex run as an identifier rather than a key.
const ID_LABELS: &[&str] = &[
    "id", "ids", "trace", "event", "span", "profile", "profiler", "commit", "sha", "hash",
    "digest", "checksum", "version", "versions", "blob", "cursor",
];

/// The 40 characters before a match, on its line, name an identifier (`eventId='`, `The
/// trace ID. e.g. `).
fn labelled_id(before: &str) -> bool {
    let line = before.rsplit('\n').next().unwrap_or("");
    let start = line
        .char_indices()
        .rev()
        .nth(39)
        .map_or(0, |(i, _)| i);
    crate::names::words(&line[start..])
        .iter()
        .any(|w| ID_LABELS.contains(&w.as_str()))
}

static REGEXES: LazyLock<Vec<Regex>> =
    LazyLock::new(|| PATTERNS.iter().map(|p| pattern(p.regex)).collect());

/// All patterns in one automaton: most texts hold no secret, and one pass over them says so.
static SCREEN: LazyLock<RegexSet> =
    LazyLock::new(|| pattern_set(PATTERNS.iter().map(|p| p.regex)));

/// Whether some pattern of [`PATTERNS`] may match `text`: `false` only when none can, from
/// what every match holds in an ASCII text. The password pattern needs `=` or `:`, the
/// URL one `://`; the private key begins with `-----BEGIN `; every other pattern needs 20
/// or more characters in a row of `A-Z a-z 0-9 . _ ~ + / -` (a bearer token's, the
/// shortest, 20 of them; a key's prefix and the dots of a JWT are among them too). A text
/// with a non-ASCII character is left to the patterns: under `(?i)` letters fold to some
/// (`ſ`, the Kelvin sign), and `\s` matches more spaces. Most texts are short prose that
/// this one byte pass clears, far cheaper than running the automaton of all the patterns.
fn may_hold_secret(text: &str) -> bool {
    // Per byte: 1 continues a run, 2 decides at once, 0 ends a run.
    const CLASS: [u8; 256] = {
        let mut class = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            class[b] = if c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'~' | b'+' | b'/' | b'-') {
                1
            } else if c >= 0x80 || c == b'=' || c == b':' {
                2
            } else {
                0
            };
            b += 1;
        }
        class
    };
    let mut run = 0u32;
    // Checked once a block rather than at each byte: the loop over a block has no exit.
    for block in text.as_bytes().chunks(32) {
        let mut decided = false;
        for &b in block {
            let class = CLASS[usize::from(b)];
            run = if class == 1 { run + 1 } else { 0 };
            decided |= class == 2 || run >= 20;
        }
        if decided {
            return true;
        }
    }
    text.contains("-----BEGIN ")
}

/// Every match of every pattern in `text`, as (pattern name, byte range), in pattern order.
fn find_secrets(text: &str) -> Vec<(&'static str, Range<usize>)> {
    let mut found = Vec::new();
    // Which patterns match needs a pass that runs to the end of the text; whether any does,
    // one that stops at the first: most texts hold no secret.
    if !may_hold_secret(text) || !SCREEN.is_match(text) {
        return found;
    }
    for i in SCREEN.matches(text).iter() {
        let (Some(p), Some(regex)) = (PATTERNS.get(i), REGEXES.get(i)) else {
            continue;
        };
        for m in regex.find_iter(text) {
            if (p.accept)(m.as_str())
                && !((i == HEX || i == BASE64) && labelled_id(&text[..m.start()]))
                && !placeholder(i, m.as_str())
            {
                found.push((p.name, m.range()));
            }
        }
    }
    found
}

fn report(cx: &Context, catalog: &Catalog, tool: Option<&Tool>, what: &str, path: Option<&str>, name: &str, span: Span) -> Finding {
    let message = format!("{what} holds what looks like {name}");
    // A long hex or base64 run is a guess from its look alone; on a published list these are
    // example IDs and hashes far more often than keys, so they are advice there. A token of a
    // known format keeps the rule's level everywhere.
    let guessed = name.starts_with("a long");
    let mut f = match tool {
        Some(t) => Finding::in_tool(catalog, t, span, message),
        None => Finding::in_catalog(catalog, span, message),
    }
    .help(if guessed {
        "remove the credential from the catalog (and revoke it if it is real); if it is an example ID or hash, shorten it (`c49541…`) so it cannot be mistaken for one"
    } else {
        "remove the credential from the catalog (and revoke it if it is real); take credentials from the server's configuration, never from catalog text"
    });
    if let Some(p) = path {
        f = f.path(p);
    }
    if cx.config.published && guessed { f.level(Level::Info) } else { f }
}

/// The findings in string `default=` values of the current catalog: reported after every
/// text of the catalog, as a default is a value rather than a text.
#[derive(Default)]
struct Defaults(Vec<Finding>);

impl<'a> RuleState<'a> for Defaults {
    fn text(&mut self, cx: &Context<'a>, t: &Text<'a, '_>, out: &mut Vec<Finding>) {
        for (name, range) in find_secrets(&t.text.value) {
            let span = sub_span(cx, t.catalog.file, t.text, range);
            out.push(report(cx, t.catalog, t.tool, t.what, t.path, name, span));
        }
    }

    fn declaration(&mut self, cx: &Context<'a>, site: &Site<'a, '_>, _: &mut Vec<Finding>) {
        let Some(Sp { value: Literal::String(value), span }) = site.field.and_then(|field| field.default.as_deref()) else {
            return;
        };
        let lit = Sp::new(value.to_string(), *span);
        for (name, range) in find_secrets(value) {
            let span = sub_span(cx, site.catalog.file, &lit, range);
            let what = format!("the default of `{}`", site.path);
            self.0.push(report(cx, site.catalog, site.tool, &what, Some(site.path), name, span));
        }
    }

    fn catalog_done(&mut self, _: &Context<'a>, _: &'a Catalog, out: &mut Vec<Finding>) {
        out.append(&mut self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testkit::texts::*;

    fn names(text: &str) -> Vec<&'static str> {
        find_secrets(text).into_iter().map(|(n, _)| n).collect()
    }

    fn fires(text: &str, pattern: &str) {
        assert!(
            names(text).iter().any(|n| n.contains(pattern)),
            "{text:?} should match {pattern}: {:?}",
            names(text)
        );
    }

    fn quiet(text: &str) {
        assert!(names(text).is_empty(), "{text:?}: {:?}", names(text));
    }

    /// The byte screen clears no text the patterns match: ASCII texts pieced together from
    /// the patterns' parts, most of which some pattern matches.
    #[test]
    fn the_screen_passes_every_text_a_pattern_matches() {
        let parts = [
            "sk-", "proj-", "AKIA", "ASIA", "ghp_", "github_pat_", "-----BEGIN ", "RSA ", "KEY",
            "-----", " BLOCK", "eyJ", ".", "bearer ", "Bearer\t", "password", "PWD", "api-key",
            "=", " = ", ":", "://", "@", " ", "\n", "abc", "XYZ", "0123456789", "deadbeef",
            "+/", "~", "_", "-", "A", "z", "9", "QUJDREVGR0hJSktMTU5PUFFSU1RVVldY", "==", ",",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut matched, mut cleared) = (0, 0);
        for _ in 0..4000 {
            let n = 1 + next() % 24;
            let text: String = (0..n).map(|_| parts[(next() % parts.len() as u64) as usize]).collect();
            let matches = SCREEN.is_match(&text);
            assert!(!matches || may_hold_secret(&text), "{text:?}");
            matched += usize::from(matches);
            cleared += usize::from(!may_hold_secret(&text));
        }
        assert!(matched > 500 && cleared > 500, "{matched} matched, {cleared} cleared");
    }

    #[test]
    fn sk_keys() {
        fires("key sk-proj-4fT9aQ2LmX7pZ1cV8bN3 here", "sk-");
        fires("sk-abcdefghij0123456789abcd", "sk-");
        quiet("Teaches new sk-ills and sk-learning-resources-for-everyone.");
    }

    #[test]
    fn aws_keys() {
        fires("AKIAIOSFODNN7EXAMPLE", "AWS");
        fires("id ASIAY34FZKBOKMUTVV7A.", "AWS");
        quiet("AKIA keys start with AKIA; AKIAEXAMPLE is not one.");
    }

    #[test]
    fn github_tokens() {
        fires("ghp_1234567890abcdefghijABCDEFGHIJ123456", "GitHub");
        fires("github_pat_11ABCDEFG0123456789_abcdefghijkl", "GitHub");
        quiet("ghp_short is a prefix only");
    }

    #[test]
    fn private_keys() {
        let body = "MIIEowIBAAKCAQEA7vbqajDw4o6gJy8UtmIbkcpnkO3Kwc4qsEnSZp";
        fires(&format!("-----BEGIN RSA PRIVATE KEY-----\n{body}"), "private key");
        fires(&format!("-----BEGIN OPENSSH PRIVATE KEY----- {body}"), "private key");
        fires(&format!("-----BEGIN PGP PRIVATE KEY BLOCK-----\n{body}"), "private key");
        quiet("-----BEGIN CERTIFICATE-----");
        quiet("The file must start with `-----BEGIN PRIVATE KEY-----` or `-----BEGIN RSA PRIVATE KEY-----`.");
    }

    #[test]
    fn password_assignments() {
        fires("connect with password=hunter2", "password");
        fires("PASSWD:s3cr3t", "password");
        fires("api_key = abc123", "password");
        quiet("Ask the user for the password: never guess it.");
        quiet("Send password=<your password> in the form.");
        quiet("client_secret={from the vault}");
    }

    #[test]
    fn bearer_tokens() {
        fires("Authorization: Bearer 4fT9aQ2LmX7pZ1cV8bN3xY", "bearer");
        quiet("Expects a Bearer token in the Authorization header.");
        quiet("bearer authentication_is_required_here_always");
    }

    #[test]
    fn json_web_tokens() {
        fires(
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "JSON Web Token",
        );
        quiet("tokens start with eyJ and have three parts");
    }

    #[test]
    fn hex_is_the_long_hex_pattern() {
        assert!(PATTERNS[HEX].name.contains("hexadecimal"));
    }

    #[test]
    fn long_hex_runs() {
        fires("token 4f3c2a1b9e8d7c6b5a4f3c2a1b9e8d7c", "hex");
        quiet("eventId='4f3c2a1b9e8d7c6b5a4f3c2a1b9e8d7c'");
        quiet("The trace ID. e.g. `4f3c2a1b9e8d7c6b5a4f3c2a1b9e8d7c`");
        quiet("4f3c2a1b9e8d7c6b5a4f3c2a1b9e8d7");
        quiet("12345678901234567890123456789012345");
        quiet("Account SID, e.g. AC00000000000000000000000000000000");
        quiet(r#"{"version": "5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa"}"#);
        quiet("https://api.example.com/v1/models/a/b/versions/5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa");
        quiet("the contract address (e.g., '0xBC4CA0EdA7647A8aB7C2061c2E118A18a936f13D')");
    }

    #[test]
    fn long_base64_runs() {
        fires("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY12", "base64");
        quiet("anextremelylongwordwithoutanyuppercaseordigits1");
        quiet("/Users/Alice/Documents/Project2/Reports/Q3/Summary");
        quiet("https://api.example.com/v1/deployments?cursor=cD0yMDIzLTA2LTA2KzIzJTNBNDAlM0EwOC45NjMwMDAlMkIwMCUzQTAw");
    }

    #[test]
    fn urls_with_user_info() {
        fires("https://svc:hunter2@reports.example.com/x", "user info");
        fires("postgres://admin@db.example.com", "user info");
        quiet("https://example.com/path@v2 and ops@example.com");
        quiet("format: mysql://user:password@host:port/name");
        quiet("postgres://<user>:<password>@db.example.com/app");
        quiet("postgres://USERNAME:PASSWORD@db.example.com/app");
    }

    #[test]
    fn placeholder_patterns_are_indexed_by_name() {
        assert!(PATTERNS[USER_INFO].name.contains("user info"));
        assert!(PATTERNS[BASE64].name.contains("base64"));
    }

    #[test]
    fn a_published_list_reports_a_guessed_run_as_info_and_a_known_token_at_the_rules_level() {
        let t = summarised(
            "deploy",
            "Pins 4f3c2a1b9e8d7c6b5a4f3c2a1b9e8d7c and calls with AKIAIOSFODNN7EXAMPLE.",
        );
        let project = crate::model::Project {
            catalogs: vec![catalog("test", vec![t])],
        };
        let found = run_with(&RULE, &project, &crate::lint::testkit::sites::published());
        let levels: Vec<(Option<crate::diag::Level>, bool)> =
            found.iter().map(|f| (f.level, f.message.contains("hexadecimal"))).collect();
        assert_eq!(levels, [(None, false), (Some(crate::diag::Level::Info), true)]);
        assert!(run_with(&RULE, &project, &Default::default()).iter().all(|f| f.level.is_none()));
    }

    #[test]
    fn checks_every_kind_of_text() {
        use crate::model::*;
        let key = "AKIAIOSFODNN7EXAMPLE";
        let mut t = tool("ledger_entry_list");
        t.title = s(key).map(Box::new);
        t.when_not = s(key);
        let mut e = error("LEDGER_DOWN", ErrorClass::Unavailable, None);
        e.message = s(key);
        e.next_step = s(key);
        t.errors.push(e);
        t.examples.calls.push(sp(key.into()));
        t.deprecated = Some(Box::new(Deprecated {
            reason: s(key),
            replacement: None,
            since: None,
            sunset: None,
            span: Span::default(),
        }));
        let mut f = field("note", TyKind::String(Box::default()), Some(key));
        f.default = Some(Box::new(sp(Literal::String(key.into()))));
        t.input.fields.push(f);
        t.needs_input.push(NeedsInput {
            name: sp("approval".into()),
            kind: sp(InputKind::Confirmation),
            doc: s(key),
            span: Span::default(),
        });
        let found = run(&RULE, vec![t]);
        let whats: Vec<&str> = found
            .iter()
            .map(|f| f.message.split(" holds").next().unwrap_or(""))
            .collect();
        assert_eq!(
            whats,
            [
                "title",
                "when-not",
                "message of error `LEDGER_DOWN`",
                "next-step of error `LEDGER_DOWN`",
                "doc of needs-input `approval`",
                "deprecation reason",
                "`call` example",
                "doc of `input.note`",
                "the default of `input.note`",
            ]
        );
        assert!(found.iter().all(|f| !f.message.contains(key)));
    }

    #[test]
    fn points_at_the_secret_inside_escaped_raw_and_multi_line_strings() {
        let key = "AKIAIOSFODNN7EXAMPLE";
        let source = format!(
            r####"catalog "billing" version="1.0.0" {{
    summary "Say \"hi\" with {key}."
}}
type "Entry" {{
    doc #"Signed by {key}"#
    field "note" "string" max-length=10 {{ doc "A note." }}
}}
tool "entry_list" version="1.0.0" {{
    summary """
        Lists entries,
        keyed {key}.
        """
    when "Use to list entries."
    when-not "Not for payments."
    effect "read"
    input
    output {{ field "entries" "array" max-items=5 {{ doc "Entries."; items "Entry" }} }}
}}
"####
        );
        let loaded = crate::project::load_source("billing.kdl", source.clone());
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let config = Default::default();
        let artifacts = crate::testing::artifacts(&loaded.project);
        let cx = Context::new(&loaded.project, &loaded.sources, &config, &artifacts);
        let out: Vec<Finding> = crate::lint::findings(&cx, &[&RULE]).concat();
        let found: Vec<(&str, Option<&str>)> = out
            .iter()
            .map(|f| (&source[f.span.start..f.span.end], f.tool.as_deref()))
            .collect();
        assert_eq!(
            found,
            [(key, None), (key, Some("entry_list")), (key, None)],
            "catalog summary, tool summary, type doc"
        );
    }
}
