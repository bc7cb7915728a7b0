//! Type sites built by hand for the unit tests of rules about fields and types: each
//! constructor takes what the test varies, everything else is empty.

use crate::diag::SourceMap;
use crate::lint::{Config, Context, Finding, Rule};
use crate::model::*;

pub use crate::testing::sp;

pub fn ty(kind: TyKind) -> Ty {
    Ty {
        kind,
        span: Span::new(0, 0),
    }
}

pub fn field(name: &str, kind: TyKind) -> Field {
    Field::new(name, kind)
}

/// A required field `name` of type `kind`.
pub fn required(name: &str, kind: TyKind) -> Field {
    Field {
        required: true,
        ..field(name, kind)
    }
}

/// A field of `kind` mirrored into the header `header` (`header=`).
pub fn headed(name: &str, kind: TyKind, header: &str) -> Field {
    Field {
        header: Some(Box::new(sp(header.to_string()))),
        ..Field::new(name, kind)
    }
}

pub fn string() -> TyKind {
    TyKind::String(Box::default())
}

pub fn bounded_string(max: u64) -> TyKind {
    TyKind::String(Box::new(StringTy {
        max_length: Some(sp(max)),
        ..StringTy::default()
    }))
}

pub fn int(min: Option<i64>, max: Option<i64>) -> TyKind {
    TyKind::Integer(Box::new(NumTy {
        min: min.map(|m| sp(Num::Int(m))),
        max: max.map(|m| sp(Num::Int(m))),
        ..NumTy::default()
    }))
}

pub fn array(items: TyKind, max_items: Option<u64>) -> TyKind {
    TyKind::Array(Box::new(ArrayTy {
        min_items: None,
        max_items: max_items.map(sp),
        unique: false,
        items_nullable: false,
        items: Box::new(ty(items)),
    }))
}

pub fn object(fields: Vec<Field>) -> TyKind {
    TyKind::Object(Object {
        fields,
        span: Span::new(0, 0),
        extra: None,
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

/// The configuration `catalogc lint FILE.json` lints a published tools/list with.
pub fn published() -> Config {
    Config {
        published: true,
        ..Config::default()
    }
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
