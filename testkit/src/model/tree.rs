//! The one JSON tree of the test kit: a request line (or a reply) as
//! written, which can say what a `serde_json::Value` cannot: duplicate
//! members, number literals of any size, chosen string escapes, a
//! lone-surrogate escape. Generators build lines as trees
//! (`crate::strategy`, `crate::fuzzing::model`), the model reads them
//! as lines ([`super::expect_line`]), and [`super::parse()`] turns any line
//! back into one.
//!
//! Owns no rule of `docs/behavior.md`; the measures the rules need (depth,
//! duplicates, lone surrogates, numbers out of range: rows E3, E4, E11,
//! E12) are computed here and judged in [`super::core`].

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

/// How a string is written. Every style decodes to the same text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Esc {
    /// As serde_json writes it (only `"`, `\` and control characters escaped).
    Plain,
    /// Every character as `\uXXXX` (surrogate pairs beyond the BMP).
    Unicode,
    /// As [`Esc::Plain`], with every `/` written `\/`.
    Solidus,
}

/// A JSON value as written on a line.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number literal, written as is (so of any size).
    Num(String),
    /// A string and how it is written.
    Str(String, Esc),
    /// A string literal holding a lone surrogate escape (`"\ud800"`):
    /// grammatical JSON, but no UTF-8 text; the server refuses it (`-32700`).
    LoneSurrogate,
    /// An array.
    Arr(Vec<Json>),
    /// An object: members in order, duplicates allowed, names with their
    /// escape style.
    Obj(Vec<Member>),
}

/// An object member: its decoded name, how the name is written, its value.
pub type Member = (String, Esc, Json);

/// Deepest nesting of arrays and objects the server decodes (the top-level
/// value counts as one level); one more is `-32700`.
pub const MAX_DEPTH: usize = 127;

impl Json {
    /// A plainly written string.
    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into(), Esc::Plain)
    }

    /// An integer.
    pub fn int(n: impl fmt::Display) -> Json {
        Json::Num(n.to_string())
    }

    /// An object with plainly written names.
    pub fn obj<K: Into<String>>(members: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Obj(
            members
                .into_iter()
                .map(|(k, v)| (k.into(), Esc::Plain, v))
                .collect(),
        )
    }

    /// Converts a `serde_json::Value` (no duplicates, numbers as serde_json
    /// writes them).
    pub fn from_value(v: &Value) -> Json {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Num(n.to_string()),
            Value::String(s) => Json::str(s.clone()),
            Value::Array(items) => Json::Arr(items.iter().map(Json::from_value).collect()),
            Value::Object(map) => {
                Json::obj(map.iter().map(|(k, v)| (k.clone(), Json::from_value(v))))
            }
        }
    }

    /// The JSON text.
    pub fn render(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// Appends the JSON text.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Json::Null => out.extend_from_slice(b"null"),
            Json::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Json::Num(n) => out.extend_from_slice(n.as_bytes()),
            Json::Str(s, esc) => write_string(out, s, *esc),
            Json::LoneSurrogate => out.extend_from_slice(br#""a\ud800b""#),
            Json::Arr(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write(out);
                }
                out.push(b']');
            }
            Json::Obj(members) => {
                out.push(b'{');
                for (i, (k, esc, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_string(out, k, *esc);
                    out.push(b':');
                    v.write(out);
                }
                out.push(b'}');
            }
        }
    }

    /// The members named `name` (decoded), in order.
    pub fn members<'j>(&'j self, name: &'j str) -> impl Iterator<Item = &'j Json> + 'j {
        let members: &[Member] = match self {
            Json::Obj(m) => m,
            _ => &[],
        };
        members
            .iter()
            .filter(move |(k, _, _)| k == name)
            .map(|(_, _, v)| v)
    }

    /// The first member named `name`.
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _, _)| k == name).map(|(_, _, v)| v),
            _ => None,
        }
    }

    /// The decoded string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s, _) => Some(s),
            _ => None,
        }
    }

    /// Whether this is an integer literal (`-?digits`, any size).
    pub fn is_integer_literal(&self) -> bool {
        matches!(self, Json::Num(n) if is_integer_literal(n))
    }

    /// Nesting depth: a scalar is 0, an empty array or object 1.
    pub fn depth(&self) -> usize {
        match self {
            Json::Arr(items) => 1 + items.iter().map(Json::depth).max().unwrap_or(0),
            Json::Obj(members) => 1 + members.iter().map(|(_, _, v)| v.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }

    /// Whether any object inside (this one included) has a member name
    /// twice (compared decoded).
    pub fn has_duplicate(&self) -> bool {
        match self {
            Json::Arr(items) => items.iter().any(Json::has_duplicate),
            Json::Obj(members) => {
                let mut seen = BTreeSet::new();
                members.iter().any(|(k, _, _)| !seen.insert(k.as_str()))
                    || members.iter().any(|(_, _, v)| v.has_duplicate())
            }
            _ => false,
        }
    }

    /// Whether a lone surrogate string appears anywhere inside.
    pub fn has_lone_surrogate(&self) -> bool {
        match self {
            Json::LoneSurrogate => true,
            Json::Arr(items) => items.iter().any(Json::has_lone_surrogate),
            Json::Obj(members) => members.iter().any(|(_, _, v)| v.has_lone_surrogate()),
            _ => false,
        }
    }

    /// Whether a number literal anywhere inside is beyond the range of a
    /// double (serde_json refuses to decode it).
    pub fn has_number_out_of_range(&self) -> bool {
        match self {
            Json::Num(n) => n.parse::<f64>().map_or(true, f64::is_infinite),
            Json::Arr(items) => items.iter().any(Json::has_number_out_of_range),
            Json::Obj(members) => members.iter().any(|(_, _, v)| v.has_number_out_of_range()),
            _ => false,
        }
    }

    /// Number of values in the tree, this one included.
    pub fn count(&self) -> usize {
        1 + match self {
            Json::Arr(items) => items.iter().map(Json::count).sum(),
            Json::Obj(members) => members.iter().map(|(_, _, v)| v.count()).sum(),
            _ => 0,
        }
    }

    /// Number of objects in the tree, this one included.
    pub fn count_objects(&self) -> usize {
        let own = usize::from(matches!(self, Json::Obj(_)));
        own + match self {
            Json::Arr(items) => items.iter().map(Json::count_objects).sum(),
            Json::Obj(members) => members.iter().map(|(_, _, v)| v.count_objects()).sum(),
            _ => 0,
        }
    }

    /// Calls `f` on the `n`th value in pre-order (0: this one).
    pub fn with_nth(&mut self, n: usize, f: &mut dyn FnMut(&mut Json)) {
        let mut n = n;
        self.visit_nth(&mut n, f, &|_| true);
    }

    /// Calls `f` on the `n`th object in pre-order (0: this one, if it is one).
    pub fn with_nth_object(&mut self, n: usize, f: &mut dyn FnMut(&mut Json)) {
        let mut n = n;
        self.visit_nth(&mut n, f, &|j| matches!(j, Json::Obj(_)));
    }

    fn visit_nth(
        &mut self,
        n: &mut usize,
        f: &mut dyn FnMut(&mut Json),
        pick: &dyn Fn(&Json) -> bool,
    ) -> bool {
        if pick(self) {
            if *n == 0 {
                f(self);
                return true;
            }
            *n -= 1;
        }
        match self {
            Json::Arr(items) => items.iter_mut().any(|item| item.visit_nth(n, f, pick)),
            Json::Obj(members) => members.iter_mut().any(|(_, _, v)| v.visit_nth(n, f, pick)),
            _ => false,
        }
    }
}

/// Appends `s` as a string literal written in style `esc`.
pub(super) fn write_string(out: &mut Vec<u8>, s: &str, esc: Esc) {
    match esc {
        Esc::Plain => write_plain(out, s),
        Esc::Solidus => {
            let mut plain = Vec::new();
            write_plain(&mut plain, s);
            for b in plain {
                if b == b'/' {
                    out.extend_from_slice(b"\\/");
                } else {
                    out.push(b);
                }
            }
        }
        Esc::Unicode => {
            out.push(b'"');
            let mut units = [0u16; 2];
            for c in s.chars() {
                for unit in c.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                }
            }
            out.push(b'"');
        }
    }
}

/// Whether `raw` is an integer literal, `-?digits` of any size (rows E9,
/// E10, M13): the one such test of the test kit.
pub fn is_integer_literal(raw: &str) -> bool {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A string literal as serde_json writes it (only `"`, `\\` and control
/// characters escaped).
fn write_plain(out: &mut Vec<u8>, s: &str) {
    let len = out.len();
    if serde_json::to_writer(&mut *out, s).is_err() {
        out.truncate(len);
        out.extend_from_slice(b"\"\"");
    }
}

impl Json {
    /// The `serde_json::Value` this tree decodes to, for comparing content
    /// regardless of member order. A duplicate member keeps its last value
    /// (as serde_json would); a number serde_json cannot hold (an integer
    /// beyond a double, which only an echoed id can be) becomes a string of
    /// its literal.
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Num(n) => serde_json::from_str::<serde_json::Number>(n)
                .map(Value::Number)
                .unwrap_or_else(|_| Value::String(n.clone())),
            Json::Str(s, _) => Value::String(s.clone()),
            Json::LoneSurrogate => Value::String("a\u{fffd}b".into()),
            Json::Arr(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Obj(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, _, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// The member names of an object, in order (empty for anything else).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        let members: &[Member] = match self {
            Json::Obj(m) => m,
            _ => &[],
        };
        members.iter().map(|(k, _, _)| k.as_str())
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Json::Obj(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Json::Arr(_))
    }

    /// The number of members named `name`.
    pub fn count_members(&self, name: &str) -> usize {
        self.members(name).count()
    }
}
