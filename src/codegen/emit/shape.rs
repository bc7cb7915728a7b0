//! A struct's contract check: `Validate::shape`, the struct's schema as a static
//! `runtime::Shape` built through the runtime's `const fn` rule builders, each `pattern`
//! compiled on first use.

use super::{At, ident, int, rust_type};
use crate::codegen::plan::{RTy, StructPlan};
use crate::model::{CURSOR_DEFAULT_MAX_LENGTH, Literal, Num, NumTy, StringTy, Ty, TyKind};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// `impl Validate` for struct `s`: its fields' rules (and an open object's extras') as one
/// static `Shape`.
pub(super) fn validate_impl(s: &StructPlan<'_>, at: At) -> TokenStream {
    let id = ident(&s.ident);
    let patterns = s
        .fields
        .iter()
        .flat_map(|f| patterns_of(&f.field.ty))
        .enumerate()
        .map(|(i, p)| {
            let pid = pattern_ident(i);
            quote!(static #pid: __rt::Pattern = __rt::Pattern::new(#p);)
        });
    let mut counter = 0usize;
    let extra_values = s
        .extra
        .as_ref()
        .map(|x| element_shape(&x.extra.values, &x.ty, at, &mut counter));
    let rules: Vec<TokenStream> = s
        .fields
        .iter()
        .map(|f| {
            let name = &f.field.name.value;
            let required = f.field.required;
            let mut shape = shape(&f.field.ty, &f.ty, at, &mut counter);
            if let Some(c) = &f.field.constant {
                let value = scalar(&c.value);
                shape = quote!(__rt::Shape::Const(&__rt::ConstRule::new(#value, #shape)));
            }
            if f.field.nullable {
                shape = quote!(__rt::Shape::Nullable(&#shape));
            }
            quote!(__rt::FieldRule::new(#name, #required, #shape))
        })
        .collect();
    // An open object is the runtime's map with fields: named properties checked as
    // fields, the rest against the extras' shape.
    let object_shape = match (&s.extra, extra_values) {
        (Some(x), Some(values)) => {
            let r = with_bounds(
                quote!(__rt::MapRule::of(#values).fields(&[#(#rules),*])),
                vec![
                    ("min_entries", count(&x.extra.min_entries)),
                    ("max_entries", count(&x.extra.max_entries)),
                ],
            );
            quote!(__rt::Shape::Map(&#r))
        }
        _ => quote!(__rt::Shape::Object(&[#(#rules),*])),
    };
    quote! {
        impl __rt::Validate for #id {
            // One rule per field: a large struct's shape is long by nature.
            #[allow(clippy::too_many_lines)]
            fn shape() -> &'static __rt::Shape {
                #(#patterns)*
                static SHAPE: __rt::Shape = #object_shape;
                &SHAPE
            }
        }
    }
}

/// The static holding a struct's `i`-th pattern.
fn pattern_ident(i: usize) -> Ident {
    Ident::new(&format!("PATTERN_{i}"), Span::call_site())
}

/// The patterns of a field's type, in the order [`shape`] numbers them.
fn patterns_of(ty: &Ty) -> Vec<&str> {
    match &ty.kind {
        TyKind::String(s) | TyKind::Cursor(s) => {
            s.pattern.iter().map(|p| p.value.as_str()).collect()
        }
        TyKind::Array(a) => patterns_of(&a.items),
        TyKind::Map(m) => patterns_of(&m.values),
        _ => Vec::new(),
    }
}

/// `BASE.key(value)` for each set key: rules state only their bounds, through the runtime's
/// `const fn` builders (far fewer tokens than struct literals, which dominate large catalogs).
fn with_bounds(base: TokenStream, bounds: Vec<(&str, Option<TokenStream>)>) -> TokenStream {
    let set = bounds.into_iter().filter_map(|(k, v)| {
        let k = ident(k);
        v.map(|v| quote!(.#k(#v)))
    });
    quote!(#base #(#set)*)
}

fn bound(n: &Option<crate::model::Sp<Num>>) -> Option<TokenStream> {
    n.as_ref().map(|n| match n.value {
        Num::Int(i) => {
            let i = int(i);
            quote!(__rt::Bound::Int(#i))
        }
        Num::Float(f) => quote!(__rt::Bound::Float(#f)),
    })
}

/// A count bound (`max-items`, `max-entries`) as a literal, when set.
fn count(v: &Option<crate::model::Sp<u64>>) -> Option<TokenStream> {
    v.as_ref().map(|v| int(v.value))
}

fn shape(ty: &Ty, rty: &RTy, at: At, counter: &mut usize) -> TokenStream {
    match (&ty.kind, rty) {
        (TyKind::String(s), _) => string_rule(s, None, counter),
        (TyKind::Cursor(s), _) => string_rule(s, Some(CURSOR_DEFAULT_MAX_LENGTH), counter),
        (TyKind::Timestamp, _) => {
            quote!(__rt::Shape::String(
                &__rt::StrRule::ANY.format(__rt::Format::DateTime)
            ))
        }
        (TyKind::Integer(n), _) => {
            let r = num_rule(n);
            quote!(__rt::Shape::Integer(&#r))
        }
        (TyKind::Number(n), _) => {
            let r = num_rule(n);
            quote!(__rt::Shape::Number(&#r))
        }
        (TyKind::Boolean, _) => quote!(__rt::Shape::Boolean),
        (TyKind::Array(a), RTy::Vec(inner)) => {
            let items = element_shape(&a.items, inner, at, counter);
            let mut r = with_bounds(
                quote!(__rt::ArrayRule::of(#items)),
                vec![
                    ("min_items", count(&a.min_items)),
                    ("max_items", count(&a.max_items)),
                ],
            );
            if a.unique {
                r = quote!(#r.unique());
            }
            quote!(__rt::Shape::Array(&#r))
        }
        (TyKind::Map(m), RTy::Map(inner)) => {
            let values = element_shape(&m.values, inner, at, counter);
            let r = with_bounds(
                quote!(__rt::MapRule::of(#values)),
                vec![
                    ("min_entries", count(&m.min_entries)),
                    ("max_entries", count(&m.max_entries)),
                ],
            );
            quote!(__rt::Shape::Map(&#r))
        }
        (TyKind::Json, _) => quote!(__rt::Shape::Any),
        (TyKind::Object(_) | TyKind::Union(_), rty) | (TyKind::Named(_), rty @ RTy::Root(_)) => {
            let t = rust_type(rty, at);
            quote!(__rt::Shape::Named(<#t as __rt::Validate>::shape))
        }
        // A plan/model mismatch cannot come out of `plan`; fail closed as free text.
        _ => quote!(__rt::Shape::String(&__rt::StrRule::ANY)),
    }
}

/// The shape of an array item, map value or extra property: [`shape`], admitting `null`
/// when the plan made it an `Option`.
fn element_shape(ty: &Ty, rty: &RTy, at: At, counter: &mut usize) -> TokenStream {
    match rty {
        RTy::Nullable(inner) => {
            let s = shape(ty, inner, at, counter);
            quote!(__rt::Shape::Nullable(&#s))
        }
        rty => shape(ty, rty, at, counter),
    }
}

fn string_rule(s: &StringTy, default_max: Option<u64>, counter: &mut usize) -> TokenStream {
    let len = |v: Option<u64>| v.map(int);
    let pattern = s.pattern.as_ref().map(|_| {
        let pid = pattern_ident(*counter);
        *counter += 1;
        quote!(&#pid)
    });
    let format = s.format.as_ref().map(|f| {
        let v = ident(match f.value {
            crate::model::Format::DateTime => "DateTime",
            crate::model::Format::Date => "Date",
            crate::model::Format::Email => "Email",
            crate::model::Format::Uri => "Uri",
            crate::model::Format::Uuid => "Uuid",
            crate::model::Format::Ipv4 => "Ipv4",
            crate::model::Format::Ipv6 => "Ipv6",
            crate::model::Format::Hostname => "Hostname",
            crate::model::Format::Time => "Time",
        });
        quote!(__rt::Format::#v)
    });
    let values = s.enum_values.as_ref().map(|e| {
        let vs = e.values.iter().map(|v| v.value.as_str());
        quote!(&[#(#vs),*])
    });
    let r = with_bounds(
        quote!(__rt::StrRule::ANY),
        vec![
            ("min_length", len(s.min_length.as_ref().map(|v| v.value))),
            (
                "max_length",
                len(s.max_length.as_ref().map(|v| v.value).or(default_max)),
            ),
            ("pattern", pattern),
            ("format", format),
            ("values", values),
        ],
    );
    quote!(__rt::Shape::String(&#r))
}

/// A `const=` value as the runtime's `Scalar` (lowering admits no `null` and no `const` on
/// a nullable field).
fn scalar(l: &Literal) -> TokenStream {
    match l {
        Literal::String(s) => quote!(__rt::Scalar::Str(#s)),
        Literal::Int(i) => {
            let i = int(*i);
            quote!(__rt::Scalar::Int(#i))
        }
        Literal::Float(f) => quote!(__rt::Scalar::Float(#f)),
        Literal::Bool(b) => quote!(__rt::Scalar::Bool(#b)),
        Literal::Null => quote!(::core::compile_error!(
            "catalogc: a `const=#null` field cannot be generated"
        )),
    }
}

fn num_rule(n: &NumTy) -> TokenStream {
    let values = n.enum_values.as_ref().map(|e| {
        let vs = e.values.iter().map(|v| bound(&Some(*v)));
        quote!(&[#(#vs),*])
    });
    with_bounds(
        quote!(__rt::NumRule::ANY),
        vec![
            ("min", bound(&n.min)),
            ("max", bound(&n.max)),
            ("exclusive_min", bound(&n.exclusive_min)),
            ("exclusive_max", bound(&n.exclusive_max)),
            ("multiple_of", bound(&n.multiple_of)),
            ("values", values),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::plan::Item;
    use crate::codegen::tests::{has, planned, printed, with_plan};

    #[test]
    fn rules_state_only_the_bounds_that_are_set() {
        let text = r#"catalog "c" version="1.0.0"
type "Place" { field "code" "string" required=#true max-length=8; }
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "name" "string" required=#true max-length=8 pattern="^[a-z]+$"
        field "size" "integer" min=1 max=50
        field "at" "timestamp"
        field "tags" "array" max-items=4 unique=#true { items "string" max-length=8 pattern="^t"; }
        field "place" "Place"
        field "mode" "string" const="fast"
        field "hint" "string" max-length=8 nullable=#true
    }
}
"#;
        let rs = with_plan(text, |plan, _| {
            let Item::Struct(s) = planned(&plan.tools[0].items, "Input") else {
                panic!("Input is not a struct")
            };
            printed(validate_impl(s, At::Tool))
        });
        for part in [
            r#"static PATTERN_0: __rt::Pattern = __rt::Pattern::new("^[a-z]+$");"#,
            r#"static PATTERN_1: __rt::Pattern = __rt::Pattern::new("^t");"#,
            r#"__rt::FieldRule::new("name", true, __rt::Shape::String(&__rt::StrRule::ANY.max_length(8).pattern(&PATTERN_0)))"#,
            "__rt::Shape::Integer(&__rt::NumRule::ANY.min(__rt::Bound::Int(1)).max(__rt::Bound::Int(50)))",
            "__rt::StrRule::ANY.format(__rt::Format::DateTime)",
            "__rt::ArrayRule::of(__rt::Shape::String(&__rt::StrRule::ANY.max_length(8).pattern(&PATTERN_1))).max_items(4).unique()",
            "__rt::Shape::Named(<super::Place as __rt::Validate>::shape)",
            r#"__rt::Shape::Const(&__rt::ConstRule::new(__rt::Scalar::Str("fast"),"#,
            "__rt::Shape::Nullable(&__rt::Shape::String(&__rt::StrRule::ANY.max_length(8)))",
        ] {
            assert!(has(&rs, part), "no `{part}` in\n{rs}");
        }
    }
}
