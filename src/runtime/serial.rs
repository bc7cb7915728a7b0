//! What generated `Serialize` and `Deserialize` impls delegate to. Generated types state
//! only their field names and kinds; the work is done once here, so a catalog of 1,000 tools
//! does not make its users type-check 1,000 copies of serde's derived visitors.
//!
//! The behaviour is serde's derive with `deny_unknown_fields`: an unknown field, a duplicate
//! field, a missing required field and a wrong type are errors with serde's messages; an
//! optional field is `None` only when absent (`null` is not a value of its type). Two
//! differences: a field the shape types as an integer accepts a number with a zero fraction
//! (`1.0`), as JSON Schema's `integer` does; a `date-time` or `date` string is read into its
//! time type ([`super::time`]) only when the format accepts it; and an error in a field's
//! value starts with its JSON Pointer (`/items/3/amount: invalid type: …`), relative to the outermost struct read.

use super::validate::{FieldRule, Shape};
use serde::Serialize;
use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde_json::{Map, Number, Value};
use serde_path_to_error::Segment;
use std::fmt;
use std::marker::PhantomData;

/// A generated enum of string values: its JSON values and variants, in declaration order
/// (the variant's discriminant indexes both).
pub trait StrEnum: Copy + 'static {
    /// The values as they appear in JSON.
    const VALUES: &'static [&'static str];
    /// The variants, in the order of [`VALUES`](StrEnum::VALUES).
    const ALL: &'static [Self];
}

/// `Deserialize` of a [`StrEnum`]: the variant whose JSON value the input is.
pub fn deserialize_enum<'de, D: Deserializer<'de>, T: StrEnum>(d: D) -> Result<T, D::Error> {
    struct V<T>(PhantomData<T>);
    impl<T: StrEnum> Visitor<'_> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("one of the enum's values")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            match T::VALUES.iter().position(|x| *x == v) {
                Some(i) => T::ALL
                    .get(i)
                    .copied()
                    .ok_or_else(|| E::unknown_variant(v, T::VALUES)),
                None => Err(E::unknown_variant(v, T::VALUES)),
            }
        }
    }
    d.deserialize_str(V(PhantomData))
}

/// What a generated `Serialize::serialize` returns.
pub type SerResult<S> = Result<<S as Serializer>::Ok, <S as Serializer>::Error>;

/// What a generated `Deserialize::deserialize` returns.
pub type DeResult<'de, T, D> = Result<T, <D as Deserializer<'de>>::Error>;

/// The field rules of a struct's shape, in declaration order (the order of its fields); an
/// open object's shape is a map with fields.
fn rules(shape: &'static Shape) -> &'static [FieldRule] {
    match shape {
        Shape::Object(fields) => fields,
        Shape::Map(rule) => rule.fields,
        _ => &[],
    }
}

/// A struct being serialised, field by field in declaration order: each field's JSON name
/// comes from the struct's [`Shape`] (`Validate::shape`), whose rules list the fields in the
/// same order, so generated code states only the values.
pub struct StructOut<S: Serializer> {
    out: Out<S>,
    rules: &'static [FieldRule],
    next: usize,
}

/// A closed struct is written as a serde struct; an open object as a map, since the names
/// of its other properties are not known in advance.
enum Out<S: Serializer> {
    Struct(S::SerializeStruct),
    Map(S::SerializeMap),
}

impl<S: Serializer> StructOut<S> {
    /// Starts struct `name` whose fields are those of `shape`.
    pub fn new(s: S, name: &'static str, shape: &'static Shape) -> Result<Self, S::Error> {
        let rules = rules(shape);
        let out = Out::Struct(s.serialize_struct(name, rules.len())?);
        Ok(StructOut {
            out,
            rules,
            next: 0,
        })
    }

    /// Starts an open object whose fields are those of `shape`; [`StructOut::rest`] writes
    /// its other properties.
    pub fn open(s: S, shape: &'static Shape) -> Result<Self, S::Error> {
        Ok(StructOut {
            out: Out::Map(s.serialize_map(None)?),
            rules: rules(shape),
            next: 0,
        })
    }

    fn name(&mut self) -> &'static str {
        let name = self.rules.get(self.next).map_or("", |r| r.name);
        self.next += 1;
        name
    }

    fn entry<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        match &mut self.out {
            Out::Struct(out) => out.serialize_field(name, value),
            Out::Map(out) => out.serialize_entry(name, value),
        }
    }

    /// The next field, always written.
    pub fn field<T: Serialize + ?Sized>(mut self, value: &T) -> Result<Self, S::Error> {
        let name = self.name();
        self.entry(name, value)?;
        Ok(self)
    }

    /// The next field, optional: left out when `None`.
    pub fn opt<T: Serialize>(mut self, value: &Option<T>) -> Result<Self, S::Error> {
        let name = self.name();
        match (value, &mut self.out) {
            (Some(v), _) => self.entry(name, v)?,
            (None, Out::Struct(out)) => out.skip_field(name)?,
            (None, Out::Map(_)) => {}
        }
        Ok(self)
    }

    /// An open object's other properties, after the fields; a key that is a field's name
    /// is not written twice (the field wins). A closed struct has none to write.
    pub fn rest<T: Serialize>(
        mut self,
        extra: &std::collections::BTreeMap<String, T>,
    ) -> Result<Self, S::Error> {
        if let Out::Map(out) = &mut self.out {
            for (k, v) in extra {
                if !self.rules.iter().any(|r| r.name == k) {
                    out.serialize_entry(k, v)?;
                }
            }
        }
        Ok(self)
    }

    /// Ends the struct.
    pub fn end(self) -> Result<S::Ok, S::Error> {
        match self.out {
            Out::Struct(out) => out.end(),
            Out::Map(out) => out.end(),
        }
    }
}

/// A struct's fields as read, before each is taken and typed in declaration order (names
/// from the struct's [`Shape`], as for [`StructOut`]). Unknown and duplicate fields are
/// rejected while reading.
pub struct Fields<E> {
    map: Map<String, Value>,
    shape: &'static Shape,
    rules: &'static [FieldRule],
    next: usize,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> Fields<E> {
    /// Reads a JSON object whose keys are all fields of `shape`.
    pub fn new<D>(d: D, shape: &'static Shape) -> Result<Self, E>
    where
        D: Deserializer<'de, Error = E>,
    {
        Self::read(d, shape, false)
    }

    /// Reads an open object: the fields of `shape`, and other properties kept for
    /// [`Fields::rest`].
    pub fn open<D>(d: D, shape: &'static Shape) -> Result<Self, E>
    where
        D: Deserializer<'de, Error = E>,
    {
        Self::read(d, shape, true)
    }

    fn read<D>(d: D, shape: &'static Shape, open: bool) -> Result<Self, E>
    where
        D: Deserializer<'de, Error = E>,
    {
        struct V(&'static [FieldRule], bool);
        impl<'de> Visitor<'de> for V {
            type Value = Map<String, Value>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut map = Map::new();
                while let Some(key) = a.next_key::<String>()? {
                    if !self.1 && !self.0.iter().any(|r| r.name == key) {
                        let names: Vec<&str> = self.0.iter().map(|r| r.name).collect();
                        return Err(de::Error::custom(format_args!(
                            "unknown field `{key}`, expected one of {names:?}"
                        )));
                    }
                    if map.contains_key(&key) {
                        return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
                    }
                    let value = a.next_value::<Value>()?;
                    map.insert(key, value);
                }
                Ok(map)
            }
        }
        let rules = rules(shape);
        let map = d.deserialize_map(V(rules, open))?;
        Ok(Fields {
            map,
            shape,
            rules,
            next: 0,
            error: PhantomData,
        })
    }

    /// The next field's name, its shape and its value, when present.
    fn take(&mut self) -> (&'static str, &'static Shape, Option<Value>) {
        let (name, shape) = self
            .rules
            .get(self.next)
            .map_or(("", &Shape::Any), |r| (r.name, &r.shape));
        self.next += 1;
        (name, shape, self.map.remove(name))
    }

    /// The next field, required (a nullable one reads `null` as `None`).
    pub fn req<T: DeserializeOwned>(&mut self) -> Result<T, E> {
        match self.take() {
            (name, shape, Some(v)) => typed(name, shape, v),
            (name, _, None) => Err(E::missing_field(name)),
        }
    }

    /// The next field, optional: `None` when absent (`null` is not a value of its type).
    pub fn opt<T: DeserializeOwned>(&mut self) -> Result<Option<T>, E> {
        match self.take() {
            (name, shape, Some(v)) => typed(name, shape, v).map(Some),
            (_, _, None) => Ok(None),
        }
    }

    /// The next field, optional and nullable without a default: `None` when absent or `null`.
    pub fn opt_null<T: DeserializeOwned>(&mut self) -> Result<Option<T>, E> {
        Ok(self.opt::<Option<T>>()?.flatten())
    }

    /// The next field, optional with a default: `default()` when absent.
    pub fn or<T: DeserializeOwned>(&mut self, default: fn() -> T) -> Result<T, E> {
        Ok(self.opt()?.unwrap_or_else(default))
    }

    /// An open object's other properties: every key no field took, each typed.
    pub fn rest<T: DeserializeOwned>(
        &mut self,
    ) -> Result<std::collections::BTreeMap<String, T>, E> {
        let values = match self.shape {
            Shape::Map(rule) => &rule.values,
            _ => &Shape::Any,
        };
        std::mem::take(&mut self.map)
            .into_iter()
            .filter(|(k, _)| !self.rules.iter().any(|r| r.name == k))
            .map(|(k, v)| {
                let value = typed(&k, values, v)?;
                Ok((k, value))
            })
            .collect()
    }
}

/// Property `name`'s `value` as a `T`: a number `shape` types as an integer written with a
/// zero fraction is read as that integer, a `date-time` or `date` string is read only when
/// the format accepts it (the time types' own parsers are more lenient), and an error starts
/// with the value's JSON Pointer (the property, then where in its value serde failed, then
/// where in a nested struct).
fn typed<T: DeserializeOwned, E: de::Error>(
    name: &str,
    shape: &Shape,
    mut value: Value,
) -> Result<T, E> {
    let mut at = String::new();
    push_segment(&mut at, name);
    if let Err(reason) = prepare(shape, &mut value, &mut at) {
        return Err(E::custom(format_args!("{at}: {reason}")));
    }
    at.clear();
    push_segment(&mut at, name);
    serde_path_to_error::deserialize(value).map_err(|e| {
        for segment in e.path().iter() {
            match segment {
                Segment::Seq { index } => push_segment(&mut at, &index.to_string()),
                Segment::Map { key } => push_segment(&mut at, key),
                Segment::Enum { variant } => push_segment(&mut at, variant),
                Segment::Unknown => {}
            }
        }
        let inner = e.into_inner().to_string();
        // A nested struct's error already starts with its pointer within the struct.
        if inner.starts_with('/') {
            E::custom(format_args!("{at}{inner}"))
        } else {
            E::custom(format_args!("{at}: {inner}"))
        }
    })
}

/// `/` and `segment` escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`), after `pointer`.
fn push_segment(pointer: &mut String, segment: &str) {
    pointer.push('/');
    pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
}

/// Readies `value` (at JSON Pointer `at`) for serde as `shape` types it: a number typed as
/// an integer but written with a zero fraction (`1.0`) becomes that integer, so serde's
/// integer types accept it as JSON Schema's `integer` does; a string of format `date-time`
/// or `date` that the format refuses is an error (`at` then points at it). A named type's or
/// a union's fields are its own struct's to ready.
fn prepare(shape: &Shape, value: &mut Value, at: &mut String) -> Result<(), String> {
    match (shape, value) {
        (Shape::Integer(_), Value::Number(n)) => {
            if let Some(whole) = whole(n) {
                *n = whole;
            }
        }
        (Shape::String(rule), Value::String(s)) => {
            if let Some(format) = rule.format
                && super::time::accepts(format, s) == Some(false)
            {
                return Err(format!("not a valid `{}` (RFC 3339)", format.as_str()));
            }
        }
        (Shape::Nullable(inner), value) => prepare(inner, value, at)?,
        (Shape::Const(rule), value) => prepare(&rule.base, value, at)?,
        (Shape::Array(rule), Value::Array(items)) => {
            for (i, item) in items.iter_mut().enumerate() {
                let len = at.len();
                push_segment(at, &i.to_string());
                prepare(&rule.items, item, at)?;
                at.truncate(len);
            }
        }
        (Shape::Map(rule), Value::Object(entries)) => {
            for (key, v) in entries {
                let len = at.len();
                push_segment(at, key);
                match rule.fields.iter().find(|f| f.name == key) {
                    Some(field) => prepare(&field.shape, v, at)?,
                    None => prepare(&rule.values, v, at)?,
                }
                at.truncate(len);
            }
        }
        _ => {}
    }
    Ok(())
}

/// A float with a zero fraction as the integer it equals, when an `i64` or `u64` holds it.
fn whole(n: &Number) -> Option<Number> {
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if !n.is_f64() {
        return None;
    }
    let f = n.as_f64()?;
    if f.fract() != 0.0 {
        return None;
    }
    // Exact: `f` is whole and within the target type's range.
    if (0.0..TWO_64).contains(&f) {
        Some(Number::from(f as u64))
    } else if (-TWO_63..0.0).contains(&f) {
        Some(Number::from(f as i64))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Color {
        Red,
        Blue,
    }
    impl StrEnum for Color {
        const VALUES: &'static [&'static str] = &["red", "blue"];
        const ALL: &'static [Self] = &[Color::Red, Color::Blue];
    }
    impl<'de> Deserialize<'de> for Color {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_enum(d)
        }
    }
    impl Serialize for Color {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(Color::VALUES[*self as usize])
        }
    }

    #[derive(Debug, PartialEq)]
    struct Item {
        color: Color,
        n: i64,
        note: Option<String>,
    }
    static ITEM: Shape = Shape::Object(&[
        FieldRule::new("color", true, Shape::Any),
        FieldRule::new("n", false, Shape::Any),
        FieldRule::new("note", false, Shape::Any),
    ]);
    static NULLS: Shape = Shape::Object(&[
        FieldRule::new("req", true, Shape::Any),
        FieldRule::new("opt", false, Shape::Any),
    ]);

    impl<'de> Deserialize<'de> for Item {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let mut f = Fields::new(d, &ITEM)?;
            Ok(Item {
                color: f.req()?,
                n: f.or(|| 7)?,
                note: f.opt()?,
            })
        }
    }

    #[derive(Debug, PartialEq)]
    struct Nulls {
        req: Option<i64>,
        opt: Option<i64>,
    }
    impl<'de> Deserialize<'de> for Nulls {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let mut f = Fields::new(d, &NULLS)?;
            Ok(Nulls {
                req: f.req()?,
                opt: f.opt_null()?,
            })
        }
    }
    impl Serialize for Item {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            StructOut::new(s, "Item", &ITEM)?
                .field(&self.color)?
                .field(&self.n)?
                .opt(&self.note)?
                .end()
        }
    }

    fn parse(v: Value) -> Result<Item, String> {
        serde_json::from_value(v).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_and_writes_as_the_derive_does() {
        let item = parse(json!({"color": "blue"}));
        assert_eq!(
            item,
            Ok(Item {
                color: Color::Blue,
                n: 7,
                note: None
            })
        );
        let full = json!({"color": "red", "n": 3, "note": "x"});
        let item = parse(full.clone());
        assert_eq!(item.as_ref().map(|i| i.note.as_deref()), Ok(Some("x")));
        let back = item.map(|i| serde_json::to_value(&i).unwrap_or_default());
        assert_eq!(back, Ok(full));
        assert_eq!(
            serde_json::to_value(Item {
                color: Color::Red,
                n: 1,
                note: None
            })
            .ok(),
            Some(json!({"color": "red", "n": 1}))
        );
    }

    #[test]
    fn nullable_fields_read_null_as_none() {
        let nulls = |v| serde_json::from_value::<Nulls>(v).map_err(|e| e.to_string());
        let none = Nulls {
            req: None,
            opt: None,
        };
        assert_eq!(nulls(json!({"req": null})), Ok(none));
        assert_eq!(
            nulls(json!({"req": null, "opt": null})),
            Ok(Nulls {
                req: None,
                opt: None
            })
        );
        assert_eq!(
            nulls(json!({"req": 1, "opt": 2})),
            Ok(Nulls {
                req: Some(1),
                opt: Some(2)
            })
        );
        assert_eq!(
            nulls(json!({"opt": 2})),
            Err("missing field `req`".to_string())
        );
    }

    #[test]
    fn rejects_with_serdes_messages() {
        let err = |v| parse(v).err().unwrap_or_default();
        assert_eq!(err(json!({"n": 1})), "missing field `color`");
        assert!(err(json!({"color": "red", "x": 1})).starts_with("unknown field `x`"));
        assert!(err(json!({"color": "green"})).starts_with("/color: unknown variant `green`"));
        assert!(err(json!({"color": "red", "note": null})).contains("invalid type: null"));
        assert!(err(json!({"color": "red", "n": 1.5})).contains("invalid type: floating point"));
        assert!(err(json!([1])).contains("invalid type: sequence"));
        let dup = serde_json::from_str::<Item>(r#"{"color":"red","color":"blue"}"#);
        assert!(dup.is_err_and(|e| e.to_string().starts_with("duplicate field `color`")));
    }

    #[derive(Debug, PartialEq)]
    struct Sized {
        page: u8,
        pages: Vec<Item>,
    }
    static SIZED: Shape = Shape::Object(&[
        FieldRule::new("page", true, Shape::Integer(&crate::runtime::NumRule::ANY)),
        FieldRule::new("pages", true, Shape::Any),
    ]);
    impl<'de> Deserialize<'de> for Sized {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let mut f = Fields::new(d, &SIZED)?;
            Ok(Sized {
                page: f.req()?,
                pages: f.req()?,
            })
        }
    }

    #[test]
    fn integers_accept_a_zero_fraction_and_errors_name_their_pointer() {
        let sized = |v| serde_json::from_value::<Sized>(v).map_err(|e| e.to_string());
        let read = sized(json!({"page": 3.0, "pages": []}));
        assert_eq!(read.map(|s| s.page), Ok(3));
        let half = sized(json!({"page": 3.5, "pages": []}))
            .err()
            .unwrap_or_default();
        assert!(
            half.starts_with("/page: invalid type: floating point"),
            "{half}"
        );
        let big = sized(json!({"page": 300, "pages": []}))
            .err()
            .unwrap_or_default();
        assert!(
            big.starts_with("/page: invalid value: integer `300`"),
            "{big}"
        );
        let nested = sized(json!({"page": 1, "pages": [{"color": "red"}, {"color": 1}]}));
        let nested = nested.err().unwrap_or_default();
        assert!(
            nested.starts_with("/pages/1/color: invalid type: integer"),
            "{nested}"
        );
        let missing = sized(json!({"page": 1, "pages": [{}]}))
            .err()
            .unwrap_or_default();
        assert_eq!(missing, "/pages/0: missing field `color`");
    }

    #[derive(Debug, PartialEq)]
    struct Open {
        mode: String,
        note: Option<String>,
        extra: std::collections::BTreeMap<String, String>,
    }
    static OPEN: Shape = Shape::Map(&crate::runtime::MapRule::of(Shape::Any).fields(&[
        FieldRule::new("mode", true, Shape::Any),
        FieldRule::new("note", false, Shape::Any),
    ]));
    impl<'de> Deserialize<'de> for Open {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let mut f = Fields::open(d, &OPEN)?;
            Ok(Open {
                mode: f.req()?,
                note: f.opt()?,
                extra: f.rest()?,
            })
        }
    }
    impl Serialize for Open {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            StructOut::open(s, &OPEN)?
                .field(&self.mode)?
                .opt(&self.note)?
                .rest(&self.extra)?
                .end()
        }
    }

    #[test]
    fn open_objects_read_and_write_their_extras_after_the_fields() {
        let v = json!({"zone": "b", "mode": "fast", "arch": "arm"});
        let open: Open = serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(open.mode, "fast");
        assert_eq!(open.note, None);
        let keys: Vec<&str> = open.extra.keys().map(String::as_str).collect();
        assert_eq!(keys, ["arch", "zone"]);
        let text = serde_json::to_string(&open).unwrap_or_default();
        assert_eq!(text, r#"{"mode":"fast","arch":"arm","zone":"b"}"#);
        // Extras are typed; a duplicate key is refused as for a closed struct.
        let wrong = serde_json::from_value::<Open>(json!({"mode": "x", "arch": 1}));
        assert!(wrong.is_err());
        let dup = serde_json::from_str::<Open>(r#"{"mode": "x", "a": "1", "a": "2"}"#);
        assert!(dup.is_err_and(|e| e.to_string().starts_with("duplicate field `a`")));
    }
}
