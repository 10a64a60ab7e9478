//! The member a configuration file's shape error is about, named by its
//! path (`input_required.state_ttl_seconds`, `orders[1].owner`), from the
//! position serde_json gives: a file refused at start says which member is
//! wrong, not only a line and a column (README, "Configuration": "one
//! sentence naming the file and the problem"; issue 49, item 5).
//!
//! Written here rather than taken from a crate (serde_path_to_error does
//! this through a wrapping deserializer): the library stays at serde,
//! serde_json, memchr and base64, and a shape error is already past
//! serde_json's syntax check up to its position, so a walk of the bytes
//! before it that tracks objects, arrays and keys is enough. Nothing here
//! runs on a request: only when a configuration is refused.

/// One open container on the way to the position.
enum Frame {
    /// An object: the last key read, and whether the next string is a key.
    Object {
        key: Option<String>,
        expect_key: bool,
    },
    /// An array: the index of the element being read.
    Array { index: usize },
}

/// The byte offset of serde_json's 1-based `line` and `column` (a column
/// counts bytes from the line's start) in `bytes`, or `None` past the end.
fn offset(bytes: &[u8], line: usize, column: usize) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        start += memchr::memchr(b'\n', bytes.get(start..)?)? + 1;
    }
    let at = start.checked_add(column)?;
    (at <= bytes.len()).then_some(at)
}

/// The path of the member at `line`:`column` of `bytes` (a JSON document
/// well-formed up to there), as `a.b[2].c`; a key that is not a plain name
/// is written as a JSON string in brackets (`["a b"]`). `None` at the top
/// level or where the position is not in the document.
pub(crate) fn member_at(bytes: &[u8], line: usize, column: usize) -> Option<String> {
    let end = offset(bytes, line, column)?;
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        let Some(&b) = bytes.get(i) else { break };
        match b {
            b'"' => {
                let (text, next) = string(bytes, i + 1);
                i = next;
                if let Some(Frame::Object { key, expect_key }) = stack.last_mut()
                    && *expect_key
                {
                    *key = Some(text);
                    *expect_key = false;
                }
                continue;
            }
            b'{' => stack.push(Frame::Object {
                key: None,
                expect_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { key, expect_key }) => {
                    *key = None;
                    *expect_key = true;
                }
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object { key: Some(key), .. } => {
                let plain = !key.is_empty()
                    && key
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-');
                if plain {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                } else {
                    path.push('[');
                    path.push_str(&serde_json::to_string(key).unwrap_or_default());
                    path.push(']');
                }
            }
            Frame::Object { key: None, .. } => {}
            Frame::Array { index } => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
        }
    }
    (!path.is_empty()).then_some(path)
}

/// The string whose content starts at `from` (just past its opening
/// quote): its text with the escapes decoded as serde_json would (an
/// unpaired surrogate as U+FFFD), and the offset just past its closing
/// quote (or the end of `bytes`).
fn string(bytes: &[u8], from: usize) -> (String, usize) {
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => {
                let raw = bytes.get(from.saturating_sub(1)..=i).unwrap_or_default();
                let text = serde_json::from_slice::<String>(raw).unwrap_or_else(|_| {
                    String::from_utf8_lossy(bytes.get(from..i).unwrap_or_default()).into_owned()
                });
                return (text, i + 1);
            }
            _ => i += 1,
        }
    }
    (
        String::from_utf8_lossy(bytes.get(from..).unwrap_or_default()).into_owned(),
        bytes.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path serde_json's own error position leads to, for a document
    /// whose member at `path` has the wrong type for a `u64` there.
    fn at_error(doc: &str) -> Option<String> {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Leaf {
            n: u64,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Doc {
            a: Option<Vec<Leaf>>,
            b: Option<std::collections::BTreeMap<String, Leaf>>,
            n: Option<u64>,
        }
        let e = serde_json::from_str::<Doc>(doc).err()?;
        member_at(doc.as_bytes(), e.line(), e.column())
    }

    #[test]
    fn the_member_of_a_shape_error_is_named() {
        assert_eq!(at_error(r#"{"n": -1}"#).as_deref(), Some("n"));
        assert_eq!(
            at_error(r#"{"a": [{"n": 1}, {"n": 2}, {"n": -3}]}"#).as_deref(),
            Some("a[2].n")
        );
        assert_eq!(
            at_error("{\n  \"b\": {\"x y\": {\"n\": 1},\n  \"é\": {\"n\": \"no\"}}\n}").as_deref(),
            Some(r#"b["é"].n"#)
        );
        // A key with a quote and an escape in it, and strings holding
        // brackets and commas, before the member.
        assert_eq!(
            at_error(r#"{"b": {"k\"[,{": {"n": 1}, "z": {"n": 1.5}}}"#).as_deref(),
            Some("b.z.n")
        );
        assert_eq!(
            at_error(r#"{"b": {"k\"[,{": {"n": true}}}"#).as_deref(),
            Some(r#"b["k\"[,{"].n"#)
        );
    }

    #[test]
    fn nothing_is_named_outside_a_member() {
        assert_eq!(member_at(b"[]", 1, 0), None);
        assert_eq!(member_at(b"{}", 1, 9), None, "past the end");
        assert_eq!(member_at(b"{\"a\": 1}", 3, 1), None, "no such line");
        assert_eq!(at_error("-1"), None);
    }
}
