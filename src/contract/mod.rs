//! The published contract of every tool, computed once per run: its rendered model-facing
//! description, input and output JSON Schemas, MCP tool definition and four hashes.
//!
//! Everything that shows a tool to a client or pins it (`hash`, `export`, `lock`,
//! `breaking`, the lint rules that measure descriptions, code generation, docs, the MCP
//! adapter) reads these [`Artifacts`], so they agree byte for byte: a description rendered
//! from a project's own templates is the one that is hashed, locked, exported and generated.

pub mod description;
pub mod hash;
pub mod markdown;
pub mod schema;
pub mod shape;
pub mod targets;
pub mod text;
pub mod vectors;

pub use description::{TemplateError, Templates};
pub use hash::ToolHashes;

use crate::model::{Catalog, Project, Tool};
use hash::ContractFacts;
use serde_json::Value;
use std::ops::Range;
use std::sync::OnceLock;

/// The contract of one tool. The MCP definition is kept as its compact JSON text, written
/// in one pass by [`schema`], with both schemas inside it: what `lint` measures (lengths),
/// `export` prints (re-indented) and hashes are taken over (canonicalised) is that text; a
/// reader that needs a tree parses it ([`ToolContract::definition_value`] and the schema
/// accessors). A JSON tree per tool cost about ten times its text in memory and most of
/// building the contracts.
///
/// The four hashes are computed on first use and kept: `hash`, `lock`, `export`, docs and
/// code generation read them, while `lint` and `lsp` (which only measure descriptions and
/// definitions) never pay for canonicalising and hashing every schema.
#[derive(Debug, Clone)]
pub struct ToolContract {
    /// The rendered model-facing description (the MCP `description`).
    pub description: String,
    /// The MCP tool definition (one entry of `tools/list`) as compact JSON.
    definition: Box<str>,
    /// Where the input schema sits in `definition`.
    input: Range<usize>,
    /// Where the output schema sits in `definition`, when the tool declares an output.
    output: Option<Range<usize>>,
    /// What the contract hash covers besides the schemas.
    facts: ContractFacts,
    /// The `input`, `output`, `description` and `contract` hashes, once asked for.
    hashes: OnceLock<ToolHashes>,
}

/// Two contracts are equal when what they are computed from is: the hashes follow from it,
/// whether or not either side has computed them yet.
impl PartialEq for ToolContract {
    fn eq(&self, other: &Self) -> bool {
        self.description == other.description
            && self.definition == other.definition
            && self.facts == other.facts
    }
}

impl ToolContract {
    /// The contract of `tool` of `cat`, its description rendered from `templates`.
    pub fn build(
        cat: &Catalog,
        tool: &Tool,
        templates: &Templates,
    ) -> Result<ToolContract, TemplateError> {
        Self::build_with(&mut schema::Schemas::new(cat), tool, cat, templates)
    }

    /// [`ToolContract::build`] with the schemas of `cat` built so far, so the tools of one
    /// catalog share each named type's schema.
    fn build_with(
        schemas: &mut schema::Schemas<'_>,
        tool: &Tool,
        cat: &Catalog,
        templates: &Templates,
    ) -> Result<ToolContract, TemplateError> {
        let description = rendered(templates, cat, tool)?;
        Ok(Self::with_description(schemas, tool, description))
    }

    /// The contract of `tool`, its description already rendered.
    fn with_description(
        schemas: &mut schema::Schemas<'_>,
        tool: &Tool,
        description: String,
    ) -> ToolContract {
        let def = schema::definition_of(schemas, tool, &description);
        ToolContract {
            description,
            definition: def.text,
            input: def.input,
            output: def.output,
            facts: ContractFacts::of(schemas, tool),
            hashes: OnceLock::new(),
        }
    }

    /// The MCP tool definition as compact JSON (the bytes `serde_json::to_string` gives).
    pub fn definition(&self) -> &str {
        &self.definition
    }

    /// The MCP tool definition as a tree (parsed on each call).
    pub fn definition_value(&self) -> Value {
        schema::parse(&self.definition)
    }

    /// The input JSON Schema, with `$schema` (the definition's `inputSchema`), as compact
    /// JSON.
    pub fn input_schema(&self) -> &str {
        self.definition.get(self.input.clone()).unwrap_or("{}")
    }

    /// The output JSON Schema (`outputSchema`) as compact JSON, when the tool declares an
    /// output.
    pub fn output_schema(&self) -> Option<&str> {
        let range = self.output.clone()?;
        self.definition.get(range)
    }

    /// [`ToolContract::input_schema`] as a tree (parsed on each call).
    pub fn input_schema_value(&self) -> Value {
        schema::parse(self.input_schema())
    }

    /// [`ToolContract::output_schema`] as a tree (parsed on each call).
    pub fn output_schema_value(&self) -> Option<Value> {
        self.output_schema().map(schema::parse)
    }

    /// The `input`, `output`, `description` and `contract` hashes, computed on first use.
    pub fn hashes(&self) -> &ToolHashes {
        self.hashes.get_or_init(|| {
            hash::hashes_from(
                &self.facts,
                &self.description,
                self.input_schema(),
                self.output_schema(),
            )
        })
    }
}

/// The description of `tool` rendered from `templates`, without spare room: it lives for
/// the whole run.
fn rendered(templates: &Templates, cat: &Catalog, tool: &Tool) -> Result<String, TemplateError> {
    let mut description = templates.description(cat, tool)?;
    description.shrink_to_fit();
    Ok(description)
}

/// What the four hashes of a tool are taken over, written but not yet canonicalised or
/// hashed: its rendered description, its two schemas as compact JSON and its
/// [`ContractFacts`]. Equal inputs give equal hashes, so `breaking` compares these first and
/// canonicalises and hashes only the tools whose inputs differ.
#[derive(Debug, Clone, PartialEq)]
pub struct HashInputs {
    description: String,
    input: String,
    output: Option<String>,
    facts: ContractFacts,
}

impl HashInputs {
    /// The inputs of `tool` of `cat`, without writing the MCP definition that `breaking`
    /// would drop at once.
    pub fn of(cat: &Catalog, tool: &Tool, templates: &Templates) -> Result<Self, TemplateError> {
        let description = templates.description(cat, tool)?;
        let mut schemas = schema::Schemas::one_tool(cat);
        Ok(HashInputs {
            description,
            input: schemas.input(tool),
            output: schemas.output(tool),
            facts: ContractFacts::of(&mut schemas, tool),
        })
    }

    /// The hashes, exactly those of [`ToolContract::hashes`] for the same tool.
    pub fn hashes(&self) -> ToolHashes {
        hash::hashes_from(
            &self.facts,
            &self.description,
            &self.input,
            self.output.as_deref(),
        )
    }
}

/// The hashes of `tool` of `cat`, exactly those of [`ToolContract::hashes`].
pub fn tool_hashes(
    cat: &Catalog,
    tool: &Tool,
    templates: &Templates,
) -> Result<ToolHashes, TemplateError> {
    Ok(HashInputs::of(cat, tool, templates)?.hashes())
}

/// `build` of every run of tools of every catalog of `project`, on rayon's threads; a run
/// shares its catalog's named types' schemas among its tools (a type used in several runs is
/// written once per run, to the same text). The results are taken back in catalog and tool
/// order, one list per catalog, so the first failure is the first in that order whatever the
/// number of threads.
fn each_run<T: Send>(
    project: &Project,
    build: impl Fn(&mut schema::Schemas<'_>, &Catalog, &[Tool]) -> Result<Vec<T>, TemplateError> + Sync,
) -> Result<Vec<Vec<T>>, TemplateError> {
    use rayon::prelude::*;
    let catalogs: Vec<Result<Vec<T>, TemplateError>> = (project.catalogs.par_iter())
        .map(|cat| {
            // Counted once per catalog, not by each run: counting walks the whole catalog.
            let repeated = schema::RepeatedTypes::of(cat);
            let runs: Vec<Result<Vec<T>, TemplateError>> = (cat.tools)
                .par_chunks(crate::model::lower::RUN)
                .map(|run| build(&mut schema::Schemas::sharing(cat, &repeated), cat, run))
                .collect();
            let mut tools = Vec::with_capacity(cat.tools.len());
            for run in runs {
                tools.extend(run?);
            }
            Ok(tools)
        })
        .collect();
    catalogs.into_iter().collect()
}

/// What the lint rules read of the tools' contracts: each tool's rendered description and
/// the length of its MCP definition for every tool, and the whole [`ToolContract`] (its
/// schemas) of the tools whose schemas a rule reads. Tools are named by their indexes into
/// the project, `project.catalogs[catalog].tools[tool]`.
pub trait Contracts: Sync {
    /// The rendered description of the tool.
    fn description(&self, catalog: usize, tool: usize) -> Option<&str>;
    /// The length in bytes of the tool's MCP definition as compact JSON
    /// ([`ToolContract::definition`]).
    fn definition_len(&self, catalog: usize, tool: usize) -> Option<usize>;
    /// The tool's whole contract, when it was built.
    fn tool(&self, catalog: usize, tool: usize) -> Option<&ToolContract>;
}

impl Contracts for Artifacts {
    fn description(&self, catalog: usize, tool: usize) -> Option<&str> {
        Some(&self.tool(catalog, tool)?.description)
    }

    fn definition_len(&self, catalog: usize, tool: usize) -> Option<usize> {
        Some(self.tool(catalog, tool)?.definition.len())
    }

    fn tool(&self, catalog: usize, tool: usize) -> Option<&ToolContract> {
        Artifacts::tool(self, catalog, tool)
    }
}

/// The [`Contracts`] of a project as `lint` needs them: every tool's description and
/// definition length, and the whole contract only of the tools a caller keeps. A tool that
/// is not kept has its definition written into a buffer used again for the next tool and
/// only measured, and no [`ContractFacts`]: most of what [`Artifacts`] holds per tool is its
/// definition, which the rules only measure.
#[derive(Debug, Default)]
pub struct Measured {
    catalogs: Vec<Vec<MeasuredTool>>,
}

#[derive(Debug)]
enum MeasuredTool {
    Kept(Box<ToolContract>),
    Measured {
        description: String,
        definition_len: usize,
    },
}

impl Measured {
    /// Every tool's description (rendered from `templates`) and definition length, and the
    /// whole contract of each tool for which `keep` is true. A template that fails stops the
    /// build with the first failure, as [`Artifacts::build`] does.
    pub fn build(
        project: &Project,
        templates: &Templates,
        keep: impl Fn(&Tool) -> bool + Sync,
    ) -> Result<Measured, TemplateError> {
        let catalogs = each_run(project, |schemas, cat, run| {
            let mut definition = String::new();
            (run.iter())
                .map(|tool| {
                    let description = rendered(templates, cat, tool)?;
                    if keep(tool) {
                        let contract = ToolContract::with_description(schemas, tool, description);
                        return Ok(MeasuredTool::Kept(Box::new(contract)));
                    }
                    definition.clear();
                    schema::write_definition(&mut definition, schemas, tool, &description);
                    Ok(MeasuredTool::Measured {
                        description,
                        definition_len: definition.len(),
                    })
                })
                .collect()
        })?;
        Ok(Measured { catalogs })
    }

    fn get(&self, catalog: usize, tool: usize) -> Option<&MeasuredTool> {
        self.catalogs.get(catalog)?.get(tool)
    }
}

impl Contracts for Measured {
    fn description(&self, catalog: usize, tool: usize) -> Option<&str> {
        match self.get(catalog, tool)? {
            MeasuredTool::Kept(c) => Some(&c.description),
            MeasuredTool::Measured { description, .. } => Some(description),
        }
    }

    fn definition_len(&self, catalog: usize, tool: usize) -> Option<usize> {
        match self.get(catalog, tool)? {
            MeasuredTool::Kept(c) => Some(c.definition.len()),
            MeasuredTool::Measured { definition_len, .. } => Some(*definition_len),
        }
    }

    fn tool(&self, catalog: usize, tool: usize) -> Option<&ToolContract> {
        match self.get(catalog, tool)? {
            MeasuredTool::Kept(c) => Some(c),
            MeasuredTool::Measured { .. } => None,
        }
    }
}

/// The contracts of every tool of one catalog, in declaration order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CatalogContracts {
    /// One contract per tool, parallel to the catalog's `tools`.
    pub tools: Vec<ToolContract>,
}

/// The contracts of every tool of a project, parallel to `project.catalogs[c].tools[t]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Artifacts {
    /// One entry per catalog, parallel to `project.catalogs`.
    pub catalogs: Vec<CatalogContracts>,
}

impl Artifacts {
    /// Computes every tool's contract. A template that fails to render stops the build with
    /// the first failure (in catalog, then tool order), naming the template.
    pub fn build(project: &Project, templates: &Templates) -> Result<Artifacts, TemplateError> {
        let catalogs = each_run(project, |schemas, cat, run| {
            (run.iter())
                .map(|tool| ToolContract::build_with(schemas, tool, cat, templates))
                .collect()
        })?;
        Ok(Artifacts {
            catalogs: (catalogs.into_iter())
                .map(|tools| CatalogContracts { tools })
                .collect(),
        })
    }

    /// The contract of tool `tool` of catalog `catalog` (indexes into the project).
    pub fn tool(&self, catalog: usize, tool: usize) -> Option<&ToolContract> {
        self.catalogs.get(catalog)?.tools.get(tool)
    }

    /// The `tools/list` payload `{"tools":[...]}` of every tool of `project`, as a tree.
    pub fn tools_list(&self, project: &Project) -> Value {
        self.tools_list_view(project).to_value()
    }

    /// The `tools/list` payload of every tool of `project`, borrowing the definitions' text:
    /// [`ToolsList::write_pretty`] prints it without building any tree.
    ///
    /// Order: catalogs sorted by name (a stable sort, so the loader's order breaks ties),
    /// then tools in declaration order. Sorting by name keeps the payload independent of the
    /// order files were found in.
    pub fn tools_list_view(&self, project: &Project) -> ToolsList<'_> {
        let tools = catalogs_by_name(project)
            .into_iter()
            .filter_map(|c| self.catalogs.get(c))
            .flat_map(|c| c.tools.iter().map(ToolContract::definition))
            .collect();
        ToolsList { tools }
    }

    /// The `tools/list` payload of one catalog, in declaration order.
    pub fn catalog_tools_list(&self, catalog: usize) -> ToolsList<'_> {
        let tools = self
            .catalogs
            .get(catalog)
            .map(|c| c.tools.iter().map(ToolContract::definition).collect())
            .unwrap_or_default();
        ToolsList { tools }
    }
}

/// A `tools/list` payload `{"tools":[...]}` over borrowed tool definitions (compact JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolsList<'a> {
    /// The MCP tool definitions, in payload order.
    pub tools: Vec<&'a str>,
}

impl ToolsList<'_> {
    /// The payload as an owned JSON value (every definition parsed).
    pub fn to_value(&self) -> Value {
        let tools = self.tools.iter().map(|t| schema::parse(t)).collect();
        let mut m = serde_json::Map::with_capacity(1);
        m.insert("tools".into(), Value::Array(tools));
        Value::Object(m)
    }

    /// Writes the payload as `serde_json::to_writer_pretty` writes [`ToolsList::to_value`]
    /// (no final newline), one definition at a time.
    pub fn write_pretty(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if self.tools.is_empty() {
            return out.write_all(b"{\n  \"tools\": []\n}");
        }
        out.write_all(b"{\n  \"tools\": [")?;
        let mut buf = Vec::new();
        for (i, def) in self.tools.iter().enumerate() {
            buf.clear();
            buf.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
            text::pretty_into(&mut buf, def, 2);
            out.write_all(&buf)?;
        }
        out.write_all(b"\n  ]\n}")
    }

    /// [`ToolsList::write_pretty`] into a string.
    pub fn to_pretty_string(&self) -> String {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail; the definitions are UTF-8 and so is the layout.
        let _ = self.write_pretty(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The indexes of `project.catalogs` sorted by catalog name (a stable sort, so the loader's
/// order breaks ties): the order of every output that spans catalogs, so it does not depend
/// on the order files were found in.
pub fn catalogs_by_name(project: &Project) -> Vec<usize> {
    let mut order: Vec<usize> = (0..project.catalogs.len()).collect();
    order.sort_by(|&a, &b| {
        project.catalogs[a]
            .name
            .value
            .cmp(&project.catalogs[b].name.value)
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::load_source;
    use crate::runtime::canonical::{digest, sha256_hex};

    fn billing() -> Project {
        load_source("billing.kdl", include_str!("../../catalogs/billing.kdl")).project
    }

    /// A project's template reaches every artifact: the description, the definition and the
    /// description hash, while the schemas and the contract hash do not depend on it.
    #[test]
    fn every_artifact_carries_the_runs_description() {
        let project = billing();
        let mut own = Templates::builtin();
        own.add(
            description::DESCRIPTION_TEMPLATE.to_string(),
            "{{ name }} is {{ effect }}.".to_string(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let art = Artifacts::build(&project, &own).unwrap_or_default();
        let builtin = Artifacts::build(&project, &Templates::builtin()).unwrap_or_default();
        let cat = &project.catalogs[0];
        assert!(!cat.tools.is_empty());
        for (i, tool) in cat.tools.iter().enumerate() {
            let (Some(c), Some(b)) = (art.tool(0, i), builtin.tool(0, i)) else {
                panic!("no contract for {}", tool.name.value);
            };
            let text = format!("{} is {}.", tool.name.value, tool.effect.value.as_str());
            assert_eq!(c.description, text);
            assert_eq!(c.definition_value()["description"], serde_json::json!(text));
            assert_eq!(c.hashes().description, sha256_hex(text.as_bytes()));
            assert_eq!(c.hashes().input, digest(&c.input_schema_value()));
            assert_eq!(c.output_schema().is_some(), tool.output.is_some());
            assert_ne!(c.description, b.description);
            assert_eq!(
                (c.input_schema(), &c.hashes().input, &c.hashes().contract),
                (b.input_schema(), &b.hashes().input, &b.hashes().contract)
            );
        }
        let list = art.tools_list(&project);
        assert_eq!(list, art.catalog_tools_list(0).to_value());
        assert_eq!(
            list["tools"][0],
            art.catalogs[0].tools[0].definition_value()
        );
        let view = art.tools_list_view(&project);
        assert_eq!(
            Some(view.to_pretty_string()),
            serde_json::to_string_pretty(&list).ok()
        );
        let none = ToolsList { tools: Vec::new() };
        assert_eq!(
            Some(none.to_pretty_string()),
            serde_json::to_string_pretty(&none.to_value()).ok()
        );
    }

    #[test]
    fn a_template_failing_to_render_names_itself() {
        let mut own = Templates::builtin();
        own.add(
            description::DESCRIPTION_TEMPLATE.to_string(),
            "{{ name }}\n{% if %}".to_string(),
        )
        .map(|()| panic!("a syntax error is rejected when the template is added"))
        .unwrap_or_else(|e| {
            assert_eq!(e.template, description::DESCRIPTION_TEMPLATE);
            assert!(e.message.contains("line 2"), "{e}");
        });
        own.add(
            description::DESCRIPTION_TEMPLATE.to_string(),
            "{{ name }}\n{{ name | no_such_filter }}".to_string(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let e = Artifacts::build(&billing(), &own).map(|_| ()).unwrap_err();
        assert_eq!(e.template, description::DESCRIPTION_TEMPLATE);
        assert!(e.message.contains("line 2"), "{e}");
    }
}
