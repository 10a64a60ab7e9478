//! The structured request model of the `respond_structured` and `session`
//! fuzz targets: an [`arbitrary`]-derived description of one request line
//! (its rendering to a line is [`super::render`]'s, which depends on this
//! module and not the other way round).
//!
//! Every enum lists its well-formed choice first, so that the empty input
//! decodes to a well-formed `tools/call get_order` request and short inputs
//! stay close to the interesting paths; the other choices break one thing
//! each (a wrong id kind, a malformed `_meta`, a duplicate member, a cut
//! line, ...). What the server must answer is the model's to say
//! (`Request::expect`, in [`super::render`], asks
//! [`crate::model::expect_line`]); this module only describes requests.
//! The rows it aims at are those of `docs/behavior.md` sections "Framing",
//! "Envelope", "`_meta` and protocol versions", "Methods" and "Tools".

use arbitrary::Arbitrary;

use crate::model::{Esc, Json};

/// An object with plainly written names, members in order, duplicates
/// kept.
pub fn obj(members: Vec<(String, Json)>) -> Json {
    Json::Obj(
        members
            .into_iter()
            .map(|(k, v)| (k, Esc::Plain, v))
            .collect(),
    )
}

/// A short string chosen by the fuzzer (at most 24 characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text(pub String);

impl<'a> Arbitrary<'a> for Text {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let s: String = u.arbitrary()?;
        Ok(Text(s.chars().take(24).collect()))
    }
}

/// A value that is not a string.
#[derive(Debug, Clone, Arbitrary)]
pub enum NonString {
    /// `null`
    Null,
    /// a boolean
    Bool(bool),
    /// an integer
    Int(i64),
    /// `1.5`
    Float,
    /// `[1]`
    Array,
    /// `{}`
    Object,
}

impl NonString {
    pub(super) fn json(&self) -> Json {
        match self {
            NonString::Null => Json::Null,
            NonString::Bool(b) => Json::Bool(*b),
            NonString::Int(i) => Json::int(i),
            NonString::Float => Json::Num("1.5".into()),
            NonString::Array => Json::Arr(vec![Json::int(1)]),
            NonString::Object => obj(Vec::new()),
        }
    }
}

/// A value that is not an object.
#[derive(Debug, Clone, Arbitrary)]
pub enum NonObject {
    /// `null`
    Null,
    /// a boolean
    Bool(bool),
    /// an integer
    Int(i64),
    /// a string
    Str(Text),
    /// `[]`
    Array,
}

impl NonObject {
    pub(super) fn json(&self) -> Json {
        match self {
            NonObject::Null => Json::Null,
            NonObject::Bool(b) => Json::Bool(*b),
            NonObject::Int(i) => Json::int(i),
            NonObject::Str(s) => Json::str(s.0.clone()),
            NonObject::Array => Json::Arr(Vec::new()),
        }
    }
}

/// A member value for unknown members.
#[derive(Debug, Clone, Arbitrary)]
pub enum Filler {
    /// a string
    Str(Text),
    /// an integer
    Int(i64),
    /// a non-string
    Other(NonString),
    /// an object with one member
    Obj(Text, Text),
    /// arrays nested `n + 1` deep (up to 256): deep nesting
    Nested(u8),
}

impl Filler {
    pub(super) fn json(&self) -> Json {
        match self {
            Filler::Str(s) => Json::str(s.0.clone()),
            Filler::Int(i) => Json::int(i),
            Filler::Other(v) => v.json(),
            Filler::Obj(k, v) => obj(vec![(k.0.clone(), Json::str(v.0.clone()))]),
            Filler::Nested(n) => {
                let n = usize::from(*n) + 1;
                (0..n).fold(Json::Arr(Vec::new()), |inner, _| Json::Arr(vec![inner]))
            }
        }
    }
}

/// An unknown member: its name is prefixed with `x-` so it never collides
/// with a member the server reads.
#[derive(Debug, Clone, Arbitrary)]
pub struct Extra {
    /// name, after `x-`
    pub key: Text,
    /// value
    pub value: Filler,
}

pub(super) fn push_extras(members: &mut Vec<(String, Json)>, extras: &[Extra]) {
    for e in extras.iter().take(4) {
        members.push((format!("x-{}", e.key.0), e.value.json()));
    }
}

/// `jsonrpc`.
#[derive(Debug, Clone, Arbitrary)]
pub enum JsonRpc {
    /// `"2.0"`
    Two,
    /// absent
    Missing,
    /// another string
    Wrong(Text),
    /// not a string
    NotString(NonString),
}

/// The request id.
#[derive(Debug, Clone, Arbitrary)]
pub enum IdModel {
    /// an integer that fits in 64 bits
    Int(i64),
    /// an integer of any size: sign and digits (leading zeros trimmed)
    Big(bool, Vec<u8>),
    /// a string
    Str(Text),
    /// a string written with `\u` escapes
    Escaped(Text),
    /// a lone surrogate escape: not a valid string
    LoneSurrogate,
    /// absent: a notification
    Missing,
    /// `null`
    Null,
    /// `1.5`
    Fraction,
    /// `1e3`
    Exponent,
    /// `1.0`
    PointZero,
    /// a boolean
    Bool(bool),
    /// `[1]`
    Array,
    /// `{"id":1}`
    Object,
}

impl IdModel {
    /// The id member's value, `None` when absent.
    pub fn json(&self) -> Option<Json> {
        Some(match self {
            IdModel::Int(i) => Json::int(i),
            IdModel::Big(neg, digits) => {
                let mut s: String = digits
                    .iter()
                    .take(80)
                    .map(|d| char::from(b'0' + d % 10))
                    .collect::<String>()
                    .trim_start_matches('0')
                    .to_string();
                if s.is_empty() {
                    s.push('1');
                }
                // Always beyond 64 bits, so the echo cannot be a round trip
                // through a machine integer.
                s.push_str("00000000000000000000");
                if *neg {
                    s.insert(0, '-');
                }
                Json::Num(s)
            }
            IdModel::Str(s) => Json::str(s.0.clone()),
            IdModel::Escaped(s) => Json::Str(s.0.clone(), Esc::Unicode),
            IdModel::LoneSurrogate => Json::LoneSurrogate,
            IdModel::Missing => return None,
            IdModel::Null => Json::Null,
            IdModel::Fraction => Json::Num("1.5".into()),
            IdModel::Exponent => Json::Num("1e3".into()),
            IdModel::PointZero => Json::Num("1.0".into()),
            IdModel::Bool(b) => Json::Bool(*b),
            IdModel::Array => Json::Arr(vec![Json::int(1)]),
            IdModel::Object => obj(vec![("id".into(), Json::int(1))]),
        })
    }

    /// Whether the id is a valid request id (string or integer).
    pub fn is_valid(&self) -> bool {
        matches!(
            self,
            IdModel::Int(_) | IdModel::Big(..) | IdModel::Str(_) | IdModel::Escaped(_)
        )
    }
}

/// The method.
#[derive(Debug, Clone, Arbitrary)]
pub enum MethodModel {
    /// `tools/call`
    ToolsCall,
    /// `server/discover`
    Discover,
    /// `tools/list`
    ToolsList,
    /// `initialize` (removed; legacy path)
    Initialize,
    /// `ping` (removed)
    Ping,
    /// `logging/setLevel` (removed)
    SetLevel,
    /// `notifications/initialized` (removed)
    Initialized,
    /// `resources/list` (offered by the catalog fixture only)
    ResourcesList,
    /// `resources/templates/list`
    TemplatesList,
    /// `resources/read` (its `name` stands for nothing: no `uri`, row R7)
    ResourcesRead,
    /// `prompts/list`
    PromptsList,
    /// `prompts/get`, with the request's `name` and `arguments`
    PromptsGet,
    /// `completion/complete` (no `ref`: row C3)
    Complete,
    /// any string
    Other(Text),
    /// absent
    Missing,
    /// not a string
    NotString(NonString),
}

impl MethodModel {
    /// The method name, when it is a string.
    pub fn name(&self) -> Option<String> {
        Some(match self {
            MethodModel::ToolsCall => "tools/call".into(),
            MethodModel::Discover => "server/discover".into(),
            MethodModel::ToolsList => "tools/list".into(),
            MethodModel::Initialize => "initialize".into(),
            MethodModel::Ping => "ping".into(),
            MethodModel::SetLevel => "logging/setLevel".into(),
            MethodModel::Initialized => "notifications/initialized".into(),
            MethodModel::ResourcesList => "resources/list".into(),
            MethodModel::TemplatesList => "resources/templates/list".into(),
            MethodModel::ResourcesRead => "resources/read".into(),
            MethodModel::PromptsList => "prompts/list".into(),
            MethodModel::PromptsGet => "prompts/get".into(),
            MethodModel::Complete => "completion/complete".into(),
            MethodModel::Other(s) => s.0.clone(),
            MethodModel::Missing | MethodModel::NotString(_) => return None,
        })
    }
}

/// A protocol version.
#[derive(Debug, Clone, Arbitrary)]
pub enum VersionModel {
    /// `2026-07-28`
    Modern,
    /// `2025-11-25` (true) or `2025-06-18` (false)
    Legacy(bool),
    /// absent
    Missing,
    /// another string
    Other(Text),
    /// not a string
    NotString(NonString),
}

impl VersionModel {
    /// The version string, when it is one.
    pub fn string(&self) -> Option<String> {
        match self {
            VersionModel::Modern => Some("2026-07-28".into()),
            VersionModel::Legacy(true) => Some("2025-11-25".into()),
            VersionModel::Legacy(false) => Some("2025-06-18".into()),
            VersionModel::Other(s) => Some(s.0.clone()),
            VersionModel::Missing | VersionModel::NotString(_) => None,
        }
    }
    pub(super) fn json(&self) -> Option<Json> {
        match self {
            VersionModel::Missing => None,
            VersionModel::NotString(v) => Some(v.json()),
            _ => self.string().map(Json::str),
        }
    }
}

/// A capability name in `clientCapabilities`.
#[derive(Debug, Clone, Arbitrary)]
pub enum CapName {
    /// `elicitation`
    Elicitation,
    /// `experimental`
    Experimental,
    /// `extensions`
    Extensions,
    /// `roots`
    Roots,
    /// `sampling`
    Sampling,
    /// another name (prefixed `x-`)
    Other(Text),
}

impl CapName {
    pub(super) fn name(&self) -> String {
        match self {
            CapName::Elicitation => "elicitation".into(),
            CapName::Experimental => "experimental".into(),
            CapName::Extensions => "extensions".into(),
            CapName::Roots => "roots".into(),
            CapName::Sampling => "sampling".into(),
            CapName::Other(s) => format!("x-{}", s.0),
        }
    }
}

/// `clientCapabilities`.
#[derive(Debug, Clone, Arbitrary)]
pub enum CapsModel {
    /// `{}`
    Empty,
    /// members: a name, and an object (`None`) or a non-object
    Members(Vec<(CapName, Option<NonObject>)>),
    /// absent
    Missing,
    /// not an object
    NotObject(NonObject),
}

/// The name a client calls itself in `clientInfo`.
#[derive(Debug, Clone, Arbitrary)]
pub enum ClientName {
    /// `administrator`
    Administrator,
    /// `admin`
    Admin,
    /// `root`
    Root,
    /// `tomas` (the owner of B-205)
    Tomas,
    /// `mira`
    Mira,
    /// any
    Other(Text),
}

impl ClientName {
    pub(super) fn name(&self) -> String {
        match self {
            ClientName::Administrator => "administrator".into(),
            ClientName::Admin => "admin".into(),
            ClientName::Root => "root".into(),
            ClientName::Tomas => "tomas".into(),
            ClientName::Mira => "mira".into(),
            ClientName::Other(s) => s.0.clone(),
        }
    }
}

/// How a `clientInfo` is broken.
#[derive(Debug, Clone, Arbitrary)]
pub enum Broken {
    /// no `name`
    NoName,
    /// no `version`
    NoVersion,
    /// `name` not a string
    NameNotString(NonString),
    /// `title` not a string
    TitleNotString(NonString),
    /// `icons` not an array
    IconsNotArray,
    /// not an object
    NotObject(NonObject),
}

/// `clientInfo`.
#[derive(Debug, Clone, Arbitrary)]
pub enum ClientInfoModel {
    /// a valid `Implementation`
    Valid {
        /// `name`
        name: ClientName,
        /// `version`
        version: Text,
        /// `title`
        title: Option<Text>,
    },
    /// absent
    Absent,
    /// malformed
    Broken(Broken),
}

impl ClientInfoModel {
    pub(super) fn json(&self) -> Option<Json> {
        match self {
            ClientInfoModel::Absent => None,
            ClientInfoModel::Valid {
                name,
                version,
                title,
            } => {
                let mut m = vec![
                    ("name".into(), Json::str(name.name())),
                    ("version".into(), Json::str(version.0.clone())),
                ];
                if let Some(t) = title {
                    m.push(("title".into(), Json::str(t.0.clone())));
                }
                Some(obj(m))
            }
            ClientInfoModel::Broken(b) => {
                let name = ("name".to_string(), Json::str("client"));
                let version = ("version".to_string(), Json::str("1.0"));
                Some(match b {
                    Broken::NoName => obj(vec![version]),
                    Broken::NoVersion => obj(vec![name]),
                    Broken::NameNotString(v) => obj(vec![("name".into(), v.json()), version]),
                    Broken::TitleNotString(v) => {
                        obj(vec![name, version, ("title".into(), v.json())])
                    }
                    Broken::IconsNotArray => {
                        obj(vec![name, version, ("icons".into(), obj(Vec::new()))])
                    }
                    Broken::NotObject(v) => v.json(),
                })
            }
        }
    }
}

/// `logLevel`.
#[derive(Debug, Clone, Arbitrary)]
pub enum LogLevelModel {
    /// absent
    Absent,
    /// one of the eight levels
    Valid(u8),
    /// another string
    Invalid(Text),
    /// not a string
    NotString(NonString),
}

/// `progressToken`.
#[derive(Debug, Clone, Arbitrary)]
pub enum TokenModel {
    /// absent
    Absent,
    /// a string
    Str(Text),
    /// an integer
    Int(i64),
    /// an integer beyond 64 bits
    Big,
    /// neither (or an integer, when the fuzzer picks one)
    Other(NonString),
}

/// `params._meta`.
#[derive(Debug, Clone, Arbitrary)]
pub struct MetaObject {
    /// `protocolVersion`
    pub version: VersionModel,
    /// `clientCapabilities`
    pub caps: CapsModel,
    /// `clientInfo`
    pub client_info: ClientInfoModel,
    /// `logLevel`
    pub log_level: LogLevelModel,
    /// `progressToken`
    pub token: TokenModel,
    /// unknown members
    pub extra: Vec<Extra>,
}

/// `params._meta`, or its absence.
#[derive(Debug, Clone, Arbitrary)]
pub enum MetaModel {
    /// an object
    Object(MetaObject),
    /// absent
    Missing,
    /// not an object
    NotObject(NonObject),
}

/// `params.name` of `tools/call`.
#[derive(Debug, Clone, Arbitrary)]
pub enum ToolName {
    /// `get_order`
    GetOrder,
    /// `lookup_stock`
    LookupStock,
    /// `cancel_order` (never offered)
    CancelOrder,
    /// absent
    Missing,
    /// any string
    Other(Text),
    /// not a string
    NotString(NonString),
}

impl ToolName {
    /// The `name` member's value, when present.
    pub fn json(&self) -> Option<Json> {
        match self {
            ToolName::GetOrder => Some(Json::str("get_order")),
            ToolName::LookupStock => Some(Json::str("lookup_stock")),
            ToolName::CancelOrder => Some(Json::str("cancel_order")),
            ToolName::Missing => None,
            ToolName::Other(s) => Some(Json::str(s.0.clone())),
            ToolName::NotString(v) => Some(v.json()),
        }
    }
}

/// An order id argument.
#[derive(Debug, Clone, Arbitrary)]
pub enum OrderRef {
    /// the n-th order the user may read (or a nonexistent one if none)
    Readable(u8),
    /// the n-th order of someone else (or a nonexistent one if none)
    Forbidden(u8),
    /// any string
    Other(Text),
    /// absent
    Missing,
    /// not a string
    NotString(NonString),
}

/// A product id argument.
#[derive(Debug, Clone, Arbitrary)]
pub enum ProductRef {
    /// absent
    Missing,
    /// the n-th product of the stock table (or a nonexistent one)
    Known(u8),
    /// any string
    Other(Text),
    /// not a string
    NotString(NonString),
}

/// `arguments` of `tools/call`.
#[derive(Debug, Clone, Arbitrary)]
pub struct ArgsObject {
    /// `order_id`
    pub order_id: OrderRef,
    /// `product_id`
    pub product_id: ProductRef,
    /// unknown members
    pub extra: Vec<Extra>,
}

/// `arguments`, or its absence.
#[derive(Debug, Clone, Arbitrary)]
pub enum ArgsModel {
    /// an object
    Object(ArgsObject),
    /// absent
    Missing,
    /// not an object
    NotObject(NonObject),
}

/// `params`.
#[derive(Debug, Clone, Arbitrary)]
pub struct ParamsObject {
    /// `_meta`
    pub meta: MetaModel,
    /// `name`
    pub name: ToolName,
    /// `arguments`
    pub arguments: ArgsModel,
    /// `cursor`
    pub cursor: Option<Text>,
    /// `protocolVersion` (the legacy `initialize` param)
    pub protocol_version: Option<VersionModel>,
    /// unknown members
    pub extra: Vec<Extra>,
}

/// `params`, or its absence.
#[derive(Debug, Clone, Arbitrary)]
pub enum ParamsModel {
    /// an object
    Object(Box<ParamsObject>),
    /// absent
    Missing,
    /// not an object
    NotObject(NonObject),
}

/// Where to write one member a second time.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum DupSpot {
    /// `id`
    Id,
    /// `method`
    Method,
    /// `jsonrpc`
    JsonRpc,
    /// `params`
    Params,
    /// `_meta`
    Meta,
    /// `protocolVersion` in `_meta`
    Version,
    /// `name`
    Name,
    /// `order_id` in `arguments`
    OrderId,
}

/// How the line is framed.
#[derive(Debug, Clone, Arbitrary)]
pub enum Framing {
    /// as rendered
    Plain,
    /// a trailing `\r`
    Cr,
    /// whitespace before and after
    Spaces,
    /// cut after `n` bytes (modulo the length)
    Truncated(u16),
    /// one byte appended
    Junk(u8),
}

/// A top-level `result` or `error` member (a response sent by a client).
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum ResponseMember {
    /// `result`
    Result,
    /// `error`
    Error,
}

/// One request line.
#[derive(Debug, Clone, Arbitrary)]
pub struct Request {
    /// which fixture server answers (see [`super::fixtures`])
    pub fixture: u8,
    /// `jsonrpc`
    pub jsonrpc: JsonRpc,
    /// `id`
    pub id: IdModel,
    /// `method`
    pub method: MethodModel,
    /// `params`
    pub params: ParamsModel,
    /// a `result` or `error` member
    pub response: Option<ResponseMember>,
    /// unknown top-level members
    pub extra: Vec<Extra>,
    /// a member written twice
    pub duplicate: Option<DupSpot>,
    /// framing
    pub framing: Framing,
}

/// An order id no fixture has.
pub const NONEXISTENT_ORDER: &str = "Z-000-no-such-order";

impl Request {
    /// The same request with `clientInfo` left out, when it has a valid one
    /// (its reply must be byte-identical: `clientInfo` is never a basis for
    /// any decision).
    pub fn without_client_info(&self) -> Option<Request> {
        let ParamsModel::Object(p) = &self.params else {
            return None;
        };
        let MetaModel::Object(m) = &p.meta else {
            return None;
        };
        if !matches!(m.client_info, ClientInfoModel::Valid { .. }) {
            return None;
        }
        let mut r = self.clone();
        if let ParamsModel::Object(p) = &mut r.params
            && let MetaModel::Object(m) = &mut p.meta
        {
            m.client_info = ClientInfoModel::Absent;
        }
        Some(r)
    }

    /// The request the empty input decodes to: a well-formed
    /// `tools/call get_order` for the first order the user may read.
    pub fn textbook() -> Request {
        Request {
            fixture: 0,
            jsonrpc: JsonRpc::Two,
            id: IdModel::Int(0),
            method: MethodModel::ToolsCall,
            params: ParamsModel::Object(Box::new(ParamsObject {
                meta: MetaModel::Object(MetaObject {
                    version: VersionModel::Modern,
                    caps: CapsModel::Empty,
                    client_info: ClientInfoModel::Absent,
                    log_level: LogLevelModel::Absent,
                    token: TokenModel::Absent,
                    extra: Vec::new(),
                }),
                name: ToolName::GetOrder,
                arguments: ArgsModel::Object(ArgsObject {
                    order_id: OrderRef::Readable(0),
                    product_id: ProductRef::Missing,
                    extra: Vec::new(),
                }),
                cursor: None,
                protocol_version: None,
                extra: Vec::new(),
            })),
            response: None,
            extra: Vec::new(),
            duplicate: None,
            framing: Framing::Plain,
        }
    }

    /// Replaces the `order_id` argument (when the request has an
    /// arguments object).
    pub fn set_order_id(&mut self, order: OrderRef) {
        if let ParamsModel::Object(p) = &mut self.params
            && let ArgsModel::Object(a) = &mut p.arguments
        {
            a.order_id = order;
        }
    }

    /// The same request asking for an order that does not exist instead of
    /// one the user may not read (the replies must be byte-identical).
    pub fn with_nonexistent_order(&self) -> Request {
        let mut r = self.clone();
        r.set_order_id(OrderRef::Other(Text(NONEXISTENT_ORDER.into())));
        r
    }
}
