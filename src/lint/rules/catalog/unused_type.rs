//! The `catalog/unused-type` rule: every named type is used by a tool; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::{Site, Types, tool_sites};
use crate::lint::{Context, Finding, RuleState};
use crate::model::{Catalog, TyKind};
use std::collections::{HashMap, HashSet};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every named `type` is used by some tool, directly (`field "x" "Invoice"`,
    /// `items "Invoice"`) or through another type that a tool uses. A type used only by other
    /// unused types is unused too. A tool left out with an error (its schema is over the inlining
    /// caps) still counts as using its types: that error says what to fix.
    ///
    /// ## Why is this bad?
    /// An unused type is dead text: it is not part of any schema the model or a client sees, yet
    /// readers of the catalog assume it is, and it drifts out of date unnoticed. Usually it is a
    /// leftover of a removed tool or a field that was meant to use it.
    ///
    /// ## Example
    /// ```kdl
    /// type "LegacyInvoice" {
    ///     field "number" "string" max-length=32 { doc "Old invoice number." }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // Remove the type, or use it from a tool:
    /// field "invoice" "LegacyInvoice" { doc "The invoice." }
    /// ```
    pub static RULE = Rule {
        id: "catalog/unused-type",
        level: Level::Warn,
        summary: "every named type is used by a tool",
        hooks: crate::lint::Hooks::state(|_| Box::<Uses>::default()),
    };
}

/// Named types each declaration of the current catalog mentions, as written: tools' uses are
/// the roots, and a type's own fields are edges to the types it uses. One pass over the
/// declarations and a graph walk, so this stays linear however many types and uses there are.
#[derive(Default)]
struct Uses<'a> {
    names: HashSet<&'a str>,
    roots: Vec<&'a str>,
    edges: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> RuleState<'a> for Uses<'a> {
    fn catalog(&mut self, _: &Context<'a>, catalog: &'a Catalog, _: &mut Vec<Finding>) {
        self.names = catalog.types.iter().map(|t| t.name.value.as_str()).collect();
        self.roots.clear();
        self.edges.clear();
    }

    fn declaration(&mut self, _: &Context<'a>, site: &Site<'a, '_>, _: &mut Vec<Finding>) {
        let TyKind::Named(name) = &site.ty.kind else { return };
        match site.tool {
            Some(_) => self.roots.push(&name.value),
            None => {
                // Inside a type definition the path starts with the type's name.
                let owner = site.path.split(['.', '[']).next().unwrap_or("");
                if let Some(owner) = self.names.get(owner) {
                    self.edges.entry(owner).or_default().push(&name.value);
                }
            }
        }
    }

    fn catalog_done(&mut self, _: &Context<'a>, catalog: &'a Catalog, out: &mut Vec<Finding>) {
        // A tool left out for its oversized schema still uses its types: reporting every type
        // of a too-deep chain as unused would bury the one error that says what to fix.
        if !catalog.left_out.is_empty() {
            let types = Types::new(catalog);
            for tool in &catalog.left_out {
                tool_sites(&types, tool, false, &mut |site| {
                    if let TyKind::Named(name) = &site.ty.kind {
                        self.roots.push(&name.value);
                    }
                });
            }
        }
        let mut used: HashSet<&str> = HashSet::new();
        while let Some(name) = self.roots.pop() {
            if used.insert(name) {
                self.roots.extend(self.edges.get(name).into_iter().flatten().copied());
            }
        }
        for ty in &catalog.types {
            if used.contains(ty.name.value.as_str()) {
                continue;
            }
            out.push(
                Finding::in_catalog(catalog, ty.name.span, format!("type `{}` is not used by any tool", ty.name.value))
                    .path(ty.name.value.clone())
                    .help("remove the type, or use it as the type of a field or of an array's `items`"),
            );
        }
    }
}
