//! Named-type cycles: a type that reaches itself through its fields would make schemas
//! (which inline named types) infinite.

use super::*;
use std::collections::HashMap;

impl Cx {
    // ---- recursion ----

    /// Reports every named-type cycle at the reference that closes it and removes the field
    /// holding that reference, so schemas (which inline named types) stay finite.
    pub(super) fn break_cycles(&mut self, types: &mut [TypeDef]) {
        let index: HashMap<&str, usize> = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.value.as_str(), i))
            .collect();
        // Edges of type `i`: `edges[starts[i]..starts[i + 1]]`, (referenced type, reference
        // span). Flat, and without the field paths (built only for a reported cycle): a file
        // of many small types would otherwise hold a list and a path string per type.
        let mut starts = Vec::with_capacity(types.len() + 1);
        let mut edges: Vec<(usize, Span)> = Vec::new();
        let mut path = String::new();
        for t in types.iter() {
            starts.push(edges.len());
            each_ref(&t.fields, &mut path, &mut |name, span, _| {
                if let Some(&i) = index.get(name) {
                    edges.push((i, span));
                }
            });
        }
        starts.push(edges.len());
        let edges_of = |i: usize| &edges[starts[i]..starts[i + 1]];
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut state = vec![0u8; types.len()];
        let mut bad: HashSet<Span> = HashSet::new();
        for start in 0..types.len() {
            if state[start] != 0 {
                continue;
            }
            // Iterative DFS: (node, next edge index).
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some((to, span)) = edges_of(node).get(*next) {
                    *next += 1;
                    match state[*to] {
                        0 => {
                            state[*to] = 1;
                            stack.push((*to, 0));
                        }
                        1 => {
                            let chain: Vec<&str> = stack
                                .iter()
                                .skip_while(|(n, _)| n != to)
                                .map(|(n, _)| types[*n].name.value.as_str())
                                .chain(std::iter::once(types[*to].name.value.as_str()))
                                .collect();
                            self.tool = None;
                            self.path.set(&ref_path(&types[node], *span));
                            self.err(
                                "model/recursive-type",
                                *span,
                                format!(
                                    "type `{}` is recursive: {}",
                                    types[*to].name.value,
                                    chain.join(" → ")
                                ),
                                Some("a tool schema must be finite; break the cycle, e.g. with a reference string field".to_string()),
                            );
                            self.path.clear();
                            bad.insert(*span);
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
        if !bad.is_empty() {
            for t in types.iter_mut() {
                prune(&mut t.fields, &bad);
            }
        }
    }
}

/// Calls `f` with every named-type reference inside `fields`: its type name, span and the
/// dotted path of the field holding it below `path` (restored on return).
fn each_ref(fields: &[Field], path: &mut String, f: &mut impl FnMut(&str, Span, &str)) {
    for field in fields {
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(&field.name.value);
        ty_refs(&field.ty, path, f);
        path.truncate(len);
    }
}

fn ty_refs(ty: &Ty, path: &mut String, f: &mut impl FnMut(&str, Span, &str)) {
    match &ty.kind {
        TyKind::Named(n) => f(&n.value, n.span, path),
        TyKind::Array(a) => {
            path.push_str("[]");
            ty_refs(&a.items, path, f);
            path.truncate(path.len() - 2);
        }
        TyKind::Map(m) => {
            path.push_str("{}");
            ty_refs(&m.values, path, f);
            path.truncate(path.len() - 2);
        }
        TyKind::Object(o) => {
            each_ref(&o.fields, path, f);
            if let Some(x) = &o.extra {
                path.push_str("{}");
                ty_refs(&x.values, path, f);
                path.truncate(path.len() - 2);
            }
        }
        TyKind::Union(u) => {
            for v in &u.variants {
                let len = path.len();
                path.push('<');
                path.push_str(&v.name.value);
                path.push('>');
                each_ref(&v.fields.fields, path, f);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// The dotted path (`Type.field.inner`) of the field of `t` holding the reference at `span`.
fn ref_path(t: &TypeDef, span: Span) -> String {
    let mut path = t.name.value.clone();
    let mut found = None;
    each_ref(&t.fields, &mut path, &mut |_, s, p| {
        if s == span && found.is_none() {
            found = Some(p.to_string());
        }
    });
    found.unwrap_or_else(|| t.name.value.clone())
}

/// Removes fields whose type (directly or through array items or map values) is a reference
/// in `bad`, in nested objects and union variants too.
fn prune(fields: &mut Vec<Field>, bad: &HashSet<Span>) {
    fields.retain(|f| !ty_is_bad(&f.ty, bad));
    for f in fields.iter_mut() {
        prune_ty(&mut f.ty, bad);
    }
}

fn ty_is_bad(ty: &Ty, bad: &HashSet<Span>) -> bool {
    match &ty.kind {
        TyKind::Named(n) => bad.contains(&n.span),
        TyKind::Array(a) => ty_is_bad(&a.items, bad),
        TyKind::Map(m) => ty_is_bad(&m.values, bad),
        // An open object whose extras close a cycle is left out with them.
        TyKind::Object(o) => o.extra.as_ref().is_some_and(|x| ty_is_bad(&x.values, bad)),
        _ => false,
    }
}

fn prune_ty(ty: &mut Ty, bad: &HashSet<Span>) {
    match &mut ty.kind {
        TyKind::Object(o) => {
            prune(&mut o.fields, bad);
            if let Some(x) = &mut o.extra {
                prune_ty(&mut x.values, bad);
            }
        }
        TyKind::Array(a) => prune_ty(&mut a.items, bad),
        TyKind::Map(m) => prune_ty(&mut m.values, bad),
        TyKind::Union(u) => {
            for v in &mut u.variants {
                prune(&mut v.fields.fields, bad);
            }
        }
        _ => {}
    }
}
