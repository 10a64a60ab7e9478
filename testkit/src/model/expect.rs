//! What the model says a reply must be: the kinds of result ([`Body`]),
//! the reply itself ([`Reply`]: silence, an error, a result) and the
//! model's answer for one line ([`Expect`]: the reply and the rows of
//! `docs/behavior.md` that decided it), with the error codes row W2 allows
//! on the wire. Every module of the model builds these; this one imports
//! none of them but the row registry ([`super::rows`]), so the model is
//! layers, not a circle (`tests/layout.rs`).

use serde_json::Value;

use super::rows;

/// The `_meta` key of the request's log level (rows M12, T13).
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// `LoggingLevel` of the 2026-07-28 schema (row M12).
pub const LOG_LEVELS: &[&str] = &[
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// Row W2: every error code the server may put on the wire in a
/// configuration without multi round-trip targets, and no other (`-32603`
/// is never emitted; `-32021` only by an `input_required` target, rows I3 and I14,
/// whose model is [`super::input`]: docs/behavior.md, row W2).
pub const ERROR_CODES: &[i64] = &[-32700, -32600, -32601, -32602, -32022];

/// The era a reply is shaped for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28: results carry `resultType` and serverInfo `_meta`.
    Modern,
    /// 2025-11-25 / 2025-06-18 through the handshake: neither.
    Legacy,
}

/// The kind of a result, with what the configuration fixes of its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// `server/discover` (D1).
    Discover,
    /// `tools/list` (D2, L8).
    ToolsList,
    /// `get_order` of this order of the user's (T4, T7).
    Order(String),
    /// `get_order` of an order the user may not read, or of none (T5).
    NotVisible,
    /// Arguments that break this tool's `inputSchema` (T6, T9, L11).
    InvalidArguments(&'static str),
    /// `lookup_stock` of this product (T8).
    Stock(String),
    /// `lookup_stock` of a product not in the table (T8).
    UnknownProduct,
    /// `initialize`, negotiated to this legacy version (L1, L2).
    Initialize(String),
    /// `ping`'s empty result (L7).
    Empty,
    /// `resources/list` (R1).
    ResourcesList,
    /// `resources/templates/list` (R2).
    TemplatesList,
    /// `resources/read` of this static resource (R4).
    ReadResource(String),
    /// `resources/read` of this order of the user's, through the template (R5).
    ReadOrder(String),
    /// `resources/read` through this configured template of this value, at
    /// this uri (R8).
    ReadTemplate(String, String, String),
    /// `prompts/list` (P1).
    PromptsList,
    /// `prompts/get` of this prompt, for this order of the user's, in this
    /// tone (P3, P4).
    Prompt(String, Option<String>, &'static str),
    /// `completion/complete`: these values, of this many matches (C1, C2).
    Completion(Vec<String>, usize),
    /// The configured result of this content tool (T10).
    Content(String),
    /// `prompts/get` of this configured prompt with these argument values
    /// (P11).
    ContentPrompt(String, std::collections::BTreeMap<String, String>),
    /// A call of this content tool with arguments it does not take (T11),
    /// or that break its configured `inputSchema` (T14).
    NoArguments(String),
}

impl Body {
    /// The method whose result this is.
    pub fn method(&self) -> &'static str {
        match self {
            Body::Discover => "server/discover",
            Body::ToolsList => "tools/list",
            Body::Initialize(_) => "initialize",
            Body::Empty => "ping",
            Body::ResourcesList => "resources/list",
            Body::TemplatesList => "resources/templates/list",
            Body::ReadResource(_) | Body::ReadOrder(_) | Body::ReadTemplate(..) => "resources/read",
            Body::PromptsList => "prompts/list",
            Body::Prompt(..) | Body::ContentPrompt(..) => "prompts/get",
            Body::Completion(..) => "completion/complete",
            _ => "tools/call",
        }
    }

    /// The tool that runs for this result, if any.
    pub fn tool(&self) -> Option<&str> {
        match self {
            Body::Order(_) | Body::NotVisible => Some(GET_ORDER),
            Body::Stock(_) | Body::UnknownProduct => Some(LOOKUP_STOCK),
            Body::Content(name) => Some(name),
            _ => None,
        }
    }
}

/// What the reply to a line must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// No reply.
    Silence,
    /// A JSON-RPC error.
    Error {
        /// The raw JSON text of the id to echo (`None`: null).
        id: Option<String>,
        /// The code.
        code: i64,
        /// The exact message.
        message: String,
        /// The exact `data`, if any (`None`: no `data` member).
        data: Option<Value>,
    },
    /// A result.
    Result {
        /// The raw JSON text of the id to echo.
        id: String,
        /// Its era's shape.
        era: Era,
        /// Its kind and content.
        body: Body,
    },
    /// A reply to a request to an input target that is no fixed error
    /// (rows I2, I4, I9, I11 to I13: an `InputRequiredResult` or the
    /// target's result), judged whole by the model of multi round-trip
    /// requests (`super::input::check`) at the epoch.
    Input {
        /// The raw JSON text of the id to echo.
        id: String,
        /// The request as that model reads it: a `serde_json::Value`
        /// whose id is `0`.
        request: Value,
        /// The input tool that runs (I12 of a tool), if any.
        runs: Option<String>,
    },
    /// The contract does not say (see [`super::Refusal::Unsure`]).
    Unknown,
}

/// The model's answer for one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect {
    /// The row of `docs/behavior.md` that decided the reply.
    pub row: &'static str,
    /// Rows that also applied on the way (an id echoed, members ignored,
    /// a carriage return stripped, the legacy path's lists).
    pub notes: Vec<&'static str>,
    /// The reply.
    pub reply: Reply,
    /// The notifications the request's own `_meta` asked for, each the
    /// compact JSON (members sorted) of one line that must come, in this
    /// order, before the reply (rows T12, T13): "at most one response per
    /// request, after only the notifications its own `_meta` asked for".
    pub notices: Vec<String>,
}

/// The tool names the model knows.
pub const GET_ORDER: &str = "get_order";
/// See [`GET_ORDER`].
pub const LOOKUP_STOCK: &str = "lookup_stock";

impl Expect {
    /// An expectation decided by `row`.
    pub fn new(row: &'static str, reply: Reply) -> Expect {
        Expect {
            row,
            notes: Vec::new(),
            reply,
            notices: Vec::new(),
        }
    }

    /// The fixed error of `row` (from the registry), with `id`.
    pub fn fixed(row: &'static str, id: Option<String>) -> Expect {
        let (code, message) = rows::fixed(row);
        Expect::new(
            row,
            Reply::Error {
                id,
                code,
                message,
                data: None,
            },
        )
    }

    /// Adds a row that also applied.
    pub fn note(mut self, row: &'static str) -> Expect {
        if !self.notes.contains(&row) {
            self.notes.push(row);
        }
        self
    }

    /// Every row this expectation names: the deciding one, then the notes,
    /// then W1 (the canonical form) when a reply is due, and W2 (the codes
    /// that may be emitted) when an error with one of them is due.
    pub fn rows(&self) -> impl Iterator<Item = &'static str> + '_ {
        let form = (self.replies() == Some(true)).then_some("W1");
        let codes = self
            .code()
            .filter(|c| ERROR_CODES.contains(c))
            .map(|_| "W2");
        std::iter::once(self.row)
            .chain(self.notes.iter().copied())
            .chain(form)
            .chain(codes)
    }

    /// Whether a reply is due (`None`: the model cannot tell).
    pub fn replies(&self) -> Option<bool> {
        match self.reply {
            Reply::Silence => Some(false),
            Reply::Unknown => None,
            _ => Some(true),
        }
    }

    /// The tool that must run exactly once: `Some(None)` when none may run,
    /// `None` when the model cannot tell.
    pub fn runs(&self) -> Option<Option<&str>> {
        match &self.reply {
            Reply::Unknown => None,
            Reply::Result { body, .. } => Some(body.tool()),
            Reply::Input { runs, .. } => Some(runs.as_deref()),
            _ => Some(None),
        }
    }

    /// The error code, for an error.
    pub fn code(&self) -> Option<i64> {
        match &self.reply {
            Reply::Error { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// The body, for a result.
    pub fn body(&self) -> Option<&Body> {
        match &self.reply {
            Reply::Result { body, .. } => Some(body),
            _ => None,
        }
    }
}
