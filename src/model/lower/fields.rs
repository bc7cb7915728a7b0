//! Fields and their types: `input`/`output` blocks, `field`, `items`, `enum`, constraints,
//! bounds (`num`) and `default` values, with the nesting-depth check.

use super::*;
use crate::diag::suggest::did_you_mean;
use crate::model::read::{KeyHashes, Props, Quoted, Reader, number_text, quoted_list};
use crate::syntax::{Entry, Node, Number, Value};

/// The element node of a container type.
#[derive(Debug, Clone, Copy)]
pub(super) enum Element {
    /// An array's `items`.
    Items,
    /// A map's `values`.
    Values,
    /// An open object's `extra`.
    Extra,
}

/// How messages name a field, or the element of a container, by its type: "an `integer`
/// field", "a field of type `Money`", "`string` items", "values of type `Money`". Kept as
/// its parts and written only when a message needs one: a catalog without mistakes lowers
/// every field and writes no message.
#[derive(Debug, Clone, Copy)]
pub(super) struct Label<'a> {
    keyword: &'a str,
    /// `None` for a field; else the element's node (`items`, `values`, `extra`).
    element: Option<&'static str>,
}

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let keyword = self.keyword;
        match (self.element, TYPE_KEYWORDS.contains(&keyword)) {
            (None, true) => {
                let article = if keyword.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                write!(f, "{article} `{keyword}` field")
            }
            (None, false) => write!(f, "a field of type `{keyword}`"),
            (Some(name), true) => write!(f, "`{keyword}` {name}"),
            (Some(name), false) => write!(f, "{name} of type `{keyword}`"),
        }
    }
}

impl Cx {
    /// A bound: an integer that fits an `i64` or, unless `integer_only`, a finite float.
    pub(super) fn num(
        &mut self,
        e: &Entry,
        what: impl std::fmt::Display,
        integer_only: bool,
    ) -> Option<Sp<Num>> {
        let span = e.value.span;
        match e.value.value {
            Value::Number(Number::Float(f)) if !integer_only => {
                return Some(Sp::new(Num::Float(*f), span));
            }
            Value::Number(Number::Int(i)) => {
                if let Ok(v) = i64::try_from(*i) {
                    return Some(Sp::new(Num::Int(v), span));
                }
            }
            _ => {}
        }
        // `what` (a `Quoted` property name, say) only appears in messages: written from
        // here on, once a value needs one.
        let what = &what.to_string();
        if let Some(int) = self.int64(e, what) {
            return int.map(|i| Sp::new(Num::Int(i.value), span));
        }
        match e.value.value {
            Value::Number(n @ Number::Float(_)) => {
                self.wrong_type(
                    e,
                    what,
                    "an integer (the field is an `integer`)",
                    format!(
                        "write a whole number, or make the field a `number` (found {})",
                        number_text(n)
                    ),
                );
                None
            }
            Value::Number(n) => {
                self.number_problem(e, n, what);
                None
            }
            v => {
                let expected = if integer_only {
                    "an integer"
                } else {
                    "a number"
                };
                self.wrong_type(e, what, expected, Reader::not_a_number_help(&v));
                None
            }
        }
    }

    // ---- fields ----

    /// `input` / `output`: a block of `field` nodes (may be absent or empty).
    pub(super) fn lower_object_node(&mut self, n: &Node) -> Object {
        self.lower_object_at(n, n.name.value)
    }

    /// [`Cx::lower_object_node`] whose fields' paths start at `root` (`error.CODE.detail`).
    pub(super) fn lower_object_at(&mut self, n: &Node, root: &str) -> Object {
        self.check_annotations(n);
        let name = n.name.value;
        self.props(n, &[], &|_| None);
        self.args(n, 0, 0, format_args!("{name} {{ field ... }}"));
        self.path.set(root);
        let written = n.child_nodes().filter(|c| c.name.value == "field").count();
        let mut fields = Vec::with_capacity(written);
        if let Some(ch) = n.children() {
            for c in ch.nodes() {
                if c.name.value == "field" {
                    self.push_field(&mut fields, &c, 1);
                } else {
                    self.check_annotations(&c);
                    self.unknown_node(&c, &format!("in `{name}`"), OBJECT_CHILDREN);
                }
            }
        }
        self.path.clear();
        Object {
            fields: compact(fields),
            span: n.span,
            extra: None,
        }
    }

    /// Lowers a `field` node and appends it, reporting a duplicate name.
    pub(super) fn push_field(&mut self, fields: &mut Vec<Field>, node: &Node, depth: usize) {
        let Some(f) = self.lower_field(node, depth) else {
            return;
        };
        if fields.iter().any(|x| x.name.value == f.name.value) {
            self.path.push(&f.name.value);
            self.err(
                "naming/duplicate",
                f.name.span,
                format!("field `{}` is declared twice in this object", f.name.value),
                Some("rename or remove one; this declaration is ignored".to_string()),
            );
            self.path.pop();
            return;
        }
        fields.push(f);
    }

    pub(super) fn lower_field(&mut self, node: &Node, depth: usize) -> Option<Field> {
        self.check_annotations(node);
        let usage = "field \"name\" \"string\" required=#true max-length=64 { doc \"...\" }";
        let args = self.args(node, 2, 2, usage);
        let name = args.first().and_then(|e| self.string(e, "field name"))?;
        self.path.push(&name.value);
        let result = self.lower_field_inner(node, name, args.get(1), depth);
        self.path.pop();
        result
    }

    pub(super) fn lower_field_inner(
        &mut self,
        node: &Node,
        name: Sp<String>,
        ty_entry: Option<&Entry>,
        depth: usize,
    ) -> Option<Field> {
        let ty_name = self.type_name(ty_entry?)?;
        let keyword = ty_name.value;
        let label = Label {
            keyword,
            element: None,
        };
        let allowed = [COMMON_FIELD_PROPS, type_props(keyword)];
        let props = self.props_of_lists(node, &allowed, &|p| {
            let owners = types_with_prop(p);
            Some(if owners.is_empty() {
                format!("unknown property `{p}` on {label}")
            } else {
                format!(
                    "`{p}` does not apply to {label} (it applies to {})",
                    quoted_list(&owners)
                )
            })
        });
        let required = props
            .get("required")
            .and_then(|e| self.boolean(e, "`required`"))
            .is_some_and(|b| b.value);
        let nullable = props
            .get("nullable")
            .and_then(|e| self.boolean(e, "`nullable`"))
            .is_some_and(|b| b.value);
        let sensitive = props
            .get("sensitive")
            .and_then(|e| self.boolean(e, "`sensitive`"))
            .is_some_and(|b| b.value);
        let deprecated = props
            .get("deprecated")
            .and_then(|e| self.boolean(e, "`deprecated`"))
            .is_some_and(|b| b.value);
        let header = props.get("header").and_then(|e| self.string(e, "`header`"));

        let mut doc = None;
        let mut title = None;
        let mut examples_node = None;
        let mut seen = Seen::default();
        for c in node.child_nodes() {
            match c.name.value {
                "doc" | "title" | "examples" if !self.once(&mut seen, &c, "a `field`") => {}
                "doc" => doc = self.text_node(&c),
                "title" => title = self.text_node(&c),
                "examples" => examples_node = Some(c),
                _ => {}
            }
        }
        // The other children, which the type reads.
        let rest =
            (node.child_nodes()).filter(|c| !matches!(c.name.value, "doc" | "title" | "examples"));
        let ty = self.lower_ty(&ty_name, &props, rest, depth, FIELD_CHILDREN, label)?;
        let default = props.get("default").and_then(|e| {
            if matches!(e.value.value, Value::Null) {
                self.null_default(e, nullable)
            } else {
                self.default_value(e, &ty.kind, label, "default")
            }
        });
        let constant = props
            .get("const")
            .and_then(|e| self.default_value(e, &ty.kind, label, "const"))
            .filter(|c| {
                // `const` alone decides what a schema admits: with `null` as a second value
                // the field is an enum of two, not a constant.
                if nullable {
                    self.err(
                        "model/wrong-type",
                        c.span,
                        "`const` on a nullable field",
                        Some(
                            "remove `nullable=#true`, or write the values as an `enum`".to_string(),
                        ),
                    );
                }
                !nullable
            });
        let examples =
            examples_node.map_or_else(Vec::new, |n| self.lower_examples_of(&n, &ty.kind));
        Some(Field {
            name,
            ty,
            required,
            nullable,
            default: default.map(Box::new),
            sensitive,
            deprecated,
            doc,
            title: title.map(Box::new),
            examples,
            constant: constant.map(Box::new),
            header: header.map(Box::new),
            span: node.span,
        })
    }

    /// The TYPE argument of a field or `items`: a keyword or a declared type name.
    pub(super) fn type_name<'e>(&mut self, e: &Entry<'e>) -> Option<Sp<&'e str>> {
        let t = self.str(e, "field type")?;
        if TYPE_KEYWORDS.contains(&t.value) || self.type_names.contains(t.value) {
            return Some(t);
        }
        if self.is_full() {
            self.count();
            return None;
        }
        let mut candidates: Vec<&str> = TYPE_KEYWORDS.to_vec();
        let mut declared: Vec<&str> = self.type_names.iter().map(String::as_str).collect();
        declared.sort_unstable();
        candidates.extend(declared.iter().copied());
        let list = if declared.is_empty() {
            format!(
                "use one of {} or declare `type \"{}\" {{ ... }}` in this file",
                quoted_list(TYPE_KEYWORDS),
                t.value
            )
        } else {
            format!(
                "use one of {}, or a type declared in this file: {}",
                quoted_list(TYPE_KEYWORDS),
                quoted_list(&declared)
            )
        };
        let help = match did_you_mean(t.value, candidates.iter().copied()) {
            Some(m) => format!("did you mean `{m}`? {list}"),
            None => list,
        };
        self.err(
            "model/unresolved-type",
            t.span,
            format!(
                "`{}` is neither a field type nor a type declared in this file",
                t.value
            ),
            Some(help),
        );
        None
    }

    /// The type with its constraints from `props` and children (`enum`, `items`, `field`).
    /// `extra_children` were consumed by the caller and are only listed in messages.
    pub(super) fn lower_ty<'n>(
        &mut self,
        ty_name: &Sp<&str>,
        props: &Props<'_>,
        children: impl Iterator<Item = Node<'n>>,
        depth: usize,
        extra_children: &[&str],
        label: Label<'_>,
    ) -> Option<Ty> {
        if depth > MAX_FIELD_DEPTH {
            self.err(
                "model/too-deep",
                ty_name.span,
                format!("fields are nested more than {MAX_FIELD_DEPTH} levels deep"),
                Some("flatten the structure".to_string()),
            );
            return None;
        }
        let keyword = ty_name.value;
        // Written only for a message: every field lowers its type.
        let allowed_children = || [extra_children, type_children(keyword)].concat();
        let mut enum_node = None;
        let mut items_node = None;
        let mut values_node = None;
        let mut extra_node = None;
        let mut fields = Vec::new();
        let mut variant_nodes = Vec::new();
        let mut seen = Seen::default();
        for c in children {
            let c = &c;
            match (c.name.value, keyword) {
                ("enum", "string" | "integer" | "number") => {
                    if self.once(&mut seen, c, label) {
                        enum_node = Some(*c);
                    }
                }
                ("items", "array") => {
                    if self.once(&mut seen, c, label) {
                        items_node = Some(*c);
                    }
                }
                ("values", "map") => {
                    if self.once(&mut seen, c, label) {
                        values_node = Some(*c);
                    }
                }
                ("extra", "object") => {
                    if self.once(&mut seen, c, label) {
                        extra_node = Some(*c);
                    }
                }
                ("field", "object") => self.push_field(&mut fields, c, depth + 1),
                ("variant", "union") => variant_nodes.push(*c),
                (other, _) => {
                    self.check_annotations(c);
                    if [
                        "enum", "items", "values", "extra", "field", "variant", "doc", "title",
                        "examples",
                    ]
                    .contains(&other)
                    {
                        self.err(
                            "model/unknown-node",
                            c.name.span,
                            format!("`{other}` does not apply to {label}"),
                            Some(if allowed_children().is_empty() {
                                format!("{label} takes no children")
                            } else {
                                format!("allowed here: {}", quoted_list(&allowed_children()))
                            }),
                        );
                    } else {
                        self.unknown_node(c, &format!("in {label}"), &allowed_children());
                    }
                }
            }
        }
        let kind = match keyword {
            "string" | "cursor" => self.lower_string(keyword, props, enum_node),
            "integer" | "number" => self.lower_number(keyword, props, enum_node),
            "boolean" => TyKind::Boolean,
            "timestamp" => TyKind::Timestamp,
            "array" => self.lower_array(ty_name, props, items_node, depth)?,
            "object" => {
                let extra = self.lower_extra(extra_node, props, depth);
                TyKind::Object(Object {
                    fields: compact(fields),
                    span: ty_name.span,
                    extra: extra.map(Box::new),
                })
            }
            "map" => self.lower_map(ty_name, props, values_node, depth)?,
            "json" => TyKind::Json,
            "union" => TyKind::Union(Box::new(self.lower_union(
                ty_name,
                props,
                &variant_nodes,
                depth,
            )?)),
            _ => TyKind::Named(Sp::new(keyword.to_string(), ty_name.span)),
        };
        Some(Ty {
            kind,
            span: ty_name.span,
        })
    }

    /// A `string` or a `cursor` (`keyword`): lengths, and for a string its pattern, format
    /// and `enum`.
    fn lower_string(
        &mut self,
        keyword: &str,
        props: &Props<'_>,
        enum_node: Option<Node>,
    ) -> TyKind {
        let u = |cx: &mut Self, k: &str| props.get(k).and_then(|e| cx.uint(e, Quoted(k)));
        let mut st = StringTy {
            min_length: u(self, "min-length"),
            max_length: u(self, "max-length"),
            ..StringTy::default()
        };
        if keyword == "string" {
            st.pattern = props
                .get("pattern")
                .and_then(|e| self.string(e, "`pattern`"));
            st.format = props
                .get("format")
                .and_then(|e| self.keyword::<Format>(e, "`format`"));
            let extensible = props
                .get("extensible")
                .and_then(|e| self.boolean(e, "`extensible`"));
            if let Some(en) = enum_node {
                st.enum_values =
                    Some(self.lower_enum(&en, extensible.as_ref().is_some_and(|b| b.value)));
            } else if let Some(x) = extensible {
                self.err(
                    "model/missing-child",
                    x.span,
                    "`extensible` needs an `enum` child on the same field",
                    Some("add `{ enum \"a\" \"b\" }` or remove `extensible`".to_string()),
                );
            }
            TyKind::String(Box::new(st))
        } else {
            TyKind::Cursor(Box::new(st))
        }
    }

    /// An `integer` or a `number` (`keyword`): bounds, step, unit and `enum`.
    fn lower_number(
        &mut self,
        keyword: &str,
        props: &Props<'_>,
        enum_node: Option<Node>,
    ) -> TyKind {
        let int = keyword == "integer";
        let mut n = |k: &str| props.get(k).and_then(|e| self.num(e, Quoted(k), int));
        let mut nt = NumTy {
            min: n("min"),
            max: n("max"),
            exclusive_min: n("exclusive-min"),
            exclusive_max: n("exclusive-max"),
            multiple_of: n("multiple-of"),
            unit: None,
            enum_values: None,
        };
        if let Some(m) = &nt.multiple_of
            && m.value.as_f64() <= 0.0
        {
            self.err(
                "model/out-of-range",
                m.span,
                "`multiple-of` must be greater than 0",
                Some("write a positive number".to_string()),
            );
            nt.multiple_of = None;
        }
        nt.unit = props
            .get("unit")
            .and_then(|e| self.keyword::<Unit>(e, "`unit`"));
        nt.enum_values = enum_node.map(|en| self.lower_num_enum(&en, int));
        if int {
            TyKind::Integer(Box::new(nt))
        } else {
            TyKind::Number(Box::new(nt))
        }
    }

    /// An `array`: item counts, uniqueness and its `items` child.
    fn lower_array(
        &mut self,
        ty_name: &Sp<&str>,
        props: &Props<'_>,
        items_node: Option<Node>,
        depth: usize,
    ) -> Option<TyKind> {
        let u = |cx: &mut Self, k: &str| props.get(k).and_then(|e| cx.uint(e, Quoted(k)));
        let min_items = u(self, "min-items");
        let max_items = u(self, "max-items");
        let unique = props
            .get("unique")
            .and_then(|e| self.boolean(e, "`unique`"))
            .is_some_and(|b| b.value);
        let items = self.needed_child(
            items_node,
            ty_name.span,
            "an `array` needs an `items` child naming the element type",
            "add `{ items \"string\" max-length=64 }`",
        )?;
        let (items, items_nullable) = self.lower_element(&items, depth, Element::Items)?;
        Some(TyKind::Array(Box::new(ArrayTy {
            min_items,
            max_items,
            unique,
            items: Box::new(items),
            items_nullable,
        })))
    }

    /// A `map`: entry counts and its `values` child.
    fn lower_map(
        &mut self,
        ty_name: &Sp<&str>,
        props: &Props<'_>,
        values_node: Option<Node>,
        depth: usize,
    ) -> Option<TyKind> {
        let u = |cx: &mut Self, k: &str| props.get(k).and_then(|e| cx.uint(e, Quoted(k)));
        let min_entries = u(self, "min-entries");
        let max_entries = u(self, "max-entries");
        let values = self.needed_child(
            values_node,
            ty_name.span,
            "a `map` needs a `values` child naming the type of its values",
            "add `{ values \"string\" max-length=256 }`, or `{ values \"json\" }` for any value",
        )?;
        let (values, values_nullable) = self.lower_element(&values, depth, Element::Values)?;
        if !MapTy::admits(&values.kind) {
            self.err(
                "model/unsupported-type",
                values.span,
                format!(
                    "map values of type `{}` are not part of the format",
                    values.kind.keyword()
                ),
                Some("use a scalar type, `json`, an `array`, an `object` or a named type; for a map of maps, name an object type whose fields are the inner keys".to_string()),
            );
            return None;
        }
        Some(TyKind::Map(Box::new(MapTy {
            min_entries,
            max_entries,
            values: Box::new(values),
            values_nullable,
        })))
    }

    /// An `object` field's `extra TYPE …` child (it is open) with the field's `min-entries` /
    /// `max-entries`, which bound the property count of an open object only.
    fn lower_extra(
        &mut self,
        node: Option<Node>,
        props: &Props<'_>,
        depth: usize,
    ) -> Option<Extra> {
        let u = |cx: &mut Self, k: &str| props.get(k).and_then(|e| cx.uint(e, Quoted(k)));
        let (min_entries, max_entries) = (u(self, "min-entries"), u(self, "max-entries"));
        let Some(node) = node else {
            if let Some(at) = min_entries.as_ref().or(max_entries.as_ref()) {
                self.err(
                    "model/missing-child",
                    at.span,
                    "`min-entries` / `max-entries` bound the properties of an open object: this one has no `extra` child",
                    Some("add `extra \"json\"` (or a scalar type) to open the object, or remove the bound".to_string()),
                );
            }
            return None;
        };
        let (values, nullable) = self.lower_element(&node, depth, Element::Extra)?;
        if !Extra::admits(&values.kind) {
            self.err(
                "model/unsupported-type",
                values.span,
                format!(
                    "extra properties of type `{}` are not part of the format",
                    values.kind.keyword()
                ),
                Some("use a scalar type, `json`, an `array`, an `object` or a named type; for a map of maps, name an object type whose fields are the inner keys".to_string()),
            );
            return None;
        }
        Some(Extra {
            values: Box::new(values),
            nullable,
            min_entries,
            max_entries,
        })
    }

    /// A `union`'s `discriminator=` and `variant` children: at least two, names unique.
    fn lower_union(
        &mut self,
        ty_name: &Sp<&str>,
        props: &Props<'_>,
        variant_nodes: &[Node],
        depth: usize,
    ) -> Option<UnionTy> {
        let discriminator = match props.get("discriminator") {
            Some(e) => self.string(e, "`discriminator`"),
            None => {
                self.err(
                    "model/missing-property",
                    ty_name.span,
                    "a `union` needs `discriminator=`, the property that names its variant",
                    Some("add `discriminator=\"type\"`".to_string()),
                );
                None
            }
        };
        let mut variants: Vec<Variant> = Vec::new();
        let mut keys = KeyHashes::default();
        for node in variant_nodes {
            if let Some(v) = self.lower_variant(node, discriminator.as_ref(), depth) {
                self.push_unique(
                    &mut variants,
                    &mut keys,
                    v,
                    |v| &v.name,
                    |n| format!("variant \"{n}\" is declared twice in this union"),
                    "rename or remove one; this declaration is ignored",
                );
            }
        }
        if variants.len() < 2 {
            self.err(
                "model/missing-child",
                ty_name.span,
                format!(
                    "a `union` needs at least two `variant` children (found {})",
                    variants.len()
                ),
                Some(
                    "add `variant \"NAME\" { field … }` for each shape, or use an `object` field"
                        .to_string(),
                ),
            );
            return None;
        }
        Some(UnionTy {
            discriminator: discriminator?,
            variants: compact(variants),
        })
    }

    /// `variant "NAME" { doc "…" field … }`. The discriminator is implicit: a field of that
    /// name inside the variant would give it a second, conflicting definition.
    fn lower_variant(
        &mut self,
        node: &Node,
        discriminator: Option<&Sp<String>>,
        depth: usize,
    ) -> Option<Variant> {
        self.check_annotations(node);
        self.props(node, &[], &|_| None);
        let args = self.args(node, 1, 1, "variant \"NAME\" { field … }");
        let name = args.first().and_then(|e| self.string(e, "variant name"))?;
        if name.value.is_empty() {
            self.err(
                "model/wrong-type",
                name.span,
                "a variant name is empty",
                Some("write the discriminator value this variant carries".to_string()),
            );
            return None;
        }
        self.path.push_parts(&["<", &name.value, ">"]);
        let mut fields = Vec::new();
        let mut doc = None;
        let mut seen = Seen::default();
        for c in node.child_nodes() {
            match c.name.value {
                "doc" if !self.once(&mut seen, &c, "a `variant`") => {}
                "doc" => doc = self.text_node(&c),
                "field" => self.push_field(&mut fields, &c, depth + 1),
                _ => {
                    self.check_annotations(&c);
                    self.unknown_node(&c, "in a `variant`", crate::model::vocab::VARIANT_CHILDREN);
                }
            }
        }
        if let Some(d) = discriminator
            && let Some(i) = fields.iter().position(|f| f.name.value == d.value)
        {
            let f = fields.remove(i);
            self.err(
                "naming/duplicate",
                f.name.span,
                format!(
                    "field `{}` is the union's discriminator: its value in this variant is \"{}\"",
                    d.value, name.value
                ),
                Some(
                    "remove the field; the variant's name is the discriminator's value".to_string(),
                ),
            );
        }
        self.path.pop();
        Some(Variant {
            name,
            doc,
            fields: Object {
                fields: compact(fields),
                span: node.span,
                extra: None,
            },
        })
    }

    /// `child`, or a `model/missing-child` error at the type name when it is absent.
    fn needed_child<'n>(
        &mut self,
        child: Option<Node<'n>>,
        at: Span,
        message: &str,
        help: &str,
    ) -> Option<Node<'n>> {
        if child.is_none() {
            self.err("model/missing-child", at, message, Some(help.to_string()));
        }
        child
    }

    /// `items TYPE [attributes] { ... }` (the element type of an array) or `values TYPE …`
    /// (the value type of a map) or `extra TYPE …` (an open object's other properties),
    /// with `nullable=#true`: `null` is an item, a value or an extra property.
    pub(super) fn lower_element(
        &mut self,
        node: &Node,
        depth: usize,
        el: Element,
    ) -> Option<(Ty, bool)> {
        self.check_annotations(node);
        let (name, owner, path) = match el {
            Element::Items => ("items", "array", "[]"),
            Element::Values => ("values", "map", "{}"),
            Element::Extra => ("extra", "object", "{}"),
        };
        let args = self.args(node, 1, 1, format_args!("{name} \"string\" max-length=64"));
        let ty_name = self.type_name(args.first()?)?;
        let keyword = ty_name.value;
        let label = Label {
            keyword,
            element: Some(name),
        };
        let allowed = [type_props(keyword), &["nullable"]];
        let props = self.props_of_lists(node, &allowed, &|p| {
            if COMMON_FIELD_PROPS.contains(&p) {
                return Some(format!(
                    "`{p}` belongs on the {owner} field, not on its `{name}`"
                ));
            }
            let owners = types_with_prop(p);
            (!owners.is_empty()).then(|| {
                format!(
                    "`{p}` does not apply to {label} (it applies to {})",
                    quoted_list(&owners)
                )
            })
        });
        let nullable = props
            .get("nullable")
            .and_then(|e| self.boolean(e, "`nullable`"))
            .is_some_and(|b| b.value);
        self.path.push(path);
        let ty = self.lower_ty(&ty_name, &props, node.child_nodes(), depth + 1, &[], label);
        self.path.pop();
        Some((ty?, nullable))
    }

    pub(super) fn lower_enum(&mut self, node: &Node, extensible: bool) -> EnumValues {
        self.check_annotations(node);
        self.props(node, &[], &|p| {
            (p == "extensible").then(|| "`extensible` goes on the field, not on `enum`".to_string())
        });
        self.no_children(node);
        // Sized to the values written: grown by doubling, an enum of 850,000 values held a
        // quarter of its list unused (the model of a huge enum is most of its memory).
        let written = node.entries().filter(|e| e.name.is_none()).count();
        let mut values: Vec<Sp<String>> = Vec::with_capacity(written);
        let mut keys = KeyHashes::default();
        for e in node.entries().filter(|e| e.name.is_none()) {
            let Some(v) = self.string(&e, "enum value") else {
                continue;
            };
            self.push_unique(
                &mut values,
                &mut keys,
                v,
                |v| v,
                |v| format!("enum value \"{v}\" is listed twice"),
                "remove the repeated value",
            );
        }
        EnumValues {
            values,
            extensible,
            span: node.span,
        }
    }

    /// `enum 1 2 3` on an `integer` (integers only) or `number` field.
    fn lower_num_enum(&mut self, node: &Node, integer_only: bool) -> NumEnum {
        self.check_annotations(node);
        self.props(node, &[], &|p| {
            (p == "extensible").then(|| "`extensible` applies to string enums only".to_string())
        });
        self.no_children(node);
        let written = node.entries().filter(|e| e.name.is_none()).count();
        let mut values: Vec<Sp<Num>> = Vec::with_capacity(written);
        let mut keys = KeyHashes::default();
        for e in node.entries().filter(|e| e.name.is_none()) {
            let Some(v) = self.num(&e, "enum value", integer_only) else {
                continue;
            };
            let f = v.value.as_f64();
            let same = |i: usize| values.get(i).is_some_and(|x| x.value.as_f64() == f);
            if keys.repeats(v.value.key(), values.len(), same) {
                self.err(
                    "naming/duplicate",
                    v.span,
                    "this enum value is listed twice",
                    Some("remove the repeated value".to_string()),
                );
                continue;
            }
            values.push(v);
        }
        NumEnum {
            values,
            span: node.span,
        }
    }

    /// A field's `examples VALUE…`: values of its type, written as KDL values for strings,
    /// numbers and booleans and as JSON text for arrays, objects, maps and `json`. Whether
    /// they satisfy the constraints is lint's question (`bounds/example-invalid`).
    fn lower_examples_of(&mut self, node: &Node, kind: &TyKind) -> Vec<Sp<serde_json::Value>> {
        self.check_annotations(node);
        self.props(node, &[], &|_| None);
        self.no_children(node);
        let mut out = Vec::new();
        for e in node.entries().filter(|e| e.name.is_none()) {
            let what = "example";
            let value = match kind {
                TyKind::String(_) | TyKind::Cursor(_) | TyKind::Timestamp => self
                    .string(&e, what)
                    .map(|s| Sp::new(serde_json::Value::String(s.value), s.span)),
                TyKind::Integer(_) | TyKind::Number(_) => {
                    let int = matches!(kind, TyKind::Integer(_));
                    self.num(&e, what, int).map(|n| {
                        let v = match n.value {
                            Num::Int(i) => serde_json::Value::from(i),
                            Num::Float(f) => serde_json::Number::from_f64(f)
                                .map_or(serde_json::Value::Null, serde_json::Value::Number),
                        };
                        Sp::new(v, n.span)
                    })
                }
                TyKind::Boolean => self
                    .boolean(&e, what)
                    .map(|b| Sp::new(serde_json::Value::Bool(b.value), b.span)),
                TyKind::Array(_)
                | TyKind::Object(_)
                | TyKind::Map(_)
                | TyKind::Json
                | TyKind::Union(_)
                | TyKind::Named(_) => self
                    .string(&e, "example (JSON text)")
                    .and_then(|s| self.json(s, "the example")),
            };
            out.extend(value);
        }
        if node.entries().all(|e| e.name.is_some()) {
            self.err(
                "model/missing-argument",
                node.name.span,
                "`examples` lists no value",
                Some("write one or more values: `examples \"a\" \"b\"`".to_string()),
            );
        }
        out
    }

    /// `default=#null`: the value of a nullable field when it is absent.
    fn null_default(&mut self, e: &Entry, nullable: bool) -> Option<Sp<Literal>> {
        if nullable {
            return Some(Sp::new(Literal::Null, e.value.span));
        }
        self.err(
            "model/wrong-type",
            e.value.span,
            "`default=#null` on a field that is not nullable",
            Some("add `nullable=#true` to the field, or remove the default".to_string()),
        );
        None
    }

    /// The value of `default=` or `const=` (`prop`), read as a value of the field's type.
    pub(super) fn default_value(
        &mut self,
        e: &Entry,
        kind: &TyKind,
        label: Label<'_>,
        prop: &str,
    ) -> Option<Sp<Literal>> {
        let span = e.value.span;
        let what = Quoted(prop);
        match kind {
            TyKind::String(_) | TyKind::Cursor(_) | TyKind::Timestamp => self
                .string(e, what)
                .map(|s| Sp::new(Literal::String(s.value), span)),
            TyKind::Integer(_) | TyKind::Number(_) => {
                let int = matches!(kind, TyKind::Integer(_));
                self.num(e, what, int).map(|n| {
                    Sp::new(
                        match n.value {
                            Num::Int(i) => Literal::Int(i),
                            Num::Float(f) => Literal::Float(f),
                        },
                        span,
                    )
                })
            }
            TyKind::Boolean => self
                .boolean(e, what)
                .map(|b| Sp::new(Literal::Bool(b.value), span)),
            TyKind::Array(_)
            | TyKind::Object(_)
            | TyKind::Map(_)
            | TyKind::Json
            | TyKind::Union(_)
            | TyKind::Named(_) => {
                let name_span = e.name.as_ref().map(|n| n.span).unwrap_or(e.span);
                self.err(
                    "model/unknown-property",
                    name_span,
                    format!("`{prop}` does not apply to {label}"),
                    Some(format!(
                        "`{prop}` exists for strings, numbers and booleans; remove it"
                    )),
                );
                None
            }
        }
    }
}
