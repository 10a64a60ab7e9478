//! The JSON-RPC 2.0 envelope: telling requests, notifications and stray
//! responses apart, reading and echoing ids, and encoding replies.
//!
//! Decoding is one pass over the line with serde_json's borrowing
//! deserializer: the id is kept as its raw text (so an integer of any size
//! is echoed digit for digit), `params` is decoded by [`crate::meta`]'s seed
//! in the same pass, and duplicate member names are recorded at every depth.
//!
//! The envelope rules (decisions DEC2 to DEC8 of docs/behavior.md):
//!
//! | input | reply |
//! | --- | --- |
//! | not JSON, not UTF-8, nested 128 or more levels deep, a number out of range | `-32700`, id null |
//! | JSON but not an object (arrays: batches are not MCP) | `-32600`, id null |
//! | an object without `method` but with `result` or `error` | none (a client's response; noted on stderr) |
//! | a duplicate member name anywhere | `-32600` |
//! | `jsonrpc` not `"2.0"` | `-32600` |
//! | `id` null, fractional, exponent, boolean, array or object | `-32600`, id null |
//! | no `method` (and no `result` or `error`), or `method` not a string | `-32600` |
//! | no `id`, all else valid | none: a notification, whatever it contains |
//!
//! A `-32600` echoes the id when it is itself valid (and not duplicated),
//! else null. Integer ids are integer literals (`-?digits`): `1.0` and `1e3`
//! are numbers with a fraction or exponent, so they are invalid ids.
//!
//! Spec: JSON-RPC 2.0 sections 4 (request object, id "MUST contain a String,
//! Number, or Null"; MCP narrows it to string or integer, never null, in
//! 2026-07-28 `basic/index.mdx` "Requests"), 4.1 (notifications are never
//! answered), 5 (response, id null when it could not be read) and 5.1 (error
//! codes); RFC 8259 section 9 (a parser may limit nesting depth).

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::config::input::Need;
use crate::error::{Code, ErrorData, RpcError};
use crate::json::{ScanSeed, Shallow, Str, write_str};
use crate::meta::{ParamsField, ParamsSeed};

/// A valid request id, as its raw JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Id<'a> {
    /// A string id, with its quotes and escapes as received.
    Str(&'a str),
    /// An integer id of any size, digits as received.
    Int(&'a str),
}

impl<'a> Id<'a> {
    /// The raw JSON text to echo.
    pub fn raw(&self) -> &'a str {
        match self {
            Id::Str(s) | Id::Int(s) => s,
        }
    }

    /// Classifies a raw JSON value as an id (`None`: not a valid id).
    pub fn from_raw(raw: &'a str) -> Option<Id<'a>> {
        let bytes = raw.as_bytes();
        match bytes.first()? {
            // serde_json has validated the literal, escapes included.
            b'"' => Some(Id::Str(raw)),
            b'-' | b'0'..=b'9' => {
                let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
                (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit))
                    .then_some(Id::Int(raw))
            }
            _ => None,
        }
    }
}

/// What the `id` member held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum IdField<'a> {
    #[default]
    Absent,
    Valid(Id<'a>),
    Invalid,
}

/// A decoded JSON object at the top of a line.
#[derive(Debug, Default)]
struct Envelope<'a> {
    jsonrpc: Option<Shallow<'a>>,
    id: IdField<'a>,
    id_seen_twice: bool,
    method: Option<Shallow<'a>>,
    params: Option<ParamsField<'a>>,
    has_result_or_error: bool,
    duplicate: bool,
}

/// What one line is, at the JSON-RPC level.
#[derive(Debug)]
pub enum Message<'a> {
    /// A request: answer it.
    Request {
        /// The id to echo.
        id: Id<'a>,
        /// The method.
        method: Cow<'a, str>,
        /// `params`, if present.
        params: Option<ParamsField<'a>>,
    },
    /// A notification: never answered. Its method and params are kept for
    /// the session, which follows the legacy `notifications/initialized`.
    Notification {
        /// The method.
        method: Cow<'a, str>,
        /// `params`, if present.
        params: Option<ParamsField<'a>>,
    },
    /// A response sent by the client: never answered.
    ClientResponse,
    /// Answer with this error; `id` is the id to echo, if readable.
    Error {
        /// The id to echo (`None`: null).
        id: Option<Id<'a>>,
        /// The error.
        error: RpcError<'static>,
    },
}

/// `-32700`.
pub(crate) const PARSE_ERROR: RpcError<'static> = RpcError::new(Code::ParseError, "Parse error");
/// `-32700`, for nesting at serde_json's limit: 128 levels (127 are read).
pub(crate) const TOO_DEEP: RpcError<'static> = RpcError::new(
    Code::ParseError,
    "Parse error: nested 128 or more levels deep",
);
/// `-32700`, for a number beyond the range of a 64-bit float (`1e400`)
/// anywhere but in `id` (ids are kept as raw text and never converted).
/// RFC 8259 section 9 lets a parser limit the range of numbers.
pub(crate) const OUT_OF_RANGE: RpcError<'static> =
    RpcError::new(Code::ParseError, "Parse error: a number is out of range");
/// `-32600` for JSON that is not an object.
pub(crate) const NOT_OBJECT: RpcError<'static> = RpcError::invalid_request(
    "Invalid request: a message must be a JSON object (batches are not part of MCP)",
);
/// `-32600` for duplicate member names.
pub(crate) const DUPLICATE: RpcError<'static> =
    RpcError::invalid_request("Invalid request: duplicate member names make the message ambiguous");
/// `-32600` for a wrong or missing `jsonrpc`.
pub(crate) const BAD_VERSION: RpcError<'static> =
    RpcError::invalid_request("Invalid request: jsonrpc must be \"2.0\"");
/// `-32600` for an id of the wrong type.
pub(crate) const BAD_ID: RpcError<'static> =
    RpcError::invalid_request("Invalid request: id must be a string or an integer");
/// `-32600` for a missing method.
pub(crate) const NO_METHOD: RpcError<'static> =
    RpcError::invalid_request("Invalid request: method is required");
/// `-32600` for a method that is not a string.
pub(crate) const METHOD_NOT_STRING: RpcError<'static> =
    RpcError::invalid_request("Invalid request: method must be a string");
/// `-32600` for a line over the configured limit.
pub(crate) const TOO_LONG: RpcError<'static> =
    RpcError::invalid_request("Invalid request: the line is longer than this server accepts");

/// Decodes one line (no newline) into a [`Message`].
pub(crate) fn decode(line: &[u8]) -> Message<'_> {
    // Checked up front so that every later step may assume UTF-8: serde_json
    // validates the strings it decodes, but not the ones it skips.
    let Ok(text) = std::str::from_utf8(line) else {
        return error(None, PARSE_ERROR);
    };
    // Performance: reading from a `str` rather than from bytes. The line is
    // valid UTF-8 as a whole, so serde_json need not validate each string
    // it decodes again (from bytes it would: about 15% of a request's cost,
    // see docs/performance.md). Escapes, control characters and lone
    // surrogates are checked the same way either way.
    let mut de = serde_json::Deserializer::from_str(text);
    let mut envelope = Envelope::default();
    let top = TopSeed { env: &mut envelope }
        .deserialize(&mut de)
        .and_then(|is_object| de.end().map(|()| is_object));
    match top {
        Ok(true) => {}
        Ok(false) => return error(None, NOT_OBJECT),
        Err(e) if message_starts_with(&e, "recursion limit exceeded") => {
            return error(None, TOO_DEEP);
        }
        Err(e) if message_starts_with(&e, "number out of range") => {
            return error(None, OUT_OF_RANGE);
        }
        Err(_) => return error(None, PARSE_ERROR),
    }
    classify(envelope)
}

/// Whether serde_json's message for `e` starts with `prefix`.
///
/// serde_json names its error kinds only in their `Display` text.
/// Performance: the text is compared as it is written and the formatting
/// stops at the first difference or once `prefix` is matched, so a parse
/// error costs no allocation (`to_string` would allocate the whole message,
/// position included, for every malformed line).
fn message_starts_with(e: &serde_json::Error, prefix: &str) -> bool {
    struct Prefix<'p> {
        rest: &'p str,
        matched: bool,
    }
    impl fmt::Write for Prefix<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let n = s.len().min(self.rest.len());
            match (self.rest.get(..n), s.get(..n), self.rest.get(n..)) {
                (Some(want), Some(got), Some(rest)) if want == got => {
                    self.rest = rest;
                    if rest.is_empty() {
                        self.matched = true;
                        // Matched: no need to format the rest.
                        return Err(fmt::Error);
                    }
                    Ok(())
                }
                // A difference, or a char boundary that is not one in
                // `prefix`: not a match; stop formatting.
                _ => Err(fmt::Error),
            }
        }
    }
    let mut p = Prefix {
        rest: prefix,
        matched: prefix.is_empty(),
    };
    let _ = fmt::write(&mut p, format_args!("{e}"));
    p.matched
}

fn error<'a>(id: Option<Id<'a>>, error: RpcError<'static>) -> Message<'a> {
    Message::Error { id, error }
}

fn classify(env: Envelope<'_>) -> Message<'_> {
    let id = match env.id {
        IdField::Valid(id) if !env.id_seen_twice => Some(id),
        _ => None,
    };
    // A response never gets a reply, even a malformed one: answering
    // responses could make two peers answer each other forever.
    if env.method.is_none() && env.has_result_or_error {
        return Message::ClientResponse;
    }
    if env.duplicate {
        return error(id, DUPLICATE);
    }
    if !matches!(&env.jsonrpc, Some(Shallow::Str(v)) if v == "2.0") {
        return error(id, BAD_VERSION);
    }
    if env.id == IdField::Invalid {
        return error(None, BAD_ID);
    }
    let method = match env.method {
        None => return error(id, NO_METHOD),
        Some(Shallow::Str(m)) => m,
        Some(_) => return error(id, METHOD_NOT_STRING),
    };
    match id {
        None => Message::Notification {
            method,
            params: env.params,
        },
        Some(id) => Message::Request {
            id,
            method,
            params: env.params,
        },
    }
}

/// The top-level value, decoded into `env` when it is an object; its
/// value says whether it was one.
///
/// Performance: the envelope (a few hundred bytes, most of it `params`) is
/// written in place, in the caller's frame. Returned as a value, it would
/// be copied once per layer of serde_json's deserializer it passes back
/// through; those copies were about a tenth of a request's cost.
struct TopSeed<'e, 'de> {
    env: &'e mut Envelope<'de>,
}

impl<'de> DeserializeSeed<'de> for TopSeed<'_, 'de> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_, 'de> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let env = self.env;
        let mut dup = false;
        crate::json::visit_object(&mut map, &mut dup, |key, map, dup| {
            match key {
                "jsonrpc" => env.jsonrpc = Some(map.next_value_seed(ScanSeed { dup })?),
                "id" => {
                    let raw: &'de RawValue = map.next_value()?;
                    // The raw text skipped serde_json's string decoding, which
                    // is what refuses lone surrogate escapes ("\ud800"):
                    // decode it once so an id is held to the same rule as
                    // every other string of the message.
                    if raw.get().starts_with('"')
                        && serde_json::from_str::<Str<'_>>(raw.get()).is_err()
                    {
                        return Err(serde::de::Error::custom("invalid string"));
                    }
                    if env.id != IdField::Absent {
                        env.id_seen_twice = true;
                    }
                    env.id = match Id::from_raw(raw.get()) {
                        Some(id) => IdField::Valid(id),
                        None => IdField::Invalid,
                    };
                }
                "method" => env.method = Some(map.next_value_seed(ScanSeed { dup })?),
                "params" => {
                    let out = env.params.insert(ParamsField::default());
                    map.next_value_seed(ParamsSeed { dup, out })?;
                }
                "result" | "error" => {
                    env.has_result_or_error = true;
                    map.next_value_seed(ScanSeed { dup })?;
                }
                // Unknown top-level members are ignored, like unknown params.
                _ => {
                    map.next_value_seed(ScanSeed { dup })?;
                }
            }
            Ok(())
        })?;
        env.duplicate = dup;
        Ok(true)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        // Walked like any other value, so that a batch is held to the same
        // depth and string rules before it is refused as not an object.
        let mut dup = false;
        ScanSeed { dup: &mut dup }.visit_seq(seq).map(|_| false)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(false)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(false)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(false)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(false)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(false)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(false)
    }
}

fn write_id(out: &mut Vec<u8>, id: Option<&Id<'_>>) {
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    match id {
        Some(id) => out.extend_from_slice(id.raw().as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends `{"jsonrpc":"2.0","id":ID,"result":BODY}` and a newline.
///
/// `body` is a rendered result object: rendering once and splicing the id
/// is what makes a constant reply cost a copy.
pub(crate) fn write_result(out: &mut Vec<u8>, id: &Id<'_>, body: &[u8]) {
    write_id(out, Some(id));
    out.extend_from_slice(b",\"result\":");
    out.extend_from_slice(body);
    out.extend_from_slice(b"}\n");
}

/// Appends an error reply and a newline. `supported_json` is the rendered
/// list of supported versions, for errors that carry it.
pub(crate) fn write_error(
    out: &mut Vec<u8>,
    id: Option<&Id<'_>>,
    error: &RpcError<'_>,
    supported_json: &[u8],
) {
    write_error_text(
        out,
        id,
        error.code,
        error.message,
        &error.data,
        supported_json,
    );
}

/// [`write_error`] with a message made for this request: the HTTP
/// binding's `-32020`, whose message names the header and both values
/// (row H10). Every other error's message is a constant.
pub(crate) fn write_error_text(
    out: &mut Vec<u8>,
    id: Option<&Id<'_>>,
    code: Code,
    message: &str,
    data: &ErrorData<'_>,
    supported_json: &[u8],
) {
    write_id(out, id);
    out.extend_from_slice(b",\"error\":{\"code\":");
    out.extend_from_slice(code.wire().as_bytes());
    out.extend_from_slice(b",\"message\":");
    write_str(out, message);
    match data {
        ErrorData::None => {}
        ErrorData::Supported => {
            out.extend_from_slice(b",\"data\":{\"supported\":");
            out.extend_from_slice(supported_json);
            out.push(b'}');
        }
        ErrorData::SupportedAndRequested(requested) => {
            out.extend_from_slice(b",\"data\":{\"supported\":");
            out.extend_from_slice(supported_json);
            out.extend_from_slice(b",\"requested\":");
            write_str(out, requested);
            out.push(b'}');
        }
        ErrorData::Uri(uri) => {
            out.extend_from_slice(b",\"data\":{\"uri\":");
            write_str(out, uri);
            out.push(b'}');
        }
        ErrorData::RequiredCapabilities(bits) => {
            out.extend_from_slice(b",\"data\":{\"requiredCapabilities\":{");
            // Each capability once, in `Need::ALL`'s order, as an object
            // of the sub-capabilities missing (row I14): `{"elicitation":
            // {"form":{}}}`, `{"sampling":{"tools":{}}}`, `{"roots":{}}`.
            let mut first = true;
            for capability in ["elicitation", "roots", "sampling"] {
                let mut needs = Need::ALL
                    .into_iter()
                    .filter(|n| n.capability() == capability && bits & n.bit() != 0)
                    .peekable();
                if needs.peek().is_none() {
                    continue;
                }
                if !first {
                    out.push(b',');
                }
                first = false;
                write_str(out, capability);
                out.extend_from_slice(b":{");
                for (n, sub) in needs.filter_map(Need::sub).enumerate() {
                    if n > 0 {
                        out.push(b',');
                    }
                    write_str(out, sub);
                    out.extend_from_slice(b":{}");
                }
                out.push(b'}');
            }
            out.extend_from_slice(b"}}");
        }
    }
    out.extend_from_slice(b"}}\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(line: &str) -> String {
        match decode(line.as_bytes()) {
            Message::Request { id, method, .. } => format!("request {} {method}", id.raw()),
            Message::Notification { .. } => "notification".into(),
            Message::ClientResponse => "response".into(),
            Message::Error { id, error } => {
                format!(
                    "error {} {}",
                    id.map_or("null", |i| i.raw()),
                    error.code.wire()
                )
            }
        }
    }

    #[test]
    fn ids() {
        for id in [
            "0",
            "-1",
            "18446744073709551616",
            "123456789012345678901234567890",
            "\"x\"",
            "\"\"",
            "\"é\\u00e9\"",
        ] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#);
            assert_eq!(kind(&line), format!("request {id} m"));
        }
        for id in ["null", "1.5", "1.0", "1e3", "-0.0", "true", "{}", "[]"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#);
            assert_eq!(kind(&line), "error null -32600", "{id}");
        }
    }

    #[test]
    fn envelope_classes() {
        assert_eq!(kind("{"), "error null -32700");
        assert_eq!(kind("[]"), "error null -32600");
        assert_eq!(
            kind("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}]"),
            "error null -32600"
        );
        assert_eq!(kind("5"), "error null -32600");
        assert_eq!(kind(r#"{"jsonrpc":"2.0","method":"m"}"#), "notification");
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#), "response");
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}"#),
            "response"
        );
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":1}"#), "error 1 -32600");
        assert_eq!(
            kind(r#"{"jsonrpc":"1.0","id":1,"method":"m"}"#),
            "error 1 -32600"
        );
        assert_eq!(kind(r#"{"id":1,"method":"m"}"#), "error 1 -32600");
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"method":7}"#),
            "error 1 -32600"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"id":1,"method":"m"}"#),
            "error null -32600"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"method":"m","method":"m"}"#),
            "error 1 -32600"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}"#),
            "error 1 -32600"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2}}"#),
            "error null -32600"
        );
        assert_eq!(
            kind("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"} x"),
            "error null -32700"
        );
        assert_eq!(
            kind("{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"m\"}"),
            "error null -32700"
        );
        assert_eq!(
            kind("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\\ud800\"}"),
            "error null -32700"
        );
        assert_eq!(
            kind("{\"jsonrpc\":\"2.0\",\"id\":1,\"x\":[\"\\udc00\"]}"),
            "error null -32700"
        );
        assert_eq!(kind("[\"\\udc00\"]"), "error null -32700");
    }

    #[test]
    fn invalid_utf8_and_depth() {
        let mut line = br#"{"jsonrpc":"2.0","id":1,"method":""#.to_vec();
        line.extend_from_slice(&[0xff, b'"', b'}']);
        assert!(
            matches!(decode(&line), Message::Error { id: None, error } if error == PARSE_ERROR)
        );
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(
            matches!(decode(deep.as_bytes()), Message::Error { id: None, error } if error == TOO_DEEP)
        );
        let huge = r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":[1e400]}}"#;
        assert!(
            matches!(decode(huge.as_bytes()), Message::Error { id: None, error } if error == OUT_OF_RANGE)
        );
        let huge_id = r#"{"jsonrpc":"2.0","id":1e400,"method":"m"}"#;
        assert!(
            matches!(decode(huge_id.as_bytes()), Message::Error { id: None, error } if error == BAD_ID)
        );
        let deep_params = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{}{}}}"#,
            "{\"a\":".repeat(200),
            "}".repeat(200)
        );
        assert!(
            matches!(decode(deep_params.as_bytes()), Message::Error { id: None, error } if error == TOO_DEEP)
        );
    }

    #[test]
    fn error_message_prefix() {
        let e = serde_json::from_str::<serde_json::Value>(&"[".repeat(200)).unwrap_err();
        assert!(e.to_string().starts_with("recursion limit exceeded"));
        assert!(message_starts_with(&e, "recursion limit exceeded"));
        assert!(message_starts_with(&e, ""));
        assert!(!message_starts_with(&e, "recursion limit exceeded!"));
        let e = serde_json::from_str::<serde_json::Value>("{").unwrap_err();
        assert!(!message_starts_with(&e, "recursion limit exceeded"));
        assert!(message_starts_with(&e, &e.to_string()));
    }

    #[test]
    fn error_encoding() {
        let mut out = Vec::new();
        let err = RpcError {
            code: Code::UnsupportedProtocolVersion,
            message: "Unsupported protocol version",
            data: ErrorData::SupportedAndRequested("1900-\"01\"".into()),
        };
        write_error(&mut out, Some(&Id::Int("7")), &err, br#"["2026-07-28"]"#);
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol version\",\"data\":{\"supported\":[\"2026-07-28\"],\"requested\":\"1900-\\\"01\\\"\"}}}\n"
        );
    }
}
