//! Complete, clean tools built by hand for the unit tests of rules about texts and errors:
//! a test changes the one text or error it is about.

use crate::diag::{SourceFile, SourceMap};
use crate::lint::{Config, Context, Finding, Rule};
use crate::model::*;

pub use crate::testing::sp;

pub fn s(text: &str) -> Option<Sp<String>> {
    Some(sp(text.to_string()))
}

/// A complete, clean read tool.
pub fn tool(name: &str) -> Tool {
    Tool {
        summary: s("Look up the overdue ledger entries of one customer account."),
        when: s("Use when the user asks which ledger entries are overdue."),
        when_not: s("Not for payments; use payment_send to pay."),
        ..Tool::new(name, "1.0.0", Effect::Read)
    }
}

/// [`tool`] with this summary.
pub fn summarised(name: &str, summary: &str) -> Tool {
    Tool {
        summary: s(summary),
        ..tool(name)
    }
}

pub fn field(name: &str, kind: TyKind, doc: Option<&str>) -> Field {
    Field {
        doc: doc.map(|d| sp(d.to_string())),
        ..Field::new(name, kind)
    }
}

pub fn error(code: &str, class: ErrorClass, retry: Option<Retry>) -> ErrorDef {
    ErrorDef {
        code: sp(code.into()),
        class: sp(class),
        retry: retry.map(sp),
        message: None,
        next_step: None,
        detail: None,
        span: Span::default(),
    }
}

pub fn catalog(name: &str, tools: Vec<Tool>) -> Catalog {
    crate::testing::catalog_with(name, tools, vec![])
}

pub fn run_with(rule: &Rule, project: &Project, config: &Config) -> Vec<Finding> {
    let mut sources = SourceMap::default();
    sources.add(SourceFile::new("test.kdl", String::new()));
    let artifacts = crate::testing::artifacts(project);
    let cx = Context::new(project, &sources, config, &artifacts);
    crate::lint::findings(&cx, &[rule])
        .into_iter()
        .flatten()
        .collect()
}

pub fn run(rule: &Rule, tools: Vec<Tool>) -> Vec<Finding> {
    let project = Project {
        catalogs: vec![catalog("test", tools)],
    };
    run_with(rule, &project, &Config::default())
}
