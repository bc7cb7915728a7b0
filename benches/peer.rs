//! `cargo bench --bench peer -- OUT TOOLS…`: writes the inputs of the side-by-side run against
//! `buf` (benches/peer/buf.sh times them). For each tool count N, under `OUT/N/`:
//!
//! - `base/catalogs/*.kdl`: a synthetic project of N tools, split into catalogs of
//!   [`TOOLS_PER_FILE`] tools (one file of 10,000 tools would be over the 8 MiB cap);
//! - `changed/catalogs/*.kdl`: the same with 5% of the tools changed, as a pull request would:
//!   every 20th tool alternately gains an optional input field (with a minor version bump) or
//!   loses its first input field (a breaking change its version does not declare);
//! - `base/proto`, `changed/proto`: the same APIs as one Protobuf package, `synthetic.v1`:
//!   one file per catalog with a request and a response message per tool (named types become
//!   top-level messages, inline objects nested ones, string enums nested enums, docs
//!   comments), and one service with an rpc per tool. Field numbers follow the base side, so
//!   a removed field is a deleted number and an added one a new number, as a real edit is.

use catalogc::model::{Catalog, Field, Ty, TyKind};
use catalogc::names::{pascal_case, screaming_snake_case};
use catalogc::project;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;

/// Tools per catalog file; each part holds `TOOLS_PER_FILE / 5` resources.
const TOOLS_PER_FILE: usize = 500;

/// One tool in this many is changed on the `changed` side (5%).
const CHANGE_EVERY: usize = 20;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some((out, counts)) = args.split_first() else {
        eprintln!("usage: cargo bench --bench peer -- OUT TOOLS…");
        std::process::exit(2);
    };
    for count in counts {
        let Ok(tools) = count.parse::<usize>() else {
            eprintln!("not a tool count: {count}");
            std::process::exit(2);
        };
        let dir = Path::new(out).join(count);
        if let Err(e) = write_pair(&dir, tools) {
            eprintln!("{}: {e}", dir.display());
            std::process::exit(1);
        }
        println!("{}: {tools} tools", dir.display());
    }
}

fn write_pair(dir: &Path, tools: usize) -> std::io::Result<()> {
    let parts: Vec<(String, String)> = (0..tools.div_ceil(TOOLS_PER_FILE))
        .map(|k| {
            let n = TOOLS_PER_FILE.min(tools - k * TOOLS_PER_FILE);
            let name = format!("part{k:03}");
            let text = catalogc::testing::synthetic_catalog_part(&name, n, k * TOOLS_PER_FILE / 5);
            (name, text)
        })
        .collect();
    let changed: Vec<(String, String)> = parts
        .iter()
        .enumerate()
        .map(|(k, (name, text))| (name.clone(), change(text, k * TOOLS_PER_FILE)))
        .collect();
    let mut numbers = Numbers::default();
    for (side, parts) in [("base", &parts), ("changed", &changed)] {
        let root = dir.join(side);
        let cats = root.join("catalogs");
        std::fs::create_dir_all(&cats)?;
        for (name, text) in parts.iter() {
            std::fs::write(cats.join(format!("{name}.kdl")), text)?;
        }
        let loaded = project::load_sources(
            parts
                .iter()
                .map(|(name, text)| (format!("{name}.kdl").into(), text.clone())),
        );
        let proto = root.join("proto");
        let package = proto.join("synthetic/v1");
        std::fs::create_dir_all(&package)?;
        std::fs::write(proto.join("buf.yaml"), BUF_YAML)?;
        let mut service = String::from("syntax = \"proto3\";\n\npackage synthetic.v1;\n\n");
        for cat in &loaded.project.catalogs {
            let _ = writeln!(service, "import \"synthetic/v1/{}.proto\";", cat.name.value);
        }
        service
            .push_str("\n// Every tool of the synthetic catalogs.\nservice SyntheticService {\n");
        for cat in &loaded.project.catalogs {
            std::fs::write(
                package.join(format!("{}.proto", cat.name.value)),
                numbers.file(cat),
            )?;
            for tool in &cat.tools {
                let rpc = pascal_case(&tool.name.value);
                if let Some(s) = &tool.summary {
                    let _ = writeln!(service, "  // {}", s.value);
                }
                let _ = writeln!(
                    service,
                    "  rpc {rpc}({rpc}Request) returns ({rpc}Response);"
                );
            }
        }
        service.push_str("}\n");
        std::fs::write(package.join("service.proto"), service)?;
    }
    Ok(())
}

const BUF_YAML: &str =
    "version: v2\nlint:\n  use:\n    - STANDARD\nbreaking:\n  use:\n    - FILE\n";

/// The `changed` side of one catalog text whose first tool is tool number `first` of the
/// project: every [`CHANGE_EVERY`]th tool gains or loses an input field.
fn change(text: &str, first: usize) -> String {
    let mut chunks = text.split("\ntool \"");
    let mut out =
        chunks
            .next()
            .unwrap_or_default()
            .replacen("version=\"1.0.0\"", "version=\"1.1.0\"", 1);
    for (i, chunk) in chunks.enumerate() {
        out.push_str("\ntool \"");
        let n = first + i;
        if !n.is_multiple_of(CHANGE_EVERY) {
            out.push_str(chunk);
        } else if (n / CHANGE_EVERY).is_multiple_of(2) {
            out.push_str(&add_field(chunk));
        } else {
            out.push_str(&remove_first_field(chunk));
        }
    }
    out
}

const INPUT: &str = "    input {\n";

fn add_field(tool: &str) -> String {
    tool.replacen("version=\"1.0.0\"", "version=\"1.1.0\"", 1).replacen(
        INPUT,
        "    input {\n        field \"call_note\" \"string\" max-length=200 {\n            doc \"A note the caller attaches to this call.\"\n        }\n",
        1,
    )
}

fn remove_first_field(tool: &str) -> String {
    const END: &str = "\n        }\n";
    let Some(start) = tool.find(INPUT).map(|p| p + INPUT.len()) else {
        return tool.to_string();
    };
    let Some(end) = tool[start..].find(END).map(|p| start + p + END.len()) else {
        return tool.to_string();
    };
    format!("{}{}", &tool[..start], &tool[end..])
}

/// Field numbers by message and field name: the base side numbers fields in order, the
/// changed side keeps those numbers and gives a new field the next free one.
#[derive(Default)]
struct Numbers {
    by_field: HashMap<(String, String), u32>,
    last: HashMap<String, u32>,
}

impl Numbers {
    fn number(&mut self, message: &str, field: &str) -> u32 {
        let key = (message.to_string(), field.to_string());
        if let Some(&n) = self.by_field.get(&key) {
            return n;
        }
        let last = self.last.entry(message.to_string()).or_insert(0);
        *last += 1;
        self.by_field.insert(key, *last);
        *last
    }

    /// The .proto file of one catalog: its named types, then each tool's request and response.
    fn file(&mut self, cat: &Catalog) -> String {
        let mut body = String::new();
        let mut imports = BTreeSet::new();
        for def in &cat.types {
            let doc = def.doc.as_ref().map(|d| d.value.as_str());
            self.message(
                &mut body,
                &mut imports,
                0,
                &def.name.value,
                doc,
                &def.fields,
            );
        }
        for tool in &cat.tools {
            let rpc = pascal_case(&tool.name.value);
            let doc = tool.summary.as_ref().map(|d| d.value.as_str());
            let request = format!("{rpc}Request");
            self.message(
                &mut body,
                &mut imports,
                0,
                &request,
                doc,
                &tool.input.fields,
            );
            let output = tool.output.as_ref().map_or(&[][..], |o| &o.fields[..]);
            let response = format!("{rpc}Response");
            self.message(&mut body, &mut imports, 0, &response, None, output);
        }
        let mut out = String::from("syntax = \"proto3\";\n\npackage synthetic.v1;\n\n");
        for import in &imports {
            let _ = writeln!(out, "import \"{import}\";");
        }
        if !imports.is_empty() {
            out.push('\n');
        }
        out.push_str(&body);
        out
    }

    /// Writes message `path` (its full name, dotted when nested: field numbers are kept
    /// under it) at `depth`.
    fn message(
        &mut self,
        out: &mut String,
        imports: &mut BTreeSet<&'static str>,
        depth: usize,
        path: &str,
        doc: Option<&str>,
        fields: &[Field],
    ) {
        let pad = "  ".repeat(depth);
        let name = path.rsplit('.').next().unwrap_or(path);
        if let Some(doc) = doc {
            let _ = writeln!(out, "{pad}// {doc}");
        }
        let _ = writeln!(out, "{pad}message {name} {{");
        for f in fields {
            let field = &f.name.value;
            let (repeated, ty) = match &f.ty.kind {
                TyKind::Array(a) => ("repeated ", &*a.items),
                _ => ("", &f.ty),
            };
            let ty = self.ty(out, imports, depth + 1, path, field, ty);
            let number = self.number(path, field);
            if let Some(doc) = &f.doc {
                let _ = writeln!(out, "{pad}  // {}", doc.value);
            }
            let _ = writeln!(out, "{pad}  {repeated}{ty} {field} = {number};");
        }
        let _ = writeln!(out, "{pad}}}\n");
    }

    /// The Protobuf type of a field of message `path`, writing the nested enum or message
    /// it needs.
    fn ty(
        &mut self,
        out: &mut String,
        imports: &mut BTreeSet<&'static str>,
        depth: usize,
        path: &str,
        field: &str,
        ty: &Ty,
    ) -> String {
        let pad = "  ".repeat(depth);
        match &ty.kind {
            TyKind::String(s) | TyKind::Cursor(s) => match &s.enum_values {
                Some(values) => {
                    let name = pascal_case(field);
                    let prefix = screaming_snake_case(field);
                    let _ = writeln!(out, "{pad}enum {name} {{\n{pad}  {prefix}_UNSPECIFIED = 0;");
                    for (i, v) in values.values.iter().enumerate() {
                        let value = screaming_snake_case(&v.value);
                        let _ = writeln!(out, "{pad}  {prefix}_{value} = {};", i + 1);
                    }
                    let _ = writeln!(out, "{pad}}}");
                    name
                }
                None => "string".into(),
            },
            TyKind::Integer(_) => "int64".into(),
            TyKind::Number(_) => "double".into(),
            TyKind::Boolean => "bool".into(),
            TyKind::Timestamp => {
                imports.insert("google/protobuf/timestamp.proto");
                "google.protobuf.Timestamp".into()
            }
            TyKind::Named(n) => n.value.clone(),
            // The catalogs the benchmark compares hold no union; a free value says it.
            TyKind::Union(_) => {
                imports.insert("google/protobuf/struct.proto");
                "google.protobuf.Struct".into()
            }
            TyKind::Json => {
                imports.insert("google/protobuf/struct.proto");
                "google.protobuf.Value".into()
            }
            // Map values are scalars or `json` (the format admits no others).
            TyKind::Map(m) => {
                let value = self.ty(out, imports, depth, path, field, &m.values);
                format!("map<string, {value}>")
            }
            TyKind::Object(o) => {
                let name = pascal_case(field);
                self.message(
                    out,
                    imports,
                    depth,
                    &format!("{path}.{name}"),
                    None,
                    &o.fields,
                );
                name
            }
            // Protobuf has no repeated repeated: an array of arrays gets a wrapper message.
            TyKind::Array(_) => {
                let name = format!("{}Item", pascal_case(field));
                let values = Field::new("values", ty.kind.clone());
                let nested = format!("{path}.{name}");
                self.message(
                    out,
                    imports,
                    depth,
                    &nested,
                    None,
                    std::slice::from_ref(&values),
                );
                name
            }
        }
    }
}
