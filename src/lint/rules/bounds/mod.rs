//! Input and output shape: every value the model produces or reads has a stated bound.

crate::lint::declare_rules! {
    string_unbounded,
    array_unbounded,
    number_unbounded,
    offset_pagination,
    depth,
    field_count,
    pattern,
    pattern_backtracking,
    contradiction,
}

use crate::lint::Finding;
use crate::lint::walk::Site;
use crate::model::{Span, StringTy};

/// A finding about a site: in its tool, or in the catalog for a named type's own fields.
pub(crate) fn site_finding(site: &Site<'_, '_>, span: Span, message: impl Into<String>) -> Finding {
    let f = match site.tool {
        Some(tool) => Finding::in_tool(site.catalog, tool, span, message),
        None => Finding::in_catalog(site.catalog, span, message),
    };
    f.path(site.path)
}

/// Where a field finding points: the field's name, or the type token of an array's `items`.
pub(crate) fn site_span(site: &Site<'_, '_>) -> Span {
    site.field.map(|f| f.name.span).unwrap_or(site.ty.span)
}

/// A string whose length a validator can check: `max-length`, a closed or extensible `enum`
/// (each value is bounded), or a format of bounded length (`Format::is_bounded`).
pub(crate) fn string_is_bounded(s: &StringTy) -> bool {
    s.max_length.is_some()
        || s.enum_values.is_some()
        || s.format.as_ref().is_some_and(|f| f.value.is_bounded())
}

/// Building models by hand for the rules' unit tests (the loader lives on another branch and
/// the unit tests must not depend on the parser).
#[cfg(test)]
pub(crate) mod testkit {
    use crate::diag::SourceMap;
    use crate::lint::{Config, Context, Finding, Rule};
    use crate::model::*;

    pub fn sp<T>(value: T) -> Sp<T> {
        Sp::new(value, Span::new(0, 0))
    }

    pub fn ty(kind: TyKind) -> Ty {
        Ty {
            kind,
            span: Span::new(0, 0),
        }
    }

    pub fn field(name: &str, kind: TyKind) -> Field {
        Field::new(name, kind)
    }

    pub fn string() -> TyKind {
        TyKind::String(StringTy::default())
    }

    pub fn bounded_string(max: u64) -> TyKind {
        TyKind::String(StringTy {
            max_length: Some(sp(max)),
            ..StringTy::default()
        })
    }

    pub fn int(min: Option<i64>, max: Option<i64>) -> TyKind {
        TyKind::Integer(NumTy {
            min: min.map(|m| sp(Num::Int(m))),
            max: max.map(|m| sp(Num::Int(m))),
            ..NumTy::default()
        })
    }

    pub fn array(items: TyKind, max_items: Option<u64>) -> TyKind {
        TyKind::Array(ArrayTy {
            min_items: None,
            max_items: max_items.map(sp),
            unique: false,
            items: Box::new(ty(items)),
        })
    }

    pub fn object(fields: Vec<Field>) -> TyKind {
        TyKind::Object(Object {
            fields,
            span: Span::new(0, 0),
        })
    }

    pub fn named(name: &str) -> TyKind {
        TyKind::Named(sp(name.to_string()))
    }

    pub fn type_def(name: &str, fields: Vec<Field>) -> TypeDef {
        TypeDef {
            name: sp(name.to_string()),
            doc: None,
            fields,
            span: Span::new(0, 0),
        }
    }

    /// Named types `L0` … `L{levels}` where each level has two fields of the next level's
    /// type: a DAG whose expansion doubles with every level.
    pub fn dag(levels: usize) -> Vec<TypeDef> {
        (0..levels)
            .map(|i| {
                let next = named(&format!("L{}", i + 1));
                type_def(
                    &format!("L{i}"),
                    vec![field("left", next.clone()), field("right", next)],
                )
            })
            .chain([type_def(
                &format!("L{levels}"),
                vec![field("leaf", bounded_string(1))],
            )])
            .collect()
    }

    pub use crate::testing::tool_with as tool;

    pub fn catalog(tools: Vec<Tool>, types: Vec<TypeDef>) -> Catalog {
        crate::testing::catalog_with("test", tools, types)
    }

    pub fn check_with(rule: &Rule, catalogs: Vec<Catalog>, config: &Config) -> Vec<Finding> {
        let project = Project { catalogs };
        let sources = SourceMap::default();
        // No bounds rule reads the contract, and the hand-built DAG of the depth tests would
        // take exponential time to render as schemas (lowering refuses it; these bypass it).
        let artifacts = crate::contract::Artifacts::default();
        let cx = Context::new(&project, &sources, config, &artifacts);
        crate::lint::findings(&cx, &[rule])
            .into_iter()
            .flatten()
            .collect()
    }

    pub fn check(rule: &Rule, catalog: Catalog) -> Vec<Finding> {
        check_with(rule, vec![catalog], &Config::default())
    }

    /// The findings' paths (or `-` for tool-level findings), in report order.
    pub fn paths(findings: &[Finding]) -> Vec<String> {
        findings
            .iter()
            .map(|f| f.path.clone().unwrap_or_else(|| "-".to_string()))
            .collect()
    }
}
