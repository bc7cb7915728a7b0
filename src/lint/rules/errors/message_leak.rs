//! The `errors/message-leak` rule: error messages show no internals (stack traces, SQL, paths,
//! hosts, IP addresses); [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::text::{pattern, sub_span};
use crate::lint::{Context, Finding};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Looks for internals in every error `message`: stack traces, SQL, file paths, host names
    /// and IP addresses. The patterns, by kind (each kind is reported once per message):
    ///
    /// | kind | matches | does not match |
    /// |---|---|---|
    /// | stack trace | a source file and line (`at foo.rs:12`, `billing.py:40`, `(/app/x.js:3:9)`), `Traceback (most recent call last)`, `panicked at`, `Exception in thread`, a `…Exception` class name, `File "x.py", line 3`, `goroutine 7 [` | `at 12:30`, `an exception occurred` |
    /// | SQL | upper-case statements: `SELECT … FROM`, `INSERT INTO`, `UPDATE x SET`, `DELETE FROM`, `CREATE` / `ALTER` / `DROP` / `TRUNCATE TABLE`; `select * from` in any case; `SQLSTATE`, `ORA-00942`, `violates … constraint`, `syntax error at or near` | `Select an invoice from the list`, `Update the settings` |
    /// | file path | an absolute path under a system root (`/var/…`, `/etc/…`, `/usr/…`, `/home/…`, `/opt/…`, `/srv/…`, `/tmp/…`, `/root/…`, `/app/…`, `/data/…`, `/mnt/…`, `/proc/…`, `/run/…`, `/Users/…`), `~/…`, a Windows path `C:\…` | `read/write`, `and/or`, `/v1/invoices` |
    /// | host name | `localhost`; names under internal suffixes (`db-1.internal`, `cache.local`, `.localdomain`, `.lan`, `.corp`, `.intranet`, `.svc`, `.cluster.local`, `.home.arpa`); fully qualified names of three or more labels under a common public suffix (`db-1.eu.example.com`) | `example.com`, `invoice.items.amount`, `e.g.` |
    /// | IP address | IPv4 (four octets ≤ 255) and IPv6 (`2001:db8::1`, `::1`, `fe80::…`) | version `1.2.3`, `1.2.3.4.5`, `300.1.1.1`, times `12:30:45`, `std::io` |
    ///
    /// Only `message` is checked: the message is what failures echo back at run time. A
    /// `next-step` is the author's own guidance and may name, say, a public status page;
    /// credentials in either are `selection/secret-in-text`'s.
    ///
    /// ## Why is this bad?
    /// Error messages go to the model, the user and every log on the way. A stack trace, a
    /// query, a path or an internal host name tells an attacker what runs behind the tool and
    /// where to aim, and tells the model nothing it can act on.
    ///
    /// ## Example
    /// ```kdl
    /// error "LEDGER_UNAVAILABLE" class="unavailable" retry="backoff" {
    ///     message "connection to db-1.internal:5432 failed in /app/ledger/pool.rs:88"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// error "LEDGER_UNAVAILABLE" class="unavailable" retry="backoff" {
    ///     message "The ledger is unavailable right now."
    /// }
    /// ```
    pub static RULE = Rule {
        id: "errors/message-leak",
        level: Level::Error,
        summary: "error messages show no internals (stack traces, SQL, paths, hosts, IP addresses)",
        hooks: crate::lint::Hooks::project(check),
    };
}

macro_rules! re {
    ($re:expr) => {
        LazyLock::new(|| pattern($re))
    };
}

static STACK: LazyLock<Regex> = re!(concat!(
    r"[\w./\\-]*\w\.(?:rs|py|js|mjs|cjs|ts|java|go|rb|cs|cpp|cc|c|h|hpp|kt|php|scala|swift|ex|exs):\d+",
    r"|Traceback \(most recent call last\)",
    r"|panicked at",
    r"|Exception in thread",
    r"|\b[A-Z][A-Za-z]+Exception\b",
    r#"|\bFile "[^"]+", line \d+"#,
    r"|\bgoroutine \d+ \[",
));

static SQL: LazyLock<Regex> = re!(concat!(
    r"\bSELECT\s+\S.*?\s+FROM\s+\S+",
    r"|\bINSERT\s+INTO\b",
    r"|\bUPDATE\s+\S+\s+SET\b",
    r"|\bDELETE\s+FROM\b",
    r"|\b(?:CREATE|ALTER|DROP|TRUNCATE)\s+TABLE\b",
    r"|(?i:\bselect\s+\*\s+from\b)",
    r"|\bSQLSTATE\b",
    r"|\bORA-\d{5}\b",
    r"|(?i:\bviolates\s+(?:unique|foreign\s+key|not-null|check|exclusion)\s+constraint)",
    r"|(?i:\bsyntax\s+error\s+at\s+or\s+near\b)",
));

static PATH: LazyLock<Regex> = re!(concat!(
    r#"(?:^|[\s"'(=:,\[])((?:/(?:var|etc|usr|home|opt|srv|tmp|root|app|data|mnt|proc|run|Users)|~)/[^\s"'),;\]]*)"#,
    r#"|\b([A-Za-z]:\\[^\s"'),;]+)"#,
));

static HOST: LazyLock<Regex> = re!(concat!(
    r"(?i)\blocalhost\b",
    r"|(?i:\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:internal|local|localdomain|lan|corp|intranet|svc|home\.arpa)\b)",
    r"|(?i:\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.){2,}(?:com|net|org|io|dev|app|cloud|co|ai|info|biz|eu|us|uk|de|fr|nl|cn|jp|in|ru|br)\b)",
));

static IPV4: LazyLock<Regex> = re!(r"\b\d{1,3}(?:\.\d{1,3}){3}\b");

fn ipv4(text: &str) -> Option<Range<usize>> {
    IPV4.find_iter(text)
        .find(|m| {
            let before = text[..m.start()].chars().next_back();
            let mut after = text[m.end()..].chars();
            let dotted_on = after.next() == Some('.') && after.next().is_some_and(|c| c.is_ascii_digit());
            !matches!(before, Some('.')) && !dotted_on && m.as_str().split('.').all(|o| o.parse::<u8>().is_ok())
        })
        .map(|m| m.range())
}

/// Runs of hex digits and colons standing alone (not inside a word such as `std::io`) that
/// parse as an IPv6 address.
fn ipv6(text: &str) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let is_part = |b: u8| b.is_ascii_hexdigit() || b == b':';
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if !is_part(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_part(bytes[i]) {
            i += 1;
        }
        let run = &text[start..i];
        let alone = (start == 0 || !is_word(bytes[start - 1])) && (i == bytes.len() || !is_word(bytes[i]));
        // A trailing colon is punctuation ("address fe80::1: unreachable").
        let run = run.strip_suffix(':').filter(|r| !r.ends_with(':')).unwrap_or(run);
        if alone
            && run.matches(':').count() >= 2
            && run.bytes().any(|b| b.is_ascii_hexdigit())
            && run.parse::<std::net::Ipv6Addr>().is_ok()
        {
            return Some(start..start + run.len());
        }
    }
    None
}

/// Whether `text` contains one of `words`; with `ascii_case`, ignoring ASCII case.
fn has_any(text: &str, words: &[&str], ascii_case: bool) -> bool {
    let b = text.as_bytes();
    words.iter().any(|w| {
        if ascii_case {
            b.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w.as_bytes()))
        } else {
            text.contains(w)
        }
    })
}

/// Whether a `.` is followed by an ASCII letter or digit or by a non-ASCII char: what every
/// host name and IPv4 match contains (under `(?i)` a non-ASCII `ſ` or `K` sign matches `s`
/// and `k`, and `\d` is any Unicode digit, so non-ASCII counts too).
fn dot_then_word(text: &str) -> bool {
    let b = text.as_bytes();
    b.windows(2)
        .any(|w| w[0] == b'.' && (w[1].is_ascii_alphanumeric() || w[1] >= 0x80))
}

/// The first match of each kind of leak in a message, as (kind, byte range).
///
/// Each pattern runs only after a literal it cannot match without is found. The gates do not
/// change what is found; they spare compiling the patterns (which costs more than matching
/// them on a thousand tools) in the many runs whose messages are plain words.
/// Gate words avoid `s` and `k` where the pattern ignores case: Unicode case folding maps
/// `ſ` and the Kelvin sign onto them, which an ASCII search would miss.
fn find_leaks(text: &str) -> Vec<(&'static str, Range<usize>)> {
    leaks(text, true)
}

/// [`find_leaks`], with the gates or (to test that they change nothing) without them.
fn leaks(text: &str, gated: bool) -> Vec<(&'static str, Range<usize>)> {
    let mut found = Vec::new();
    let stack = !gated
        || text.contains(':')
        || has_any(text, &["Traceback", "panicked at", "Exception", "File \"", "goroutine "], false);
    if let Some(m) = stack.then(|| STACK.find(text)).flatten() {
        found.push(("a stack trace", m.range()));
    }
    let sql = !gated
        || has_any(
            text,
        &["SELECT", "INSERT", "UPDATE", "DELETE", "TABLE", "SQLSTATE", "ORA-", "*"],
        false,
    ) || has_any(text, &["violate", "near"], true);
    if let Some(m) = sql.then(|| SQL.find(text)).flatten() {
        found.push(("SQL", m.range()));
    }
    let path = (!gated || text.contains('/') || text.contains(":\\"))
        .then(|| PATH.captures(text))
        .flatten()
        .and_then(|c| c.get(1).or_else(|| c.get(2)));
    if let Some(m) = path {
        found.push(("a file path", m.range()));
    }
    let dotted = !gated || dot_then_word(text);
    let host = dotted || has_any(text, &["localho"], true);
    if let Some(m) = host.then(|| HOST.find(text)).flatten() {
        found.push(("a host name", m.range()));
    }
    let ip = dotted.then(|| ipv4(text)).flatten().or_else(|| ipv6(text));
    if let Some(r) = ip {
        found.push(("an IP address", r));
    }
    found
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            for error in &tool.errors {
                let Some(message) = &error.message else { continue };
                for (kind, range) in find_leaks(&message.value) {
                    let shown = message.value[range.clone()].to_string();
                    out.push(
                        Finding::in_tool(
                            catalog,
                            tool,
                            sub_span(cx, catalog.file, message, range),
                            format!(
                                "the message of error `{}` shows {kind}: `{shown}`",
                                error.code.value
                            ),
                        )
                        .help("say what failed in the user's terms (\"The ledger is unavailable right now.\"); keep internals in the server's logs"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testkit::texts::*;

    fn kinds(text: &str) -> Vec<&'static str> {
        find_leaks(text).into_iter().map(|(k, _)| k).collect()
    }

    fn fires(text: &str, kind: &str) {
        let found = find_leaks(text);
        assert!(found.iter().any(|(k, _)| k.contains(kind)), "{text:?} should show {kind}: {found:?}");
    }

    fn quiet(text: &str) {
        assert!(kinds(text).is_empty(), "{text:?}: {:?}", kinds(text));
    }

    #[test]
    fn stack_traces() {
        fires("failed at foo.rs:12", "stack trace");
        fires("Traceback (most recent call last):", "stack trace");
        fires("thread 'main' panicked at 'oops'", "stack trace");
        fires("Exception in thread \"main\"", "stack trace");
        fires("java.lang.NullPointerException", "stack trace");
        fires(r#"File "billing.py", line 40, in charge"#, "stack trace");
        fires("goroutine 7 [running]:", "stack trace");
        quiet("Try again at 12:30 or look at the invoice.");
        quiet("An exception occurred; nothing was charged.");
    }

    #[test]
    fn sql() {
        fires("SELECT id FROM invoices failed", "SQL");
        fires("INSERT INTO ledger failed", "SQL");
        fires("UPDATE ledger SET paid = 1", "SQL");
        fires("DELETE FROM sessions", "SQL");
        fires("DROP TABLE users", "SQL");
        fires("select * from invoices", "SQL");
        fires("SQLSTATE 23505", "SQL");
        fires("ORA-00942: table or view does not exist", "SQL");
        fires("duplicate key value violates unique constraint", "SQL");
        fires("syntax error at or near \"FROM\"", "SQL");
        quiet("Select an invoice from the list.");
        quiet("Update the settings and delete from the list what you do not need.");
    }

    #[test]
    fn file_paths() {
        fires("cannot open /var/lib/billing/ledger.db", "file path");
        fires("config at ~/.billing/config missing", "file path");
        fires(r"cannot read C:\billing\ledger.db", "file path");
        fires("(/etc/billing.conf)", "file path");
        quiet("The read/write and/or delete scope is missing.");
        quiet("Call /v1/invoices again later.");
    }

    #[test]
    fn host_names() {
        fires("connection to db-1.internal refused", "host name");
        fires("cache.local is down", "host name");
        fires("no route to localhost", "host name");
        fires("db-1.eu.example.com timed out", "host name");
        fires("svc.billing.svc unreachable", "host name");
        quiet("See example.com for status.");
        quiet("invoice.items.amount must be positive, e.g. 100.");
    }

    #[test]
    fn ip_addresses() {
        fires("peer 10.0.12.7 reset", "IP address");
        fires("listening on 2001:db8::1", "IP address");
        fires("bind ::1 failed", "IP address");
        fires("address fe80::1: unreachable", "IP address");
        quiet("Needs client version 1.2.3 or 1.2.3.4.5.");
        quiet("300.1.1.1 is not an address.");
        quiet("Retry at 12:30:45.");
        quiet("std::io::Error is not an address.");
    }

    #[test]
    fn the_gates_change_nothing() {
        let texts = [
            "failed at foo.rs:12",
            "Traceback (most recent call last):",
            "ſelect * from invoices",
            "SELECT id FROM invoices",
            "duplicate key value VIOLATES unique constraint",
            "ſyntax error at or near \"FROM\"",
            "no route to LOCALHOST",
            "no route to locaſhost",
            "db-1.eu.example.com timed out",
            "cache.ſvc is down",
            "peer 10.0.12.7 reset",
            "peer ١٠.0.12.7 reset",
            "listening on 2001:db8::1",
            r"cannot read C:\billing\ledger.db",
            "cannot open /var/lib/billing/ledger.db",
            "The ledger is unavailable right now.",
            "no record with that reference is visible to you",
            "",
        ];
        for text in texts {
            assert_eq!(leaks(text, true), leaks(text, false), "{text:?}");
        }
    }

    #[test]
    fn reports_each_kind_once_per_message_with_the_match() {
        use crate::model::ErrorClass;
        let mut t = tool("ledger_entry_list");
        let mut e = error("LEDGER_DOWN", ErrorClass::Unavailable, None);
        e.message = s("db-1.internal at 10.0.0.7 and 10.0.0.8 failed in /app/pool.rs:88");
        let mut clean = error("LEDGER_BUSY", ErrorClass::RateLimited, None);
        clean.message = s("The ledger is busy; try again in a minute.");
        t.errors = vec![e, clean];
        let found = run(&RULE, vec![t]);
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "the message of error `LEDGER_DOWN` shows a stack trace: `/app/pool.rs:88`",
                "the message of error `LEDGER_DOWN` shows a file path: `/app/pool.rs:88`",
                "the message of error `LEDGER_DOWN` shows a host name: `db-1.internal`",
                "the message of error `LEDGER_DOWN` shows an IP address: `10.0.0.7`",
            ]
        );
    }
}
