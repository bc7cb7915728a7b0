//! The `bounds/contradiction` rule: constraints leave a valid value, and the default is one;
//! [`RULE`] documents it.

use crate::lint::walk::site_finding;
use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding};
use crate::model::{Literal, Num, NumTy, Sp, Span, StringTy, TyKind};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that a field's own constraints leave at least one valid value, and that its
    /// `default` is one of them:
    /// - `min` > `max`, or exclusive bounds that leave nothing between them (for integers, no
    ///   integer between them: `exclusive-min=1 exclusive-max=2`); `multiple-of` ≤ 0;
    /// - `min-length` > `max-length` (strings and cursors), `min-items` > `max-items`;
    /// - an empty `enum`;
    /// - a `default` or `const` of the wrong type (a string for an integer, `1.5` for an
    ///   integer, anything for an array or object), or outside its own bounds, length, `enum`,
    ///   `pattern` or `multiple-of`; a `default` other than the field's `const`.
    ///
    /// ## Why is this bad?
    /// No argument can satisfy the schema, so every call fails validation, or the default the
    /// server applies is one the schema itself rejects: the model is told one thing and the
    /// server does another.
    ///
    /// ## Example
    /// ```kdl
    /// field "page_size" "integer" min=1 max=50 default=100
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "page_size" "integer" min=1 max=50 default=20
    /// ```
    pub static RULE = Rule {
        id: "bounds/contradiction",
        level: Level::Error,
        summary: "constraints leave a valid value, and the default is one",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

fn num(n: Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Float(f) => f.to_string(),
    }
}

fn lit(l: &Literal) -> String {
    match l {
        Literal::String(s) => format!("{s:?}"),
        Literal::Int(i) => i.to_string(),
        Literal::Float(f) => f.to_string(),
        Literal::Bool(b) => if *b { "#true" } else { "#false" }.to_string(),
        Literal::Null => "#null".to_string(),
    }
}

type Bound<'a> = &'a Option<Sp<Num>>;

/// Contradictions among numeric bounds: (span, message).
fn number_bounds(n: &NumTy, integer: bool) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    // (lower, its name, upper, its name, whether equal values already contradict)
    let pairs: [(Bound, &str, Bound, &str, bool); 4] = [
        (&n.min, "min", &n.max, "max", false),
        (&n.min, "min", &n.exclusive_max, "exclusive-max", true),
        (&n.exclusive_min, "exclusive-min", &n.max, "max", true),
        (&n.exclusive_min, "exclusive-min", &n.exclusive_max, "exclusive-max", true),
    ];
    for (lo, lo_name, hi, hi_name, strict) in pairs {
        let (Some(lo), Some(hi)) = (lo, hi) else { continue };
        let (l, h) = (lo.value.as_f64(), hi.value.as_f64());
        if l > h || (strict && l >= h) {
            out.push((
                hi.span,
                format!("`{lo_name}={}` and `{hi_name}={}` leave no valid value", num(lo.value), num(hi.value)),
            ));
        }
    }
    if integer && out.is_empty() {
        // Integers need an integer strictly inside exclusive bounds.
        let lower = [n.min.as_ref().map(|m| m.value.as_f64().ceil()), n.exclusive_min.as_ref().map(|m| m.value.as_f64().floor() + 1.0)]
            .into_iter()
            .flatten()
            .fold(f64::NEG_INFINITY, f64::max);
        let upper = [n.max.as_ref().map(|m| m.value.as_f64().floor()), n.exclusive_max.as_ref().map(|m| m.value.as_f64().ceil() - 1.0)]
            .into_iter()
            .flatten()
            .fold(f64::INFINITY, f64::min);
        if lower > upper {
            let span = [&n.exclusive_max, &n.max, &n.exclusive_min, &n.min]
                .into_iter()
                .flatten()
                .map(|s| s.span)
                .next()
                .unwrap_or_default();
            out.push((span, "the bounds leave no integer value".to_string()));
        }
    }
    if let Some(m) = &n.multiple_of
        && m.value.as_f64() <= 0.0
    {
        out.push((m.span, format!("`multiple-of={}` must be greater than 0", num(m.value))));
    }
    out
}

/// Why a numeric default violates the field's bounds, if it does.
fn number_default_violation(v: f64, n: &NumTy) -> Option<String> {
    let bound = |b: &Option<Sp<Num>>| b.as_ref().map(|b| b.value.as_f64());
    if let Some(m) = bound(&n.min).filter(|&m| v < m) {
        return Some(format!("below `min={m}`"));
    }
    if let Some(m) = bound(&n.max).filter(|&m| v > m) {
        return Some(format!("above `max={m}`"));
    }
    if let Some(m) = bound(&n.exclusive_min).filter(|&m| v <= m) {
        return Some(format!("not above `exclusive-min={m}`"));
    }
    if let Some(m) = bound(&n.exclusive_max).filter(|&m| v >= m) {
        return Some(format!("not below `exclusive-max={m}`"));
    }
    if let Some(e) = &n.enum_values
        && !e.values.is_empty()
        && !e.values.iter().any(|x| x.value.as_f64() == v)
    {
        return Some("not one of its `enum` values".to_string());
    }
    if let Some(m) = bound(&n.multiple_of).filter(|&m| m > 0.0) {
        let q = v / m;
        if (q - q.round()).abs() > 1e-9 * q.abs().max(1.0) {
            return Some(format!("not a multiple of `multiple-of={m}`"));
        }
    }
    None
}

/// Why a string default violates the field's constraints, if it does.
fn string_default_violation(v: &str, s: &StringTy) -> Option<String> {
    let len = v.chars().count() as u64;
    if let Some(m) = s.min_length.as_ref().filter(|m| len < m.value) {
        return Some(format!("shorter than `min-length={}`", m.value));
    }
    if let Some(m) = s.max_length.as_ref().filter(|m| len > m.value) {
        return Some(format!("longer than `max-length={}`", m.value));
    }
    if let Some(e) = &s.enum_values
        && !e.values.is_empty()
        && !e.values.iter().any(|x| x.value == v)
    {
        return Some("not one of its `enum` values".to_string());
    }
    if let Some(p) = &s.pattern
        && let Ok(re) = crate::runtime::validate::compile_pattern(&p.value)
        && re.is_match(v) == Ok(false)
    {
        return Some(format!("not matched by its `pattern` `{}`", p.value));
    }
    None
}

/// Contradictions of one type site: (span, message). `values` are the field's `default` and
/// `const`, each with its property name; each must be a value of the type.
fn problems(kind: &TyKind, values: &[(&str, &Sp<Literal>)]) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    match kind {
        TyKind::Integer(n) | TyKind::Number(n) => {
            out.extend(number_bounds(n, matches!(kind, TyKind::Integer(_))));
            if let Some(e) = &n.enum_values
                && e.values.is_empty()
            {
                out.push((e.span, "the `enum` lists no value".to_string()));
            }
        }
        TyKind::String(s) | TyKind::Cursor(s) => {
            if let (Some(lo), Some(hi)) = (&s.min_length, &s.max_length)
                && lo.value > hi.value
            {
                out.push((hi.span, format!("`min-length={}` is greater than `max-length={}`", lo.value, hi.value)));
            }
            if let Some(e) = &s.enum_values
                && e.values.is_empty()
            {
                out.push((e.span, "the `enum` lists no value".to_string()));
            }
        }
        TyKind::Array(a) => {
            if let (Some(lo), Some(hi)) = (&a.min_items, &a.max_items)
                && lo.value > hi.value
            {
                out.push((hi.span, format!("`min-items={}` is greater than `max-items={}`", lo.value, hi.value)));
            }
        }
        _ => {}
    }
    for (prop, d) in values {
        value_problems(kind, prop, d, &mut out);
    }
    out
}

/// Why `prop=VALUE` is not a value of `kind`, if it is not.
fn value_problems(kind: &TyKind, prop: &str, d: &Sp<Literal>, out: &mut Vec<(Span, String)>) {
    let shown = lit(&d.value);
    let wrong_type = |out: &mut Vec<(Span, String)>| {
        out.push((d.span, format!("`{prop}={shown}` is not a value of type {}", kind.keyword())));
    };
    match (kind, &d.value) {
        (TyKind::Integer(n), Literal::Int(i)) => number_default_violation(*i as f64, n),
        (TyKind::Integer(n), Literal::Float(f)) if f.fract() == 0.0 => number_default_violation(*f, n),
        (TyKind::Number(n), Literal::Int(i)) => number_default_violation(*i as f64, n),
        (TyKind::Number(n), Literal::Float(f)) => number_default_violation(*f, n),
        (TyKind::String(s) | TyKind::Cursor(s), Literal::String(v)) => string_default_violation(v, s),
        (TyKind::Timestamp, Literal::String(_)) | (TyKind::Boolean, Literal::Bool(_)) => None,
        // Lowering admits `#null` on nullable fields only, where it is always a value.
        (_, Literal::Null) => None,
        _ => {
            wrong_type(out);
            None
        }
    }
    .into_iter()
    .for_each(|why| out.push((d.span, format!("`{prop}={shown}` is {why}"))));
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    // A field's default belongs to the field's own type, not to its array items.
    let own = site.field.filter(|f| std::ptr::eq(&f.ty, site.ty));
    let mut values = Vec::new();
    if let Some(f) = own {
        values.extend(f.default.as_deref().map(|d| ("default", d)));
        values.extend(f.constant.as_deref().map(|c| ("const", c)));
    }
    let mut found = problems(&site.ty.kind, &values);
    // With `const`, the field has one value: a different default is never sent.
    if let Some((d, c)) = own.and_then(|f| f.default.as_ref().zip(f.constant.as_ref()))
        && d.value != c.value
    {
        found.push((d.span, format!("`default={}` differs from `const={}`", lit(&d.value), lit(&c.value))));
    }
    for (span, message) in found {
        out.push(
            site_finding(site, span, format!("`{}`: {message}", site.path))
                .help("make the constraints agree: a range, lengths and an enum that admit at least one value, and a default inside them"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::testkit::sites::*;
    use super::{RULE, problems};
    use crate::model::{ArrayTy, EnumValues, Literal, Num, NumTy, Span, StringTy, TyKind};

    fn n(min: Option<Num>, max: Option<Num>, xmin: Option<Num>, xmax: Option<Num>) -> NumTy {
        NumTy {
            min: min.map(sp),
            max: max.map(sp),
            exclusive_min: xmin.map(sp),
            exclusive_max: xmax.map(sp),
            ..NumTy::default()
        }
    }

    fn count(kind: &TyKind, default: Option<Literal>) -> usize {
        let d = default.map(sp);
        let values: Vec<_> = d.iter().map(|d| ("default", d)).collect();
        problems(kind, &values).len()
    }

    #[test]
    fn numeric_enums_and_constants() {
        let e = NumTy {
            enum_values: Some(crate::model::NumEnum { values: vec![sp(Num::Int(1)), sp(Num::Int(3))], span: Span::new(0, 0) }),
            ..NumTy::default()
        };
        let int = TyKind::Integer(Box::new(e.clone()));
        assert_eq!(count(&int, Some(Literal::Int(3))), 0);
        assert_eq!(count(&int, Some(Literal::Int(2))), 1);
        let none = TyKind::Integer(Box::new(NumTy { enum_values: Some(crate::model::NumEnum { values: vec![], span: Span::new(0, 0) }), ..NumTy::default() }));
        assert_eq!(count(&none, None), 1);
        let c = sp(Literal::String("circle".into()));
        let short = TyKind::String(Box::new(StringTy { max_length: Some(sp(3)), ..StringTy::default() }));
        assert_eq!(problems(&short, &[("const", &c)]).len(), 1);
        let mut f = field("kind", string());
        f.constant = Some(Box::new(c));
        f.default = Some(Box::new(sp(Literal::String("square".into()))));
        let t = tool("a_b", crate::model::Effect::Read, vec![f], None);
        assert_eq!(paths(&check(&RULE, catalog(vec![t], vec![]))), ["input.kind"]);
    }

    #[test]
    fn numeric_ranges() {
        use Num::{Float as F, Int as I};
        assert_eq!(count(&TyKind::Integer(Box::new(n(Some(I(5)), Some(I(1)), None, None))), None), 1);
        assert_eq!(count(&TyKind::Integer(Box::new(n(Some(I(1)), Some(I(1)), None, None))), None), 0);
        assert_eq!(count(&TyKind::Number(Box::new(n(Some(I(1)), None, None, Some(I(1))))), None), 1);
        assert_eq!(count(&TyKind::Number(Box::new(n(None, Some(I(1)), Some(I(1)), None))), None), 1);
        assert_eq!(count(&TyKind::Number(Box::new(n(None, None, Some(I(1)), Some(I(2))))), None), 0);
        assert_eq!(count(&TyKind::Integer(Box::new(n(None, None, Some(I(1)), Some(I(2))))), None), 1);
        assert_eq!(count(&TyKind::Integer(Box::new(n(Some(F(1.2)), Some(F(1.8)), None, None))), None), 1);
        let zero_multiple = NumTy { multiple_of: Some(sp(I(0))), ..NumTy::default() };
        assert_eq!(count(&TyKind::Integer(Box::new(zero_multiple)), None), 1);
    }

    #[test]
    fn lengths_items_and_empty_enum() {
        let s = StringTy {
            min_length: Some(sp(5)),
            max_length: Some(sp(4)),
            enum_values: Some(EnumValues { values: vec![], extensible: false, span: Span::new(0, 0) }),
            ..StringTy::default()
        };
        assert_eq!(count(&TyKind::String(Box::new(s.clone())), None), 2);
        assert_eq!(count(&TyKind::Cursor(Box::new(s)), None), 2);
        let a = ArrayTy { min_items: Some(sp(3)), max_items: Some(sp(2)), unique: false, items: Box::new(ty(TyKind::Boolean)), items_nullable: false };
        assert_eq!(count(&TyKind::Array(Box::new(a)), None), 1);
    }

    #[test]
    fn defaults() {
        let range = TyKind::Integer(Box::new(NumTy { multiple_of: Some(sp(Num::Int(5))), ..n(Some(Num::Int(1)), Some(Num::Int(50)), None, None) }));
        assert_eq!(count(&range, Some(Literal::Int(20))), 0);
        assert_eq!(count(&range, Some(Literal::Float(20.0))), 0);
        for bad in [Literal::Int(100), Literal::Int(0), Literal::Int(21), Literal::Float(2.5), Literal::String("20".into()), Literal::Bool(true)] {
            assert_eq!(count(&range, Some(bad.clone())), 1, "{bad:?}");
        }
        let number = TyKind::Number(Box::new(n(None, None, Some(Num::Int(0)), Some(Num::Float(1.0)))));
        assert_eq!(count(&number, Some(Literal::Float(0.5))), 0);
        assert_eq!(count(&number, Some(Literal::Int(0))), 1);
        let s = TyKind::String(Box::new(StringTy {
            max_length: Some(sp(4)),
            pattern: Some(sp("^[a-z]+$".to_string())),
            enum_values: Some(EnumValues { values: vec![sp("open".into()), sp("Shut".into())], extensible: false, span: Span::new(0, 0) }),
            ..StringTy::default()
        }));
        assert_eq!(count(&s, Some(Literal::String("open".into()))), 0);
        for bad in ["opened", "done", "Shut"] {
            assert_eq!(count(&s, Some(Literal::String(bad.into()))), 1, "{bad}");
        }
        assert_eq!(count(&TyKind::Boolean, Some(Literal::Int(1))), 1);
        assert_eq!(count(&TyKind::Boolean, Some(Literal::Bool(false))), 0);
        assert_eq!(count(&array(TyKind::Boolean, Some(1)), Some(Literal::Bool(false))), 1);
    }

    #[test]
    fn a_fields_default_is_not_checked_against_its_items() {
        let mut f = field("flags", array(TyKind::Boolean, Some(1)));
        f.default = Some(Box::new(sp(Literal::Bool(true))));
        let t = tool("a_b", crate::model::Effect::Read, vec![f], None);
        assert_eq!(paths(&check(&RULE, catalog(vec![t], vec![]))), ["input.flags"]);
    }
}
