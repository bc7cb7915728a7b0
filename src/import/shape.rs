//! [`Shape`]: the keywords of one flattened property schema, each value borrowed from the
//! parsed list where the flattening kept it as it was and owned where it built a new one
//! (a merged `allOf` bound, an inferred `type`, a kept union). Flattening a schema therefore
//! costs its keywords, not a copy of everything below it: an object's `properties` or a
//! million-value `enum` stay where the parser put them.

use serde_json::{Map, Value};
use std::borrow::Cow;

/// Keywords in the order the schema wrote them (a few per schema: a vector searched by
/// name). Removing a keyword moves the last one into its place, as `serde_json::Map` does
/// with the `preserve_order` feature, so notes listing the keywords keep their order.
#[derive(Clone, Default)]
pub(super) struct Shape<'v> {
    entries: Vec<(String, Cow<'v, Value>)>,
}

impl<'v> Shape<'v> {
    /// The keywords of `map`, borrowed.
    pub(super) fn borrowed(map: &'v Map<String, Value>) -> Shape<'v> {
        Shape {
            entries: map
                .iter()
                .map(|(k, v)| (k.clone(), Cow::Borrowed(v)))
                .collect(),
        }
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k == key)
    }

    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).map(|i| &*self.entries[i].1)
    }

    /// The value of `key`, made owned first if it was borrowed.
    pub(super) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.position(key)?;
        Some(self.entries[i].1.to_mut())
    }

    pub(super) fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`: in place when present, else last.
    pub(super) fn insert(&mut self, key: impl Into<String>, value: Cow<'v, Value>) {
        let key = key.into();
        match self.position(&key) {
            Some(i) => self.entries[i].1 = value,
            None => self.entries.push((key, value)),
        }
    }

    pub(super) fn remove(&mut self, key: &str) -> Option<Cow<'v, Value>> {
        let i = self.position(key)?;
        Some(self.entries.swap_remove(i).1)
    }

    pub(super) fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// The shape with every value owned, to outlive what it borrowed from.
    pub(super) fn into_owned(self) -> Shape<'static> {
        Shape {
            entries: self
                .entries
                .into_iter()
                .map(|(k, v)| (k, Cow::Owned(v.into_owned())))
                .collect(),
        }
    }

    /// The shape as a JSON object of its own (for a union's variants, kept in a shape).
    pub(super) fn into_value(self) -> Value {
        Value::Object(
            self.entries
                .into_iter()
                .map(|(k, v)| (k, v.into_owned()))
                .collect(),
        )
    }
}

impl<'v> IntoIterator for Shape<'v> {
    type Item = (String, Cow<'v, Value>);
    type IntoIter = std::vec::IntoIter<(String, Cow<'v, Value>)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}
