//! The size and depth of a tool's schema once named types are inlined, computed without
//! inlining anything.
//!
//! Schemas inline named types (docs/catalog-format.md), so a few KB of types that each use the
//! next one twice describe a schema of 2^levels objects, and a chain of types one that is
//! thousands of objects deep. Every consumer that inlines (schemas, hashes, export, the lint
//! walk, compatibility) would take exponential time or overflow the stack. Here each named
//! type is measured once, bottom-up and without recursion across types (memoised, linear in
//! the catalog), and a tool whose inlined schema exceeds [`MAX_INLINED_FIELDS`] or
//! [`MAX_INLINED_DEPTH`] is reported and left out of the model before anything builds it.

use super::lower::MAX_FIELD_DEPTH;
use super::{Catalog, Field, Object, Tool, Ty, TyKind};
use crate::syntax::Span;
use std::collections::HashMap;

/// Fields (every property of every object, array items included) one side of a tool's
/// inlined schema may have. Far above any real tool (a model reads the whole schema), far
/// below what makes hashing or exporting slow.
pub const MAX_INLINED_FIELDS: u64 = 10_000;

/// How deep one side of a tool's inlined schema may nest objects: above the lowering's limit
/// for one declaration ([`MAX_FIELD_DEPTH`]), so what one declaration may write always fits;
/// low enough that every recursive walk of a schema stays far from the stack's end.
pub const MAX_INLINED_DEPTH: usize = 2 * MAX_FIELD_DEPTH;

/// A schema's measure: fields (saturating) and object depth, plus the named type through
/// which the largest and the deepest part is reached (to name the chain in the report).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Measure {
    fields: u64,
    depth: usize,
    heaviest: Option<usize>,
    deepest: Option<usize>,
}

/// Why a tool's schema is not built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Oversized {
    /// The rule ID reported (`bounds/…`).
    pub rule: &'static str,
    /// Where the tool (or the offending use) is written.
    pub span: Span,
    /// What is too large, with the measured size and the limit.
    pub message: String,
    /// How to make it smaller.
    pub help: String,
}

/// Measures every named type of `cat` once.
pub struct Sizes<'a> {
    cat: &'a Catalog,
    index: HashMap<&'a str, usize>,
    types: Vec<Measure>,
}

impl<'a> Sizes<'a> {
    /// Measures the named types of `cat`; with duplicate names, the first declaration wins.
    pub fn of(cat: &'a Catalog) -> Self {
        let mut index = HashMap::with_capacity(cat.types.len());
        for (i, t) in cat.types.iter().enumerate() {
            index.entry(t.name.value.as_str()).or_insert(i);
        }
        let mut s = Sizes {
            cat,
            index,
            types: vec![Measure::default(); cat.types.len()],
        };
        s.measure_types();
        s
    }

    /// Post-order over the type graph with an explicit stack, so a chain of 10,000 types
    /// takes no stack. A reference to a type still on the stack (a cycle, which lowering
    /// reports and removes; only a hand-built model has one) counts as an empty object.
    fn measure_types(&mut self) {
        // 0 = unvisited, 1 = on the stack, 2 = measured.
        let mut state = vec![0u8; self.types.len()];
        let deps: Vec<Vec<usize>> = self
            .cat
            .types
            .iter()
            .map(|t| {
                let mut out = Vec::new();
                self.refs(&t.fields, &mut out);
                out
            })
            .collect();
        for start in 0..self.types.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some(&to) = deps[node].get(*next) {
                    *next += 1;
                    if state[to] == 0 {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                } else {
                    self.types[node] = self.fields(&self.cat.types[node].fields, &state);
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
    }

    fn refs(&self, fields: &[Field], out: &mut Vec<usize>) {
        for f in fields {
            self.ty_refs(&f.ty, out);
        }
    }

    fn ty_refs(&self, ty: &Ty, out: &mut Vec<usize>) {
        match &ty.kind {
            TyKind::Named(n) => out.extend(self.index.get(n.value.as_str())),
            _ => ty.each_child(&mut |c| self.ty_refs(c, out)),
        }
    }

    /// An object of `fields`: its own level plus its deepest field. Recursion here follows
    /// one declaration only, which lowering bounds at [`MAX_FIELD_DEPTH`].
    fn fields(&self, fields: &[Field], state: &[u8]) -> Measure {
        let mut m = Measure {
            depth: 1,
            ..Measure::default()
        };
        let mut heaviest = 0;
        for f in fields {
            let t = self.ty(&f.ty, state);
            m.fields = m.fields.saturating_add(1).saturating_add(t.fields);
            if t.fields >= heaviest && t.heaviest.is_some() {
                heaviest = t.fields;
                m.heaviest = t.heaviest;
            }
            if t.depth + 1 > m.depth {
                m.depth = t.depth + 1;
                m.deepest = t.deepest;
            }
        }
        m
    }

    fn ty(&self, ty: &Ty, state: &[u8]) -> Measure {
        match &ty.kind {
            TyKind::Array(a) => {
                let items = self.ty(&a.items, state);
                Measure {
                    fields: items.fields.saturating_add(1),
                    ..items
                }
            }
            TyKind::Map(m) => {
                let values = self.ty(&m.values, state);
                Measure {
                    fields: values.fields.saturating_add(1),
                    ..values
                }
            }
            TyKind::Object(o) => {
                let mut m = self.fields(&o.fields, state);
                // An open object's extras are measured as a map's values: one more field.
                if let Some(x) = &o.extra {
                    let values = self.ty(&x.values, state);
                    m.fields = m.fields.saturating_add(1).saturating_add(values.fields);
                    if values.depth + 1 > m.depth {
                        m.depth = values.depth + 1;
                        m.deepest = values.deepest;
                    }
                }
                m
            }
            // Every variant is an object of the schema: their fields add up, the deepest counts.
            TyKind::Union(u) => {
                let mut m = Measure::default();
                for v in &u.variants {
                    let t = self.fields(&v.fields.fields, state);
                    if t.fields >= m.fields && t.heaviest.is_some() {
                        m.heaviest = t.heaviest;
                    }
                    m.fields = m.fields.saturating_add(t.fields);
                    if t.depth > m.depth {
                        m.depth = t.depth;
                        m.deepest = t.deepest;
                    }
                }
                m
            }
            TyKind::Named(n) => match self.index.get(n.value.as_str()) {
                Some(&i) if state[i] == 2 => Measure {
                    heaviest: Some(i),
                    deepest: Some(i),
                    ..self.types[i]
                },
                _ => Measure {
                    depth: 1,
                    ..Measure::default()
                },
            },
            _ => Measure::default(),
        }
    }

    /// The first side of `tool` whose inlined schema is over a cap, as an error to report.
    pub fn check(&self, tool: &Tool) -> Option<Oversized> {
        let state = vec![2u8; self.types.len()];
        let details = tool
            .errors
            .iter()
            .filter_map(|e| Some(("error detail", &**e.detail.as_ref()?)));
        let sides = [
            ("input", Some(&tool.input)),
            ("output", tool.output.as_ref()),
        ]
        .into_iter()
        .filter_map(|(side, obj)| Some((side, obj?)))
        .chain(details);
        for (side, obj) in sides {
            let m = self.fields(&obj.fields, &state);
            if m.depth > MAX_INLINED_DEPTH {
                return Some(self.report(tool, side, obj, m, true));
            }
            if m.fields > MAX_INLINED_FIELDS {
                return Some(self.report(tool, side, obj, m, false));
            }
        }
        None
    }

    fn report(&self, tool: &Tool, side: &str, obj: &Object, m: Measure, deep: bool) -> Oversized {
        let mut chain = Vec::new();
        let mut at = if deep { m.deepest } else { m.heaviest };
        while let Some(i) = at {
            chain.push(self.cat.types[i].name.value.as_str());
            let t = self.types[i];
            at = if deep { t.deepest } else { t.heaviest };
        }
        // A long chain is named by its ends: the message stays one readable line.
        let chain = if chain.len() > 8 {
            format!(
                "{} → … ({} more) → {}",
                chain[..4].join(" → "),
                chain.len() - 6,
                chain[chain.len() - 2..].join(" → ")
            )
        } else {
            chain.join(" → ")
        };
        let fields = if m.fields == u64::MAX {
            format!("more than {}", u64::MAX)
        } else {
            m.fields.to_string()
        };
        let (rule, what) = if deep {
            (
                "model/schema-too-deep",
                format!(
                    "the {side} schema of tool `{}` nests {} objects deep once named types are inlined, over the limit of {MAX_INLINED_DEPTH}",
                    tool.name.value, m.depth
                ),
            )
        } else {
            (
                "model/schema-too-large",
                format!(
                    "the {side} schema of tool `{}` has {fields} fields once named types are inlined, over the limit of {MAX_INLINED_FIELDS}",
                    tool.name.value
                ),
            )
        };
        let via = if chain.is_empty() {
            String::new()
        } else {
            format!(" (through the types {chain})")
        };
        Oversized {
            rule,
            span: if obj.span == Span::default() {
                tool.name.span
            } else {
                obj.span
            },
            message: format!("{what}{via}; the tool is left out"),
            help: if deep {
                "schemas inline named types, so each type of a chain adds a level; flatten the chain"
            } else {
                "schemas inline named types, so a type used twice at every level doubles the schema per level; flatten the types or split the tool"
            }
            .to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lowered but not loaded: loading leaves the oversized tool out.
    fn lowered(src: &str) -> Catalog {
        let parsed = crate::syntax::parse(src);
        let (cat, _) = crate::model::lower(&parsed.document, crate::diag::FileId(0));
        cat.unwrap_or_else(|| panic!("a catalog"))
    }

    fn check(src: &str) -> Option<Oversized> {
        let cat = lowered(src);
        let sizes = Sizes::of(&cat);
        cat.tools.first().and_then(|t| sizes.check(t))
    }

    #[test]
    fn counts_every_inlined_field_once_per_use() {
        let cat = lowered(&crate::testing::dag_catalog(3));
        let sizes = Sizes::of(&cat);
        // T3 = {leaf}: 1 field; T2 = 2 × (1 + 1) = 4; T1 = 2 × (1 + 4) = 10; T0 = 22.
        let fields: Vec<u64> = sizes.types.iter().map(|m| m.fields).collect();
        assert_eq!(fields, [22, 10, 4, 1]);
        let depths: Vec<usize> = sizes.types.iter().map(|m| m.depth).collect();
        assert_eq!(depths, [4, 3, 2, 1]);
        assert_eq!(sizes.check(&cat.tools[0]), None);
    }

    /// Every union variant's fields count, and named types inside variants are measured.
    #[test]
    fn union_variants_add_up() {
        let cat = lowered(
            r#"catalog "c" version="1.0.0"
type "P" { field "a" "integer" max=1; field "b" "integer" max=1; }
type "U" {
    field "u" "union" discriminator="k" {
        variant "x" { field "p" "P"; }
        variant "y" { field "q" "P"; field "r" "integer" max=1; }
    }
}"#,
        );
        let sizes = Sizes::of(&cat);
        // P = 2; U = 1 (u) + x (1 + 2) + y (1 + 2 + 1) = 8; three objects deep: U, a variant, P.
        let fields: Vec<u64> = sizes.types.iter().map(|m| m.fields).collect();
        assert_eq!(fields, [2, 8]);
        assert_eq!(sizes.types[1].depth, 3);
    }

    #[test]
    fn a_dag_over_the_cap_is_reported_with_its_chain() {
        let e = check(&crate::testing::dag_catalog(40)).unwrap_or_else(|| panic!("reported"));
        assert_eq!(e.rule, "model/schema-too-large");
        assert!(
            e.message.contains("over the limit of 10000"),
            "{}",
            e.message
        );
        assert!(
            e.message
                .contains("T0 → T1 → T2 → T3 → … (35 more) → T39 → T40"),
            "{}",
            e.message
        );
        assert!(check(&crate::testing::dag_catalog(11)).is_none());
    }

    #[test]
    fn a_long_chain_is_too_deep_and_measured_without_recursion() {
        let e = check(&crate::testing::chain_catalog(10_000)).unwrap_or_else(|| panic!("reported"));
        assert_eq!(e.rule, "model/schema-too-deep");
        assert!(e.message.contains("10002 objects deep"), "{}", e.message);
        assert!(e.message.contains("over the limit of 128"), "{}", e.message);
        assert!(check(&crate::testing::chain_catalog(120)).is_none());
    }

    /// Loading reports the error and leaves the tool out, so nothing inlines it.
    #[test]
    fn loading_leaves_the_oversized_tool_out() {
        let loaded = crate::project::load_source("t.kdl", crate::testing::dag_catalog(30));
        assert_eq!(loaded.tool_count(), 0);
        let d: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.rule == "model/schema-too-large")
            .collect();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].tool.as_deref(), Some("stress"));
    }
}
