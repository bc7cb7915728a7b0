//! With [`Options::json_schema_derive`](super::Options): `schemars::JsonSchema` derives and
//! the field attributes that make schemars' schema of each generated type state the same
//! bounds as the catalog's (`tests/consumer/tests/agreement.rs` checks both schemas accept
//! and reject the same instances).
//!
//! Mapping: lengths and item counts → `length(min, max)`; inclusive ranges → `range`;
//! `pattern` → `pattern`; exclusive bounds, `multiple-of`, `unique` and `format` →
//! `extend(…)` with the JSON Schema keyword; bounds of array items → `inner(…)`. An
//! optional field is `with = "T"`: the schema of `T`, not required, never `null`.
//! Item-level `format`, exclusive bounds and `multiple-of` have no schemars attribute;
//! schemars' schema of such an item states only the rest (the lint flags no catalog for it).

use super::plan::FieldPlan;
use crate::model::{CURSOR_DEFAULT_MAX_LENGTH, Literal, Num, NumTy, StringTy, Ty, TyKind};
use proc_macro2::TokenStream;
use quote::quote;

/// The derive to add to a struct or enum, after the others (it brings its comma).
pub fn derive() -> TokenStream {
    quote!(, ::catalogc::runtime::schemars::JsonSchema)
}

/// The container attribute naming the re-exported crate.
pub fn container() -> TokenStream {
    quote!(#[schemars(crate = "::catalogc::runtime::schemars")])
}

/// The attributes of one field; `with` is the Rust type of an optional field's value.
pub fn field_attrs(f: &FieldPlan<'_>, with: Option<&TokenStream>) -> TokenStream {
    let mut parts = validation(&f.field.ty);
    if let TyKind::Array(a) = &f.field.ty.kind {
        let inner = validation(&a.items);
        if !inner.is_empty() {
            parts.push(quote!(inner(#(#inner),*)));
        }
    }
    let mut ext = extensions(&f.field.ty, f.field.nullable);
    let constant = f.field.constant.as_ref().and_then(|c| match &c.value {
        Literal::String(s) => Some(quote!(#s)),
        Literal::Int(i) => Some(num(Num::Int(*i))),
        Literal::Float(x) => Some(num(Num::Float(*x))),
        Literal::Bool(b) => Some(quote!(#b)),
        // Lowering refuses `const=#null`; the generated rule reports it (emit::scalar).
        Literal::Null => None,
    });
    if let Some(v) = constant {
        ext.push(quote!("const" = #v));
    }
    if !ext.is_empty() {
        parts.push(quote!(extend(#(#ext),*)));
    }
    if let Some(t) = with {
        let t = t.to_string();
        parts.push(quote!(with = #t));
    }

    if parts.is_empty() {
        return TokenStream::new();
    }
    quote!(#[schemars(#(#parts),*)])
}

fn num(n: Num) -> TokenStream {
    match n {
        Num::Int(i) => super::emit::int_literal(i.into(), "i64"),
        Num::Float(f) => {
            let f = proc_macro2::Literal::f64_suffixed(f);
            quote!(#f)
        }
    }
}

fn length(min: Option<u64>, max: Option<u64>) -> Option<TokenStream> {
    let min = min.map(|m| {
        let m = proc_macro2::Literal::u64_unsuffixed(m);
        quote!(min = #m)
    });
    let max = max.map(|m| {
        let m = proc_macro2::Literal::u64_unsuffixed(m);
        quote!(max = #m)
    });
    let parts: Vec<TokenStream> = min.into_iter().chain(max).collect();
    (!parts.is_empty()).then(|| quote!(length(#(#parts),*)))
}

fn string(s: &StringTy, default_max: Option<u64>) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let max = s.max_length.as_ref().map(|m| m.value).or(default_max);
    out.extend(length(s.min_length.as_ref().map(|m| m.value), max));
    if let Some(p) = &s.pattern {
        let p = &p.value;
        out.push(quote!(pattern(#p)));
    }
    out
}

fn range(n: &NumTy) -> Option<TokenStream> {
    let min = n.min.as_ref().map(|m| {
        let v = num(m.value);
        quote!(min = #v)
    });
    let max = n.max.as_ref().map(|m| {
        let v = num(m.value);
        quote!(max = #v)
    });
    let parts: Vec<TokenStream> = min.into_iter().chain(max).collect();
    (!parts.is_empty()).then(|| quote!(range(#(#parts),*)))
}

/// The validation attributes schemars has for `ty` itself.
fn validation(ty: &Ty) -> Vec<TokenStream> {
    match &ty.kind {
        TyKind::String(s) => string(s, None),
        TyKind::Cursor(s) => string(s, Some(CURSOR_DEFAULT_MAX_LENGTH)),
        TyKind::Integer(n) | TyKind::Number(n) => range(n).into_iter().collect(),
        TyKind::Array(a) => length(
            a.min_items.as_ref().map(|m| m.value),
            a.max_items.as_ref().map(|m| m.value),
        )
        .into_iter()
        .collect(),
        _ => Vec::new(),
    }
}

/// JSON Schema keywords schemars has no attribute for, as `"keyword" = value`.
fn extensions(ty: &Ty, nullable: bool) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let format = match &ty.kind {
        TyKind::String(s) | TyKind::Cursor(s) => s.format.as_ref().map(|f| f.value.as_str()),
        TyKind::Timestamp => Some("date-time"),
        _ => None,
    };
    if let Some(f) = format {
        out.push(quote!("format" = #f));
    }
    if let TyKind::Integer(n) | TyKind::Number(n) = &ty.kind {
        if let Some(e) = &n.enum_values {
            let vs = e.values.iter().map(|v| num(v.value));
            // `extend` replaces the keyword: a nullable field's `null` is listed here too,
            // as the contract's schema lists it.
            let null = nullable.then(|| quote!(, null));
            out.push(quote!("enum" = [#(#vs),* #null]));
        }
        for (key, v) in [
            ("exclusiveMinimum", &n.exclusive_min),
            ("exclusiveMaximum", &n.exclusive_max),
            ("multipleOf", &n.multiple_of),
        ] {
            if let Some(v) = v {
                let v = num(v.value);
                out.push(quote!(#key = #v));
            }
        }
    }
    if let TyKind::Array(a) = &ty.kind
        && a.unique
    {
        out.push(quote!("uniqueItems" = true));
    }
    if let TyKind::Map(m) = &ty.kind {
        // Scalar values: their schema as the contract states it (no named type needs the
        // catalog); JSON text is `extend`'s value syntax. Values that hold fields are
        // generated types with their own derive, which schemars uses as they are.
        if !m.values.kind.is_structured() {
            // A bare field of the values' type says `nullable` as the contract writes it.
            let mut value = crate::model::Field::new("", m.values.kind.clone());
            value.nullable = m.values_nullable;
            let values =
                crate::contract::schema::ty_schema(&crate::model::Catalog::new(""), &value);
            if let Ok(values) = values.to_string().parse::<TokenStream>() {
                out.push(quote!("additionalProperties" = #values));
            }
        }
        for (key, v) in [
            ("minProperties", &m.min_entries),
            ("maxProperties", &m.max_entries),
        ] {
            if let Some(v) = v {
                let v = v.value;
                out.push(quote!(#key = #v));
            }
        }
    }
    out
}
