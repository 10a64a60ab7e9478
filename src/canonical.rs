//! The canonical output form (docs/behavior.md, row W1): the JSON the server
//! renders, with object members in the order they are written.
//!
//! Every result body is built once, at load, as a [`Node`] tree and
//! serialized by serde_json, which escapes strings; the tree keeps members
//! in the order the code lists them, so the member order of every line the
//! server writes is decided where the body is built, in the order
//! docs/behavior.md ("Canonical output form") lays down: the textbook's
//! where it shows one (results start `resultType, _meta`; a content block
//! starts with `type`), else the declaration order of the type in the
//! official `schema.ts`. A `serde_json::Value` could not do this: its
//! objects sort their members.
//!
//! The envelope (`jsonrpc, id, result|error`) and error objects (`code,
//! message, data`) are written byte by byte by [`crate::envelope`], in the
//! same canonical order.
//!
//! Spec: 2026-07-28 `schema.ts` (member declaration order of each type);
//! RFC 8259 section 4 (member order carries no meaning, so choosing one is
//! free, and choosing one makes the bytes reproducible).

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON value whose objects keep their members in the order written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// `true` or `false`.
    Bool(bool),
    /// A non-negative integer.
    Uint(u64),
    /// A configured JSON number, written as serde_json writes it (a
    /// resource's `priority`).
    Num(serde_json::Number),
    /// A string (escaped when serialized).
    Str(String),
    /// An array.
    Arr(Vec<Node>),
    /// An object, members in the order written.
    Obj(Vec<(&'static str, Node)>),
    /// An object whose member names come from the configuration (the keys
    /// of `inputRequests`, a configured tool's arguments), in the order
    /// written.
    Map(Vec<(String, Node)>),
    /// A configured JSON value (the `params` of an input request), written
    /// as serde_json writes it: its objects' members sorted by name.
    Json(serde_json::Value),
    /// Configured JSON text, compact and valid, written as it is (a
    /// configured `inputSchema`, members in the configured order).
    Raw(String),
}

impl Node {
    /// An object from `members`, in that order.
    pub fn obj(members: Vec<(&'static str, Node)>) -> Node {
        Node::Obj(members)
    }

    /// The serialized bytes (compact, no newline).
    pub fn to_vec(&self) -> Vec<u8> {
        // Serializing a tree of strings, integers and booleans into a
        // vector cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The serialized text (compact).
    pub fn to_text(&self) -> String {
        String::from_utf8(self.to_vec()).unwrap_or_default()
    }
}

impl From<bool> for Node {
    fn from(b: bool) -> Node {
        Node::Bool(b)
    }
}

impl From<u64> for Node {
    fn from(n: u64) -> Node {
        Node::Uint(n)
    }
}

impl From<&str> for Node {
    fn from(s: &str) -> Node {
        Node::Str(s.to_owned())
    }
}

impl From<&String> for Node {
    fn from(s: &String) -> Node {
        Node::Str(s.clone())
    }
}

impl From<String> for Node {
    fn from(s: String) -> Node {
        Node::Str(s)
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Bool(b) => s.serialize_bool(*b),
            Node::Uint(n) => s.serialize_u64(*n),
            Node::Num(n) => n.serialize(s),
            Node::Str(text) => s.serialize_str(text),
            Node::Raw(text) => serde_json::value::RawValue::from_string(text.clone())
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
            Node::Arr(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Node::Obj(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
            Node::Map(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
            Node::Json(value) => value.serialize(s),
        }
    }
}

/// An object [`Node`], members in the order written:
/// `obj! { "type" => "object", "required" => arr!["a"] }`.
macro_rules! obj {
    ($($name:literal => $value:expr),* $(,)?) => {
        $crate::canonical::Node::obj(vec![$(($name, $crate::canonical::Node::from($value))),*])
    };
}
pub(crate) use obj;

/// An array [`Node`]: `arr!["a", "b"]`.
macro_rules! arr {
    ($($item:expr),* $(,)?) => {
        $crate::canonical::Node::Arr(vec![$($crate::canonical::Node::from($item)),*])
    };
}
pub(crate) use arr;

#[cfg(test)]
mod tests {

    #[test]
    fn members_keep_the_order_written() {
        let node = obj! { "z" => 1u64, "a" => arr!["x", true], "m" => obj! {} };
        assert_eq!(node.to_text(), r#"{"z":1,"a":["x",true],"m":{}}"#);
    }

    #[test]
    fn strings_are_escaped_by_serde_json() {
        let node = obj! { "t" => "a\"b\n\u{1}" };
        assert_eq!(node.to_text(), r#"{"t":"a\"b\n\u0001"}"#);
    }
}
