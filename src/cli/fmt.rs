//! `catalogc fmt [--check] [PATH…]`: rewrites catalogs in the canonical layout (docs/fmt.md),
//! keeping every comment. A file is written only when its bytes change, only after
//! [`crate::fmt::verify`] accepted the result, and atomically.

use super::{CliError, Global, Status};
use crate::fmt::{FormatError, format, verify};
use crate::project;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc fmt`.
pub struct FmtArgs {
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    /// Write nothing; exit 1 naming each file that is not in the canonical layout.
    #[arg(long)]
    pub check: bool,
}

/// Runs `catalogc fmt`: rewrites each catalog in place, or with `--check` only names the
/// files that would change ([`Status::Findings`] when any would).
pub fn run(args: &FmtArgs, global: &Global) -> Result<Status, CliError> {
    let default = [PathBuf::from(project::DEFAULT_CATALOG_DIR)];
    let paths = if args.paths.is_empty() {
        &default[..]
    } else {
        &args.paths[..]
    };
    let files = project::discover(paths)?;
    let mut out = String::new();
    // Files that could not be formatted: the first reason, and how many.
    let mut failed: Vec<String> = Vec::new();
    // Files not in the layout: rewritten, or (`--check`) reported.
    let mut changed = 0usize;
    for path in &files {
        let before = project::read_text(path, &global.load)?;
        let after = match format(&before) {
            Ok(after) => after,
            Err(FormatError::Syntax { first, count }) => {
                let file = crate::diag::SourceFile::new(path.clone(), before);
                let (line, col) = file.line_col(first.span.start);
                failed.push(format!(
                    "{}:{line}:{col}: {} [{}]{}; not formatted (run `catalogc lint`)",
                    path.display(),
                    first.message,
                    first.code,
                    match count {
                        1 => String::new(),
                        n => format!(" and {} more syntax errors", n - 1),
                    }
                ));
                continue;
            }
            Err(FormatError::Internal(why)) => {
                failed.push(internal(path, &why));
                continue;
            }
        };
        if after == before {
            continue;
        }
        if let Err(why) = verify(&before, &after) {
            failed.push(internal(path, &why));
            continue;
        }
        // The layout can make a file longer (indentation of deep nesting); past the cap every
        // command, `fmt` included, would refuse the file it wrote.
        let cap = global.load.max_file_bytes;
        if after.len() as u64 > cap {
            failed.push(format!(
                "{}: the canonical layout is {} bytes, over the {cap}-byte limit for one catalog file (now {} bytes); not formatted, since no command could read the result (split the catalog)",
                path.display(),
                after.len(),
                before.len()
            ));
            continue;
        }
        changed += 1;
        if args.check {
            let _ = writeln!(out, "{}: {}", path.display(), diff_summary(&before, &after));
        } else {
            crate::fsutil::write_atomic(path, after.as_bytes())
                .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
            let _ = writeln!(out, "formatted {}", path.display());
        }
    }
    let n = files.len();
    let files_are = if n == 1 { "file is" } else { "files are" };
    if args.check && changed > 0 {
        let _ = writeln!(
            out,
            "{changed} of {n} {files_are} not formatted; run `catalogc fmt`"
        );
    } else if failed.is_empty() {
        let _ = write!(out, "ok: {n} {files_are} in the canonical layout");
        if !args.check {
            let _ = write!(out, " ({changed} rewritten)");
        }
        out.push('\n');
    }
    super::print(&out)?;
    match failed.as_slice() {
        [] if args.check && changed > 0 => Ok(Status::Findings),
        [] => Ok(Status::Ok),
        [one] => Err(CliError(one.clone())),
        [first, rest @ ..] => Err(CliError(format!(
            "{first} ({} more files not formatted)",
            rest.len()
        ))),
    }
}

fn internal(path: &Path, why: &str) -> String {
    format!(
        "{}: internal formatter error, file left unchanged: {why}",
        path.display()
    )
}

/// What `fmt` would change: how many lines differ and the first of them.
fn diff_summary(before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (o, n) = (old.len() - head - tail, new.len() - head - tail);
    let mut s = format!(
        "would reformat lines {}-{} ({o} line{} become {n})",
        head + 1,
        head + o.max(1),
        if o == 1 { "" } else { "s" }
    );
    match (old.get(head), new.get(head)) {
        (Some(a), Some(b)) => {
            for line in [format!("  - {a}"), format!("  + {b}")] {
                s.push('\n');
                s.push_str(line.trim_end());
            }
        }
        (None, None) if before != after => {
            s = "would change white space or the final newline".into()
        }
        _ => {}
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_summary_names_the_first_changed_line() {
        let s = diff_summary("a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(
            s,
            "would reformat lines 2-2 (1 line become 1)\n  - b\n  + B"
        );
        let s = diff_summary("a\nb\n", "a\nb");
        assert_eq!(s, "would change white space or the final newline");
    }
}
