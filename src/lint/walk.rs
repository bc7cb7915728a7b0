//! Walking the fields of a tool or a catalog, with the dotted path rules report
//! (`input.items[].amount_minor`).

use crate::model::{Catalog, Field, Object, Tool, Ty, TyKind, TypeDef};

pub use crate::model::Side;

/// One place a type occurs: a field's type, or an array's `items` type (`field` is `None`).
#[derive(Debug, Clone, Copy)]
pub struct Site<'a, 'p> {
    pub catalog: &'a Catalog,
    /// `None` when walking a named type's definition on its own.
    pub tool: Option<&'a Tool>,
    pub side: Option<Side>,
    /// Dotted path: `input.items[].amount_minor`, or `Invoice.amount_minor` inside a type
    /// definition.
    pub path: &'p str,
    pub field: Option<&'a Field>,
    pub ty: &'a Ty,
    /// The fields declared beside `field` (itself included), for sibling checks such as a
    /// currency next to an amount; for `items` sites, the siblings of the array field.
    pub siblings: &'a [Field],
    /// Object nesting depth of the site: fields of `input` are at depth 1.
    pub depth: usize,
}

/// Visit every type site of one side of a tool, resolving named types (so a field of a named
/// type is visited once per use, with the tool's path). Named types already on the current
/// path are not entered again.
pub fn tool_side<'a>(
    catalog: &'a Catalog,
    tool: &'a Tool,
    side: Side,
    f: &mut dyn FnMut(&Site<'a, '_>),
) {
    let Some(object) = tool.object(side) else {
        return;
    };
    let mut w = Walker {
        catalog,
        tool: Some(tool),
        side: Some(side),
        resolve: true,
        stack: Vec::new(),
        f,
    };
    w.object(object, side.as_str(), 1);
}

/// Both sides of a tool, input first.
pub fn tool_fields<'a>(catalog: &'a Catalog, tool: &'a Tool, f: &mut dyn FnMut(&Site<'a, '_>)) {
    tool_side(catalog, tool, Side::Input, f);
    tool_side(catalog, tool, Side::Output, f);
}

/// Visit every type site *as written* in a catalog, each once: the fields of every tool's
/// input and output and of every named type, without entering named types where they are
/// used. For rules about a declaration itself (naming, docs, patterns).
pub fn declarations<'a>(catalog: &'a Catalog, f: &mut dyn FnMut(&Site<'a, '_>)) {
    for tool in &catalog.tools {
        let mut w = Walker {
            catalog,
            tool: Some(tool),
            side: Some(Side::Input),
            resolve: false,
            stack: Vec::new(),
            f,
        };
        w.object(&tool.input, "input", 1);
        if let Some(output) = &tool.output {
            w.side = Some(Side::Output);
            w.object(output, "output", 1);
        }
    }
    for ty in &catalog.types {
        type_def(catalog, ty, f);
    }
}

fn type_def<'a>(catalog: &'a Catalog, ty: &'a TypeDef, f: &mut dyn FnMut(&Site<'a, '_>)) {
    let mut w = Walker {
        catalog,
        tool: None,
        side: None,
        resolve: false,
        stack: Vec::new(),
        f,
    };
    w.fields(&ty.fields, &ty.name.value, 1);
}

struct Walker<'a, 'f> {
    catalog: &'a Catalog,
    tool: Option<&'a Tool>,
    side: Option<Side>,
    resolve: bool,
    stack: Vec<&'a str>,
    f: &'f mut dyn FnMut(&Site<'a, '_>),
}

impl<'a> Walker<'a, '_> {
    fn object(&mut self, object: &'a Object, path: &str, depth: usize) {
        self.fields(&object.fields, path, depth);
    }

    fn fields(&mut self, fields: &'a [Field], parent_path: &str, depth: usize) {
        for field in fields {
            let path = format!("{parent_path}.{}", field.name.value);
            self.ty(&field.ty, Some(field), &path, depth, fields);
        }
    }

    fn ty(
        &mut self,
        ty: &'a Ty,
        field: Option<&'a Field>,
        path: &str,
        depth: usize,
        siblings: &'a [Field],
    ) {
        (self.f)(&Site {
            catalog: self.catalog,
            tool: self.tool,
            side: self.side,
            path,
            field,
            ty,
            siblings,
            depth,
        });
        match &ty.kind {
            TyKind::Object(o) => self.object(o, path, depth + 1),
            TyKind::Array(a) => {
                let items = format!("{path}[]");
                self.ty(&a.items, None, &items, depth, siblings);
            }
            TyKind::Named(name) if self.resolve => {
                if self.stack.contains(&name.value.as_str()) {
                    return;
                }
                if let Some(def) = self.catalog.type_def(&name.value) {
                    self.stack.push(&def.name.value);
                    self.fields(&def.fields, path, depth + 1);
                    self.stack.pop();
                }
            }
            _ => {}
        }
    }
}
