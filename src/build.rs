//! The `build.rs` API (prost-build's shape): lint the catalogs, generate one Rust file per
//! catalog into `OUT_DIR`, and tell cargo when to run again.
//!
//! ```no_run
//! // build.rs: a lint error fails the build; `main` prints its diagnostics as `catalogc lint`
//! // renders them, after `Error: `, with no panic and no backtrace.
//! fn main() -> Result<(), catalogc::BuildError> {
//!     catalogc::Builder::new().catalogs("catalogs").compile()?;
//!     Ok(())
//! }
//! // src/lib.rs: pub mod billing { catalogc::include_catalog!("billing"); }
//! ```
//!
//! [`generate_project`] is the pipeline `catalogc gen` runs too, so both routes produce the
//! same bytes and stop on the same lint errors.

use crate::codegen::{self, File};
use crate::config::ConfigError;
use crate::contract::{Artifacts, Templates};
use crate::diag::emit::{Summary, human};
use crate::diag::{Diagnostic, Level, SourceMap};
use crate::project::{self, LoadOptions, Loaded};
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Why generation stopped. `Debug` prints the same text as `Display` on a line of its own, so
/// a build script's `main` that returns it (`fn main() -> Result<(), BuildError>`) shows the
/// rendered diagnostics as the CLI does, with no panic or backtrace.
pub enum BuildError {
    /// Lint errors, rendered as `catalogc lint` renders them.
    Lint(String),
    /// A file could not be read or written, a template failed, or `OUT_DIR` is not set.
    Io(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Lint(text) | BuildError::Io(text) => f.write_str(text),
        }
    }
}

impl fmt::Debug for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}

impl std::error::Error for BuildError {}

/// Where the catalogs, the project file and the templates are, and how to generate.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// Catalog files or folders; empty means `catalogs/`.
    pub paths: Vec<PathBuf>,
    /// The project file; `None` means `catalogc.kdl` in the current folder when present.
    pub config: Option<PathBuf>,
    /// A folder of templates overriding the built-ins.
    pub templates: Option<PathBuf>,
    /// How catalog files are read (size limit).
    pub load: LoadOptions,
    /// Code generation options.
    pub options: codegen::Options,
    /// Also render each catalog's Markdown docs (`NAME.md`, as `catalogc docs` does): `gen`
    /// commits them beside the code; a build script has no reader for them.
    pub docs: bool,
}

/// What [`generate_project`] produced.
#[derive(Debug)]
pub struct Generated {
    /// The files read, the lowered catalogs and their load diagnostics.
    pub loaded: Loaded,
    /// Every lint finding (warnings and below; errors stop generation).
    pub diagnostics: Vec<Diagnostic>,
    /// The generated files, ready to write.
    pub files: Vec<File>,
    /// Every file the output depends on: catalogs, the project file, templates.
    pub inputs: Vec<PathBuf>,
}

/// Loads and lints the catalogs like `catalogc lint`, then generates every file. Lint errors
/// stop it with the rendered diagnostics.
pub fn generate_project(inputs: &Inputs) -> Result<Generated, BuildError> {
    let io = |e: &dyn fmt::Display| BuildError::Io(e.to_string());
    let mut loaded = project::load(&inputs.paths, &inputs.load).map_err(|e| io(&e))?;
    let config =
        match crate::config::load(&mut loaded.sources, inputs.config.as_deref(), &inputs.load) {
            Ok(c) => c,
            Err(ConfigError::Load(e)) => return Err(io(&e)),
            Err(ConfigError::Invalid(errors)) => {
                return Err(BuildError::Lint(render_all(&errors, &loaded.sources, 0, 0)));
            }
        };
    let mut files_read: Vec<PathBuf> = loaded
        .project
        .catalogs
        .iter()
        .map(|c| loaded.sources.get(c.file).path.clone())
        .collect();
    files_read.extend(config.file.clone());
    // An explicit folder wins over the project file's `templates`.
    let templates = match inputs.templates.as_ref().or(config.templates.as_ref()) {
        Some(dir) => {
            files_read.push(dir.clone());
            crate::config::load_templates(dir).map_err(|e| io(&e))?
        }
        None => Templates::builtin(),
    };
    let artifacts = Artifacts::build(&loaded.project, &templates).map_err(|e| io(&e))?;
    let diagnostics = crate::lint::check_project(&loaded, &config.lint, &artifacts);
    if diagnostics.iter().any(|d| d.level == Level::Error) {
        let (tools, catalogs) = (loaded.tool_count(), loaded.project.catalogs.len());
        return Err(BuildError::Lint(render_all(
            &diagnostics,
            &loaded.sources,
            tools,
            catalogs,
        )));
    }
    let mut options = inputs.options.clone();
    options.guard = options.guard.or(config.guard);
    if options.profiles.is_empty() {
        options.profiles = config
            .profiles
            .iter()
            .map(crate::config::guard::ProfileSection::spec)
            .collect();
    }
    options.source_names = loaded
        .project
        .catalogs
        .iter()
        .map(|c| {
            let path = &loaded.sources.get(c.file).path;
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string())
        })
        .collect();
    let mut files = codegen::generate(&loaded.project, &artifacts, &options);
    if inputs.docs {
        let docs = crate::docs::render_project(&loaded.project, &artifacts, &templates)
            .map_err(|e| io(&e))?;
        files.extend(
            docs.into_iter()
                .map(|(name, contents)| File { name, contents }),
        );
    }
    Ok(Generated {
        loaded,
        diagnostics,
        files,
        inputs: files_read,
    })
}

fn render_all(diags: &[Diagnostic], sources: &SourceMap, tools: usize, catalogs: usize) -> String {
    let summary = Summary::new(diags, tools, catalogs);
    human::render(diags, sources, &summary, false)
}

/// Writes `bytes` to `path` atomically, creating its folder, and leaves a file that already
/// holds exactly these bytes untouched (its mtime stays, so cargo does not rebuild).
/// Returns whether it wrote.
pub(crate) fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    crate::fsutil::write_atomic(path, bytes).map(|o| o.wrote())
}

/// Generates Rust for catalogs from a build script.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    inputs: Inputs,
    out_dir: Option<PathBuf>,
}

impl Builder {
    /// A builder with every default: `catalogs/`, `catalogc.kdl` when present, `OUT_DIR`.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// A catalog file, or a folder whose `*.kdl` files are all catalogs. Repeatable;
    /// without any, `catalogs/`.
    pub fn catalogs(mut self, path: impl AsRef<Path>) -> Builder {
        self.inputs.paths.push(path.as_ref().to_path_buf());
        self
    }

    /// The project file (lint levels, thresholds); default `catalogc.kdl` when present.
    pub fn config(mut self, path: impl AsRef<Path>) -> Builder {
        self.inputs.config = Some(path.as_ref().to_path_buf());
        self
    }

    /// A folder of `*.j2` templates overriding the built-ins (the tool descriptions).
    pub fn templates(mut self, dir: impl AsRef<Path>) -> Builder {
        self.inputs.templates = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Derive `schemars::JsonSchema` on every generated type, with attributes that make
    /// schemars' schema carry the catalog's bounds. The crate that includes the code needs
    /// `catalogc = { …, features = ["schemars"] }`.
    pub fn json_schema_derive(mut self, yes: bool) -> Builder {
        self.inputs.options.json_schema_derive = yes;
        self
    }

    /// Where to write; default `$OUT_DIR`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Builder {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Lints, generates `<catalog>.rs` per catalog into the output folder (rewriting only
    /// files whose bytes change), prints a `cargo::warning=` line per lint warning and a
    /// `cargo::rerun-if-changed=` line per input. Returns the generated files' paths.
    pub fn compile(&self) -> Result<Vec<PathBuf>, BuildError> {
        let mut cargo_lines = Vec::new();
        let result = self.run(&mut cargo_lines);
        let mut stdout = std::io::stdout().lock();
        for line in cargo_lines {
            let _ = writeln!(stdout, "{line}");
        }
        result
    }

    /// [`compile`](Builder::compile) without printing: the `cargo::` lines are pushed to
    /// `cargo_lines` (the rerun lines even when generation fails).
    pub fn run(&self, cargo_lines: &mut Vec<String>) -> Result<Vec<PathBuf>, BuildError> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    BuildError::Io(
                        "OUT_DIR is not set: call `compile` from a build script, or set `out_dir`"
                            .into(),
                    )
                })?,
        };
        // Ask cargo to watch the inputs before anything can fail, so fixing a catalog
        // reruns the build script.
        let paths = if self.inputs.paths.is_empty() {
            vec![PathBuf::from(project::DEFAULT_CATALOG_DIR)]
        } else {
            self.inputs.paths.clone()
        };
        let mut watched: Vec<PathBuf> = paths;
        watched.extend(self.inputs.config.clone());
        if self.inputs.config.is_none() && Path::new(project::PROJECT_FILE).is_file() {
            watched.push(PathBuf::from(project::PROJECT_FILE));
        }
        watched.extend(self.inputs.templates.clone());
        let generated = generate_project(&self.inputs);
        if let Ok(g) = &generated {
            watched.extend(g.inputs.iter().cloned());
        }
        watched.sort();
        watched.dedup();
        for p in &watched {
            cargo_lines.push(format!("cargo::rerun-if-changed={}", p.display()));
        }
        let g = generated?;
        for d in g.diagnostics.iter().filter(|d| d.level == Level::Warn) {
            let f = g.loaded.sources.get(d.file);
            let (line, col) = f.line_col(d.span.start);
            let msg = format!(
                "{}:{line}:{col}: {} [{}]",
                f.path.display(),
                d.message,
                d.rule
            );
            cargo_lines.push(format!("cargo::warning={}", msg.replace(['\n', '\r'], " ")));
        }
        let mut written = Vec::new();
        for file in g.files.iter().filter(|f| codegen::is_rust(f)) {
            let path = out_dir.join(&file.name);
            write_if_changed(&path, file.contents.as_bytes())
                .map_err(|e| BuildError::Io(format!("{}: cannot write: {e}", path.display())))?;
            written.push(path);
        }
        Ok(written)
    }
}
