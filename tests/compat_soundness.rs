//! Soundness of the classifier against a real JSON Schema validator: random catalogs, random
//! mutations. Whenever the classifier finds no major change on the input side, every
//! argument object valid under the old input schema must be valid under the new one; and
//! whenever it finds no major change on the output side, every result valid under the new
//! output schema must be accepted by an old client (the old output schema read as a
//! tolerant reader: unknown properties ignored, `extensible=#true` enums open).

mod support;

use catalogc::compat::{self, Class, Side};
use catalogc::model::*;
use catalogc::testing::sp;
use proptest::prelude::*;
use serde_json::{Value, json};
use support::proptest_config;

/// SplitMix64: the catalog, the mutation and the instances all come from one proptest seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

const NAMES: &[&str] = &["a", "b", "c", "d", "e"];
const ENUM_POOL: &[&str] = &["a", "b", "c", "dd", "eee"];
const PATTERNS: &[&str] = &["^[a-z]+$", "^[0-9]+$", "^[a-z0-9]*$"];
const FORMATS: &[Format] = &[
    Format::Date,
    Format::DateTime,
    Format::Uuid,
    Format::Email,
    Format::Uri,
    Format::Ipv4,
    Format::Ipv6,
    Format::Hostname,
    Format::Time,
];
const UNITS: &[Unit] = &[Unit::Ms, Unit::S, Unit::Minor];

fn opt_u64(r: &mut Rng, lo: i64, hi: i64) -> Option<Sp<u64>> {
    r.chance(1, 2).then(|| sp(r.int(lo, hi) as u64))
}

fn gen_string(r: &mut Rng) -> StringTy {
    let mut s = StringTy {
        min_length: opt_u64(r, 0, 3),
        max_length: None,
        pattern: None,
        format: None,
        enum_values: None,
    };
    let min = s.min_length.as_ref().map_or(0, |m| m.value as i64);
    if r.chance(1, 2) {
        s.max_length = Some(sp(r.int(min, min + 8) as u64));
    }
    match r.below(4) {
        0 => s.pattern = Some(sp(r.pick(PATTERNS).to_string())),
        1 => s.format = Some(sp(*r.pick(FORMATS))),
        2 => s.enum_values = Some(gen_enum(r)),
        _ => {}
    }
    s
}

fn gen_enum(r: &mut Rng) -> EnumValues {
    let mut values: Vec<Sp<String>> = Vec::new();
    for _ in 0..r.int(1, 3) {
        let v = r.pick(ENUM_POOL).to_string();
        if !values.iter().any(|x| x.value == v) {
            values.push(sp(v));
        }
    }
    EnumValues {
        values,
        extensible: r.chance(1, 3),
        span: Span::default(),
    }
}

fn gen_num(r: &mut Rng) -> NumTy {
    let mut n = NumTy::default();
    if r.chance(1, 2) {
        n.min = Some(sp(Num::Int(r.int(-5, 5))));
    }
    if r.chance(1, 2) {
        let lo = n.min.as_ref().map_or(-5, |m| m.value.as_f64() as i64);
        n.max = Some(sp(Num::Int(r.int(lo, lo + 30))));
    }
    if r.chance(1, 6) {
        n.exclusive_min = Some(sp(Num::Int(r.int(-6, 4))));
    }
    if r.chance(1, 6) {
        n.exclusive_max = Some(sp(Num::Int(r.int(6, 40))));
    }
    if r.chance(1, 4) {
        n.multiple_of = Some(sp(Num::Int(*r.pick(&[2, 3, 4, 6]))));
    }
    if r.chance(1, 4) {
        n.unit = Some(sp(*r.pick(UNITS)));
    }
    if r.chance(1, 5) {
        n.enum_values = Some(gen_num_enum(r));
    }
    n
}

/// An integer `enum` of one to three values of a small pool.
fn gen_num_enum(r: &mut Rng) -> NumEnum {
    let mut values: Vec<Sp<Num>> = Vec::new();
    for _ in 0..r.int(1, 3) {
        let v = Num::Int(*r.pick(&[-2, 0, 1, 2, 3, 6, 12]));
        if !values.iter().any(|x| x.value == v) {
            values.push(sp(v));
        }
    }
    NumEnum {
        values,
        span: Span::default(),
    }
}

/// A `const=` for a field of `kind`, when the kind takes one (strings, integers, booleans).
fn gen_const(r: &mut Rng, kind: &TyKind) -> Option<Sp<Literal>> {
    Some(sp(match kind {
        TyKind::String(_) => Literal::String(r.pick(ENUM_POOL).to_string()),
        TyKind::Integer(_) => Literal::Int(r.int(-2, 6)),
        TyKind::Boolean => Literal::Bool(r.chance(1, 2)),
        _ => return None,
    }))
}

fn ty(kind: TyKind) -> Ty {
    Ty {
        kind,
        span: Span::default(),
    }
}

fn gen_kind(r: &mut Rng, depth: u32, types: &[String]) -> TyKind {
    let choices = if depth == 0 { 7 } else { 12 };
    match r.below(choices) {
        0 => TyKind::String(Box::new(gen_string(r))),
        1 => TyKind::Integer(Box::new(gen_num(r))),
        2 => TyKind::Number(Box::new(gen_num(r))),
        3 => TyKind::Boolean,
        4 => TyKind::Cursor(Box::new(StringTy {
            max_length: opt_u64(r, 4, 600),
            ..StringTy::default()
        })),
        5 => TyKind::Timestamp,
        6 => TyKind::Json,
        7 => {
            let min = r.chance(1, 3).then(|| sp(r.int(0, 2) as u64));
            let lo = min.as_ref().map_or(0, |m| m.value as i64);
            TyKind::Map(Box::new(MapTy {
                min_entries: min,
                max_entries: r.chance(1, 2).then(|| sp(r.int(lo, lo + 3) as u64)),
                // Any type but maps and unions (not map values in the format).
                values: Box::new(ty(loop {
                    let k = gen_kind(r, depth - 1, types);
                    if MapTy::admits(&k) {
                        break k;
                    }
                })),
                values_nullable: r.chance(1, 4),
            }))
        }
        8 => {
            let min = r.chance(1, 2).then(|| sp(r.int(0, 2) as u64));
            let lo = min.as_ref().map_or(0, |m| m.value as i64);
            TyKind::Array(Box::new(ArrayTy {
                min_items: min,
                max_items: r.chance(1, 2).then(|| sp(r.int(lo, lo + 3) as u64)),
                unique: r.chance(1, 4),
                items_nullable: r.chance(1, 4),
                items: Box::new(ty(gen_kind(r, depth - 1, types))),
            }))
        }
        9 if !types.is_empty() => TyKind::Named(sp(r.pick(types).clone())),
        11 => TyKind::Union(Box::new(UnionTy {
            discriminator: sp(r.pick(DISCRIMINATORS).to_string()),
            variants: (0..r.int(2, 3) as usize)
                .map(|i| gen_variant(r, VARIANTS[i], depth - 1, types))
                .collect(),
        })),
        _ => TyKind::Object(Object {
            fields: gen_fields(r, depth - 1, types, 3),
            span: Span::default(),
            extra: r
                .chance(1, 3)
                .then(|| gen_extra(r, depth - 1, types))
                .map(Box::new),
        }),
    }
}

/// The `extra` of an open object: any type a map's values may have (structured ones below
/// `depth`), maybe nullable, and count bounds.
fn gen_extra(r: &mut Rng, depth: u32, types: &[String]) -> Extra {
    let min = r.chance(1, 4).then(|| sp(r.int(0, 2) as u64));
    let lo = min.as_ref().map_or(0, |m| m.value as i64);
    Extra {
        values: Box::new(ty(loop {
            let k = gen_kind(r, depth, types);
            if Extra::admits(&k) {
                break k;
            }
        })),
        nullable: r.chance(1, 4),
        min_entries: min,
        max_entries: r.chance(1, 3).then(|| sp(r.int(lo, lo + 4) as u64)),
    }
}

/// Union discriminators: never one of [`NAMES`], so no variant field takes its name.
const DISCRIMINATORS: &[&str] = &["type", "kind"];
const VARIANTS: &[&str] = &["x", "y", "z", "w"];

fn gen_variant(r: &mut Rng, name: &str, depth: u32, types: &[String]) -> Variant {
    Variant {
        name: sp(name.to_string()),
        doc: r.chance(1, 3).then(|| sp(format!("The {name} shape."))),
        fields: Object {
            fields: gen_fields(r, depth, types, 2),
            span: Span::default(),
            extra: None,
        },
    }
}

fn gen_field(r: &mut Rng, name: &str, depth: u32, types: &[String]) -> Field {
    let kind = gen_kind(r, depth, types);
    let nullable = r.chance(1, 4);
    // Lowering refuses `const` on a nullable field.
    let constant = if !nullable && r.chance(1, 5) {
        gen_const(r, &kind)
    } else {
        None
    };
    Field {
        name: sp(name.to_string()),
        ty: ty(kind),
        required: r.chance(1, 2),
        nullable,
        default: None,
        sensitive: false,
        deprecated: false,
        doc: None,
        title: None,
        examples: Vec::new(),
        constant: constant.map(Box::new),
        header: gen_header(r).map(Box::new),
        span: Span::default(),
    }
}

/// Header names that collide ignoring case, so renames of case only are generated too.
const HEADERS: &[&str] = &["H-a", "h-a", "H-b"];

fn gen_header(r: &mut Rng) -> Option<Sp<String>> {
    r.chance(1, 4).then(|| sp(r.pick(HEADERS).to_string()))
}

fn gen_fields(r: &mut Rng, depth: u32, types: &[String], max: u64) -> Vec<Field> {
    let n = r.below(max + 1);
    let mut out: Vec<Field> = Vec::new();
    for _ in 0..n {
        let name = *r.pick(NAMES);
        if !out.iter().any(|f| f.name.value == name) {
            out.push(gen_field(r, name, depth, types));
        }
    }
    out
}

fn gen_catalog(r: &mut Rng) -> Catalog {
    let mut types: Vec<TypeDef> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for i in 0..r.below(3) {
        // A type may only use earlier types: no recursion.
        let fields = gen_fields(r, 1, &names, 3);
        let name = format!("T{i}");
        types.push(TypeDef {
            name: sp(name.clone()),
            doc: None,
            fields,
            span: Span::default(),
        });
        names.push(name);
    }
    let input = Object {
        fields: gen_fields(r, 2, &names, 4),
        span: Span::default(),
        extra: None,
    };
    let output = Some(Object {
        fields: gen_fields(r, 2, &names, 4),
        span: Span::default(),
        extra: None,
    });
    let tool = Tool {
        input,
        output,
        ..Tool::new("thing_get", "1.0.0", Effect::Read)
    };
    Catalog {
        file: catalogc::diag::FileId(0),
        name: sp("fx".to_string()),
        version: sp("1.0.0".to_string()),
        summary: None,
        types,
        tools: vec![tool],
        left_out: Vec::new(),
        span: Span::default(),
    }
}

/// Changes one attribute of a type (or of what it contains).
fn tweak_ty(r: &mut Rng, t: &mut Ty, cat_types: &[TypeDef], names: &[String]) {
    match &mut t.kind {
        TyKind::String(s) | TyKind::Cursor(s) => match r.below(7) {
            0 => s.min_length = opt_u64(r, 0, 4),
            1 => s.max_length = opt_u64(r, 0, 10),
            2 => s.pattern = r.chance(1, 2).then(|| sp(r.pick(PATTERNS).to_string())),
            3 => s.format = r.chance(1, 2).then(|| sp(*r.pick(FORMATS))),
            4 => s.enum_values = r.chance(1, 2).then(|| gen_enum(r)),
            5 => {
                if let Some(e) = &mut s.enum_values {
                    if r.chance(1, 2) && e.values.len() > 1 {
                        let i = r.below(e.values.len() as u64) as usize;
                        e.values.remove(i);
                    } else {
                        let v = r.pick(ENUM_POOL).to_string();
                        if !e.values.iter().any(|x| x.value == v) {
                            e.values.push(sp(v));
                        }
                    }
                }
            }
            _ => {
                if let Some(e) = &mut s.enum_values {
                    e.extensible = !e.extensible;
                }
            }
        },
        TyKind::Integer(n) | TyKind::Number(n) => {
            let v = |r: &mut Rng, lo, hi| r.chance(3, 4).then(|| sp(Num::Int(r.int(lo, hi))));
            match r.below(7) {
                6 => match &mut n.enum_values {
                    Some(e) if r.chance(1, 2) && e.values.len() > 1 => {
                        let i = r.below(e.values.len() as u64) as usize;
                        e.values.remove(i);
                    }
                    Some(e) if r.chance(1, 2) => {
                        let v = Num::Int(*r.pick(&[-2, 0, 1, 2, 3, 6, 12]));
                        if !e.values.iter().any(|x| x.value == v) {
                            e.values.push(sp(v));
                        }
                    }
                    _ => n.enum_values = r.chance(1, 2).then(|| gen_num_enum(r)),
                },
                0 => n.min = v(r, -6, 6),
                1 => n.max = v(r, -6, 40),
                2 => n.exclusive_min = v(r, -6, 6),
                3 => n.exclusive_max = v(r, 0, 40),
                4 => {
                    n.multiple_of = r
                        .chance(3, 4)
                        .then(|| sp(Num::Int(*r.pick(&[1, 2, 3, 4, 6]))))
                }
                _ => n.unit = r.chance(1, 2).then(|| sp(*r.pick(UNITS))),
            }
        }
        TyKind::Array(a) => match r.below(5) {
            0 => a.min_items = opt_u64(r, 0, 3),
            1 => a.max_items = opt_u64(r, 0, 5),
            2 => a.unique = !a.unique,
            3 => a.items_nullable = !a.items_nullable,
            _ => tweak_ty(r, &mut a.items, cat_types, names),
        },
        TyKind::Object(o) => match r.below(4) {
            0 => {
                o.extra = if o.extra.is_some() {
                    None
                } else {
                    Some(Box::new(gen_extra(r, 1, names)))
                }
            }
            1 if o.extra.is_some() => {
                if let Some(x) = &mut o.extra {
                    match r.below(4) {
                        0 => x.min_entries = opt_u64(r, 0, 2),
                        1 => x.max_entries = opt_u64(r, 0, 5),
                        2 => x.nullable = !x.nullable,
                        _ => tweak_ty(r, &mut x.values, cat_types, names),
                    }
                }
            }
            _ => mutate_fields(r, &mut o.fields, cat_types, names),
        },
        // Inlining a named type is an equivalent rewrite.
        TyKind::Named(n) => {
            let fields = cat_types
                .iter()
                .find(|t| t.name.value == n.value)
                .map(|t| t.fields.clone());
            t.kind = TyKind::Object(Object {
                fields: fields.unwrap_or_default(),
                span: Span::default(),
                extra: None,
            });
        }
        TyKind::Map(m) => match r.below(4) {
            0 => m.min_entries = opt_u64(r, 0, 3),
            1 => m.max_entries = opt_u64(r, 0, 5),
            2 => m.values_nullable = !m.values_nullable,
            _ => tweak_ty(r, &mut m.values, cat_types, names),
        },
        TyKind::Union(u) => match r.below(5) {
            0 => {
                let name = *r.pick(VARIANTS);
                if !u.variants.iter().any(|v| v.name.value == name) {
                    u.variants.push(gen_variant(r, name, 1, names));
                }
            }
            1 if u.variants.len() > 2 => {
                let i = r.below(u.variants.len() as u64) as usize;
                u.variants.remove(i);
            }
            2 => u.discriminator = sp(r.pick(DISCRIMINATORS).to_string()),
            3 => {
                let i = r.below(u.variants.len() as u64) as usize;
                let v = &mut u.variants[i];
                v.doc = match v.doc {
                    Some(_) => None,
                    None => Some(sp(format!("The {} shape, renamed.", v.name.value))),
                };
            }
            _ => {
                let i = r.below(u.variants.len() as u64) as usize;
                mutate_fields(r, &mut u.variants[i].fields.fields, cat_types, names);
            }
        },
        TyKind::Boolean | TyKind::Timestamp | TyKind::Json => t.kind = gen_kind(r, 0, names),
    }
}

fn mutate_fields(r: &mut Rng, fields: &mut Vec<Field>, cat_types: &[TypeDef], names: &[String]) {
    match r.below(6) {
        0 => {
            let name = *r.pick(NAMES);
            if !fields.iter().any(|f| f.name.value == name) {
                fields.push(gen_field(r, name, 1, names));
            }
        }
        1 if !fields.is_empty() => {
            let i = r.below(fields.len() as u64) as usize;
            fields.remove(i);
        }
        2 if !fields.is_empty() => {
            let i = r.below(fields.len() as u64) as usize;
            fields[i].required = !fields[i].required;
        }
        3 if !fields.is_empty() => {
            let i = r.below(fields.len() as u64) as usize;
            fields[i].ty = ty(gen_kind(r, 1, names));
        }
        4 if !fields.is_empty() && r.chance(1, 2) => {
            let i = r.below(fields.len() as u64) as usize;
            fields[i].header = gen_header(r).map(Box::new);
        }
        4 if !fields.is_empty() && r.chance(1, 3) => {
            let i = r.below(fields.len() as u64) as usize;
            let f = &mut fields[i];
            f.constant = if f.constant.is_none() && !f.nullable {
                gen_const(r, &f.ty.kind).map(Box::new)
            } else {
                None
            };
        }
        4 if !fields.is_empty() => {
            let i = r.below(fields.len() as u64) as usize;
            fields[i].nullable = !fields[i].nullable;
            if fields[i].nullable {
                fields[i].constant = None;
            }
        }
        _ if !fields.is_empty() => {
            let i = r.below(fields.len() as u64) as usize;
            tweak_ty(r, &mut fields[i].ty, cat_types, names);
        }
        _ => {}
    }
}

fn mutate(r: &mut Rng, cat: &Catalog) -> Catalog {
    let mut new = cat.clone();
    let names: Vec<String> = cat.types.iter().map(|t| t.name.value.clone()).collect();
    let types = cat.types.clone();
    for _ in 0..r.int(1, 2) {
        match r.below(5) {
            0 | 1 => mutate_fields(r, &mut new.tools[0].input.fields, &types, &names),
            2 | 3 => {
                if let Some(o) = &mut new.tools[0].output {
                    mutate_fields(r, &mut o.fields, &types, &names)
                }
            }
            _ if !new.types.is_empty() => {
                // Only fields that use earlier types, so the edit cannot make recursion.
                let i = r.below(new.types.len() as u64) as usize;
                let earlier = &names[..i];
                let mut fields = std::mem::take(&mut new.types[i].fields);
                mutate_fields(r, &mut fields, &types[..i], earlier);
                new.types[i].fields = fields;
            }
            _ => {}
        }
    }
    new
}

// ---- instances ------------------------------------------------------------------------

fn sample_format(f: Format) -> &'static str {
    match f {
        Format::Date => "2024-02-29",
        Format::DateTime => "2024-02-29T10:00:00Z",
        Format::Uuid => "123e4567-e89b-12d3-a456-426614174000",
        Format::Email => "a@example.com",
        Format::Uri => "https://example.com/x",
        Format::Ipv4 => "192.0.2.1",
        Format::Ipv6 => "2001:db8::1",
        Format::Hostname => "api.example.com",
        Format::Time => "09:30:00Z",
    }
}

/// An item or entry count within the bounds, at most 4 over the least.
fn gen_count(r: &mut Rng, min: &Option<Sp<u64>>, max: &Option<Sp<u64>>) -> u64 {
    let min = min.as_ref().map_or(0, |m| m.value);
    let max = max.as_ref().map_or(min + 3, |m| m.value).min(min + 4);
    length(r, min, max.max(min))
}

/// A length in `[lo, hi]`, often at an end.
fn length(r: &mut Rng, lo: u64, hi: u64) -> u64 {
    match r.below(3) {
        0 => lo,
        1 => hi,
        _ => r.int(lo as i64, hi as i64) as u64,
    }
}

fn gen_string_value(r: &mut Rng, s: &StringTy, default_max: Option<u64>) -> Value {
    if let Some(e) = &s.enum_values {
        return json!(r.pick(&e.values).value.clone());
    }
    if let Some(f) = &s.format {
        return json!(sample_format(f.value));
    }
    let min = s.min_length.as_ref().map_or(0, |m| m.value);
    let max = s
        .max_length
        .as_ref()
        .map(|m| m.value)
        .or(default_max)
        .unwrap_or(min + 12);
    let alphabet: &[u8] = match s.pattern.as_ref().map(|p| p.value.as_str()) {
        Some("^[0-9]+$") => b"0123456789",
        Some("^[a-z]+$") => b"abcxyz",
        _ => b"ab9z",
    };
    let n = length(r, min, max.max(min));
    json!(
        (0..n)
            .map(|_| *r.pick(alphabet) as char)
            .collect::<String>()
    )
}

fn gen_number(r: &mut Rng, n: &NumTy, integer: bool) -> Option<Value> {
    if let Some(e) = n.enum_values.as_ref().filter(|e| !e.values.is_empty()) {
        return Some(match r.pick(&e.values).value {
            Num::Int(i) => json!(i),
            Num::Float(f) => json!(f),
        });
    }
    let mut lo = n.min.as_ref().map_or(-1000.0, |m| m.value.as_f64());
    let mut hi = n.max.as_ref().map_or(1000.0, |m| m.value.as_f64());
    if let Some(e) = &n.exclusive_min {
        lo = lo.max(e.value.as_f64() + if integer { 1.0 } else { 0.5 });
    }
    if let Some(e) = &n.exclusive_max {
        hi = hi.min(e.value.as_f64() - if integer { 1.0 } else { 0.5 });
    }
    if let Some(m) = &n.multiple_of {
        let m = m.value.as_f64();
        let (a, b) = ((lo / m).ceil() as i64, (hi / m).floor() as i64);
        if a > b {
            return None;
        }
        let k = match r.below(3) {
            0 => a,
            1 => b,
            _ => r.int(a, b),
        };
        return Some(json!(k * m as i64));
    }
    let (a, b) = (lo.ceil() as i64, hi.floor() as i64);
    if a > b {
        return None;
    }
    let v = match r.below(4) {
        0 => a,
        1 => b,
        _ => r.int(a, b),
    };
    if !integer && r.chance(1, 3) && (v as f64 + 0.5) <= hi {
        return Some(json!(v as f64 + 0.5));
    }
    Some(json!(v))
}

fn gen_value(r: &mut Rng, cat: &Catalog, t: &Ty, depth: u32) -> Option<Value> {
    if depth > 12 {
        return None;
    }
    Some(match &t.kind {
        TyKind::String(s) => gen_string_value(r, s, None),
        TyKind::Cursor(s) => gen_string_value(r, s, Some(CURSOR_DEFAULT_MAX_LENGTH)),
        TyKind::Timestamp => json!(sample_format(Format::DateTime)),
        TyKind::Boolean => json!(r.chance(1, 2)),
        TyKind::Integer(n) => gen_number(r, n, true)?,
        TyKind::Number(n) => gen_number(r, n, false)?,
        TyKind::Array(a) => {
            let n = gen_count(r, &a.min_items, &a.max_items);
            let items: Option<Vec<Value>> = (0..n)
                .map(|_| {
                    if a.items_nullable && r.chance(1, 3) {
                        Some(Value::Null)
                    } else {
                        gen_value(r, cat, &a.items, depth + 1)
                    }
                })
                .collect();
            Value::Array(items?)
        }
        TyKind::Object(o) => {
            let mut obj = gen_object(r, cat, &o.fields, depth)?;
            if let (Some(x), Value::Object(m)) = (&o.extra, &mut obj) {
                // Extra keys may be names a later version declares as fields.
                for _ in 0..r.below(3) {
                    let key = *r.pick(&["a", "b", "c", "x1", "x2"]);
                    if !m.contains_key(key) {
                        let v = if x.nullable && r.chance(1, 3) {
                            Value::Null
                        } else {
                            gen_value(r, cat, &x.values, depth + 1)?
                        };
                        m.insert(key.to_string(), v);
                    }
                }
            }
            obj
        }
        TyKind::Map(m) => {
            let n = gen_count(r, &m.min_entries, &m.max_entries);
            let mut entries = serde_json::Map::new();
            for i in 0..n {
                let v = if m.values_nullable && r.chance(1, 3) {
                    Value::Null
                } else {
                    gen_value(r, cat, &m.values, depth + 1)?
                };
                entries.insert(format!("k{i}"), v);
            }
            Value::Object(entries)
        }
        TyKind::Json => r
            .pick(&[
                json!(null),
                json!(1.5),
                json!("x"),
                json!([true]),
                json!({"k": {}}),
            ])
            .clone(),
        TyKind::Named(n) => gen_object(
            r,
            cat,
            cat.type_def(&n.value).map_or(&[], |t| &t.fields),
            depth,
        )?,
        TyKind::Union(u) => {
            let v = &u.variants[r.below(u.variants.len() as u64) as usize];
            let mut obj = gen_object(r, cat, &v.fields.fields, depth)?;
            if let Value::Object(m) = &mut obj {
                m.insert(u.discriminator.value.clone(), json!(v.name.value));
            }
            obj
        }
    })
}

fn gen_object(r: &mut Rng, cat: &Catalog, fields: &[Field], depth: u32) -> Option<Value> {
    let mut m = serde_json::Map::new();
    for f in fields {
        if f.required || r.chance(1, 2) {
            let v = if f.nullable && r.chance(1, 3) {
                Value::Null
            } else if let Some(c) = &f.constant {
                match &c.value {
                    Literal::String(s) => json!(s),
                    Literal::Int(i) => json!(i),
                    Literal::Float(x) => json!(x),
                    Literal::Bool(b) => json!(b),
                    Literal::Null => Value::Null,
                }
            } else {
                gen_value(r, cat, &f.ty, depth + 1)?
            };
            m.insert(f.name.value.clone(), v);
        }
    }
    Some(Value::Object(m))
}

// ---- schemas --------------------------------------------------------------------------

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("catalogc's schemas compile")
}

/// An old client reading output: unknown properties ignored (a map's value schema stays).
fn tolerant(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("additionalProperties") == Some(&Value::Bool(false)) {
                m.remove("additionalProperties");
            }
            m.values_mut().for_each(tolerant);
        }
        Value::Array(a) => a.iter_mut().for_each(tolerant),
        _ => {}
    }
}

/// `extensible=#true` enums promise clients accept later values: the reader's view is open.
fn open_extensible(cat: &mut Catalog) {
    fn ty(t: &mut Ty) {
        match &mut t.kind {
            TyKind::String(s) | TyKind::Cursor(s)
                if s.enum_values.as_ref().is_some_and(|e| e.extensible) =>
            {
                s.enum_values = None;
            }
            TyKind::Array(a) => ty(&mut a.items),
            TyKind::Map(m) => ty(&mut m.values),
            TyKind::Object(o) => {
                o.fields.iter_mut().for_each(|f| ty(&mut f.ty));
                if let Some(x) = &mut o.extra {
                    ty(&mut x.values);
                }
            }
            TyKind::Union(u) => u
                .variants
                .iter_mut()
                .for_each(|v| v.fields.fields.iter_mut().for_each(|f| ty(&mut f.ty))),
            _ => {}
        }
    }
    for t in &mut cat.types {
        t.fields.iter_mut().for_each(|f| ty(&mut f.ty));
    }
    for tool in &mut cat.tools {
        tool.input.fields.iter_mut().for_each(|f| ty(&mut f.ty));
        if let Some(o) = &mut tool.output {
            o.fields.iter_mut().for_each(|f| ty(&mut f.ty));
        }
    }
}

/// The `Mcp-Param-*` headers a client derives from `schema` for `instance`: every
/// `x-mcp-header` property reached through `properties` alone whose value is present, as
/// (lowercased name, value), sorted. What intermediaries and the server see on the wire.
fn mirrored(schema: &Value, instance: &Value) -> Vec<(String, String)> {
    fn walk(schema: &Value, instance: &Value, out: &mut Vec<(String, String)>) {
        let (Some(props), Some(obj)) = (
            schema.get("properties").and_then(Value::as_object),
            instance.as_object(),
        ) else {
            return;
        };
        for (name, sub) in props {
            let Some(v) = obj.get(name) else { continue };
            if let Some(h) = sub.get("x-mcp-header").and_then(Value::as_str) {
                let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                out.push((h.to_ascii_lowercase(), text));
            }
            walk(sub, v, out);
        }
    }
    let mut out = Vec::new();
    walk(schema, instance, &mut out);
    out.sort();
    out
}

fn no_major(changes: &[compat::Change], side: Side) -> bool {
    !changes
        .iter()
        .any(|c| c.kind.side() == Some(side) && c.class() == Class::Major)
}

const INSTANCES: usize = 24;

/// Returns how many instances were checked on each side.
fn check(seed: u64) -> Result<(usize, usize), TestCaseError> {
    let mut r = Rng(seed);
    let old = gen_catalog(&mut r);
    let new = mutate(&mut r, &old);
    let changes = compat::compare_tools(&old, &old.tools[0], &new, &new.tools[0]);
    let mut checked = (0, 0);

    if no_major(&changes, Side::Input) {
        let old_schema = catalogc::contract::schema::input_schema(&old, &old.tools[0]);
        let new_schema = catalogc::contract::schema::input_schema(&new, &new.tools[0]);
        let old_v = validator(&old_schema);
        let new_v = validator(&new_schema);
        for _ in 0..INSTANCES {
            let Some(inst) = gen_object(&mut r, &old, &old.tools[0].input.fields, 0) else {
                continue;
            };
            if !old_v.is_valid(&inst) {
                continue;
            }
            checked.0 += 1;
            prop_assert!(
                new_v.is_valid(&inst),
                "input counterexample (seed {seed}): {inst}\nchanges: {:?}\nold: {}\nnew: {}",
                changes.iter().map(|c| c.kind.id()).collect::<Vec<_>>(),
                old_schema,
                new_schema,
            );
            // The headers an old client sends are the ones the new server expects.
            prop_assert_eq!(
                mirrored(&old_schema, &inst),
                mirrored(&new_schema, &inst),
                "header counterexample (seed {}): {}\nchanges: {:?}",
                seed,
                inst,
                changes.iter().map(|c| c.kind.id()).collect::<Vec<_>>()
            );
        }
    }
    if no_major(&changes, Side::Output) {
        let mut reader = old.clone();
        open_extensible(&mut reader);
        let mut old_schema = catalogc::contract::schema::output_schema(&reader, &reader.tools[0])
            .unwrap_or(json!({}));
        tolerant(&mut old_schema);
        let old_v = validator(&old_schema);
        let new_v = validator(
            &catalogc::contract::schema::output_schema(&new, &new.tools[0]).unwrap_or(json!({})),
        );
        let fields = new.tools[0]
            .output
            .as_ref()
            .map_or(&[][..], |o| &o.fields[..]);
        for _ in 0..INSTANCES {
            let Some(inst) = gen_object(&mut r, &new, fields, 0) else {
                continue;
            };
            if !new_v.is_valid(&inst) {
                continue;
            }
            checked.1 += 1;
            prop_assert!(
                old_v.is_valid(&inst),
                "output counterexample (seed {seed}): {inst}\nchanges: {:?}\nold (reader view): {old_schema}\nnew: {}",
                changes.iter().map(|c| c.kind.id()).collect::<Vec<_>>(),
                catalogc::contract::schema::output_schema(&new, &new.tools[0]).unwrap_or(json!({})),
            );
        }
    }
    Ok(checked)
}

proptest! {
    #![proptest_config(proptest_config(3000))]

    #[test]
    fn non_breaking_verdicts_keep_every_old_instance_valid(seed in any::<u64>()) {
        check(seed)?;
    }
}

/// Seeds the property once failed on, kept so they run on every build.
#[test]
fn past_counterexamples_stay_sound() {
    // An open object's extra became a declared field with `header=`: old clients send the
    // value as an extra and mirror no header (was classified minor).
    check(15_100_463_737_292_459_504).expect("sound");
}

/// The property is not vacuous: many mutations are classified non-breaking and many
/// instances get checked.
#[test]
fn the_property_checks_real_instances() {
    let (mut inputs, mut outputs, mut non_breaking) = (0, 0, 0);
    for seed in 0..400u64 {
        let (i, o) = check(seed.wrapping_mul(0x2545_F491_4F6C_DD1D)).expect("sound");
        inputs += i;
        outputs += o;
        non_breaking += usize::from(i + o > 0);
    }
    assert!(non_breaking > 100, "{non_breaking}");
    assert!(inputs > 2000 && outputs > 2000, "{inputs} {outputs}");
}

/// The union mutations reach every variant kind, so the property above covers each of them.
#[test]
fn union_mutations_reach_every_variant_kind() {
    use compat::Kind::*;
    let want = [
        InputVariantAdded,
        OutputVariantAdded,
        InputVariantRemoved,
        OutputVariantRemoved,
        InputDiscriminatorChanged,
        OutputDiscriminatorChanged,
    ];
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..50_000u64 {
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let old = gen_catalog(&mut r);
        let new = mutate(&mut r, &old);
        let changes = compat::compare_tools(&old, &old.tools[0], &new, &new.tools[0]);
        seen.extend(changes.iter().map(|c| c.kind).filter(|k| want.contains(k)));
        if seen.len() == want.len() {
            return;
        }
    }
    panic!("union mutations reached only {seen:?}");
}

/// Comparing a random catalog with itself finds nothing.
#[test]
fn random_catalogs_equal_themselves() {
    for seed in 0..500u64 {
        let c = gen_catalog(&mut Rng(seed));
        assert!(
            compat::compare_tools(&c, &c.tools[0], &c, &c.tools[0]).is_empty(),
            "seed {seed}"
        );
    }
}

/// Why `output-pattern-changed` and `output-format-changed` are major although docs/compatibility.md's
/// table says minor: the fixture pairs hold a result the new server may produce that the old
/// client's schema rejects. Kept as the counterexamples to the table's verdict.
#[test]
fn output_pattern_and_format_changes_are_breaking_counterexamples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compat");
    let load = |kind: &str, file: &str| {
        let path = dir.join(kind).join(file);
        let text = std::fs::read_to_string(&path).expect("fixture");
        let mut loaded = catalogc::project::load_source(path, text);
        loaded.project.catalogs.remove(0)
    };
    for (kind, produced) in [
        ("output-pattern-changed", "42"),
        (
            "output-format-changed",
            "123e4567-e89b-12d3-a456-426614174000",
        ),
    ] {
        let (old, new) = (load(kind, "old.kdl"), load(kind, "new.kdl"));
        let schema = |c: &Catalog| {
            catalogc::contract::schema::output_schema(c, &c.tools[0]).expect("output")
        };
        let result = json!({ "a": produced });
        assert!(validator(&schema(&new)).is_valid(&result), "{kind}");
        let mut reader = schema(&old);
        tolerant(&mut reader);
        assert!(!validator(&reader).is_valid(&result), "{kind}");
        let changes = compat::compare_tools(&old, &old.tools[0], &new, &new.tools[0]);
        assert!(changes.iter().all(|c| c.class() == Class::Major), "{kind}");
    }
}
