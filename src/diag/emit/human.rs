//! Human output: rustc-like text with the source line and a caret under each finding, and
//! the location lines of the compatibility report.

use super::{Location, Summary, escape_controls, file_path, plural};
use crate::diag::{Diagnostic, Level, SourceFile, SourceMap};
use std::io::{self, Write};

struct Style {
    on: bool,
}

impl Style {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn level_code(level: Level) -> &'static str {
        match level {
            Level::Error => "1;31",
            Level::Warn => "1;33",
            Level::Info => "1;36",
        }
    }
}

/// Source text as shown: tabs expanded so the caret lines up under them, control
/// characters escaped.
fn shown(s: &str) -> String {
    escape_controls(&s.replace('\t', "    ")).into_owned()
}

/// Longest source line shown whole, in characters (hand-written descriptions reach 400); a
/// longer one is cut to a window of this many characters around the span, so a finding in a
/// minified 7 MB line costs about a kilobyte of output, not a copy of the line.
const MAX_SNIPPET: usize = 400;
/// Characters of a window shown before the span.
const WINDOW_BEFORE: usize = 100;
/// Longest caret underline: a span longer than this (a 500-character summary, a span that
/// runs to the end of a long line) is underlined this far and marked `…`, so the caret
/// points at where the span starts without a screen-wide row of `^`.
const MAX_CARET: usize = 40;

/// The source line as shown under a finding, and where its caret goes.
struct Snippet {
    /// The line, or the window of it, with `…` where it is cut, as [`shown`].
    text: String,
    /// Display width before the caret.
    lead: usize,
    /// Length of the caret: the span's width inside the window, at least 1 and at most
    /// [`MAX_CARET`].
    under: usize,
    /// The span is wider than the caret shows.
    capped: bool,
}

impl Snippet {
    /// `start` and `stop` are byte offsets into `line`; `stop` is `None` for a span that runs
    /// past the end of the line.
    fn new(line: &str, start: usize, stop: Option<usize>) -> Self {
        let floor = |mut i: usize| {
            i = i.min(line.len());
            while !line.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let start = floor(start);
        let long = line.len() > MAX_SNIPPET && line.chars().nth(MAX_SNIPPET).is_some();
        let (left, right) = if long {
            let left = line[..start]
                .char_indices()
                .rev()
                .take(WINDOW_BEFORE)
                .last()
                .map_or(start, |(i, _)| i);
            let right = line[left..]
                .char_indices()
                .nth(MAX_SNIPPET)
                .map_or(line.len(), |(i, _)| left + i);
            (left, right)
        } else {
            (0, line.len())
        };
        let stop = stop.map_or(right, |s| floor(s).clamp(start, right));
        let cut_left = if left > 0 { "…" } else { "" };
        let cut_right = if right < line.len() { "…" } else { "" };
        let width = shown(&line[start..stop]).chars().count().max(1);
        Snippet {
            text: format!("{cut_left}{}{cut_right}", shown(&line[left..right])),
            lead: cut_left.chars().count() + shown(&line[left..start]).chars().count(),
            under: width.min(MAX_CARET),
            capped: width > MAX_CARET,
        }
    }
}

/// One header per file, each finding with its location, source line, caret and help, then a
/// summary line. Diagnostics come sorted ([`crate::project::sort_diagnostics`]).
pub fn write(
    out: &mut dyn Write,
    diags: &[Diagnostic],
    sources: &SourceMap,
    summary: &Summary,
    color: bool,
) -> io::Result<()> {
    let st = Style { on: color };
    for group in diags.chunk_by(|a, b| a.file == b.file) {
        let f = sources.get(group[0].file);
        let s = Summary::new(group, 0, 0);
        let mut counts = Vec::new();
        if s.errors > 0 {
            counts.push(plural(s.errors, "error"));
        }
        if s.warnings > 0 {
            counts.push(plural(s.warnings, "warning"));
        }
        if s.infos > 0 {
            counts.push(plural(s.infos, "info"));
        }
        writeln!(
            out,
            "{}\n",
            st.paint(
                "1",
                &format!("{}: {}", escape_controls(&file_path(f)), counts.join(", "))
            )
        )?;
        let width = group
            .iter()
            .map(|d| Location::of(f, d.span).line.to_string().len())
            .max()
            .unwrap_or(1);
        for d in group {
            write_one(out, d, f, width, &st)?;
        }
    }
    let line = format!(
        "{}, {}, {} in {}, {}",
        plural(summary.errors, "error"),
        plural(summary.warnings, "warning"),
        plural(summary.infos, "info"),
        plural(summary.catalogs, "catalog"),
        plural(summary.tools, "tool"),
    );
    let head = if summary.errors > 0 {
        st.paint(Style::level_code(Level::Error), "error")
    } else if summary.warnings > 0 {
        st.paint(Style::level_code(Level::Warn), "warning")
    } else {
        st.paint("1;32", "ok")
    };
    writeln!(out, "{head}: {line}")?;
    if !summary.skipped_rules.is_empty() {
        writeln!(
            out,
            "skipped (they check what only a catalog states): {}",
            summary.skipped_rules.join(", ")
        )?;
    }
    Ok(())
}

/// [`write()`] into a string.
pub fn render(diags: &[Diagnostic], sources: &SourceMap, summary: &Summary, color: bool) -> String {
    let mut out = Vec::new();
    let _ = write(&mut out, diags, sources, summary, color);
    String::from_utf8_lossy(&out).into_owned()
}

fn write_one(
    out: &mut dyn Write,
    d: &Diagnostic,
    f: &SourceFile,
    width: usize,
    st: &Style,
) -> io::Result<()> {
    let Location {
        line,
        column: col,
        end_line,
        ..
    } = Location::of(f, d.span);
    let lc = Style::level_code(d.level);
    let level = match d.level {
        Level::Error => "error",
        Level::Warn => "warning",
        Level::Info => "info",
    };
    writeln!(
        out,
        "{}{} {}",
        st.paint(lc, &format!("{level}[{}]", d.rule)),
        st.paint("1", ":"),
        st.paint("1", &escape_controls(&d.message))
    )?;
    let pad = " ".repeat(width);
    let gutter = |s: &str| st.paint("1;34", s);
    let path = file_path(f);
    writeln!(
        out,
        "{pad}{} {}:{line}:{col}",
        gutter("-->"),
        escape_controls(&path)
    )?;
    let text = f.line_text(line);
    let start = d.span.start.saturating_sub(f.line_start(line));
    let stop = if end_line == line {
        Some(d.span.end.saturating_sub(f.line_start(line)))
    } else {
        None
    };
    let snip = Snippet::new(text, start, stop);
    writeln!(out, "{pad} {}", gutter("|"))?;
    writeln!(
        out,
        "{} {} {}",
        gutter(&format!("{line:>width$}")),
        gutter("|"),
        snip.text
    )?;
    writeln!(
        out,
        "{pad} {} {}{}",
        gutter("|"),
        " ".repeat(snip.lead),
        st.paint(
            lc,
            &format!(
                "{}{}",
                "^".repeat(snip.under),
                if snip.capped { "…" } else { "" }
            )
        )
    )?;
    let mut context = Vec::new();
    if let Some(t) = &d.tool {
        context.push(format!("tool `{t}`"));
    }
    if let Some(p) = &d.path {
        context.push(format!("`{p}`"));
    }
    if !context.is_empty() {
        writeln!(
            out,
            "{pad} {} {}: {}",
            gutter("="),
            st.paint("1", "in"),
            escape_controls(&context.join(", "))
        )?;
    }
    if let Some(p) = &d.pointer {
        writeln!(
            out,
            "{pad} {} {}: {}",
            gutter("="),
            st.paint("1", "pointer"),
            escape_controls(p)
        )?;
    }
    if let Some(h) = &d.help {
        let h = escape_controls(h);
        writeln!(out, "{pad} {} {}: {h}", gutter("="), st.paint("1", "help"))?;
    }
    writeln!(out)
}

/// A location in the compatibility report: `LABEL file:line:col`, then the source line.
pub fn write_location(
    out: &mut dyn Write,
    label: &str,
    f: &SourceFile,
    span: crate::syntax::Span,
) -> io::Result<()> {
    let l = Location::of(f, span);
    let file = escape_controls(&l.file);
    writeln!(out, "      {label} {file}:{}:{}", l.line, l.column)?;
    writeln!(
        out,
        "          | {}",
        shown_line(f.line_text(l.line).trim_end())
    )
}

/// A whole source line as the compatibility report shows it: escaped, cut to
/// [`MAX_SNIPPET`] characters.
fn shown_line(line: &str) -> String {
    match line.char_indices().nth(MAX_SNIPPET) {
        Some((cut, _)) => format!("{}…", escape_controls(&line[..cut])),
        None => escape_controls(line).into_owned(),
    }
}

/// Output for people without colours: everything written through it has its control
/// characters escaped (see [`escape_controls`]), whatever part of a line came from a catalog.
pub struct Escaping<'a>(pub &'a mut dyn Write);

impl Write for Escaping<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // `write!` hands over whole `str` fragments, so a buffer is valid UTF-8; anything else
        // is passed on as it is.
        match std::str::from_utf8(buf) {
            Ok(s) => self.0.write_all(escape_controls(s).as_bytes())?,
            Err(_) => self.0.write_all(buf)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{FileId, SourceFile};
    use crate::syntax::Span;

    fn one_file(text: &str) -> SourceMap {
        let mut sources = SourceMap::default();
        sources.add(SourceFile::new("long.kdl", text.to_string()));
        sources
    }

    fn diag(start: usize, end: usize) -> Diagnostic {
        Diagnostic::new(
            "syntax/x",
            Level::Error,
            FileId(0),
            Span::new(start, end),
            "bad",
        )
    }

    #[test]
    fn a_long_line_is_windowed_so_output_grows_with_the_findings_only() {
        let text = "x = \"value\"; ".repeat(200_000 / 13);
        let sources = one_file(&text);
        let diags: Vec<Diagnostic> = (0..text.len() - 20)
            .step_by(997)
            .map(|i| diag(i, i + 5000))
            .collect();
        let out = render(&diags, &sources, &Summary::new(&diags, 0, 1), false);
        assert!(out.len() < diags.len() * 1200, "{} bytes", out.len());
        assert!(out.lines().all(|l| l.chars().count() <= 500));
        let first = out.lines().nth(5).unwrap_or_default();
        assert!(
            first.starts_with("1 | x = \"value\";") && first.ends_with('…'),
            "{first}"
        );
        let mid = out.lines().nth(11).unwrap_or_default();
        assert!(mid.starts_with("1 | …") && mid.ends_with('…'), "{mid}");
        let caret = out.lines().nth(12).unwrap_or_default();
        assert!(
            caret.contains('^') && caret.chars().count() <= 500,
            "{caret}"
        );
    }

    #[test]
    fn the_caret_stays_under_the_span_in_a_window() {
        let text = format!("{}BAD{}", "a".repeat(1000), "b".repeat(1000));
        let sources = one_file(&text);
        let diags = vec![diag(1000, 1003)];
        let out = render(&diags, &sources, &Summary::new(&diags, 0, 1), false);
        let lines: Vec<&str> = out.lines().collect();
        let snippet = lines
            .iter()
            .position(|l| l.starts_with("1 | "))
            .unwrap_or(0);
        let at = lines[snippet].chars().position(|c| c == 'B');
        let caret = lines[snippet + 1].chars().position(|c| c == '^');
        assert_eq!(at, caret, "{out}");
        assert_eq!(lines[snippet + 1].matches('^').count(), 3, "{out}");
    }

    #[test]
    fn a_long_span_gets_a_capped_caret() {
        let text = format!("summary \"{}\"", "word ".repeat(60));
        let sources = one_file(&text);
        let diags = vec![diag(8, text.len())];
        let out = render(&diags, &sources, &Summary::new(&diags, 0, 1), false);
        let caret = out.lines().find(|l| l.contains('^')).unwrap_or_default();
        assert_eq!(caret.matches('^').count(), MAX_CARET, "{out}");
        assert!(caret.ends_with("^…"), "{caret}");
        assert_eq!(caret.find('^'), Some("  | ".len() + 8), "{out}");
    }
}

#[cfg(test)]
mod escape_tests {
    use super::*;
    use crate::diag::{FileId, SourceFile};
    use crate::syntax::Span;

    #[test]
    fn control_characters_are_escaped_and_the_caret_follows() {
        let mut sources = SourceMap::default();
        sources.add(SourceFile::new(
            "a.kdl",
            "x \"\u{1b}[2J\" BAD\n".to_string(),
        ));
        let mut d = Diagnostic::new(
            "syntax/x",
            Level::Error,
            FileId(0),
            Span::new(9, 12),
            "bad \u{1b}]0;title\u{7} name",
        )
        .with_help("rename \u{9b}31m it");
        d.tool = Some("t\u{1b}".into());
        let out = render(&[d], &sources, &Summary::default(), false);
        assert!(!out.contains(['\u{1b}', '\u{7}', '\u{9b}']), "{out:?}");
        assert!(out.contains("bad \\u{1b}]0;title\\u{7} name"), "{out}");
        assert!(out.contains("rename \\u{9b}31m it"), "{out}");
        assert!(out.contains("tool `t\\u{1b}`"), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        let snippet = lines
            .iter()
            .position(|l| l.starts_with("1 | "))
            .unwrap_or(0);
        assert_eq!(lines[snippet], "1 | x \"\\u{1b}[2J\" BAD");
        let at = lines[snippet].find("BAD");
        assert_eq!(lines[snippet + 1].find('^'), at, "{out}");
    }
}
