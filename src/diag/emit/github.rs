//! GitHub workflow annotations: one `::error file=…,line=…,col=…,title=RULE::message` line per
//! finding (`::warning`, `::notice` for the lower levels).

use super::{Level, Record};
use std::io::{self, Write};

/// Workflow-command escaping of the message part; other control characters from catalog
/// text are shown escaped (an annotation ends up in a log viewer or a terminal).
fn data(s: &str) -> String {
    let s = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    super::escape_controls(&s).into_owned()
}

/// Workflow-command escaping of a property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

fn command(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warn => "warning",
        Level::Info => "notice",
    }
}

/// `with_end`: also `endLine` and `endColumn` (the diagnostics carry them; the compatibility
/// report's annotations never did).
pub fn write(
    out: &mut dyn Write,
    records: impl IntoIterator<Item = Record>,
    with_end: bool,
) -> io::Result<()> {
    for r in records {
        let mut props = Vec::new();
        if let Some(l) = &r.location {
            props.push(format!("file={}", property(&l.file)));
            props.push(format!("line={}", l.line));
            props.push(format!("col={}", l.column));
            if with_end {
                props.push(format!("endLine={}", l.end_line));
                props.push(format!("endColumn={}", l.end_column));
            }
        }
        props.push(format!(
            "title={}",
            property(r.title.as_deref().unwrap_or(&r.rule))
        ));
        writeln!(
            out,
            "::{} {}::{}",
            command(r.level),
            props.join(","),
            data(&r.text())
        )?;
    }
    Ok(())
}

/// [`write()`] into a string.
pub fn render(records: &[Record], with_end: bool) -> String {
    let mut out = Vec::new();
    let _ = write(&mut out, records.iter().cloned(), with_end);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_in_every_part() {
        let r = Record {
            rule: "naming/x".into(),
            level: Level::Warn,
            location: None,
            message: "tool `a\u{1b}[2J`\r\nnext".into(),
            help: Some("rename\u{7}".into()),
            catalog: None,
            tool: None,
            path: None,
            pointer: None,
            fingerprint: String::new(),
            title: Some("t\u{1b},x".into()),
            properties: None,
        };
        let out = render(&[r], true);
        assert_eq!(
            out,
            "::warning title=t\\u{1b}%2Cx::tool `a\\u{1b}[2J`%0D%0Anext%0Ahelp: rename\\u{7}\n"
        );
    }
}
