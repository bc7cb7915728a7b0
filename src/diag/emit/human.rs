//! Human output: rustc-like text with the source line and a caret under each finding, and
//! the location lines of the compatibility report.

use super::{Location, Summary, file_path, plural};
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

/// Tabs expanded so the caret lines up under them.
fn expand_tabs(s: &str) -> String {
    s.replace('\t', "    ")
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
            st.paint("1", &format!("{}: {}", file_path(f), counts.join(", ")))
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
    writeln!(out, "{head}: {line}")
}

/// [`write`] into a string.
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
        end_column: end_col,
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
        st.paint("1", &d.message)
    )?;
    let pad = " ".repeat(width);
    let gutter = |s: &str| st.paint("1;34", s);
    writeln!(out, "{pad}{} {}:{line}:{col}", gutter("-->"), file_path(f))?;
    let text = f.line_text(line);
    writeln!(out, "{pad} {}", gutter("|"))?;
    writeln!(
        out,
        "{} {} {}",
        gutter(&format!("{line:>width$}")),
        gutter("|"),
        expand_tabs(text)
    )?;
    // Columns count characters; the caret starts under the first character of the span
    // and runs to its end (or the end of the line for a span over several lines).
    let chars: Vec<char> = text.chars().collect();
    let start = col.saturating_sub(1).min(chars.len());
    let stop = if end_line == line {
        end_col.saturating_sub(1).min(chars.len())
    } else {
        chars.len()
    };
    let lead: String = chars[..start].iter().collect();
    let under: String = chars[start..stop.max(start)].iter().collect();
    let lead_w = expand_tabs(&lead).chars().count();
    let under_w = expand_tabs(&under).chars().count().max(1);
    writeln!(
        out,
        "{pad} {} {}{}",
        gutter("|"),
        " ".repeat(lead_w),
        st.paint(lc, &"^".repeat(under_w))
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
            context.join(", ")
        )?;
    }
    if let Some(h) = &d.help {
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
    writeln!(out, "      {label} {}:{}:{}", l.file, l.line, l.column)?;
    writeln!(out, "          | {}", f.line_text(l.line).trim_end())
}
