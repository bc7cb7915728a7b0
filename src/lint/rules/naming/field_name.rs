//! The `naming/field-name` rule: field names keep one convention, at most 64 characters; [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::walk::{Side, Site};
use crate::lint::{Context, Finding, RuleState};
use crate::model::{Catalog, Field, TyKind};
use crate::names::Convention;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every field name (input, output, named types, any depth) follows one naming
    /// convention — snake_case (`invoice_id`), camelCase (`invoiceId`) or kebab-case
    /// (`invoice-id`) — and is at most 64 characters long. The convention is the project's
    /// `naming` setting (docs/configuration.md); by default (`naming "auto"`) it is each
    /// catalog's own: the one most of its multi-word field names follow, snake_case on a tie.
    /// One-word names follow every convention.
    ///
    /// 64 characters is above every property name of the 797 tools of 39 public MCP servers
    /// (tests/corpus/: 4,561 names, the longest 38: the 100th percentile; `tests/corpus.rs`
    /// recomputes it).
    ///
    /// ## Why is this bad?
    /// Field names become JSON Schema property names the model writes verbatim. Mixed styles in
    /// one catalog (`invoiceId` here, `invoice_id` there) make the model guess the spelling, and
    /// a guessed spelling is an argument the closed schema rejects. Every one of the three
    /// conventions is a valid MCP name, and renaming a published parameter is itself a breaking
    /// change, so a catalog that keeps to camelCase is not asked to switch. Long names cost
    /// tokens on every call.
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) the finding is a warning: the
    /// schema states every name the model must write, so a name in another convention is an
    /// inconsistency to fix, not a defect that misleads the model; and a server's names often
    /// mirror its upstream API's own, which the list cannot show. There the convention is
    /// read per side: the input names are the ones the model writes, the output names the
    /// server's records, which often keep the upstream API's style (a server whose inputs are
    /// all snake_case and whose outputs are camelCase is consistent where it matters). And a
    /// field of an object nested in the input (`query.topK`, `data.date_from`) that follows
    /// the convention of most of its own object's fields is not reported: the object is a
    /// record the server forwards, consistent in itself.
    ///
    /// ## Example
    /// ```kdl
    /// field "invoice_reference" "string" max-length=32
    /// field "customerName" "string" max-length=64
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "invoice_reference" "string" max-length=32
    /// field "customer_name" "string" max-length=64
    /// ```
    pub static RULE = Rule {
        id: "naming/field-name",
        level: Level::Error,
        summary: "field names keep the catalog's one naming convention (snake_case, camelCase or kebab-case), at most 64 characters",
        hooks: crate::lint::Hooks::state(|_| Box::new(Names { all: Convention::Snake, input: Convention::Snake, output: Convention::Snake })),
    };
}

pub(crate) const MAX_LEN: usize = 64;

/// The convention of the catalog being walked.
/// The catalog's convention, and on a published list those of its input and output names.
struct Names {
    all: Convention,
    input: Convention,
    output: Convention,
}

impl<'a> RuleState<'a> for Names {
    fn catalog(&mut self, cx: &Context<'a>, catalog: &'a Catalog, _: &mut Vec<Finding>) {
        let (mut inputs, mut outputs, mut types) = (Vec::new(), Vec::new(), Vec::new());
        for tool in &catalog.tools {
            collect(&tool.input.fields, &mut inputs);
            if let Some(o) = &tool.output {
                collect(&o.fields, &mut outputs);
            }
        }
        for t in &catalog.types {
            collect(&t.fields, &mut types);
        }
        let all = Convention::dominant(inputs.iter().chain(&outputs).chain(&types).copied());
        *self = match cx.config.naming {
            Some(c) => Names { all: c, input: c, output: c },
            None if cx.config.published => Names {
                all,
                input: Convention::dominant(inputs),
                output: Convention::dominant(outputs),
            },
            None => Names { all, input: all, output: all },
        };
    }

    fn declaration(&mut self, cx: &Context<'a>, site: &Site<'a, '_>, out: &mut Vec<Finding>) {
        let convention = match site.side {
            Some(Side::Input) => self.input,
            Some(Side::Output) => self.output,
            None => self.all,
        };
        check(cx, site, convention, out);
    }
}

/// On a published list: a field of an object nested in the input that follows the convention
/// most of its own object's multi-word field names follow.
fn keeps_its_objects_convention(cx: &Context, site: &Site, name: &str) -> bool {
    cx.config.naming.is_none()
        && cx.config.published
        && site.side == Some(Side::Input)
        && site.depth >= 2
        && Convention::dominant(site.siblings.iter().map(|f| f.name.value.as_str())).matches(name)
}

fn collect<'a>(fields: &'a [Field], out: &mut Vec<&'a str>) {
    for f in fields {
        out.push(&f.name.value);
        let mut ty = &f.ty.kind;
        while let TyKind::Array(a) = ty {
            ty = &a.items.kind;
        }
        if let TyKind::Object(o) = ty {
            collect(&o.fields, out);
        }
    }
}

fn check(cx: &Context, site: &Site, convention: Convention, out: &mut Vec<Finding>) {
    let catalog = site.catalog;
    let Some(field) = site.field else { return };
    let name = &field.name.value;
    let whose = if cx.config.naming.is_some() {
        "the configured convention"
    } else {
        "the convention of most field names in this catalog"
    };
    let problem = if !convention.matches(name) {
        if keeps_its_objects_convention(cx, site, name) {
            return;
        }
        format!("field name `{name}` is not {}, {whose}", convention.as_str())
    } else if name.len() > MAX_LEN {
        format!("field name `{name}` is {} characters long, over {MAX_LEN}", name.len())
    } else {
        return;
    };
    let finding = match site.tool {
        Some(tool) => Finding::in_tool(catalog, tool, field.name.span, problem),
        None => Finding::in_catalog(catalog, field.name.span, problem),
    };
    let help = if convention.matches(name) {
        format!("shorten it to at most {MAX_LEN} characters, in {}", convention.as_str())
    } else {
        format!(
            "write it in {} like the other fields: `{}` (renaming a published field is a breaking change; bump the major version)",
            convention.as_str(),
            convention.apply(name)
        )
    };
    let finding = finding.path(site.path).help(help);
    out.push(if cx.config.published { finding.level(Level::Warn) } else { finding });
}

#[cfg(test)]
mod tests {
    use crate::names::Convention;

    #[test]
    fn snake_case() {
        let snake = Convention::Snake;
        for good in ["a", "amount_minor", "line2_total", "x1"] {
            assert!(snake.matches(good), "{good}");
        }
        for bad in ["Amount", "amountMinor", "amount-minor", "_amount", "amount_", "amount__minor", "2fa", ""] {
            assert!(!snake.matches(bad), "{bad}");
        }
    }

    #[test]
    fn camel_and_kebab_case() {
        assert!(Convention::Camel.matches("perPage"));
        assert!(!Convention::Camel.matches("per_page"));
        assert!(Convention::Kebab.matches("list-collections"));
        assert!(!Convention::Kebab.matches("list--collections"));
        assert_eq!(Convention::Camel.apply("per_page"), "perPage");
    }

    #[test]
    fn a_published_list_reports_a_name_off_the_convention_as_a_warning() {
        use crate::lint::testkit::sites::*;
        use crate::model::Effect;
        let t = tool(
            "issue_list",
            Effect::Read,
            vec![field("issue_number", int(None, None)), field("per_page", int(None, None)), field("pullNumber", int(None, None))],
            None,
        );
        let f = check_with(&super::RULE, vec![catalog(vec![t.clone()], vec![])], &published());
        assert_eq!(paths(&f), ["input.pullNumber"]);
        assert_eq!(f[0].level, Some(crate::diag::Level::Warn));
        assert_eq!(check(&super::RULE, catalog(vec![t], vec![]))[0].level, None);
    }

    #[test]
    fn a_published_list_reads_the_convention_per_side_and_per_nested_input_object() {
        use crate::lint::testkit::sites::*;
        use crate::model::Effect;
        let t = tool(
            "issue_list",
            Effect::Read,
            vec![
                field("issue_number", int(None, None)),
                field("per_page", int(None, None)),
                field("query", object(vec![field("topK", int(None, None)), field("filter", int(None, None))])),
                field("sortOrder", int(None, None)),
            ],
            Some(vec![field("createdAt", int(None, None)), field("updatedAt", int(None, None)), field("is_open", int(None, None))]),
        );
        let f = check_with(&super::RULE, vec![catalog(vec![t.clone()], vec![])], &published());
        assert_eq!(paths(&f), ["input.sortOrder", "output.is_open"]);
        // A catalog keeps one convention over both sides and every object.
        let f = check(&super::RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["input.issue_number", "input.per_page", "output.is_open"]);
    }

    #[test]
    fn a_catalog_keeps_the_convention_most_of_its_names_follow() {
        let names = ["perPage", "issueNumber", "owner", "per_page"];
        assert_eq!(Convention::dominant(names), Convention::Camel);
        assert_eq!(Convention::dominant(["a_b", "aB"]), Convention::Snake);
        assert_eq!(Convention::dominant(["owner", "repo"]), Convention::Snake);
    }
}
