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
pub mod vectors;

pub use description::{TemplateError, Templates};
pub use hash::ToolHashes;

use crate::model::{Catalog, Project, Tool};
use hash::ContractFacts;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The contract of one tool. The schemas live once, inside the definition: a project of
/// tens of thousands of tools keeps each schema tree in memory a single time.
///
/// The four hashes are computed on first use and kept: `hash`, `lock`, `export`, docs and
/// code generation read them, while `lint` and `lsp` (which only measure descriptions and
/// definitions) never pay for canonicalising and hashing every schema.
#[derive(Debug, Clone)]
pub struct ToolContract {
    /// The rendered model-facing description (the MCP `description`).
    pub description: String,
    /// The MCP tool definition (one entry of `tools/list`), holding both schemas.
    pub definition: Value,
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
        Self::build_with(&mut schema::Schemas::new(cat), cat, tool, templates)
    }

    /// [`ToolContract::build`] with the schemas of `cat` built so far, so the tools of one
    /// catalog share each named type's schema.
    fn build_with(
        schemas: &mut schema::Schemas<'_>,
        cat: &Catalog,
        tool: &Tool,
        templates: &Templates,
    ) -> Result<ToolContract, TemplateError> {
        let mut description = templates.description(cat, tool)?;
        // Rendering leaves room to grow; the description lives for the whole run.
        description.shrink_to_fit();
        let input_schema = schemas.input(tool);
        let output_schema = schemas.output(tool);
        let definition = schema::definition_of(tool, &description, input_schema, output_schema);
        Ok(ToolContract {
            description,
            definition,
            facts: ContractFacts::of(tool),
            hashes: OnceLock::new(),
        })
    }

    /// The input JSON Schema, with `$schema` (the definition's `inputSchema`).
    pub fn input_schema(&self) -> &Value {
        &self.definition["inputSchema"]
    }

    /// The output JSON Schema (`outputSchema`), when the tool declares an output.
    pub fn output_schema(&self) -> Option<&Value> {
        self.definition.get("outputSchema")
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

/// The hashes of `tool` of `cat`, exactly those of [`ToolContract::hashes`], without building
/// the MCP definition (a copy of both schemas) that `breaking` would drop at once.
pub fn tool_hashes(
    cat: &Catalog,
    tool: &Tool,
    templates: &Templates,
) -> Result<ToolHashes, TemplateError> {
    let description = templates.description(cat, tool)?;
    let input_schema = schema::input_schema(cat, tool);
    let output_schema = schema::output_schema(cat, tool);
    Ok(hash::hashes_of(
        tool,
        &description,
        &input_schema,
        output_schema.as_ref(),
    ))
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
        let catalogs = project
            .catalogs
            .iter()
            .map(|cat| {
                let mut schemas = schema::Schemas::new(cat);
                let tools = cat
                    .tools
                    .iter()
                    .map(|tool| ToolContract::build_with(&mut schemas, cat, tool, templates))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(CatalogContracts { tools })
            })
            .collect::<Result<Vec<_>, TemplateError>>()?;
        Ok(Artifacts { catalogs })
    }

    /// The contract of tool `tool` of catalog `catalog` (indexes into the project).
    pub fn tool(&self, catalog: usize, tool: usize) -> Option<&ToolContract> {
        self.catalogs.get(catalog)?.tools.get(tool)
    }

    /// The `tools/list` payload `{"tools":[...]}` of every tool of `project`, as a copy.
    pub fn tools_list(&self, project: &Project) -> Value {
        self.tools_list_view(project).to_value()
    }

    /// The `tools/list` payload of every tool of `project`, borrowing the definitions: it
    /// serialises to the same bytes as [`Artifacts::tools_list`] without copying every schema
    /// tree first (`export tools-json` of a large catalog would hold them twice).
    ///
    /// Order: catalogs sorted by name (a stable sort, so the loader's order breaks ties),
    /// then tools in declaration order. Sorting by name keeps the payload independent of the
    /// order files were found in.
    pub fn tools_list_view(&self, project: &Project) -> ToolsList<'_> {
        let tools = catalogs_by_name(project)
            .into_iter()
            .filter_map(|c| self.catalogs.get(c))
            .flat_map(|c| c.tools.iter().map(|t| &t.definition))
            .collect();
        ToolsList { tools }
    }

    /// The `tools/list` payload of one catalog, in declaration order.
    pub fn catalog_tools_list(&self, catalog: usize) -> ToolsList<'_> {
        let tools = self
            .catalogs
            .get(catalog)
            .map(|c| c.tools.iter().map(|t| &t.definition).collect())
            .unwrap_or_default();
        ToolsList { tools }
    }
}

/// A `tools/list` payload `{"tools":[...]}` over borrowed tool definitions.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolsList<'a> {
    /// The MCP tool definitions, in payload order.
    pub tools: Vec<&'a Value>,
}

impl ToolsList<'_> {
    /// The payload as an owned JSON value (a copy of every definition).
    pub fn to_value(&self) -> Value {
        json!({ "tools": self.tools })
    }
}

impl serde::Serialize for ToolsList<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("tools", &self.tools)?;
        m.end()
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
            assert_eq!(c.definition["description"], json!(text));
            assert_eq!(c.hashes().description, sha256_hex(text.as_bytes()));
            assert_eq!(c.hashes().input, digest(c.input_schema()));
            assert_eq!(c.output_schema().is_some(), tool.output.is_some());
            assert_ne!(c.description, b.description);
            assert_eq!(
                (c.input_schema(), &c.hashes().input, &c.hashes().contract),
                (b.input_schema(), &b.hashes().input, &b.hashes().contract)
            );
        }
        let list = art.tools_list(&project);
        assert_eq!(list, art.catalog_tools_list(0).to_value());
        assert_eq!(list["tools"][0], art.catalogs[0].tools[0].definition);
        let view = art.tools_list_view(&project);
        assert_eq!(
            serde_json::to_string_pretty(&view).ok(),
            serde_json::to_string_pretty(&list).ok()
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
