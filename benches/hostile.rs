//! `cargo bench --bench hostile`: budgets on adversarial catalogs. Each generated input (up
//! to the 8 MiB file cap) goes through what the CLI commands run — load then `lint`, `hash`,
//! `export tools-json`, `lock` rendering and reading back, `breaking` against itself — and
//! each (input, command) pair must finish in at most 2 s and allocate at most 10 times the
//! input's size plus a fixed floor at its peak (for `breaking`, which reads the input as both
//! of its sides, twice the input's size). Prints a table and exits 1 when a budget is
//! broken.
//!
//! Peak memory is counted by a global allocator wrapper around the system allocator: bytes live at the peak, above what was live when the command
//! started (the input text itself is not counted). `lint` renders its findings as the CLI
//! does by default (human text, into a byte counter standing for stdout).
//!
//! Catalog inputs also go through `export vectors` and `fmt`; `tools/list` inputs (a huge
//! enum, a huge list of tools) through `import` and `drift` (against the catalog imported
//! from them).
//! The long-running servers get rows of their own, under the same budgets: a catastrophic
//! `pattern` checked by the runtime validator against a value of the target size (linear
//! time) and a lookaround pattern (stopped at its step budget); the language server's
//! framing reading a header that names 2^64−1 bytes followed by the input, and a stream of
//! bodies that are not JSON; the diagnostics the language server publishes (as JSON) for the
//! model-error flood, and the search of `/` for a file opened there.
//!
//! `CATALOGC_HOSTILE_BYTES=N` changes the target input size (default 8 MiB);
//! `CATALOGC_HOSTILE_ONLY=chain,duplicate` runs only the inputs whose names contain one of
//! the words, and `CATALOGC_HOSTILE_COMMANDS=lint,hash` only those commands (for profiling).
//! `CATALOGC_HOSTILE_WRITE=DIR` also writes each picked input to `DIR/<name>.kdl`, to time the
//! release binary on them.

use catalogc::compat::{self, Policy, report};
use catalogc::contract::{Artifacts, Templates};
use catalogc::diag::Level;
use catalogc::diag::emit::{Summary, human};
use catalogc::lint::{self, Config};
use catalogc::lock::Lock;
use catalogc::project::{self, Loaded};
use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting live bytes and their high-water mark.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call forwards to `System` with the caller's arguments unchanged; the
// counters are side bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The CLI's default file size cap, which `import` applies to the catalog it writes.
const CAP: u64 = 8 << 20;

const TIME_BUDGET: Duration = Duration::from_secs(2);
const MEMORY_FACTOR: usize = 10;
/// What any run may use whatever the input: the built-in templates, the rule registry,
/// compiled regexes.
const MEMORY_FLOOR: usize = 64 << 20;

/// One adversarial input: a catalog, or an MCP `tools/list` result (`json`) that `import`
/// and `drift` read.
struct Input {
    name: &'static str,
    text: String,
    json: bool,
}

/// The commands run on catalogs, and on tools/list results.
const CATALOG_COMMANDS: &[&str] = &[
    "lint", "hash", "export", "lock", "breaking", "vectors", "fmt",
];
const JSON_COMMANDS: &[&str] = &["import", "drift"];

/// Repeats `unit` (a function of its index) until the text reaches `bytes`.
fn fill(head: &str, bytes: usize, tail: &str, mut unit: impl FnMut(usize) -> String) -> String {
    let mut out = String::from(head);
    let mut i = 0;
    // Up to `bytes` and never over: the CLI refuses a file past its cap, so an input a few
    // bytes over it would be timed here but never run there.
    loop {
        let next = unit(i);
        if out.len() + next.len() + tail.len() > bytes {
            break;
        }
        out.push_str(&next);
        i += 1;
    }
    out.push_str(tail);
    out
}

const CATALOG: &str =
    "catalog \"hostile\" version=\"1.0.0\" {\n    summary \"Adversarial input.\"\n}\n";

fn tool(name: &str, summary: &str) -> String {
    format!(
        "tool {name:?} version=\"1.0.0\" {{\n    summary {summary:?}\n    when \"Use to test budgets.\"\n    when-not \"Not for anything else.\"\n    effect \"read\"\n    input {{\n        field \"value\" \"string\" max-length=8 {{ doc \"A value.\" }}\n    }}\n}}\n"
    )
}

/// Tools with a bad name, version, effect, field name and type each.
fn model_error_flood(bytes: usize) -> String {
    fill(CATALOG, bytes, "", |i| {
        format!(
            "tool \"Bad Name {i}\" version=\"x\" {{ effect \"maybe\"; input {{ field \"\" \"nope\" }} }}\n"
        )
    })
}

fn inputs(bytes: usize) -> Vec<Input> {
    // Roughly 2.6 KB a tool.
    let many_tools = catalogc::testing::synthetic_catalog("many", bytes / 2700);
    let nested = catalogc::testing::synthetic_catalog_nested("nested", bytes / 8000, 8);
    let duplicates = fill(CATALOG, bytes, "", |i| {
        tool(
            &format!("tool_{i}"),
            "List the overdue ledger entries of one customer account.",
        )
    });
    let errors = model_error_flood(bytes);
    let syntax_errors = fill("", bytes, "", |_| "\"\\q\" { ) = #bad \n".to_string());
    let long_line = {
        let words = fill("", bytes - 400, "", |i| format!("word{} ", i % 97));
        format!("{CATALOG}{}", tool("long_line", &words))
    };
    let huge_escapes = {
        let body = fill("", bytes - 400, "", |_| "\\u{1F600}\\n\\\"".to_string());
        format!(
            "{CATALOG}tool \"escapes\" version=\"1.0.0\" {{\n    summary \"{body}\"\n    effect \"read\"\n}}\n"
        )
    };
    let hidden = {
        let body = fill("", bytes - 400, "", |_| "a\\u{200B}".to_string());
        format!(
            "{CATALOG}tool \"hidden\" version=\"1.0.0\" {{\n    summary \"{body}\"\n    effect \"read\"\n}}\n"
        )
    };
    let deep_nodes = {
        let depth = bytes / 8;
        format!("{CATALOG}{}{}", "a {".repeat(depth), "}".repeat(depth))
    };
    let deep_fields = {
        let depth = bytes / 64;
        let mut s = String::from(CATALOG);
        s.push_str("tool \"deep\" version=\"1.0.0\" {\n    effect \"read\"\n    input {\n");
        s.push_str(&"field \"f\" \"object\" {\n".repeat(depth));
        s.push_str(&"}\n".repeat(depth));
        s.push_str("}\n}\n");
        s
    };
    let many_enum = fill(
        &format!(
            "{CATALOG}tool \"enums\" version=\"1.0.0\" {{\n    effect \"read\"\n    input {{\n        field \"v\" \"string\" {{\n            enum"
        ),
        bytes,
        "\n        }\n    }\n}\n",
        |i| format!(" \"v{i}\""),
    );
    // The same values twice over: every repeat is reported, and each one must be found
    // without comparing it with all the values before it.
    let distinct = (bytes / 20).max(1);
    let repeated_enum = fill(
        &format!(
            "{CATALOG}tool \"enums\" version=\"1.0.0\" {{\n    effect \"read\"\n    input {{\n        field \"v\" \"string\" {{\n            enum"
        ),
        bytes,
        "\n        }\n    }\n}\n",
        |i| format!(" \"v{}\"", i % distinct),
    );
    // Length and count bounds past every size `export vectors` generates.
    let huge_lengths = format!(
        "{CATALOG}tool \"sizes\" version=\"1.0.0\" {{\n    summary \"Sizes.\"\n    effect \"read\"\n    input {{\n        field \"max\" \"string\" max-length=18446744073709551615\n        field \"big\" \"string\" max-length=100000000\n        field \"long\" \"string\" required=#true min-length=100000000\n        field \"many\" \"array\" required=#true min-items=100000000 {{ items \"integer\" }}\n    }}\n}}\n"
    );
    // A list with one enum as long as the input allows, for `import` and `drift`.
    let enum_list = fill(
        r#"{"tools":[{"name":"pick","description":"Pick one.","inputSchema":{"type":"object","properties":{"v":{"type":"string","enum":["v"#,
        bytes,
        r#""]}}}}]}"#,
        |i| format!(r#"","v{i}"#),
    );
    // A list of as many tools as the input allows: the catalog `import` writes is larger
    // than the list, and must be refused, not written, past the file cap.
    let tool_list = fill(r#"{"tools":["#, bytes, r#"{"name":"last"}]}"#, |i| {
        format!(
            r#"{{"name":"tool_{i}","description":"Get item {i}.","inputSchema":{{"type":"object","properties":{{"id":{{"type":"string","maxLength":64}}}}}}}},"#
        )
    });
    vec![
        Input {
            name: "huge length bounds",
            text: huge_lengths,
            json: false,
        },
        Input {
            name: "huge imported enum",
            text: enum_list,
            json: true,
        },
        Input {
            name: "many imported tools",
            text: tool_list,
            json: true,
        },
        Input {
            name: "many tools",
            text: many_tools,
            json: false,
        },
        Input {
            name: "nested types",
            text: nested,
            json: false,
        },
        Input {
            name: "type DAG 2^30",
            text: catalogc::testing::dag_catalog(30),
            json: false,
        },
        Input {
            name: "type chain",
            text: catalogc::testing::chain_catalog(bytes / 70),
            json: false,
        },
        Input {
            name: "duplicate texts",
            text: duplicates,
            json: false,
        },
        Input {
            name: "model error flood",
            text: errors,
            json: false,
        },
        Input {
            name: "syntax error flood",
            text: syntax_errors,
            json: false,
        },
        Input {
            name: "long line",
            text: long_line,
            json: false,
        },
        Input {
            name: "huge escaped string",
            text: huge_escapes,
            json: false,
        },
        Input {
            name: "hidden characters",
            text: hidden,
            json: false,
        },
        Input {
            name: "deep node nesting",
            text: deep_nodes,
            json: false,
        },
        Input {
            name: "deep field nesting",
            text: deep_fields,
            json: false,
        },
        Input {
            name: "huge enum",
            text: many_enum,
            json: false,
        },
        Input {
            name: "repeated enum",
            text: repeated_enum,
            json: false,
        },
    ]
}

fn has_errors(loaded: &Loaded) -> bool {
    loaded.diagnostics.iter().any(|d| d.level == Level::Error)
}

/// A command's work after loading, as the CLI does it; the returned size keeps the output
/// from being optimised away.
fn command(name: &str, text: &str) -> usize {
    match name {
        "import" => {
            // With the CLI's file cap: a list whose catalog outgrows it is refused early.
            return catalogc::import::import_within(text, "hostile", CAP)
                .map_or(0, |i| i.text.len());
        }
        "drift" => {
            // The server lists the tools the catalog was imported from: what `drift` compares.
            let Ok(imported) = catalogc::import::import_within(text, "hostile", CAP) else {
                return 0;
            };
            let loaded = project::load_source("hostile.kdl", imported.text);
            let Ok(artifacts) = Artifacts::build(&loaded.project, &Templates::builtin()) else {
                return 0;
            };
            let served: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            let tools = served["tools"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default();
            return catalogc::drift::compare(&loaded.project, &artifacts, tools).len();
        }
        "fmt" => {
            // As the CLI does: the layout, then the check that it says the same.
            return catalogc::fmt::format(text).map_or(0, |after| {
                let same = after == text || catalogc::fmt::verify(text, &after).is_ok();
                after.len() + usize::from(same)
            });
        }
        _ => {}
    }
    let loaded = project::load_source("hostile.kdl", text.to_string());
    let templates = Templates::builtin();
    let artifacts = || Artifacts::build(&loaded.project, &templates).ok();
    if name == "lint" {
        // Lint reports model errors and still runs the rules on what lowered.
        return artifacts().map_or(0, |a| {
            let diags = lint::check_project(&loaded, &Config::default(), &a);
            let summary = Summary::new(&diags, loaded.tool_count(), loaded.project.catalogs.len());
            let mut out = Counted(0);
            let _ = human::write(&mut out, &diags, &loaded.sources, &summary, false);
            out.0
        });
    }
    // Every other command refuses a catalog with errors right after loading it.
    if has_errors(&loaded) {
        return loaded.diagnostics.len();
    }
    if name == "breaking" {
        // Like the CLI, `breaking` builds no contracts: it hashes each tool's sorted copy.
        let other = project::load_source("old.kdl", text.to_string());
        let result = compat::compare(&other.project.catalogs, &loaded.project.catalogs, |c, t| {
            compat::order_insensitive_hashes(c, t, &templates).ok()
        });
        let mut out = Vec::new();
        let sources = report::Sources {
            old: &other.sources,
            new: &loaded.sources,
        };
        let _ = report::write_human(&mut out, &result, sources, Policy::Semver);
        return out.len();
    }
    let Some(artifacts) = artifacts() else {
        return 0;
    };
    match name {
        "hash" => artifacts
            .catalogs
            .iter()
            .flat_map(|c| &c.tools)
            .map(|t| t.hashes().contract.len())
            .sum(),
        "export" => {
            // Streamed to its destination as the CLI does (stdout there, a byte counter here).
            let mut out = Counted(0);
            let view = artifacts.tools_list_view(&loaded.project);
            let _ = view.write_pretty(&mut out);
            let _ = std::io::Write::write_all(&mut out, b"\n");
            out.0
        }
        "vectors" => {
            // Streamed one line at a time, as the CLI prints them.
            let mut out = Counted(0);
            let _ =
                catalogc::contract::vectors::write_records(&loaded.project, &artifacts, &mut out);
            out.0
        }
        "lock" => loaded
            .project
            .catalogs
            .iter()
            .zip(&artifacts.catalogs)
            .map(|(cat, contracts)| {
                let rendered = Lock::of(cat, contracts).render();
                rendered.len() + Lock::parse(&rendered).map_or(0, |l| l.tools.len())
            })
            .sum(),
        _ => 0,
    }
}

/// A writer that keeps only the number of bytes written: the stdout of the CLI, which does
/// not hold the output.
struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

/// Runs `work` once under the budgets (`read`: the bytes it reads), prints and records its
/// row; whether it kept them.
fn measure(
    table: &mut String,
    name: &str,
    size: usize,
    cmd: &str,
    read: usize,
    work: impl FnOnce() -> usize,
) -> bool {
    let budget = MEMORY_FACTOR * read + MEMORY_FLOOR;
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let start = Instant::now();
    let out = work();
    let time = start.elapsed();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    std::hint::black_box(out);
    let ok = time <= TIME_BUDGET && peak <= budget;
    let row = format!(
        "| {name} | {size} | {cmd} | {:.3} s | {} | {} | {} |",
        time.as_secs_f64(),
        mib(peak),
        mib(budget),
        if ok { "pass" } else { "FAIL" }
    );
    println!("{row}");
    let _ = writeln!(table, "{row}");
    ok
}

/// A server input: its name, its size, the operation and the work.
type ServerRow = (
    &'static str,
    usize,
    &'static str,
    Box<dyn FnOnce() -> usize>,
);

fn server_rows(bytes: usize) -> Vec<ServerRow> {
    use catalogc::lsp::{analysis, features};
    use catalogc::runtime::pattern::Undecided;
    let almost = format!("{}!", "a".repeat(bytes.saturating_sub(1)));
    let never_arrives = {
        let mut s = b"Content-Length: 18446744073709551615\r\n\r\n".to_vec();
        s.resize(bytes, b'x');
        s
    };
    let not_json = {
        let mut s = Vec::with_capacity(bytes);
        while s.len() + 40 <= bytes {
            s.extend_from_slice(b"Content-Length: 16\r\n\r\nthis is not json");
        }
        s
    };
    // The analysis of an edit is `lint`'s row of the same input; this row is what the
    // server then publishes for the file.
    let flood = model_error_flood(bytes);
    let flood_size = flood.len();
    let flood_path = std::path::PathBuf::from("/catalogc-hostile/flood.kdl");
    let overlay = |p: &std::path::Path| (p == flood_path).then(|| flood.clone());
    let flood_snapshot = analysis::Snapshot::build(
        std::path::Path::new("/catalogc-hostile-missing-folder"),
        &flood_path,
        &overlay,
    );
    vec![
        pattern_row(
            "catastrophic pattern ^(.*a){20}$",
            "^(.*a){20}$",
            &almost,
            Ok(false),
        ),
        pattern_row(
            "lookaround pattern ^((?=a)a+)+$",
            "^((?=a)a+)+$",
            &almost,
            Err(Undecided),
        ),
        (
            "lsp Content-Length 2^64-1",
            never_arrives.len(),
            "framing",
            Box::new(move || frames(&never_arrives)),
        ),
        (
            "lsp bodies not JSON",
            not_json.len(),
            "framing",
            Box::new(move || frames(&not_json)),
        ),
        (
            "lsp publish of the model error flood",
            flood_size,
            "publish",
            Box::new(move || {
                let published = features::View::new(&flood_snapshot, &flood_path)
                    .map(|v| features::diagnostics(&v))
                    .unwrap_or_default();
                catalogc::runtime::serde_json::to_vec(&published).map_or(0, |v| v.len())
            }),
        ),
        (
            "lsp file opened at /",
            0,
            "discover",
            Box::new(|| {
                catalogc::project::discover_bounded(
                    std::path::Path::new("/"),
                    analysis::MAX_FOLDER_ENTRIES,
                )
                .len()
            }),
        ),
    ]
}

/// The runtime validator's check of `value` against `pattern`, which must come out `expect`.
fn pattern_row(
    name: &'static str,
    pattern: &'static str,
    value: &str,
    expect: Result<bool, catalogc::runtime::pattern::Undecided>,
) -> ServerRow {
    let value = value.to_string();
    (
        name,
        value.len(),
        "validate",
        Box::new(move || {
            let got =
                catalogc::runtime::pattern::Compiled::new(pattern).map(|re| re.is_match(&value));
            assert_eq!(got, Ok(expect), "{name}");
            value.len()
        }),
    )
}

/// Reads every frame of `input`: how many.
fn frames(input: &[u8]) -> usize {
    let mut r = std::io::BufReader::new(input);
    let mut n = 0;
    while let Ok(f) = catalogc::lsp::framing::read_frame(&mut r) {
        if matches!(f, catalogc::lsp::framing::Frame::End) {
            break;
        }
        n += 1;
    }
    n
}

fn main() {
    let bytes = std::env::var("CATALOGC_HOSTILE_BYTES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8 << 20);
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| input | bytes | command | time | peak memory | budget | result |\n|---|---|---|---|---|---|---|"
    );
    let mut broken = 0;
    let only = std::env::var("CATALOGC_HOSTILE_ONLY").unwrap_or_default();
    let commands = std::env::var("CATALOGC_HOSTILE_COMMANDS").unwrap_or_default();
    let picked =
        |list: &str, name: &str| list.is_empty() || list.split(',').any(|w| name.contains(w));
    for input in inputs(bytes) {
        if !picked(&only, input.name) {
            continue;
        }
        if let Some(dir) = std::env::var_os("CATALOGC_HOSTILE_WRITE") {
            let path =
                std::path::Path::new(&dir).join(format!("{}.kdl", input.name.replace(' ', "-")));
            if let Err(e) =
                std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &input.text))
            {
                eprintln!("{}: {e}", path.display());
                std::process::exit(2);
            }
        }
        let size = input.text.len();
        if size > bytes {
            eprintln!(
                "{}: {size} bytes is over the {bytes}-byte target",
                input.name
            );
            broken += 1;
        }
        let run = if input.json {
            JSON_COMMANDS
        } else {
            CATALOG_COMMANDS
        };
        for &cmd in run {
            if !picked(&commands, cmd) {
                continue;
            }
            // `breaking` reads two catalogs, here the input as the old and the new side: its
            // input is both (two models, each sorted for hashing, are its least).
            let read = if cmd == "breaking" { 2 * size } else { size };
            if !measure(&mut table, input.name, size, cmd, read, || {
                command(cmd, &input.text)
            }) {
                broken += 1;
            }
        }
    }
    for (name, size, cmd, work) in server_rows(bytes) {
        if picked(&only, name) && !measure(&mut table, name, size, cmd, size, work) {
            broken += 1;
        }
    }
    println!("\n{table}");
    if broken > 0 {
        eprintln!("{broken} budget(s) broken");
        std::process::exit(1);
    }
}
