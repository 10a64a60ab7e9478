//! The catalog of the configuration: the static resources, the order
//! template and the prompts a configuration may offer besides its tools
//! (rows R1 to R7, P1 to P10, C1 to C5 of docs/behavior.md; the textbook's
//! configuration offers none of them, so its `server/discover` stays
//! `capabilities: {"tools": {}}`).
//!
//! This is part of the configuration layer: typed, validated once at load
//! (`Catalog::validate`, called by [`crate::Config`]), knowing nothing of
//! JSON-RPC. What a request gets from it is decided above, in
//! `resources`, `prompts` and `completion`.
//!
//! | member | what | rows |
//! | --- | --- | --- |
//! | `resources` | policy texts and binary assets: uri, name, title, description, mimeType, annotations, and exactly one of `text` and `blob` (canonical Base64) | R1 to R4 |
//! | `order_template` | the RFC 6570 template `PREFIX{order_id}` through which the user reads an order snapshot | R2, R5, R6 |
//! | `prompts` | the names of the prompts offered (their texts are fixed in code, as tool descriptions are) | P1 to P7 |
//! | `content_prompts` | prompts whose messages are configured content blocks with `{{argument}}` placeholders, and the completions of their arguments | P11 to P13, C6 |
//! | `content_templates` | resource templates `PREFIX{name}SUFFIX` whose read is configured text with `{{name}}` replaced by the value | R2, R8 |
//! | `content_tools` | tools without arguments whose result is configured content blocks (text, image, audio, embedded resource) and `isError` (issue 38: the conformance suite's fixture tools) | T10, T11 |
//!
//! Spec: 2026-07-28 `server/resources.mdx` ("Resource", "Resource Contents",
//! "Annotations", "Custom URI Schemes": URIs follow RFC 3986; "Binary data
//! MUST be properly encoded"), `server/prompts.mdx` (embedded resources
//! MUST carry a valid URI, a MIME type and text or Base64 data),
//! `schema.ts` `Resource`, `ResourceTemplate`, `Annotations`.

use std::collections::BTreeSet;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

pub use crate::schema::InputSchema;

/// The prompt that drafts a reply to a customer about one of the user's
/// orders (arguments `order_id`, required, and `tone`, optional).
pub const REPLY_TO_CUSTOMER: &str = "reply_to_customer";
/// The prompt that answers a returns question from the returns policy.
pub const RETURNS_HELP: &str = "returns_help";
/// Every prompt this implementation can offer, in listing order (by name).
pub const PROMPT_NAMES: &[&str] = &[REPLY_TO_CUSTOMER, RETURNS_HELP];
/// The resource `returns_help` embeds; a configuration offering that
/// prompt must have it.
pub const RETURNS_POLICY_URI: &str = "book-orders://policies/returns";
/// The only variable an order template may hold.
pub const ORDER_VARIABLE: &str = "order_id";
/// The tones `reply_to_customer` takes, in the order completion lists
/// them; the first is the default.
pub const TONES: &[&str] = &["friendly", "formal", "brief"];
/// At most this many values in one completion (`server/utilities/completion.mdx`).
pub const MAX_COMPLETIONS: usize = 100;

/// `audience` values (`schema.ts` `Role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// `"user"`.
    User,
    /// `"assistant"`.
    Assistant,
}

impl Role {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// `schema.ts` `Annotations` of a resource.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Annotations {
    /// Who the resource is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance, from 0 to 1 (a JSON number, kept as written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<serde_json::Number>,
    /// An ISO 8601 (RFC 3339) time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// One static resource.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Resource {
    /// Its URI (RFC 3986, unique in the catalog).
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A title for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Text content (exactly one of `text` and `blob`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Binary content, canonical padded standard Base64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

/// The order template (`schema.ts` `ResourceTemplate`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OrderTemplate {
    /// `PREFIX{order_id}`: one variable, at the end.
    pub uri_template: String,
    /// Its name.
    pub name: String,
    /// A title for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of what it reads: always `application/json`.
    pub mime_type: String,
}

impl OrderTemplate {
    /// The literal part before `{order_id}`.
    pub fn prefix(&self) -> &str {
        self.uri_template
            .strip_suffix("{order_id}")
            .unwrap_or(&self.uri_template)
    }
}

/// The catalog beside the tools: empty in the textbook's configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalog {
    /// Static resources, in listing order (by uri).
    pub resources: Vec<Resource>,
    /// The order template, if offered.
    pub order_template: Option<OrderTemplate>,
    /// The prompts offered, in listing order (by name).
    pub prompts: Vec<String>,
    /// Tools whose answer is configured content, in listing order (by
    /// name).
    pub content_tools: Vec<ContentTool>,
    /// Prompts whose messages are configured content, in listing order
    /// (by name).
    pub content_prompts: Vec<ContentPrompt>,
    /// Resource templates whose reads are configured text, in listing
    /// order (by `uriTemplate`).
    pub content_templates: Vec<ContentTemplate>,
}

/// A resource template with one variable, `PREFIX{name}SUFFIX`, whose read
/// is its configured text with every `{{name}}` replaced by the value
/// (row R8). A value is 1 or more of RFC 3986's unreserved characters
/// (`A-Za-z0-9-._~`): what RFC 6570 simple expansion leaves as it is, so
/// the value needs no decoding and is copied as it appears in the uri.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContentTemplate {
    /// `PREFIX{name}SUFFIX`.
    pub uri_template: String,
    /// Its name.
    pub name: String,
    /// A title for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of what it reads.
    pub mime_type: String,
    /// The text of a read, `{{name}}` standing for the value.
    pub text: String,
}

impl ContentTemplate {
    /// The prefix, the variable's name and the suffix; `None` unless the
    /// template has exactly one `{name}`.
    pub fn parts(&self) -> Option<(&str, &str, &str)> {
        let (prefix, rest) = self.uri_template.split_once('{')?;
        let (name, suffix) = rest.split_once('}')?;
        (!suffix.contains(['{', '}'])).then_some((prefix, name, suffix))
    }

    /// The value `uri` gives the variable, if it is an expansion of this
    /// template.
    pub fn value<'u>(&self, uri: &'u str) -> Option<&'u str> {
        let (prefix, _, suffix) = self.parts()?;
        let value = uri.strip_prefix(prefix)?.strip_suffix(suffix)?;
        let unreserved = |b: u8| b.is_ascii_alphanumeric() || b"-._~".contains(&b);
        (!value.is_empty() && value.bytes().all(unreserved)).then_some(value)
    }

    /// The text of the read of `value`.
    pub fn text_of(&self, value: &str) -> Option<String> {
        let (_, name, _) = self.parts()?;
        substitute(&self.text, &|n: &str| (n == name).then(|| value.to_owned()))
    }

    fn validate(&self) -> Result<(), String> {
        let t = &self.uri_template;
        let shaped = self.parts().is_some_and(|(prefix, name, suffix)| {
            is_name(name) && is_uri(&format!("{prefix}x{suffix}"))
        });
        if !shaped || self.name.is_empty() || self.mime_type.is_empty() {
            return Err(format!(
                "content template {t:?} needs a uriTemplate that is a URI with exactly one {{variable}} (1 to 64 of A-Za-z0-9_.-), such as test://template/{{id}}/data, a name and a mimeType"
            ));
        }
        if self.text_of("x").is_none() {
            return Err(format!(
                "content template {t:?} has a {{{{placeholder}}}} in its text that is not its variable, or is not closed"
            ));
        }
        Ok(())
    }
}

/// A prompt whose messages are configured content blocks, in which
/// `{{name}}` stands for the value of the argument `name` (an absent
/// optional argument: the empty string). Values are data: they are copied
/// into the text where the configuration put the placeholder, never read
/// as anything else; a value that would make an embedded resource's uri
/// no URI is refused (rows P11 to P13).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContentPrompt {
    /// Its name: 1 to 64 of `A-Za-z0-9_.-`, unique among the prompts.
    pub name: String,
    /// A title for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its description.
    pub description: String,
    /// Its arguments, in listing order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<ContentArgument>,
    /// Its messages, at least one.
    pub messages: Vec<ContentMessage>,
}

/// An argument of a [`ContentPrompt`] (`schema.ts` `PromptArgument`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContentArgument {
    /// Its name: 1 to 64 of `A-Za-z0-9_.-`.
    pub name: String,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether `prompts/get` needs it.
    #[serde(default)]
    pub required: bool,
    /// What `completion/complete` suggests for it: those that start with
    /// the typed value, in this order (row C6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub completions: Vec<String>,
}

/// A message of a [`ContentPrompt`] (`schema.ts` `PromptMessage`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContentMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

/// `template` with every `{{name}}` replaced by `value(name)`; `None` when
/// a placeholder is not closed or `value` knows no such name. Replaced
/// text is never scanned again.
pub fn substitute(template: &str, value: &impl Fn(&str) -> Option<String>) -> Option<String> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(rest.get(..start)?);
        let after = rest.get(start + 2..)?;
        let end = after.find("}}")?;
        out.push_str(&value(after.get(..end)?)?);
        rest = after.get(end + 2..)?;
    }
    out.push_str(rest);
    Some(out)
}

/// Whether `name` is 1 to 64 of `A-Za-z0-9_.-`.
fn is_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
}

impl ContentPrompt {
    fn validate(&self) -> Result<(), String> {
        let n = &self.name;
        if !is_name(n) || [REPLY_TO_CUSTOMER, RETURNS_HELP].contains(&n.as_str()) {
            return Err(format!(
                "content prompt {n:?} needs a name of 1 to 64 of A-Za-z0-9_.- that no coded prompt (reply_to_customer, returns_help) has"
            ));
        }
        let mut names = BTreeSet::new();
        for a in &self.arguments {
            if !is_name(&a.name) || !names.insert(a.name.as_str()) {
                return Err(format!(
                    "content prompt {n:?} has an argument {:?} that is not a name of 1 to 64 of A-Za-z0-9_.- or appears twice",
                    a.name
                ));
            }
        }
        if self.messages.is_empty() {
            return Err(format!("content prompt {n:?} needs at least one message"));
        }
        // Every placeholder names an argument; with each replaced by a
        // plain value, every block is valid (a uri that holds a
        // placeholder is checked again per request, P13).
        let known = |name: &str| names.contains(name).then(|| "x:x".to_owned());
        for m in &self.messages {
            let filled = fill(&m.content, &known).ok_or_else(|| {
                format!("content prompt {n:?} has a {{{{placeholder}}}} that names none of its arguments, or is not closed")
            })?;
            if !valid_block(&filled) {
                return Err(format!(
                    "content prompt {n:?} has a content block that is not valid: image and audio need canonical Base64 data and a mimeType, a resource a URI and exactly one of text and canonical Base64 blob"
                ));
            }
        }
        Ok(())
    }
}

/// `content` with its placeholders replaced (text, and an embedded
/// resource's uri and text); `None` when one names nothing `value` knows.
pub fn fill(content: &Content, value: &impl Fn(&str) -> Option<String>) -> Option<Content> {
    Some(match content {
        Content::Text { text } => Content::Text {
            text: substitute(text, value)?,
        },
        Content::Resource { resource: r } => Content::Resource {
            resource: Embedded {
                uri: substitute(&r.uri, value)?,
                mime_type: r.mime_type.clone(),
                text: match &r.text {
                    Some(t) => Some(substitute(t, value)?),
                    None => None,
                },
                blob: r.blob.clone(),
            },
        },
        other => other.clone(),
    })
}

/// Whether a content block is valid: Base64 canonical, a mimeType where
/// one is needed, an embedded resource's uri a URI with exactly one of
/// text and blob.
pub fn valid_block(block: &Content) -> bool {
    match block {
        Content::Text { .. } => true,
        Content::Image { data, mime_type } | Content::Audio { data, mime_type } => {
            canonical_base64(data) && !mime_type.is_empty()
        }
        Content::Resource { resource: r } => {
            is_uri(&r.uri)
                && match (&r.text, &r.blob) {
                    (Some(_), None) => true,
                    (None, Some(blob)) => canonical_base64(blob),
                    _ => false,
                }
        }
    }
}

/// A tool that takes no arguments and answers with configured content
/// blocks (`schema.ts` `CallToolResult`): the fixture kind of tool the
/// official conformance suite calls (`test_simple_text`, ...). Its
/// `inputSchema` is the configured one (row T14, DEC50), or else
/// `{"type": "object", "additionalProperties": false}`; either is
/// enforced: arguments that break it get T6's kind of `isError` result.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContentTool {
    /// Its name: 1 to 64 of `A-Za-z0-9_.-` (DEC21), unique among the
    /// tools.
    pub name: String,
    /// A title for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its description.
    pub description: String,
    /// Its `inputSchema` (a JSON Schema 2020-12 of the subset
    /// [`InputSchema`] enforces, root `type: "object"`), published as
    /// configured; absent: no arguments (T11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<InputSchema>,
    /// The content blocks of its result, at least one.
    pub content: Vec<Content>,
    /// Whether the result reports a tool error (`isError: true`).
    #[serde(default)]
    pub is_error: bool,
    /// The `progress` values of the `notifications/progress` a call sends
    /// before its result, strictly increasing, when the request's `_meta`
    /// carries a `progressToken` (row T12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub progress: Vec<u64>,
    /// Their `total`, at least the last value, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress_total: Option<u64>,
    /// The `notifications/message` a call sends before its result, those
    /// at or above the request's `io.modelcontextprotocol/logLevel`, and
    /// none without it (row T13).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<LogMessage>,
}

/// A log message of a content tool (`schema.ts`
/// `LoggingMessageNotificationParams`; its `data` a string here).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LogMessage {
    /// Its `LoggingLevel`.
    pub level: String,
    /// The logger's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// What it says.
    pub data: String,
}

/// `LoggingLevel` of the schema (RFC 5424 severities), least severe
/// first: a message is sent when its level is at or after the asked one.
pub const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// A content block (`schema.ts` `ContentBlock`): text, an image or audio
/// as canonical Base64, or an embedded resource.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Content {
    /// `TextContent`.
    Text {
        /// The text.
        text: String,
    },
    /// `ImageContent`.
    Image {
        /// Canonical padded standard Base64.
        data: String,
        /// Its MIME type.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// `AudioContent`.
    Audio {
        /// Canonical padded standard Base64.
        data: String,
        /// Its MIME type.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// `EmbeddedResource`.
    Resource {
        /// The resource's contents.
        resource: Embedded,
    },
}

/// The contents of an embedded resource (`TextResourceContents` or
/// `BlobResourceContents`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Embedded {
    /// Its URI.
    pub uri: String,
    /// Its MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Text content (exactly one of `text` and `blob`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Binary content, canonical padded standard Base64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

/// Whether `text` is canonical padded standard Base64.
fn canonical_base64(text: &str) -> bool {
    STANDARD
        .decode(text)
        .is_ok_and(|bytes| STANDARD.encode(bytes) == text)
}

/// The names of the tools written in code: a content tool may not take one.
const CODED_TOOLS: [&str; 2] = ["get_order", "lookup_stock"];

impl ContentTool {
    fn validate(&self) -> Result<(), String> {
        let n = &self.name;
        if !is_name(n) || CODED_TOOLS.contains(&n.as_str()) {
            return Err(format!(
                "content tool {n:?} needs a name of 1 to 64 of A-Za-z0-9_.- that no coded tool (get_order, lookup_stock) has"
            ));
        }
        if self.content.is_empty() {
            return Err(format!(
                "content tool {n:?} needs at least one content block"
            ));
        }
        let increasing = self.progress.windows(2).all(|w| w[0] < w[1]);
        let total_ok = match (self.progress_total, self.progress.last()) {
            (Some(total), Some(last)) => total >= *last,
            (Some(_), None) => false,
            (None, _) => true,
        };
        if !increasing || !total_ok {
            return Err(format!(
                "content tool {n:?} needs progress values that strictly increase, and a progressTotal (only with progress) at least the last of them"
            ));
        }
        if let Some(m) = self
            .log
            .iter()
            .find(|m| !LOG_LEVELS.contains(&m.level.as_str()))
        {
            return Err(format!(
                "content tool {n:?} has a log message of level {:?}, which is not a LoggingLevel such as info",
                m.level
            ));
        }
        for block in &self.content {
            if !valid_block(block) {
                return Err(format!(
                    "content tool {n:?} has a content block that is not valid: image and audio need canonical Base64 data and a mimeType, a resource a URI and exactly one of text and canonical Base64 blob"
                ));
            }
        }
        Ok(())
    }
}

/// Whether `uri` has the shape of an RFC 3986 URI: a scheme
/// (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`), a colon, and only
/// visible ASCII after it (no spaces, no `"<>\^`{|}`).
pub fn is_uri(uri: &str) -> bool {
    let Some((scheme, rest)) = uri.split_once(':') else {
        return false;
    };
    let mut s = scheme.bytes();
    s.next().is_some_and(|b| b.is_ascii_alphabetic())
        && s.all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        && rest
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b"\"<>\\^`{|}".contains(&b))
}

impl Catalog {
    /// Sorts the lists into listing order (resources by uri, prompts by
    /// name), so that the order of a file never changes a reply.
    pub(crate) fn sort(&mut self) {
        self.resources.sort_by(|a, b| a.uri.cmp(&b.uri));
        self.prompts.sort();
        self.content_tools.sort_by(|a, b| a.name.cmp(&b.name));
        self.content_prompts.sort_by(|a, b| a.name.cmp(&b.name));
        self.content_templates
            .sort_by(|a, b| a.uri_template.cmp(&b.uri_template));
    }

    /// Checks everything a request will trust, once. `is_time` is the
    /// configuration's RFC 3339 check.
    pub(crate) fn validate(&self, is_time: fn(&str) -> bool) -> Result<(), String> {
        let mut names = BTreeSet::new();
        for tool in &self.content_tools {
            tool.validate()?;
            if !names.insert(tool.name.as_str()) {
                return Err(format!(
                    "content tool {:?} appears more than once",
                    tool.name
                ));
            }
        }
        let mut templates = BTreeSet::new();
        for t in &self.content_templates {
            t.validate()?;
            if !templates.insert(t.uri_template.as_str()) {
                return Err(format!(
                    "content template {:?} appears more than once",
                    t.uri_template
                ));
            }
        }
        let mut prompts = BTreeSet::new();
        for prompt in &self.content_prompts {
            prompt.validate()?;
            if !prompts.insert(prompt.name.as_str()) {
                return Err(format!(
                    "content prompt {:?} appears more than once",
                    prompt.name
                ));
            }
        }
        let mut uris = BTreeSet::new();
        for r in &self.resources {
            if !is_uri(&r.uri) {
                return Err(format!(
                    "resource uri {:?} is not a URI such as book-orders://policies/returns (a scheme, a colon, visible ASCII)",
                    r.uri
                ));
            }
            if !uris.insert(r.uri.as_str()) {
                return Err(format!("resource uri {:?} appears more than once", r.uri));
            }
            if r.name.is_empty() {
                return Err(format!("resource {:?} has an empty name", r.uri));
            }
            match (&r.text, &r.blob) {
                (Some(_), None) => {}
                (None, Some(blob)) => {
                    let canonical = STANDARD
                        .decode(blob)
                        .is_ok_and(|bytes| STANDARD.encode(bytes) == *blob);
                    if !canonical {
                        return Err(format!(
                            "resource {:?} has a blob that is not canonical padded Base64",
                            r.uri
                        ));
                    }
                }
                _ => {
                    return Err(format!(
                        "resource {:?} needs exactly one of text and blob",
                        r.uri
                    ));
                }
            }
            if let Some(a) = &r.annotations {
                let priority = a.priority.as_ref().map(serde_json::Number::as_f64);
                if priority.is_some_and(|p| !p.is_some_and(|p| (0.0..=1.0).contains(&p))) {
                    return Err(format!(
                        "resource {:?} has a priority outside 0 to 1",
                        r.uri
                    ));
                }
                if a.last_modified.as_deref().is_some_and(|t| !is_time(t)) {
                    return Err(format!(
                        "resource {:?} has a lastModified that is not an RFC 3339 date-time such as 2026-09-14T00:00:00Z",
                        r.uri
                    ));
                }
            }
        }
        if let Some(t) = &self.order_template {
            let prefix = t.prefix();
            // `is_uri` refuses `{` and `}`, so the prefix holds no other
            // expression.
            if prefix.len() == t.uri_template.len() || !is_uri(prefix) {
                return Err(format!(
                    "order_template.uriTemplate {:?} is not a URI followed by {{order_id}}, such as book-orders://orders/{{order_id}}",
                    t.uri_template
                ));
            }
            if t.name.is_empty() {
                return Err("order_template has an empty name".into());
            }
            if t.mime_type != "application/json" {
                return Err("order_template.mimeType must be application/json".into());
            }
            if let Some(r) = self.resources.iter().find(|r| r.uri.starts_with(prefix)) {
                return Err(format!(
                    "resource uri {:?} falls under order_template.uriTemplate; a static resource cannot share the orders' prefix",
                    r.uri
                ));
            }
        }
        let mut names = BTreeSet::new();
        for p in &self.prompts {
            if !PROMPT_NAMES.contains(&p.as_str()) {
                return Err(format!(
                    "prompts names {p:?}, which this implementation does not offer (it offers {})",
                    PROMPT_NAMES.join(", ")
                ));
            }
            if !names.insert(p.as_str()) {
                return Err(format!("prompts names {p:?} twice"));
            }
        }
        if names.contains(REPLY_TO_CUSTOMER) && self.order_template.is_none() {
            return Err(format!(
                "the prompt {REPLY_TO_CUSTOMER} embeds an order resource, so it needs order_template"
            ));
        }
        let policy = self.resources.iter().find(|r| r.uri == RETURNS_POLICY_URI);
        if names.contains(RETURNS_HELP) && policy.is_none_or(|p| p.mime_type.is_none()) {
            return Err(format!(
                "the prompt {RETURNS_HELP} embeds the returns policy, so it needs the resource {RETURNS_POLICY_URI} with a mimeType"
            ));
        }
        Ok(())
    }
}

/// RFC 6570 simple string expansion of one value: every byte outside the
/// unreserved set (`ALPHA / DIGIT / "-" / "." / "_" / "~"`) percent-encoded
/// with upper-case hex, UTF-8 first. The URI of an order is the template's
/// prefix followed by this expansion of its id.
pub fn expand(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        for ok in ["book-orders://policies/returns", "a:b", "x+y.z-1:/%41"] {
            assert!(is_uri(ok), "{ok}");
        }
        for bad in [
            "", "noscheme", "1a:b", ":x", "a b:c", "a:b c", "a:{x}", "a:\u{e9}",
        ] {
            assert!(!is_uri(bad), "{bad}");
        }
    }

    #[test]
    fn the_example_offers_everything_and_bad_catalogs_are_refused() {
        let example = crate::Config::from_json(include_bytes!("../data/config.example.json"));
        let c = example.unwrap();
        assert_eq!(c.catalog().resources.len(), 3);
        assert!(c.catalog().order_template.is_some());
        assert_eq!(c.catalog().prompts, [REPLY_TO_CUSTOMER, RETURNS_HELP]);
        assert_eq!(*crate::Config::default().catalog(), Catalog::default());
        let res = |extra: &str| {
            format!(
                r#"{{"resources":[{{"uri":"book-orders://policies/returns","name":"r","mimeType":"text/plain"{extra}}}]}}"#
            )
        };
        let t = r#""order_template":{"uriTemplate":"book-orders://orders/{order_id}","name":"order","mimeType":"application/json"}"#;
        let ct = |uri: &str, name: &str, mime: &str, text: &str| {
            serde_json::json!({"content_templates": [{"uriTemplate": uri, "name": name, "mimeType": mime, "text": text}]}).to_string()
        };
        let cases = [
            (res(r#","text":"x""#), ""),
            (res(r#","text":"x","blob":"AA==""#), "exactly one of text and blob"),
            (res(""), "exactly one of text and blob"),
            (res(r#","blob":"AA=""#), "canonical padded Base64"),
            (res(r#","blob":"AB==""#), "canonical padded Base64"),
            (res(r#","text":"x","annotations":{"priority":1.5}"#), "priority outside 0 to 1"),
            (res(r#","text":"x","annotations":{"lastModified":"today"}"#), "lastModified"),
            (res(r#","text":"x","annotations":{"audience":["robot"]}"#), "unknown variant"),
            (r#"{"resources":[{"uri":"no scheme","name":"r","text":"x"}]}"#.into(), "not a URI"),
            (r#"{"prompts":["cancel_order"]}"#.into(), "does not offer"),
            (r#"{"prompts":["reply_to_customer"]}"#.into(), "needs order_template"),
            (r#"{"prompts":["returns_help"]}"#.into(), "needs the resource"),
            (r#"{"resources":[{"uri":"book-orders://policies/other","name":"r","mimeType":"text/plain","text":"x"}],"prompts":["returns_help"]}"#.into(), "needs the resource"),
            (r#"{"resources":[{"uri":"book-orders://policies/returns","name":"r","text":"x"},{"uri":"book-orders://policies/z","name":"z","mimeType":"text/plain","text":"x"}],"prompts":["returns_help"]}"#.into(), "with a mimeType"),
            (format!("{{{t},\"prompts\":[\"reply_to_customer\",\"reply_to_customer\"]}}"), "twice"),
            (r#"{"order_template":{"uriTemplate":"book-orders://orders/","name":"o","mimeType":"application/json"}}"#.into(), "followed by {order_id}"),
            (r#"{"order_template":{"uriTemplate":"x://{a}/{order_id}","name":"o","mimeType":"application/json"}}"#.into(), "followed by {order_id}"),
            (r#"{"order_template":{"uriTemplate":"x://o/{order_id}","name":"o","mimeType":"text/plain"}}"#.into(), "application/json"),
            (format!("{{{t},\"resources\":[{{\"uri\":\"book-orders://orders/A-104\",\"name\":\"r\",\"text\":\"x\"}}]}}"), "falls under"),
            (ct("test://template/{id}/data", "t", "text/plain", "id {{id}}"), ""),
            (ct("test://template/{i d}/data", "t", "text/plain", "x"), "needs a uriTemplate"),
            (ct("test://template/{}/data", "t", "text/plain", "x"), "needs a uriTemplate"),
            (ct("no scheme/{id}", "t", "text/plain", "x"), "needs a uriTemplate"),
            (ct("test://template/{id}/{id2}", "t", "text/plain", "x"), "needs a uriTemplate"),
            (ct("test://template/{id}/data", "", "text/plain", "x"), "a name and a mimeType"),
            (ct("test://template/{id}/data", "t", "", "x"), "a name and a mimeType"),
            (ct("test://template/{id}/data", "t", "text/plain", "{{other}}"), "not its variable"),
            (ct("test://template/{id}/data", "t", "text/plain", "{{id"), "not closed"),
        ];
        for (json, expected) in cases {
            match crate::Config::from_json(json.as_bytes()) {
                Ok(_) => assert_eq!(expected, "", "{json} was accepted"),
                Err(e) => {
                    assert!(
                        !expected.is_empty() && e.to_string().contains(expected),
                        "{json}: {e}"
                    );
                }
            }
        }
    }

    /// Each refusal of a content tool or prompt, beside a neighbour that
    /// loads: the configuration either loads or is refused with a sentence
    /// naming what is wrong.
    #[test]
    fn content_tools_and_prompts_load_only_when_valid() {
        use serde_json::{Value, json};
        let load = |v: Value| crate::Config::from_json(v.to_string().as_bytes()).map(|_| ());
        // `base` with the members of `extra` set, as the one entry of `list`.
        let entry = |list: &str, mut base: Value, extra: Value| {
            if let (Some(b), Value::Object(extra)) = (base.as_object_mut(), extra) {
                b.extend(extra);
            }
            json!({ list: [base] })
        };
        let tool = |extra: Value| {
            let base = json!({"name": "t", "description": "d", "content": [{"type": "text", "text": "x"}]});
            entry("content_tools", base, extra)
        };
        let prompt = |extra: Value| {
            let base = json!({"name": "p", "description": "d", "messages": [{"role": "user", "content": {"type": "text", "text": "x"}}]});
            entry("content_prompts", base, extra)
        };
        let block = |b: Value| tool(json!({"content": [b]}));
        let n64 = "n".repeat(64);
        let n65 = "n".repeat(65);
        let good = [
            tool(json!({})),
            tool(json!({"name": n64})),
            tool(json!({"name": "a-b_c.9"})),
            tool(json!({"progress": [1, 2, 5], "progressTotal": 5})),
            tool(json!({"progress": [0]})),
            tool(json!({"log": [{"level": "emergency", "data": "x"}]})),
            block(json!({"type": "image", "data": "AAE=", "mimeType": "image/png"})),
            block(json!({"type": "audio", "data": "", "mimeType": "audio/wav"})),
            block(json!({"type": "resource", "resource": {"uri": "test://r", "blob": "AAE="}})),
            block(json!({"type": "resource", "resource": {"uri": "test://r", "text": "t"}})),
            prompt(json!({})),
            prompt(
                json!({"name": n64, "arguments": [{"name": "a"}, {"name": "b"}],
                "messages": [{"role": "user", "content": {"type": "text", "text": "{{a}} {{b}}"}}]}),
            ),
        ];
        for v in good {
            assert_eq!(load(v.clone()), Ok(()), "{v}");
        }
        let bad = [
            (tool(json!({"name": ""})), "needs a name"),
            (tool(json!({"name": n65})), "needs a name"),
            (tool(json!({"name": "a b"})), "needs a name"),
            (tool(json!({"name": "get_order"})), "needs a name"),
            (tool(json!({"content": []})), "at least one content block"),
            (tool(json!({"progress": [1, 1]})), "strictly increase"),
            (tool(json!({"progress": [2, 1]})), "strictly increase"),
            (
                tool(json!({"progress": [1, 5], "progressTotal": 4})),
                "progressTotal",
            ),
            (tool(json!({"progressTotal": 4})), "progressTotal"),
            (
                tool(json!({"log": [{"level": "loud", "data": "x"}]})),
                "LoggingLevel",
            ),
            (
                block(json!({"type": "image", "data": "AAE=", "mimeType": ""})),
                "not valid",
            ),
            (
                block(json!({"type": "image", "data": "AAF=", "mimeType": "image/png"})),
                "not valid",
            ),
            (
                block(json!({"type": "audio", "data": "AAE", "mimeType": "audio/wav"})),
                "not valid",
            ),
            (
                block(json!({"type": "resource", "resource": {"uri": "test://r", "blob": "AAF="}})),
                "not valid",
            ),
            (
                block(json!({"type": "resource", "resource": {"uri": "no uri", "text": "t"}})),
                "not valid",
            ),
            (
                block(
                    json!({"type": "resource", "resource": {"uri": "test://r", "text": "t", "blob": "AAE="}}),
                ),
                "not valid",
            ),
            (
                block(json!({"type": "resource", "resource": {"uri": "test://r"}})),
                "not valid",
            ),
            (prompt(json!({"name": ""})), "needs a name"),
            (prompt(json!({"name": "returns_help"})), "needs a name"),
            (prompt(json!({"arguments": [{"name": "a b"}]})), "argument"),
            (
                prompt(json!({"arguments": [{"name": "a"}, {"name": "a"}]})),
                "argument",
            ),
            (prompt(json!({"messages": []})), "at least one message"),
            (
                prompt(
                    json!({"messages": [{"role": "user", "content": {"type": "text", "text": "{{z}}"}}]}),
                ),
                "placeholder",
            ),
            (
                prompt(
                    json!({"messages": [{"role": "user", "content": {"type": "image", "data": "AAE=", "mimeType": ""}}]}),
                ),
                "not valid",
            ),
        ];
        for (v, says) in bad {
            match load(v.clone()) {
                Ok(()) => panic!("{v} was accepted"),
                Err(e) => assert!(e.to_string().contains(says), "{v}: {e}"),
            }
        }
    }

    #[test]
    fn expansion_encodes_all_but_unreserved() {
        assert_eq!(expand("A-104"), "A-104");
        assert_eq!(expand("a b/c~_."), "a%20b%2Fc~_.");
        assert_eq!(expand("\u{e9}"), "%C3%A9");
    }
}
