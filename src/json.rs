//! Borrowed, lenient JSON decoding shared by the envelope, `_meta` and
//! params decoders: one pass over the bytes, no `Value` tree, and duplicate
//! member names detected at every depth.
//!
//! The decoders never fail on a value of the wrong type: they record what
//! they saw ([`Shallow`]) so the layer that owns the rule can choose the
//! error. The only errors that escape a decode are serde_json's syntax
//! errors, which become `-32700`.
//!
//! The visitors take strings as `visit_borrowed_str` (no escapes) or
//! `visit_str` (unescaped into serde_json's buffer), the only two serde_json
//! calls; serde's default `visit_string` forwards to `visit_str`, so none is
//! written here.
//!
//! Spec: RFC 8259 section 4 says names within an object SHOULD be unique and
//! that receivers disagree when they are not; decision DEC7 makes any
//! duplicate an invalid request, so that no two parsers can read one message
//! two ways.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON string borrowed from the input when it has no escapes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Str<'de>(pub Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Str(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// The JSON type of a value, and the value itself when it is a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shallow<'de> {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// an integer that fits in 64 bits (signed or unsigned)
    Integer(Int),
    /// any other number (fractional, exponent, or beyond 64 bits): the bits
    /// of its nearest 64-bit float, so that the type stays `Eq`
    Number(u64),
    /// a string, decoded
    Str(Cow<'de, str>),
    /// an array (its content was scanned for duplicates, then dropped)
    Array,
    /// an object (likewise)
    Object,
}

/// An integer that fits in 64 bits, signed or unsigned. Not an `i128`:
/// its 16-byte alignment would grow every decoded value from 24 to 32
/// bytes, which cost the core about 4% in instructions per request
/// (docs/performance.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int {
    negative: bool,
    magnitude: u64,
}

impl Int {
    /// The value.
    pub fn get(self) -> i128 {
        let m = i128::from(self.magnitude);
        if self.negative { -m } else { m }
    }
}

impl From<i64> for Int {
    fn from(v: i64) -> Int {
        Int {
            negative: v < 0,
            magnitude: v.unsigned_abs(),
        }
    }
}

impl From<u64> for Int {
    fn from(v: u64) -> Int {
        Int {
            negative: false,
            magnitude: v,
        }
    }
}

impl<'de> Shallow<'de> {
    /// The string, when the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Shallow::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Object member names seen so far, for duplicate detection.
///
/// Performance: every object of every message gets one, so the common case
/// is kept cheap. The first [`KeySet::INLINE`] names are kept as slices of
/// the line itself (a name without escapes is borrowed from it), compared
/// in a small array: no allocation and nothing to drop. A name with escapes
/// (decoded, so owned), or one more name than the array holds, moves every
/// name to a hash set, so an object with a million members costs linear
/// time, not quadratic.
pub(crate) struct KeySet<'de> {
    inline: [&'de str; KeySet::INLINE],
    len: usize,
    spilled: Option<HashSet<Cow<'de, str>>>,
}

impl Default for KeySet<'_> {
    fn default() -> Self {
        KeySet {
            inline: [""; KeySet::INLINE],
            len: 0,
            spilled: None,
        }
    }
}

impl<'de> KeySet<'de> {
    const INLINE: usize = 8;

    /// Records `key`; returns `false` when it was already there.
    ///
    /// Performance: the common case (a borrowed name while the array has
    /// room) is this small function, inlined into the object walkers; the
    /// rest is out of line, so the common case pays for no register saves
    /// or drop checks that only the rare case needs.
    #[inline]
    pub(crate) fn insert(&mut self, key: Cow<'de, str>) -> bool {
        if let (None, Cow::Borrowed(k)) = (&self.spilled, &key)
            && self.len < Self::INLINE
        {
            let seen = self.inline.get(..self.len).unwrap_or_default();
            if seen.contains(k) {
                return false;
            }
            if let Some(slot) = self.inline.get_mut(self.len) {
                *slot = k;
            }
            self.len += 1;
            return true;
        }
        self.insert_rare(key)
    }

    /// [`KeySet::insert`] for an owned name, a full array, or a spilled set.
    #[cold]
    #[inline(never)]
    fn insert_rare(&mut self, key: Cow<'de, str>) -> bool {
        if let Some(set) = &mut self.spilled {
            return set.insert(key);
        }
        let seen = self.inline.get(..self.len).unwrap_or_default();
        if seen.iter().any(|k| *k == key) {
            return false;
        }
        // An owned name, or a ninth: from here on the names live in a set.
        let mut set: HashSet<Cow<'de, str>> = seen.iter().map(|k| Cow::Borrowed(*k)).collect();
        set.insert(key);
        self.spilled = Some(set);
        true
    }
}

/// Walks any value, setting `*dup` when an object anywhere inside has a
/// member name twice, and returns its [`Shallow`] form.
pub(crate) struct ScanSeed<'a> {
    /// Set to `true` on the first duplicate found; never reset.
    pub dup: &'a mut bool,
}

impl<'de> DeserializeSeed<'de> for ScanSeed<'_> {
    type Value = Shallow<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Shallow<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ScanSeed<'_> {
    type Value = Shallow<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Shallow<'de>, E> {
        Ok(Shallow::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Shallow<'de>, E> {
        Ok(Shallow::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Shallow<'de>, E> {
        Ok(Shallow::Integer(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Shallow<'de>, E> {
        Ok(Shallow::Integer(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Shallow<'de>, E> {
        Ok(Shallow::Number(v.to_bits()))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Shallow<'de>, E> {
        Ok(Shallow::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Shallow<'de>, E> {
        Ok(Shallow::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shallow<'de>, A::Error> {
        while seq.next_element_seed(ScanSeed { dup: self.dup })?.is_some() {}
        Ok(Shallow::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shallow<'de>, A::Error> {
        let mut keys = KeySet::default();
        while let Some(Str(key)) = map.next_key::<Str<'de>>()? {
            if !keys.insert(key) {
                *self.dup = true;
            }
            map.next_value_seed(ScanSeed { dup: self.dup })?;
        }
        Ok(Shallow::Object)
    }
}

/// A member of tool arguments: a scalar as [`ScanSeed`] decodes it
/// (strings borrowed when they can be), an array or object also whole, as
/// [`ValueSeed`] decodes it (row T14).
pub(crate) struct MemberSeed<'a> {
    /// Set to `true` on the first duplicate found; never reset.
    pub dup: &'a mut bool,
}

impl<'de> DeserializeSeed<'de> for MemberSeed<'_> {
    type Value = (Shallow<'de>, Option<serde_json::Value>);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MemberSeed<'_> {
    type Value = (Shallow<'de>, Option<serde_json::Value>);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok((Shallow::Null, None))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok((Shallow::Bool(v), None))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok((Shallow::Integer(v.into()), None))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok((Shallow::Integer(v.into()), None))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok((Shallow::Number(v.to_bits()), None))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok((Shallow::Str(Cow::Borrowed(v)), None))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok((Shallow::Str(Cow::Owned(v.to_owned())), None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let v = ValueSeed { dup: self.dup }.visit_seq(seq)?;
        Ok((Shallow::Array, Some(v)))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let v = ValueSeed { dup: self.dup }.visit_map(map)?;
        Ok((Shallow::Object, Some(v)))
    }
}

/// Walks an object whose member names a decoder knows, handing each member
/// to `on_member` and recording duplicates. Anything that is not an object
/// is scanned and reported as its [`Shallow`] type instead.
pub(crate) fn visit_object<'de, A, F>(
    map: &mut A,
    dup: &mut bool,
    mut on_member: F,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    F: FnMut(&str, &mut A, &mut bool) -> Result<(), A::Error>,
{
    let mut keys = KeySet::default();
    while let Some(Str(key)) = map.next_key::<Str<'de>>()? {
        on_member(&key, map, dup)?;
        if !keys.insert(key) {
            *dup = true;
        }
    }
    Ok(())
}

/// Decodes any value into a [`serde_json::Value`], setting `*dup` when an
/// object anywhere inside has a member name twice (the first is kept). For
/// the few members whose content a method reads whole (`inputResponses`;
/// the nested values of tool arguments, which a configured `inputSchema`
/// reads, row T14); every other member stays [`Shallow`]. It runs inside
/// the request's own decoder, so serde_json's nesting limit still counts
/// from the line's root.
pub(crate) struct ValueSeed<'a> {
    /// Set to `true` on the first duplicate found; never reset.
    pub dup: &'a mut bool,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = serde_json::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = serde_json::Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        // The decoder refuses numbers beyond a float, so `v` is finite.
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(ValueSeed { dup: self.dup })? {
            items.push(v);
        }
        Ok(serde_json::Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = serde_json::Map::new();
        while let Some(Str(key)) = map.next_key::<Str<'de>>()? {
            let value = map.next_value_seed(ValueSeed { dup: self.dup })?;
            if members.contains_key(key.as_ref()) {
                *self.dup = true;
            } else {
                members.insert(key.into_owned(), value);
            }
        }
        Ok(serde_json::Value::Object(members))
    }
}

/// Writes `s` as a JSON string literal.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    // Serializing a `str` into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(json: &str) -> (Shallow<'_>, bool) {
        let mut dup = false;
        let mut de = serde_json::Deserializer::from_str(json);
        let v = ScanSeed { dup: &mut dup }.deserialize(&mut de).unwrap();
        (v, dup)
    }

    #[test]
    fn value_seed_keeps_the_value_and_finds_duplicates() {
        let decode = |json: &str| {
            let mut dup = false;
            let mut de = serde_json::Deserializer::from_str(json);
            let v = ValueSeed { dup: &mut dup }.deserialize(&mut de).unwrap();
            (v, dup)
        };
        let (v, dup) = decode(r#"{"a":[1,-2,1.5,"x",null,true],"b":{"c":{}}}"#);
        assert!(!dup);
        assert_eq!(
            v,
            serde_json::json!({"a":[1,-2,1.5,"x",null,true],"b":{"c":{}}})
        );
        assert!(decode(r#"{"a":{"k":1,"k":2}}"#).1);
        assert_eq!(decode(r#"{"k":1,"k":2}"#).0, serde_json::json!({"k":1}));
    }

    #[test]
    fn finds_duplicates_at_any_depth() {
        assert!(!scan(r#"{"a":1,"b":{"a":2}}"#).1);
        assert!(scan(r#"{"a":1,"a":2}"#).1);
        assert!(scan(r#"[{"x":[{"k":1,"k":1}]}]"#).1);
        // Escapes decode before comparison: "\u0061" is "a".
        assert!(scan(r#"{"a":1,"\u0061":2}"#).1);
    }

    #[test]
    fn key_set_mixes_borrowed_and_owned_names() {
        // An owned (escaped) name spills the borrowed ones into the set;
        // duplicates are still found on either side of the spill.
        let mut set = KeySet::default();
        assert!(set.insert(Cow::Borrowed("a")));
        assert!(set.insert(Cow::Borrowed("b")));
        assert!(!set.insert(Cow::Owned("a".into())));
        assert!(set.insert(Cow::Owned("c".into())));
        assert!(!set.insert(Cow::Borrowed("b")));
        assert!(!set.insert(Cow::Borrowed("c")));
        assert!(set.insert(Cow::Borrowed("d")));

        // Borrowed names past the inline array spill too.
        let names: Vec<String> = (0..20).map(|i| format!("k{i}")).collect();
        let mut set = KeySet::default();
        for n in &names {
            assert!(set.insert(Cow::Borrowed(n)));
        }
        for n in &names {
            assert!(!set.insert(Cow::Borrowed(n)), "{n}");
        }
    }

    #[test]
    fn key_set_spills_without_losing_keys() {
        let mut set = KeySet::default();
        for i in 0..100 {
            assert!(set.insert(Cow::Owned(i.to_string())));
        }
        for i in 0..100 {
            assert!(!set.insert(Cow::Owned(i.to_string())));
        }
    }

    #[test]
    fn many_members_are_linear() {
        let mut json = String::from("{");
        for i in 0..200_000 {
            json.push_str(&format!("\"k{i}\":0,"));
        }
        json.push_str("\"k0\":1}");
        assert!(scan(&json).1);
    }

    #[test]
    fn shallow_types() {
        assert_eq!(scan("null").0, Shallow::Null);
        assert_eq!(scan("true").0, Shallow::Bool(true));
        assert_eq!(scan("-1.5e3").0, Shallow::Number((-1500f64).to_bits()));
        assert_eq!(scan("-15").0, Shallow::Integer((-15i64).into()));
        assert_eq!(Int::from(-15i64).get(), -15);
        // One form per value: zero is not negative, whichever type it came from.
        assert_eq!(Int::from(0i64), Int::from(0u64));
        assert_eq!(
            scan("18446744073709551615").0,
            Shallow::Integer(u64::MAX.into())
        );
        assert_eq!(scan(r#""\n""#).0, Shallow::Str(Cow::Borrowed("\n")));
        assert_eq!(scan("[]").0, Shallow::Array);
        assert_eq!(scan("{}").0, Shallow::Object);
    }
}
