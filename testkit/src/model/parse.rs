//! The model's own reading of JSON text (RFC 8259), into the one tree
//! ([`Json`]): duplicate members kept, number literals kept as written,
//! and the raw text of each top-level `id` member kept byte for byte. Used
//! for request lines given as bytes and for replies ([`super::reply`]).
//!
//! Written from RFC 8259 and the limits `docs/behavior.md` states, not from
//! the server's decoder: rows E1 (not JSON, trailing bytes), E3 (nesting of
//! 128 levels or more; a number beyond a 64-bit float outside `id`) and E4
//! (a lone surrogate escape). Errors are reported at the first offending
//! byte, in text order, so that the row of the first problem decides.

use super::tree::{Esc, Json, Member};

/// Why a text is not a message the server can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not JSON: a syntax error, or bytes after the value (row E1).
    Syntax,
    /// A lone surrogate escape in a string (row E4).
    LoneSurrogate,
    /// Nested 128 or more levels deep (row E3).
    TooDeep,
    /// A number beyond the range of a 64-bit float, outside `id` (row E3).
    OutOfRange,
    /// Something only inside a top-level `id` value that is not itself a
    /// string (deep nesting, a lone surrogate): the contract does not say
    /// how a raw id is skipped, so the model cannot tell.
    Unsure,
}

/// A parsed text: the tree and the raw text of every top-level `id` member
/// value, in order (empty when the value is not an object).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The value.
    pub tree: Json,
    /// The raw JSON text of each top-level `id` member's value.
    pub ids: Vec<String>,
}

/// Nesting at which the server stops reading (the top-level value is level
/// 1): `docs/behavior.md` row E3, "nested 128 or more levels deep".
pub const TOO_DEEP_LEVEL: usize = 128;

/// Parses JSON text (UTF-8 already checked by the caller or not: invalid
/// UTF-8 inside a string is a syntax error here).
pub fn parse(text: &[u8]) -> Result<Parsed, Refusal> {
    let mut p = Parser {
        b: text,
        i: 0,
        in_id: false,
    };
    p.ws();
    let mut ids = Vec::new();
    let tree = p.value(0, Some(&mut ids))?;
    p.ws();
    if p.i != p.b.len() {
        return Err(Refusal::Syntax);
    }
    Ok(Parsed { tree, ids })
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    /// Inside the value of a top-level `id` member.
    in_id: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), Refusal> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(Refusal::Syntax)
        }
    }

    fn literal(&mut self, word: &[u8], value: Json) -> Result<Json, Refusal> {
        if self.b.get(self.i..self.i + word.len()) == Some(word) {
            self.i += word.len();
            Ok(value)
        } else {
            Err(Refusal::Syntax)
        }
    }

    /// A value at nesting `level` (0: the top-level value, not yet inside
    /// any container). `ids`: the top-level object's id collector.
    fn value(&mut self, level: usize, ids: Option<&mut Vec<String>>) -> Result<Json, Refusal> {
        match self.peek() {
            Some(b'{') => self.object(level + 1, ids),
            Some(b'[') => self.array(level + 1),
            Some(b'"') => self.string().map(|s| Json::Str(s, Esc::Plain)),
            Some(b't') => self.literal(b"true", Json::Bool(true)),
            Some(b'f') => self.literal(b"false", Json::Bool(false)),
            Some(b'n') => self.literal(b"null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(Refusal::Syntax),
        }
    }

    fn open(&mut self, level: usize) -> Result<(), Refusal> {
        self.i += 1;
        if level >= TOO_DEEP_LEVEL {
            return Err(if self.in_id {
                Refusal::Unsure
            } else {
                Refusal::TooDeep
            });
        }
        Ok(())
    }

    fn object(&mut self, level: usize, mut ids: Option<&mut Vec<String>>) -> Result<Json, Refusal> {
        self.open(level)?;
        let mut members: Vec<Member> = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(Refusal::Syntax);
            }
            let key = self.string()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            let start = self.i;
            let value = match ids.as_deref_mut() {
                Some(collected) if key == "id" => {
                    let string = self.peek() == Some(b'"');
                    self.in_id = !string;
                    let value = self.value(level, None);
                    self.in_id = false;
                    let value = value?;
                    collected.push(
                        String::from_utf8_lossy(self.b.get(start..self.i).unwrap_or_default())
                            .into_owned(),
                    );
                    value
                }
                _ => self.value(level, None)?,
            };
            members.push((key, Esc::Plain, value));
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Json::Obj(members));
                }
                _ => return Err(Refusal::Syntax),
            }
        }
    }

    fn array(&mut self, level: usize) -> Result<Json, Refusal> {
        self.open(level)?;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            self.ws();
            items.push(self.value(level, None)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(Refusal::Syntax),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<Json, Refusal> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(Refusal::Syntax),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(Refusal::Syntax);
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(Refusal::Syntax);
            }
        }
        let literal =
            String::from_utf8_lossy(self.b.get(start..self.i).unwrap_or_default()).into_owned();
        // An id is kept as raw text and never converted (row E3's exception).
        if !self.in_id && literal.parse::<f64>().map_or(true, f64::is_infinite) {
            return Err(Refusal::OutOfRange);
        }
        Ok(Json::Num(literal))
    }

    fn hex4(&mut self) -> Result<u32, Refusal> {
        let digits = self.b.get(self.i..self.i + 4).ok_or(Refusal::Syntax)?;
        let text = std::str::from_utf8(digits).map_err(|_| Refusal::Syntax)?;
        if !text.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(Refusal::Syntax);
        }
        self.i += 4;
        u32::from_str_radix(text, 16).map_err(|_| Refusal::Syntax)
    }

    fn lone(&self) -> Refusal {
        if self.in_id {
            Refusal::Unsure
        } else {
            Refusal::LoneSurrogate
        }
    }

    fn string(&mut self) -> Result<String, Refusal> {
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = self.peek().ok_or(Refusal::Syntax)?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| Refusal::Syntax),
                0x00..=0x1f => return Err(Refusal::Syntax),
                b'\\' => {
                    let e = self.peek().ok_or(Refusal::Syntax)?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let unit = self.hex4()?;
                            let code = match unit {
                                0xD800..=0xDBFF => {
                                    if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                                        return Err(self.lone());
                                    }
                                    self.i += 2;
                                    let low = self.hex4()?;
                                    if !(0xDC00..=0xDFFF).contains(&low) {
                                        return Err(self.lone());
                                    }
                                    0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                                }
                                0xDC00..=0xDFFF => return Err(self.lone()),
                                other => other,
                            };
                            char::from_u32(code).ok_or(Refusal::Syntax)?
                        }
                        _ => return Err(Refusal::Syntax),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                other => out.push(other),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_should() {
        let p = parse(br#" {"id": 123456789012345678901234567890, "a":[1,{"b":"\u00e9\ud83d\ude00"}],"a":null} "#).unwrap();
        assert_eq!(p.ids, ["123456789012345678901234567890"]);
        assert_eq!(p.tree.count_members("a"), 2);
        assert!(p.tree.has_duplicate());
        let p = parse(br#"{"id":"\u0041"}"#).unwrap();
        assert_eq!(p.ids, [r#""\u0041""#]);
        assert_eq!(p.tree.get("id").and_then(Json::as_str), Some("A"));
    }

    #[test]
    fn refuses_what_it_should() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(deep(127).as_bytes()).is_ok());
        assert_eq!(parse(deep(128).as_bytes()), Err(Refusal::TooDeep));
        assert_eq!(parse(b"[1e400]"), Err(Refusal::OutOfRange));
        assert!(parse(br#"{"id":1e400}"#).is_ok());
        assert_eq!(parse(br#"["\ud800"]"#), Err(Refusal::LoneSurrogate));
        assert_eq!(parse(br#"{"id":"\udc00"}"#), Err(Refusal::LoneSurrogate));
        assert_eq!(parse(br#"{"id":["\udc00"]}"#), Err(Refusal::Unsure));
        for bad in [
            &b"{"[..],
            b"[1,]",
            b"01",
            b"1.",
            b"{} x",
            b"\"\x01\"",
            b"",
            b"[1]]",
            b"tru",
        ] {
            assert_eq!(
                parse(bad),
                Err(Refusal::Syntax),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
