//! The published contract of every tool, computed once per run: its rendered model-facing
//! description, input and output JSON Schemas, MCP tool definition and four hashes.
//!
//! Everything that shows a tool to a client or pins it (`hash`, `export`, `lock`,
//! `breaking`, the lint rules that measure descriptions, code generation, docs, the MCP
//! adapter) reads these [`Artifacts`], so they agree byte for byte: a description rendered
//! from a project's own templates is the one that is hashed, locked, exported and generated.

use crate::hash::{ToolHashes, hashes_of};
use crate::model::{Catalog, Project, Tool};
use crate::schema;
use crate::text::{TemplateError, Templates};
use serde_json::{Value, json};

/// The contract of one tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolContract {
    /// The rendered model-facing description (the MCP `description`).
    pub description: String,
    /// The input JSON Schema, with `$schema`.
    pub input_schema: Value,
    /// The output JSON Schema (`outputSchema`), when the tool declares an output.
    pub output_schema: Option<Value>,
    /// The MCP tool definition (one entry of `tools/list`).
    pub definition: Value,
    /// The `input`, `output`, `description` and `contract` hashes.
    pub hashes: ToolHashes,
}

impl ToolContract {
    /// The contract of `tool` of `cat`, its description rendered from `templates`.
    pub fn build(
        cat: &Catalog,
        tool: &Tool,
        templates: &Templates,
    ) -> Result<ToolContract, TemplateError> {
        let description = templates.description(cat, tool)?;
        let input_schema = schema::input_schema(cat, tool);
        let output_schema = schema::output_schema(cat, tool);
        let hashes = hashes_of(tool, &description, &input_schema, output_schema.as_ref());
        let definition = schema::definition_of(
            tool,
            &description,
            input_schema.clone(),
            output_schema.clone(),
        );
        Ok(ToolContract {
            description,
            input_schema,
            output_schema,
            definition,
            hashes,
        })
    }
}

/// The contracts of every tool of one catalog, in declaration order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CatalogContracts {
    pub tools: Vec<ToolContract>,
}

/// The contracts of every tool of a project, parallel to `project.catalogs[c].tools[t]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Artifacts {
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
                let tools = cat
                    .tools
                    .iter()
                    .map(|tool| ToolContract::build(cat, tool, templates))
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

    /// The `tools/list` payload `{"tools":[...]}` of every tool of `project`.
    ///
    /// Order: catalogs sorted by name (a stable sort, so the loader's order breaks ties),
    /// then tools in declaration order. Sorting by name keeps the payload independent of the
    /// order files were found in.
    pub fn tools_list(&self, project: &Project) -> Value {
        let mut order: Vec<usize> = (0..project.catalogs.len()).collect();
        order.sort_by(|&a, &b| {
            project.catalogs[a]
                .name
                .value
                .cmp(&project.catalogs[b].name.value)
        });
        let tools: Vec<Value> = order
            .into_iter()
            .filter_map(|c| self.catalogs.get(c))
            .flat_map(|c| c.tools.iter().map(|t| t.definition.clone()))
            .collect();
        json!({ "tools": tools })
    }

    /// The `tools/list` payload of one catalog, in declaration order.
    pub fn catalog_tools_list(&self, catalog: usize) -> Value {
        let tools: Vec<Value> = self
            .catalogs
            .get(catalog)
            .map(|c| c.tools.iter().map(|t| t.definition.clone()).collect())
            .unwrap_or_default();
        json!({ "tools": tools })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::load_source;

    #[test]
    fn artifacts_agree_with_the_single_tool_functions() {
        let text = include_str!("../../catalogs/billing.kdl");
        let loaded = load_source("billing.kdl", text);
        let templates = Templates::builtin();
        let art = Artifacts::build(&loaded.project, &templates).unwrap_or_default();
        let cat = &loaded.project.catalogs[0];
        assert!(!cat.tools.is_empty());
        for (i, tool) in cat.tools.iter().enumerate() {
            let c = art.tool(0, i).cloned();
            let c = c.unwrap_or_else(|| panic!("no contract for {}", tool.name.value));
            assert_eq!(c.hashes, crate::hash::tool_hashes(cat, tool));
            assert_eq!(c.definition, schema::tool_definition(cat, tool));
            assert_eq!(c.description, crate::text::description(cat, tool));
        }
        assert_eq!(
            art.tools_list(&loaded.project),
            schema::tools_list(&loaded.project)
        );
    }
}
