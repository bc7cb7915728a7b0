//! Named-type cycles: a type that reaches itself through its fields would make schemas
//! (which inline named types) infinite.

use super::*;
use std::collections::HashMap;

impl Cx {
    // ---- recursion ----

    /// Reports every named-type cycle at the reference that closes it and removes the field
    /// holding that reference, so schemas (which inline named types) stay finite.
    pub(super) fn break_cycles(&mut self, types: &mut [TypeDef]) {
        let index: HashMap<String, usize> = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.value.clone(), i))
            .collect();
        // Edges: for each type, (referenced type, reference span, dotted path of the field).
        let edges: Vec<Vec<(usize, Span, String)>> = types
            .iter()
            .map(|t| {
                let mut out = Vec::new();
                collect_refs(&t.fields, &t.name.value, &mut out);
                out.into_iter()
                    .filter_map(|(name, span, path)| index.get(&name).map(|&i| (i, span, path)))
                    .collect()
            })
            .collect();
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
                if let Some((to, span, path)) = edges[node].get(*next) {
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
                            self.path = vec![path.clone()];
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

/// Every named-type reference inside `fields`: (type name, span, dotted field path).
fn collect_refs(fields: &[Field], prefix: &str, out: &mut Vec<(String, Span, String)>) {
    for f in fields {
        let path = format!("{prefix}.{}", f.name.value);
        collect_ty_refs(&f.ty, &path, out);
    }
}

fn collect_ty_refs(ty: &Ty, path: &str, out: &mut Vec<(String, Span, String)>) {
    match &ty.kind {
        TyKind::Named(n) => out.push((n.value.clone(), n.span, path.to_string())),
        TyKind::Array(a) => collect_ty_refs(&a.items, &format!("{path}[]"), out),
        TyKind::Object(o) => collect_refs(&o.fields, path, out),
        _ => {}
    }
}

/// Removes fields whose type (directly or through array items) is a reference in `bad`.
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
        _ => false,
    }
}

fn prune_ty(ty: &mut Ty, bad: &HashSet<Span>) {
    match &mut ty.kind {
        TyKind::Object(o) => prune(&mut o.fields, bad),
        TyKind::Array(a) => prune_ty(&mut a.items, bad),
        _ => {}
    }
}
