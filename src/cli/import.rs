//! `catalogc import FILE|-`: an MCP tools/list JSON → a catalog on stdout or `--out FILE`;
//! what the format cannot say is listed on stderr (docs/import.md).

use super::{CliError, Global, Status};
use crate::import::{Imported, import_within};
use crate::project::{LoadError, LoadOptions, read_text};
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc import`.
pub struct ImportArgs {
    /// The tools/list JSON (`{"tools": [...]}` or an array of tools); `-` reads stdin.
    pub file: PathBuf,
    /// Write the catalog to FILE (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The catalog's name; default the file's stem (its folder's name for `tools.json`).
    #[arg(long)]
    pub name: Option<String>,
}

/// Runs `catalogc import`.
pub fn run(args: &ImportArgs, global: &Global) -> Result<Status, CliError> {
    let text = read_input(&args.file, &global.load)?;
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| catalog_name(&args.file));
    // Every command refuses a catalog file over the cap: one written bigger could never be
    // read back.
    let imported = import_text(&args.file, &text, &name, global.load.max_file_bytes)?;
    for note in &imported.notes {
        eprintln!("note: {note}");
    }
    match &args.out {
        Some(path) => {
            crate::fsutil::write_atomic(path, imported.text.as_bytes())
                .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
        }
        None => super::print(&imported.text)?,
    }
    eprintln!(
        "imported {} tool{}; {} note{} (not expressible or guessed)",
        imported.tools,
        if imported.tools == 1 { "" } else { "s" },
        imported.notes.len(),
        if imported.notes.len() == 1 { "" } else { "s" },
    );
    Ok(Status::Ok)
}

/// Imports `text`, read from `path`, as catalog `name`, refusing a catalog over `max_bytes`;
/// a failure names the file.
pub fn import_text(
    path: &Path,
    text: &str,
    name: &str,
    max_bytes: u64,
) -> Result<Imported, CliError> {
    import_within(text, name, max_bytes).map_err(|e| CliError(format!("{}: {e}", path.display())))
}

/// The catalog name for a tools/list file: its stem, or its folder's name when the stem is
/// the generic `tools` (`servers/github/tools.json` → `github`); `imported` for stdin. Made
/// a valid catalog name ([`crate::names::is_catalog_name`]): other characters become `_`,
/// leading `-` and `_` are dropped, and the name is cut at the length limit.
pub fn catalog_name(path: &Path) -> String {
    let stem = |p: &Path| p.file_stem().map(|s| s.to_string_lossy().into_owned());
    let raw = match stem(path).as_deref() {
        None | Some("-") => "imported".into(),
        Some("tools") => path
            .parent()
            .and_then(|d| d.file_name())
            .map_or_else(|| "tools".into(), |d| d.to_string_lossy().into_owned()),
        Some(s) => s.to_string(),
    };
    let plain: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .skip_while(|c| !c.is_ascii_alphanumeric())
        .take(crate::names::MAX_CATALOG_NAME)
        .collect();
    if plain.is_empty() {
        "imported".into()
    } else {
        plain
    }
}

/// The text of `path`, or of stdin for `-`, with the same size cap and UTF-8 check as
/// catalog files.
pub fn read_input(path: &Path, opts: &LoadOptions) -> Result<String, CliError> {
    if path != Path::new("-") {
        return Ok(read_text(path, opts)?);
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(opts.max_file_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| LoadError::Unreadable(path.into(), e))?;
    if bytes.len() as u64 > opts.max_file_bytes {
        return Err(LoadError::TooLarge {
            path: path.into(),
            size: bytes.len() as u64,
            limit: opts.max_file_bytes,
        }
        .into());
    }
    String::from_utf8(bytes).map_err(|e| {
        LoadError::NotUtf8 {
            path: path.into(),
            offset: e.utf8_error().valid_up_to(),
        }
        .into()
    })
}
