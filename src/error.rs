//! The JSON-RPC error codes this server may emit, and the one error type
//! every layer returns.
//!
//! Row W2 of docs/behavior.md: the codes are `-32700`, `-32600`, `-32601`,
//! `-32602` (JSON-RPC 2.0 section 5.1), `-32022` (MCP 2026-07-28
//! `schema.ts` `UnsupportedProtocolVersionError`) and, on HTTP only,
//! `-32020` (`HeaderMismatchError`, row H10), `-32021`
//! (`MissingRequiredClientCapabilityError`, row I3: a configured
//! multi round-trip request that needs an input kind the request does not
//! declare), and no other. This enum is the only way to build an error, so
//! no stray code can reach the wire. `-32603` (internal error) is not here
//! because nothing could emit it: the configuration is validated at load
//! (docs/spec-coverage.md, BASE-15). The range `-32000..-32099` is reserved
//! by MCP.

use std::borrow::Cow;

/// An error code the server may put on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// `-32700`: the line is not JSON (or not UTF-8). The id is null.
    ParseError,
    /// `-32600`: JSON, but not a valid JSON-RPC request object.
    InvalidRequest,
    /// `-32601`: the method does not exist here.
    MethodNotFound,
    /// `-32602`: the params (or `_meta`) are missing or malformed, or name an
    /// unknown tool or an invalid cursor.
    InvalidParams,
    /// `-32022`: the request's protocol version is not served here.
    UnsupportedProtocolVersion,
    /// `-32020`: an HTTP request's mirrored headers are missing, malformed
    /// or disagree with its body (the HTTP binding only, row H10).
    HeaderMismatch,
    /// `-32021`: the request needs a client capability its
    /// `clientCapabilities` does not declare (row I3).
    MissingRequiredClientCapability,
}

impl Code {
    /// The number as it is written on the wire, in decimal.
    ///
    /// Performance: a constant, so encoding an error reply formats nothing
    /// and allocates nothing.
    pub const fn wire(self) -> &'static str {
        match self {
            Code::ParseError => "-32700",
            Code::InvalidRequest => "-32600",
            Code::MethodNotFound => "-32601",
            Code::InvalidParams => "-32602",
            Code::UnsupportedProtocolVersion => "-32022",
            Code::HeaderMismatch => "-32020",
            Code::MissingRequiredClientCapability => "-32021",
        }
    }
}

/// What goes into `error.data`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorData<'a> {
    /// No `data` member.
    None,
    /// `{"supported": [...]}`: the versions this server serves.
    Supported,
    /// `{"supported": [...], "requested": "..."}` (UnsupportedProtocolVersionError).
    SupportedAndRequested(Cow<'a, str>),
    /// `{"uri": "..."}`: the uri a `resources/read` asked for, as the
    /// client sent it (row R6; `server/resources.mdx#error-handling`).
    Uri(Cow<'a, str>),
    /// `{"requiredCapabilities": {...}}` (MissingRequiredClientCapabilityError):
    /// per missing capability an object of its missing sub-capabilities
    /// (row I14), as the bits of `crate::config::input::Need::bit`.
    RequiredCapabilities(u8),
}

/// A JSON-RPC error, before it is given an id and encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError<'a> {
    /// The code.
    pub code: Code,
    /// One concise sentence. Always a constant: no request text is echoed
    /// in a message, so messages can neither leak nor break the framing.
    pub message: &'static str,
    /// The `data` member.
    pub data: ErrorData<'a>,
}

impl<'a> RpcError<'a> {
    /// An error without data.
    pub const fn new(code: Code, message: &'static str) -> Self {
        RpcError {
            code,
            message,
            data: ErrorData::None,
        }
    }

    /// `-32602` with the given message.
    pub const fn invalid_params(message: &'static str) -> Self {
        RpcError::new(Code::InvalidParams, message)
    }

    /// `-32600` with the given message.
    pub const fn invalid_request(message: &'static str) -> Self {
        RpcError::new(Code::InvalidRequest, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_specified_numbers() {
        let all = [
            (Code::ParseError, -32700),
            (Code::InvalidRequest, -32600),
            (Code::MethodNotFound, -32601),
            (Code::InvalidParams, -32602),
            (Code::UnsupportedProtocolVersion, -32022),
            (Code::HeaderMismatch, -32020),
            (Code::MissingRequiredClientCapability, -32021),
        ];
        for (code, n) in all {
            assert_eq!(code.wire(), n.to_string());
            // Never a code MCP reserves without defining it.
            assert!(!(-32019..=-32000).contains(&n));
            assert!(!(-32099..=-32020).contains(&n) || [-32020, -32021, -32022].contains(&n));
        }
    }
}
