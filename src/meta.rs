//! Per-request metadata and protocol versions: decoding `params` and its
//! `_meta`, checking the required fields, and deciding whether the request's
//! version is served.
//!
//! The checks, in order (decision DEC9, refined below):
//!
//! 1. `params` present and an object, with an object `_meta`: else `-32602`.
//! 2. `io.modelcontextprotocol/protocolVersion` present and a string: else
//!    `-32602`.
//! 3. That version served here: else `-32022` with `supported` and
//!    `requested` (`supported` names the modern versions, then any legacy
//!    versions served through `initialize`; a legacy version in `_meta`
//!    gets [`LEGACY_IN_META`] as its message). This comes before the other
//!    `_meta` fields because their shape is defined by the version: a
//!    server cannot judge them under a version it does not speak, and a
//!    client must always learn that it should retry with another version.
//! 4. `io.modelcontextprotocol/clientCapabilities` present and an object
//!    (and each capability this revision defines an object): else `-32602`.
//! 5. The optional fields, when present, of their schema type
//!    (`clientInfo` an `Implementation`, `logLevel` a `LoggingLevel`,
//!    `progressToken` a string or integer): else `-32602`.
//!
//! Unknown `_meta` members are ignored (forward compatibility). `clientInfo`
//! is checked for shape only and never read again: it is self-reported and
//! no decision rests on it.
//!
//! Spec: 2026-07-28 `basic/index.mdx`, "`_meta`" (required keys; a request
//! missing them MUST be rejected with `-32602`); `basic/versioning.mdx`,
//! "Protocol Version Negotiation" (`UnsupportedProtocolVersionError`,
//! MUST list the supported versions) and "Backward Compatibility with
//! Initialization-Based Versions" (a modern-only server SHOULD name its
//! versions in any error to `initialize`).

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};

use crate::config::input::Need;
use crate::dispatch::MethodParams;
use crate::error::{Code, ErrorData, RpcError};
use crate::json::{ScanSeed, Shallow, visit_object};

/// The `params` member of a request.
// The object variant is the large one and the common one: boxing it, as the
// lint suggests, would cost an allocation per request, which the decoders
// avoid (docs/performance.md).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamsField<'a> {
    /// An object.
    Object(Params<'a>),
    /// Anything else.
    Other(Shallow<'a>),
}

impl Default for ParamsField<'_> {
    /// An object with no members: the slot [`ParamsSeed`] decodes into.
    fn default() -> Self {
        ParamsField::Object(Params::default())
    }
}

/// A decoded `params` object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params<'a> {
    /// `_meta`.
    pub meta: MetaField<'a>,
    /// The method's own members.
    pub method: MethodParams<'a>,
}

/// The `_meta` member of `params`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum MetaField<'a> {
    /// Not there.
    #[default]
    Absent,
    /// Not an object.
    NotObject,
    /// An object.
    Object(Meta<'a>),
}

/// What a decoded `_meta` object holds, as far as the checks need.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta<'a> {
    /// `io.modelcontextprotocol/protocolVersion`.
    pub protocol_version: Option<Shallow<'a>>,
    /// `io.modelcontextprotocol/clientCapabilities`: `Some(true)` when it is
    /// an object whose defined capabilities are objects.
    pub client_capabilities_ok: Option<bool>,
    /// The input capabilities and sub-capabilities `clientCapabilities`
    /// declares (objects named `elicitation`, `roots`, `sampling`, and in
    /// them `form`, `url`, `tools`, `context`; an `elicitation` naming no
    /// mode is form mode), as the bits of `crate::config::input::Need::bit`:
    /// what a multi round-trip request may ask this request's client for
    /// (rows I3, I14).
    pub declared: u8,
    /// `io.modelcontextprotocol/clientInfo`: `Some(true)` when it is an
    /// `Implementation`.
    pub client_info_ok: Option<bool>,
    /// `io.modelcontextprotocol/logLevel`.
    pub log_level: Option<Shallow<'a>>,
    /// `progressToken`.
    pub progress_token: Option<Shallow<'a>>,
}

/// `_meta` key of the protocol version.
pub(crate) const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of the client capabilities.
pub(crate) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of the client identity.
pub(crate) const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of the log level.
pub(crate) const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// `LoggingLevel` of the schema (RFC 5424 severities), stated once in the
/// configuration layer (a content tool's log messages name them too).
pub(crate) use crate::catalog::LOG_LEVELS;

/// Decodes a `params` value into `out`.
///
/// Performance: in place, for the reason given at the envelope's seed
/// (`params` is the largest part of a decoded request, and a returned value
/// would be copied once per deserializer layer). `out` is normally a fresh
/// [`ParamsField::default`].
pub(crate) struct ParamsSeed<'d, 'o, 'de> {
    /// Set when a duplicate member name is found anywhere inside.
    pub dup: &'d mut bool,
    /// Where the decoded value goes.
    pub out: &'o mut ParamsField<'de>,
}

impl<'de> DeserializeSeed<'de> for ParamsSeed<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> ParamsSeed<'_, '_, 'de> {
    fn other<E>(self, value: Shallow<'de>) -> Result<(), E> {
        *self.out = ParamsField::Other(value);
        Ok(())
    }
}

impl<'de> Visitor<'de> for ParamsSeed<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("params")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if !matches!(self.out, ParamsField::Object(_)) {
            *self.out = ParamsField::default();
        }
        let ParamsField::Object(params) = self.out else {
            return Ok(());
        };
        visit_object(&mut map, self.dup, |key, map, dup| {
            if key == "_meta" {
                let out = &mut params.meta;
                *out = MetaField::Object(Meta::default());
                map.next_value_seed(MetaSeed { dup, out })
            } else {
                params.method.visit_member(key, map, dup)
            }
        })
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        let value = ScanSeed { dup: self.dup }.visit_seq(seq)?;
        self.other(value)
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.other(Shallow::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.other(Shallow::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.other(Shallow::Integer(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.other(Shallow::Integer(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.other(Shallow::Number(v.to_bits()))
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        self.other(Shallow::Str("".into()))
    }
}

/// Decodes a `_meta` value into `out` (in place, like [`ParamsSeed`]);
/// `out` is normally a fresh `MetaField::Object(Meta::default())`.
struct MetaSeed<'d, 'o, 'de> {
    dup: &'d mut bool,
    out: &'o mut MetaField<'de>,
}

impl<'de> DeserializeSeed<'de> for MetaSeed<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> MetaSeed<'_, '_, 'de> {
    fn not_object<E>(self) -> Result<(), E> {
        *self.out = MetaField::NotObject;
        Ok(())
    }
}

impl<'de> Visitor<'de> for MetaSeed<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("_meta")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if !matches!(self.out, MetaField::Object(_)) {
            *self.out = MetaField::Object(Meta::default());
        }
        let MetaField::Object(meta) = self.out else {
            return Ok(());
        };
        visit_object(&mut map, self.dup, |key, map, dup| {
            match key {
                PROTOCOL_VERSION => {
                    meta.protocol_version = Some(map.next_value_seed(ScanSeed { dup })?)
                }
                CLIENT_CAPABILITIES => {
                    meta.client_capabilities_ok = Some(map.next_value_seed(ShapeSeed {
                        dup,
                        shape: Shape::Capabilities,
                        declared: &mut meta.declared,
                    })?)
                }
                CLIENT_INFO => {
                    meta.client_info_ok = Some(map.next_value_seed(ShapeSeed {
                        dup,
                        shape: Shape::Implementation,
                        declared: &mut 0,
                    })?)
                }
                LOG_LEVEL => meta.log_level = Some(map.next_value_seed(ScanSeed { dup })?),
                "progressToken" => {
                    meta.progress_token = Some(map.next_value_seed(ScanSeed { dup })?)
                }
                _ => {
                    map.next_value_seed(ScanSeed { dup })?;
                }
            }
            Ok(())
        })
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        ScanSeed { dup: self.dup }.visit_seq(seq)?;
        self.not_object()
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.not_object()
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        self.not_object()
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        self.not_object()
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        self.not_object()
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        self.not_object()
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        self.not_object()
    }
}

/// Object shapes of `_meta` values that are checked member by member.
#[derive(Clone, Copy)]
enum Shape {
    /// `ClientCapabilities`: an object; each capability the schema defines
    /// (`elicitation`, `experimental`, `extensions`, `roots`, `sampling`)
    /// is itself an object.
    Capabilities,
    /// `Implementation`: `name` and `version` strings; `title`,
    /// `description` and `websiteUrl` strings and `icons` an array when
    /// present.
    Implementation,
}

struct ShapeSeed<'d> {
    dup: &'d mut bool,
    shape: Shape,
    /// Where the declared input capabilities go ([`Meta::declared`]).
    declared: &'d mut u8,
}

impl<'de> DeserializeSeed<'de> for ShapeSeed<'_> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        let shape = self.shape;
        let mut dup = false;
        let mut ok = true;
        let mut name = false;
        let mut version = false;
        let mut declared = 0u8;
        let mut subs = Subs::default();
        let is_object = d.deserialize_any(ShapeVisitor {
            dup: &mut dup,
            subs: matches!(shape, Shape::Capabilities).then_some(&mut subs),
            on_member: &mut |key: &str, value: &Shallow<'_>| match shape {
                Shape::Capabilities => {
                    if matches!(
                        key,
                        "elicitation" | "experimental" | "extensions" | "roots" | "sampling"
                    ) && *value != Shallow::Object
                    {
                        ok = false;
                    }
                    if *value == Shallow::Object {
                        declared |= match key {
                            "elicitation" => ELICITATION,
                            "roots" => Need::Roots.bit(),
                            "sampling" => Need::Sampling.bit(),
                            _ => 0,
                        };
                    }
                }
                Shape::Implementation => match key {
                    "name" => name = value.as_str().is_some(),
                    "version" => version = value.as_str().is_some(),
                    "title" | "description" | "websiteUrl" if value.as_str().is_none() => {
                        ok = false
                    }
                    "icons" if *value != Shallow::Array => ok = false,
                    _ => {}
                },
            },
        })?;
        if dup {
            *self.dup = true;
        }
        *self.declared = subs.declared(declared);
        Ok(is_object
            && ok
            && match shape {
                Shape::Capabilities => true,
                Shape::Implementation => name && version,
            })
    }
}

/// A mark, in the bits [`ShapeSeed`] gathers, for an `elicitation`
/// object: never a [`Need`] bit (those are 1 to 32).
const ELICITATION: u8 = 128;

/// The members of `elicitation` and `sampling` that declare a
/// sub-capability (row I14), as the capabilities object is scanned.
#[derive(Default)]
struct Subs {
    /// `form` an object (1), `url` an object (2), `form` or `url`
    /// present at all (4).
    elicitation: u8,
    /// `tools` an object (1), `context` an object (2).
    sampling: u8,
}

impl Subs {
    /// The [`Need`] bits declared, from the capabilities declared as
    /// objects (`top`: [`ELICITATION`], `roots`, `sampling`): an
    /// `elicitation` object declares the modes it has as objects, and form
    /// mode when it names neither mode ("an empty capabilities object is
    /// equivalent to declaring support for form mode only",
    /// `client/elicitation.mdx`); a `sampling` object declares
    /// `sampling.tools` and `sampling.context` when they are objects.
    fn declared(&self, top: u8) -> u8 {
        let mut bits = top & !ELICITATION;
        if top & ELICITATION != 0 {
            if self.elicitation & 1 != 0 || self.elicitation & 4 == 0 {
                bits |= Need::ElicitationForm.bit();
            }
            if self.elicitation & 2 != 0 {
                bits |= Need::ElicitationUrl.bit();
            }
        }
        if top & Need::Sampling.bit() != 0 {
            if self.sampling & 1 != 0 {
                bits |= Need::SamplingTools.bit();
            }
            if self.sampling & 2 != 0 {
                bits |= Need::SamplingContext.bit();
            }
        }
        bits
    }
}

/// A capability's value, scanned as [`ScanSeed`] scans it, noting which of
/// its members `marks` names are objects (mark bit) or present (`present`
/// bit, for the members marked with one).
struct SubSeed<'d> {
    dup: &'d mut bool,
    /// Member name, bit when it is an object, bit when it is present.
    marks: &'static [(&'static str, u8, u8)],
    out: &'d mut u8,
}

impl<'de> DeserializeSeed<'de> for SubSeed<'_> {
    type Value = Shallow<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Shallow<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SubSeed<'_> {
    type Value = Shallow<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a capability object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shallow<'de>, A::Error> {
        let (marks, out) = (self.marks, self.out);
        visit_object(&mut map, self.dup, |key, map, dup| {
            let value = map.next_value_seed(ScanSeed { dup })?;
            if let Some((_, object, present)) = marks.iter().find(|(name, _, _)| *name == key) {
                *out |= present;
                if value == Shallow::Object {
                    *out |= object;
                }
            }
            Ok(())
        })?;
        Ok(Shallow::Object)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Shallow<'de>, A::Error> {
        ScanSeed { dup: self.dup }.visit_seq(seq)
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
    fn visit_str<E>(self, v: &str) -> Result<Shallow<'de>, E> {
        Ok(Shallow::Str(std::borrow::Cow::Owned(v.to_owned())))
    }
}

struct ShapeVisitor<'d, 'f> {
    dup: &'d mut bool,
    /// For `ClientCapabilities`: where the sub-capabilities go.
    subs: Option<&'d mut Subs>,
    on_member: &'f mut dyn FnMut(&str, &Shallow<'_>),
}

impl<'de> Visitor<'de> for ShapeVisitor<'_, '_> {
    /// Whether the value was an object.
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let on_member = self.on_member;
        let mut subs = self.subs;
        visit_object(&mut map, self.dup, |key, map, dup| {
            let value = match (subs.as_deref_mut(), key) {
                (Some(subs), "elicitation") => map.next_value_seed(SubSeed {
                    dup,
                    marks: &[("form", 1, 4), ("url", 2, 4)],
                    out: &mut subs.elicitation,
                })?,
                (Some(subs), "sampling") => map.next_value_seed(SubSeed {
                    dup,
                    marks: &[("tools", 1, 0), ("context", 2, 0)],
                    out: &mut subs.sampling,
                })?,
                _ => map.next_value_seed(ScanSeed { dup })?,
            };
            on_member(key, &value);
            Ok(())
        })?;
        Ok(true)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
        ScanSeed { dup: self.dup }.visit_seq(seq).map(|_| false)
    }
    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
}

/// `-32602`: no `params` at all.
pub(crate) const NO_PARAMS: RpcError<'static> =
    RpcError::invalid_params("Invalid params: every request needs params with _meta");
/// `-32602`: `params` is not an object.
pub(crate) const PARAMS_NOT_OBJECT: RpcError<'static> =
    RpcError::invalid_params("Invalid params: params must be an object");
/// `-32602`: no `_meta`.
pub(crate) const NO_META: RpcError<'static> =
    RpcError::invalid_params("Invalid params: params._meta is required");
/// `-32602`: `_meta` is not an object.
pub(crate) const META_NOT_OBJECT: RpcError<'static> =
    RpcError::invalid_params("Invalid params: params._meta must be an object");
/// `-32602`: no protocol version.
pub(crate) const NO_VERSION: RpcError<'static> =
    RpcError::invalid_params("Invalid params: _meta needs io.modelcontextprotocol/protocolVersion");
/// `-32602`: protocol version not a string.
pub(crate) const VERSION_NOT_STRING: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: io.modelcontextprotocol/protocolVersion must be a string",
);
/// `-32602`: no client capabilities.
pub(crate) const NO_CAPABILITIES: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: _meta needs io.modelcontextprotocol/clientCapabilities",
);
/// `-32602`: client capabilities malformed.
pub(crate) const BAD_CAPABILITIES: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: io.modelcontextprotocol/clientCapabilities must be a ClientCapabilities object",
);
/// `-32602`: client info malformed.
pub(crate) const BAD_CLIENT_INFO: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: io.modelcontextprotocol/clientInfo must be an Implementation with string name and version",
);
/// `-32602`: log level not a `LoggingLevel`.
pub(crate) const BAD_LOG_LEVEL: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: io.modelcontextprotocol/logLevel must be a LoggingLevel such as \"info\"",
);
/// `-32602`: progress token neither string nor integer.
pub(crate) const BAD_PROGRESS_TOKEN: RpcError<'static> =
    RpcError::invalid_params("Invalid params: progressToken must be a string or an integer");
/// `-32022` message.
pub(crate) const UNSUPPORTED: &str = "Unsupported protocol version";
/// Message of the error to `initialize` when the legacy path is off.
pub(crate) const NO_HANDSHAKE: &str = "Unsupported protocol version: this server has no initialize handshake; use one of data.supported";

/// Row D7: `-32601` for an `initialize` that carries modern `_meta`: a
/// method 2026-07-28 does not have (`basic/transports/streamable-http.mdx`:
/// 404 and `-32601` over HTTP, MUST), naming the supported versions
/// (`basic/versioning.mdx`, SHOULD, DEC11).
pub(crate) const INITIALIZE_REMOVED: RpcError<'static> = RpcError {
    code: Code::MethodNotFound,
    message: "Method not found: initialize was removed in protocol version 2026-07-28; send server/discover or any request with one of data.supported",
    data: ErrorData::Supported,
};

/// `-32022` message for a `_meta` that names a legacy version this server
/// serves only through the `initialize` handshake.
pub(crate) const LEGACY_IN_META: &str = "Unsupported protocol version: a legacy version is served only \
     through the initialize handshake, not in _meta";

/// The protocol versions served, with their wire form rendered once.
#[derive(Debug, Clone)]
pub struct Versions {
    supported: Vec<String>,
    legacy: Vec<String>,
    supported_json: Vec<u8>,
}

impl Versions {
    /// A dual-era server: `supported`, the versions a request's `_meta` may
    /// name, in the order they are listed in errors and in
    /// `server/discover`; and `legacy`,
    /// the versions served through the `initialize` handshake. The legacy
    /// versions are never accepted in `_meta`, and `server/discover` does
    /// not list them; the `supported` list of error data names them after
    /// the modern ones (see `docs/behavior.md`, "Legacy path").
    pub fn dual_era(supported: Vec<String>, legacy: Vec<String>) -> Self {
        let advertised: Vec<&String> = supported.iter().chain(&legacy).collect();
        let supported_json = serde_json::to_vec(&advertised).unwrap_or_else(|_| b"[]".to_vec());
        Versions {
            supported,
            legacy,
            supported_json,
        }
    }

    /// The versions served to modern requests.
    pub fn supported(&self) -> &[String] {
        &self.supported
    }

    /// `["2026-07-28", ...]`, ready to splice into `error.data`: the modern
    /// versions, then the legacy ones.
    pub fn supported_json(&self) -> &[u8] {
        &self.supported_json
    }

    /// Checks `params` and its `_meta` for a modern request (steps 1 to 5 of
    /// the module documentation).
    pub fn check<'a>(&self, params: Option<&ParamsField<'a>>) -> Result<(), RpcError<'a>> {
        let params = match params {
            None => return Err(NO_PARAMS),
            Some(ParamsField::Other(_)) => return Err(PARAMS_NOT_OBJECT),
            Some(ParamsField::Object(p)) => p,
        };
        let meta = match &params.meta {
            MetaField::Absent => return Err(NO_META),
            MetaField::NotObject => return Err(META_NOT_OBJECT),
            MetaField::Object(m) => m,
        };
        let version = match &meta.protocol_version {
            None => return Err(NO_VERSION),
            Some(Shallow::Str(v)) => v,
            Some(_) => return Err(VERSION_NOT_STRING),
        };
        if !self.supported.iter().any(|s| s == version) {
            let legacy = self.legacy.iter().any(|s| s == version);
            return Err(RpcError {
                code: Code::UnsupportedProtocolVersion,
                message: if legacy { LEGACY_IN_META } else { UNSUPPORTED },
                data: ErrorData::SupportedAndRequested(version.clone()),
            });
        }
        match meta.client_capabilities_ok {
            None => return Err(NO_CAPABILITIES),
            Some(false) => return Err(BAD_CAPABILITIES),
            Some(true) => {}
        }
        if meta.client_info_ok == Some(false) {
            return Err(BAD_CLIENT_INFO);
        }
        if let Some(level) = &meta.log_level
            && !level.as_str().is_some_and(|l| LOG_LEVELS.contains(&l))
        {
            return Err(BAD_LOG_LEVEL);
        }
        if let Some(token) = &meta.progress_token {
            // `ProgressToken` is `string | integer`. An integer beyond 64
            // bits is refused too: this server could not echo it in a
            // progress notification without a big-number type.
            if !matches!(token, Shallow::Str(_) | Shallow::Integer(_)) {
                return Err(BAD_PROGRESS_TOKEN);
            }
        }
        Ok(())
    }

    /// Row D7 (DEC11): whether an `initialize` is a modern request, its
    /// `params._meta` naming `io.modelcontextprotocol/protocolVersion`.
    /// `basic/versioning.mdx` ("A request carrying modern per-request
    /// `_meta` is served statelessly according to this revision"): it is
    /// checked as every modern request is and answered as a method this
    /// revision does not have ([`INITIALIZE_REMOVED`]).
    pub fn is_modern(params: Option<&ParamsField<'_>>) -> bool {
        matches!(
            params,
            Some(ParamsField::Object(Params {
                meta: MetaField::Object(Meta {
                    protocol_version: Some(_),
                    ..
                }),
                ..
            }))
        )
    }

    /// The error to an `initialize` request when the legacy path is off:
    /// `-32022` naming the supported versions, with `requested` set to the
    /// asked version when it is a string (decision DEC11). Without a
    /// string version there is nothing to put in the required `requested`,
    /// so the reply is `-32602`, still naming the supported versions in
    /// `data.supported`.
    pub fn initialize_error<'a>(&self, params: Option<&ParamsField<'a>>) -> RpcError<'a> {
        let requested = match params {
            Some(ParamsField::Object(p)) => match &p.method.protocol_version {
                Some(Shallow::Str(v)) => Some(v.clone()),
                _ => None,
            },
            _ => None,
        };
        match requested {
            Some(v) => RpcError {
                code: Code::UnsupportedProtocolVersion,
                message: NO_HANDSHAKE,
                data: ErrorData::SupportedAndRequested(v),
            },
            None => RpcError {
                code: Code::InvalidParams,
                message: "Invalid params: initialize needs a string protocolVersion, and this \
                          server has no initialize handshake; use one of data.supported",
                data: ErrorData::Supported,
            },
        }
    }
}
