//! Walking the fields of a tool or a catalog, with the dotted path rules report
//! (`input.items[].amount_minor`).
//!
//! The walker is iterative (a chain of thousands of nested named types cannot overflow the
//! stack) and keeps the path in one reused buffer: a site's path is a slice of it, and only a
//! rule that reports a finding copies it. Where named types are resolved, each tool side visits
//! at most [`MAX_USE_SITES`] sites, so a catalog whose types form a DAG (each level using the
//! next twice) cannot make the walk exponential; `bounds/expansion` reports such a tool.

use crate::FastMap;
use crate::lint::Finding;
use crate::model::{Catalog, ErrorDef, Field, Span, Tool, Ty, TyKind, TypeDef};

pub use crate::model::Side;

/// The most type sites one side of one tool may expand to through named types before the
/// walker stops entering named types (`bounds/expansion` reports the tool). Far above any
/// readable tool (a few hundred sites), far below an exponential blow-up.
pub const MAX_USE_SITES: usize = 10_000;

/// One place a type occurs: a field's type, or an array's `items` type (`field` is `None`).
#[derive(Debug, Clone, Copy)]
pub struct Site<'a, 'p> {
    /// The catalog being walked.
    pub catalog: &'a Catalog,
    /// `None` when walking a named type's definition on its own.
    pub tool: Option<&'a Tool>,
    /// Input or output; `None` inside a named type's own definition. An error's `detail`
    /// is written by the server and read by clients: its sites are output sites.
    pub side: Option<Side>,
    /// The error whose `detail` holds the site (path `error.CODE.detail.…`).
    pub error: Option<&'a ErrorDef>,
    /// Dotted path: `input.items[].amount_minor`, or `Invoice.amount_minor` inside a type
    /// definition.
    pub path: &'p str,
    /// The field whose type this is; `None` for an array's `items` type.
    pub field: Option<&'a Field>,
    /// The type at this site.
    pub ty: &'a Ty,
    /// The definition `ty` names, when it is a named type the catalog declares.
    pub def: Option<&'a TypeDef>,
    /// The fields declared beside `field` (itself included), for sibling checks such as a
    /// currency next to an amount; for `items` sites, the siblings of the array field.
    pub siblings: &'a [Field],
    /// Object nesting depth of the site: fields of `input` are at depth 1.
    pub depth: usize,
    /// The site is written where it is visited (in the tool, or in the type definition being
    /// walked), not reached by entering a named type.
    pub declared: bool,
    /// The words of `field`'s name, split on first use: many rules compare names by words,
    /// and each splitting the name again cost more than all their checks.
    pub(crate) name_words: &'p std::cell::OnceCell<Vec<String>>,
}

impl<'a> Site<'a, '_> {
    /// The field whose value this site is: the site's own field, or for an array's `items`
    /// site the array field (`pages` for `input.sources[].pages[]`), found among `siblings`
    /// by the path's last segment without its `[]` marks and union variant.
    pub fn owner(&self) -> Option<&'a Field> {
        if self.field.is_some() {
            return self.field;
        }
        let last = self.path.rsplit('.').next().unwrap_or(self.path);
        let name = last.trim_end_matches("[]");
        let name = name.split('<').next().unwrap_or(name);
        self.siblings.iter().find(|f| f.name.value == name)
    }

    /// The lowercase words of the field's name ([`crate::names::words`]); none for an
    /// array's `items` site.
    pub fn name_words(&self) -> &[String] {
        match self.field {
            Some(f) => self
                .name_words
                .get_or_init(|| crate::names::words(&f.name.value)),
            None => &[],
        }
    }
}

/// The named types of a catalog by name, for lookups in constant time.
pub struct Types<'a> {
    by_name: FastMap<&'a str, usize>,
    catalog: &'a Catalog,
}

impl<'a> Types<'a> {
    /// Indexes `catalog`'s named types; with duplicates, the first declaration wins.
    pub fn new(catalog: &'a Catalog) -> Self {
        let mut by_name =
            FastMap::with_capacity_and_hasher(catalog.types.len(), Default::default());
        for (i, ty) in catalog.types.iter().enumerate() {
            // The first declaration wins, as `Catalog::type_def` finds it.
            by_name.entry(ty.name.value.as_str()).or_insert(i);
        }
        Types { by_name, catalog }
    }

    /// The definition `ty` names and its index in the catalog's types, when it is a named
    /// type the catalog declares.
    pub fn named(&self, ty: &Ty) -> Option<(usize, &'a TypeDef)> {
        let TyKind::Named(name) = &ty.kind else {
            return None;
        };
        let i = *self.by_name.get(name.value.as_str())?;
        Some((i, self.catalog.types.get(i)?))
    }
}

/// Visit every type site of one side of a tool, resolving named types (so a field of a named
/// type is visited once per use, with the tool's path). Named types already on the current
/// path are not entered again. Returns `false` when the side expands to more than
/// [`MAX_USE_SITES`] sites and the walk stopped entering named types.
pub fn tool_side<'a>(
    types: &Types<'a>,
    tool: &'a Tool,
    side: Side,
    f: &mut dyn FnMut(&Site<'a, '_>),
) -> bool {
    let Some(object) = tool.object(side) else {
        return true;
    };
    let mut w = Walker::new(types, Some(tool), Some(side), true);
    w.walk(&object.fields, side.as_str(), f);
    !w.truncated
}

/// Visit every type site *as written* in a catalog, each once: the fields of every tool's
/// input and output and of every named type, without entering named types where they are
/// used. For rules about a declaration itself (naming, docs, patterns).
pub fn declarations<'a>(catalog: &'a Catalog, f: &mut dyn FnMut(&Site<'a, '_>)) {
    catalog_sites(&Types::new(catalog), false, f);
}

/// Every tool side (input, then output, tool by tool), then every named type's own fields.
/// With `resolve`, tool sides enter the named types they use (the sites reached so have
/// `declared == false`); either way every declaration is visited once with `declared`.
pub fn catalog_sites<'a>(types: &Types<'a>, resolve: bool, f: &mut dyn FnMut(&Site<'a, '_>)) {
    let catalog = types.catalog;
    for tool in &catalog.tools {
        tool_sites(types, tool, resolve, f);
    }
    for ty in &catalog.types {
        Walker::new(types, None, None, false).walk(&ty.fields, &ty.name.value, f);
    }
}

/// Every site of `tool`'s input, then its output, then each error's `detail` (output sites
/// at `error.CODE.detail.…`); with `resolve`, entering the named types they use.
pub fn tool_sites<'a>(
    types: &Types<'a>,
    tool: &'a Tool,
    resolve: bool,
    f: &mut dyn FnMut(&Site<'a, '_>),
) {
    for side in [Side::Input, Side::Output] {
        if let Some(object) = tool.object(side) {
            Walker::new(types, Some(tool), Some(side), resolve).walk(
                &object.fields,
                side.as_str(),
                f,
            );
        }
    }
    for e in &tool.errors {
        if let Some(detail) = &e.detail {
            let mut w = Walker::new(types, Some(tool), Some(Side::Output), resolve);
            w.error = Some(e);
            w.walk(&detail.fields, &format!("error.{}.detail", e.code.value), f);
        }
    }
}

/// A finding about a site: in its tool, or in the catalog for a named type's own fields.
pub fn site_finding(site: &Site<'_, '_>, span: Span, message: impl Into<String>) -> Finding {
    let f = match site.tool {
        Some(tool) => Finding::in_tool(site.catalog, tool, span, message),
        None => Finding::in_catalog(site.catalog, span, message),
    };
    f.path(site.path)
}

/// Where a field finding points: the field's name, or the type token of an array's `items`.
pub fn site_span(site: &Site<'_, '_>) -> Span {
    site.field.map(|f| f.name.span).unwrap_or(site.ty.span)
}

/// Fields still to visit at one object level.
struct Frame<'a> {
    fields: &'a [Field],
    next: usize,
    /// Length of the path buffer at the level's parent.
    path_len: usize,
    depth: usize,
    /// The named type entered for this level, left again when the level is done.
    entered: Option<usize>,
    /// A union variant's name, written after the union field's path: `input.q<choice>.text`.
    variant: Option<&'a str>,
    /// An open object's structured extras (`extra "object" { … }`), visited after its fields
    /// at `FIELD{}`, as a map's structured values are.
    extra: Option<&'a Ty>,
}

struct Walker<'t, 'a> {
    types: &'t Types<'a>,
    tool: Option<&'a Tool>,
    side: Option<Side>,
    error: Option<&'a ErrorDef>,
    resolve: bool,
    /// Named types on the current path, by index: not entered again (a recursive type).
    active: Vec<bool>,
    /// How many named types the current path is inside.
    inside: usize,
    visited: usize,
    truncated: bool,
}

impl<'t, 'a> Walker<'t, 'a> {
    fn new(
        types: &'t Types<'a>,
        tool: Option<&'a Tool>,
        side: Option<Side>,
        resolve: bool,
    ) -> Self {
        Walker {
            types,
            tool,
            side,
            error: None,
            resolve,
            active: if resolve {
                vec![false; types.catalog.types.len()]
            } else {
                Vec::new()
            },
            inside: 0,
            visited: 0,
            truncated: false,
        }
    }

    fn walk(&mut self, fields: &'a [Field], root: &str, f: &mut dyn FnMut(&Site<'a, '_>)) {
        let mut path = String::with_capacity(64);
        path.push_str(root);
        let mut stack = vec![Frame {
            fields,
            next: 0,
            path_len: path.len(),
            depth: 1,
            entered: None,
            variant: None,
            extra: None,
        }];
        while let Some(frame) = stack.last_mut() {
            let field = frame.fields.get(frame.next);
            let extra = match field {
                Some(_) => None,
                None => frame.extra.take(),
            };
            if field.is_none() && extra.is_none() {
                if let Some(i) = frame.entered {
                    self.active[i] = false;
                    self.inside -= 1;
                }
                stack.pop();
                continue;
            }
            frame.next += 1;
            let (siblings, mut depth) = (frame.fields, frame.depth);
            path.truncate(frame.path_len);
            if let Some(v) = frame.variant {
                path.push('<');
                path.push_str(v);
                path.push('>');
            }
            let (mut ty, mut site_field) = match (field, extra) {
                (Some(field), _) => {
                    path.push('.');
                    path.push_str(&field.name.value);
                    (&field.ty, Some(field))
                }
                // The extras sit at the open object's own depth, as a map's values do.
                (None, Some(extra)) => {
                    path.push_str("{}");
                    depth = depth.saturating_sub(1);
                    (extra, None)
                }
                (None, None) => continue,
            };
            let name_words = std::cell::OnceCell::new();
            // A field's type, then its array's items (and theirs), at the same depth.
            loop {
                self.visited += 1;
                let named = self.types.named(ty);
                let def = named.map(|(_, def)| def);
                f(&Site {
                    catalog: self.types.catalog,
                    tool: self.tool,
                    side: self.side,
                    error: self.error,
                    path: &path,
                    field: site_field,
                    ty,
                    def,
                    siblings,
                    depth,
                    declared: self.inside == 0,
                    name_words: &name_words,
                });
                match &ty.kind {
                    TyKind::Array(a) => {
                        path.push_str("[]");
                        ty = &a.items;
                        site_field = None;
                    }
                    // Scalar and `json` values are the map's own site (its rules read
                    // `values`); structured values are walked like array items.
                    TyKind::Map(m) if m.values.kind.is_structured() => {
                        path.push_str("{}");
                        ty = &m.values;
                        site_field = None;
                    }
                    TyKind::Object(o) => {
                        stack.push(Frame {
                            fields: &o.fields,
                            next: 0,
                            path_len: path.len(),
                            depth: depth + 1,
                            entered: None,
                            variant: None,
                            extra: o
                                .extra
                                .as_ref()
                                .map(|x| &*x.values)
                                .filter(|v| v.kind.is_structured()),
                        });
                        break;
                    }
                    TyKind::Union(u) => {
                        // Reversed: the stack pops the first variant first.
                        stack.extend(u.variants.iter().rev().map(|v| Frame {
                            fields: &v.fields.fields,
                            next: 0,
                            path_len: path.len(),
                            depth: depth + 1,
                            entered: None,
                            variant: Some(v.name.value.as_str()),
                            extra: None,
                        }));
                        break;
                    }
                    TyKind::Named(_) if self.resolve => {
                        if let Some((i, def)) = named {
                            if self.visited >= MAX_USE_SITES {
                                self.truncated = true;
                            } else if !self.active[i] {
                                self.active[i] = true;
                                self.inside += 1;
                                stack.push(Frame {
                                    fields: &def.fields,
                                    next: 0,
                                    path_len: path.len(),
                                    depth: depth + 1,
                                    entered: Some(i),
                                    variant: None,
                                    extra: None,
                                });
                            }
                        }
                        break;
                    }
                    _ => break,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testkit::sites::*;
    use crate::model::{Effect, MapTy, Object, UnionTy, Variant};

    fn use_paths(catalog: &Catalog, tool: &Tool) -> (Vec<String>, bool) {
        let types = Types::new(catalog);
        let mut paths = Vec::new();
        let complete = tool_side(&types, tool, Side::Input, &mut |s| {
            paths.push(format!(
                "{}@{}{}",
                s.path,
                s.depth,
                if s.declared { "" } else { "*" }
            ))
        });
        (paths, complete)
    }

    #[test]
    fn resolves_named_types_per_use_and_skips_recursion() {
        let node = type_def(
            "Node",
            vec![
                field("label", bounded_string(3)),
                field("children", array(named("Node"), Some(2))),
            ],
        );
        let t = tool(
            "a_b",
            Effect::Read,
            vec![field("root", named("Node"))],
            None,
        );
        let c = catalog(vec![t], vec![node]);
        let (paths, complete) = use_paths(&c, &c.tools[0]);
        assert!(complete);
        assert_eq!(
            paths,
            [
                "input.root@1",
                "input.root.label@2*",
                "input.root.children@2*",
                "input.root.children[]@2*"
            ]
        );
    }

    fn union(variants: Vec<(&str, Vec<Field>)>) -> TyKind {
        TyKind::Union(Box::new(UnionTy {
            discriminator: sp("type".to_string()),
            variants: variants
                .into_iter()
                .map(|(name, fields)| Variant {
                    name: sp(name.to_string()),
                    doc: None,
                    fields: Object {
                        fields,
                        span: Span::new(0, 0),
                        extra: None,
                    },
                })
                .collect(),
        }))
    }

    /// Variant fields carry `<NAME>` after the union's path, in declaration order, one level
    /// deeper than the union; as array items, after the `[]`; named types inside resolve.
    /// Structured map values are walked at `{}`; scalar ones are the map's own site.
    #[test]
    fn union_variants_walk_with_their_names_in_the_path() {
        let person = type_def("Person", vec![field("name", bounded_string(8))]);
        let question = union(vec![
            (
                "choice",
                vec![
                    field("options", array(string(), Some(4))),
                    field("meta", object(vec![field("x", int(None, None))])),
                ],
            ),
            ("text", vec![field("author", named("Person"))]),
        ]);
        let events = array(
            union(vec![
                ("click", vec![field("x", int(Some(0), None))]),
                ("view", vec![]),
            ]),
            Some(10),
        );
        let by_key = TyKind::Map(Box::new(MapTy {
            min_entries: None,
            max_entries: None,
            values: Box::new(ty(object(vec![field("y", bounded_string(2))]))),
            values_nullable: false,
        }));
        let t = tool(
            "a_b",
            Effect::Read,
            vec![
                field("q", question),
                field("events", events),
                field("by_key", by_key),
                field(
                    "labels",
                    TyKind::Map(Box::new(MapTy {
                        min_entries: None,
                        max_entries: None,
                        values: Box::new(ty(string())),
                        values_nullable: false,
                    })),
                ),
                field(
                    "tags",
                    TyKind::Map(Box::new(MapTy {
                        min_entries: None,
                        max_entries: None,
                        values: Box::new(ty(array(string(), None))),
                        values_nullable: false,
                    })),
                ),
            ],
            None,
        );
        let c = catalog(vec![t], vec![person]);
        let (paths, complete) = use_paths(&c, &c.tools[0]);
        assert!(complete);
        assert_eq!(
            paths,
            [
                "input.q@1",
                "input.q<choice>.options@2",
                "input.q<choice>.options[]@2",
                "input.q<choice>.meta@2",
                "input.q<choice>.meta.x@3",
                "input.q<text>.author@2",
                "input.q<text>.author.name@3*",
                "input.events@1",
                "input.events[]@1",
                "input.events[]<click>.x@2",
                "input.by_key@1",
                "input.by_key{}@1",
                "input.by_key{}.y@2",
                "input.labels@1",
                "input.tags@1",
                "input.tags{}@1",
                "input.tags{}[]@1",
            ]
        );
    }

    /// An open object's structured extras are walked after its fields at `FIELD{}`, at the
    /// object's own depth (as a map's values); scalar extras are the object's own site.
    #[test]
    fn structured_extras_walk_at_braces_after_the_fields() {
        let open = |values: TyKind| {
            TyKind::Object(Object {
                fields: vec![field("default", int(None, None))],
                span: Span::new(0, 0),
                extra: Some(Box::new(crate::model::Extra {
                    values: Box::new(ty(values)),
                    nullable: true,
                    min_entries: None,
                    max_entries: None,
                })),
            })
        };
        let pool = object(vec![field("nodes", int(None, None))]);
        let t = tool(
            "a_b",
            Effect::Read,
            vec![
                field("pools", open(pool)),
                field("tags", open(array(string(), None))),
                field("plain", open(string())),
            ],
            None,
        );
        let c = catalog(vec![t], vec![]);
        let (paths, complete) = use_paths(&c, &c.tools[0]);
        assert!(complete);
        assert_eq!(
            paths,
            [
                "input.pools@1",
                "input.pools.default@2",
                "input.pools{}@1",
                "input.pools{}.nodes@2",
                "input.tags@1",
                "input.tags.default@2",
                "input.tags{}@1",
                "input.tags{}[]@1",
                "input.plain@1",
                "input.plain.default@2",
            ]
        );
    }

    #[test]
    fn a_chain_of_ten_thousand_named_types_walks_without_recursion() {
        let n = 10_000;
        let types: Vec<TypeDef> = (0..n)
            .map(|i| {
                let next = if i + 1 < n {
                    vec![field("next", named(&format!("T{}", i + 1)))]
                } else {
                    vec![field("end", bounded_string(1))]
                };
                type_def(&format!("T{i}"), next)
            })
            .collect();
        let t = tool("a_b", Effect::Read, vec![field("head", named("T0"))], None);
        let c = catalog(vec![t], types);
        let (paths, complete) = use_paths(&c, &c.tools[0]);
        // The walk stops at the cap instead of visiting all 10,001 sites.
        assert!(!complete);
        assert_eq!(paths.len(), MAX_USE_SITES);
        let mut declared = 0;
        declarations(&c, &mut |_| declared += 1);
        assert_eq!(declared, n + 1);
    }

    #[test]
    fn a_dag_of_types_stops_at_the_cap() {
        let levels = 30;
        let types = dag(levels);
        let t = tool("a_b", Effect::Read, vec![field("top", named("L0"))], None);
        let c = catalog(vec![t], types);
        let (paths, complete) = use_paths(&c, &c.tools[0]);
        assert!(!complete);
        // The levels already entered finish their other field.
        assert!(paths.len() <= MAX_USE_SITES + 2 * levels, "{}", paths.len());
    }
}
