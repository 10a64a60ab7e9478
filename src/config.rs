//! Launch configuration: who the trusted user is, what data the server
//! serves, how it names itself, which protocol versions it speaks, its
//! caching hints and its limits.
//!
//! This is the bottom layer: it knows nothing of JSON-RPC. Everything here is
//! validated once, when the configuration is built or loaded, so the layers
//! above can trust it without re-checking on every request.
//!
//! Spec: on stdio, credentials come from the environment or the launch
//! configuration, never from the request (2026-07-28
//! `basic/authorization/index.mdx`, "stdio transport"), which is why the
//! trusted user lives here and nowhere in the request path.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::catalog::{Catalog, OrderTemplate, Resource};
pub(crate) mod auth;
pub(crate) mod input;
mod path;

/// The modern protocol versions this implementation can serve. A
/// configuration may list a subset of them, never anything else.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// The legacy (handshake-era) versions this implementation can serve when
/// the legacy path is turned on.
pub const LEGACY_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18"];

/// Default limit on one input line, newline excluded: 4 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// The tool parameters that may be mirrored into an HTTP header
/// (`x-mcp-header`, row H14): `(tool, parameter)`. Both are string
/// parameters statically reachable from their tool's `inputSchema` root, as
/// `basic/transports/streamable-http.mdx` ("Schema Extension") requires; a
/// test in `tools` holds this list equal to the advertised schemas.
pub const HEADER_PARAMS: &[(&str, &str)] =
    &[("get_order", "order_id"), ("lookup_stock", "product_id")];

/// Caching hints of `resources/list`, `resources/templates/list`,
/// `prompts/list` and `resources/read` of a static resource: built from the
/// configuration's constant parts only, the same for every user (rows R1,
/// R2, R4, P1; `server/utilities/caching.mdx`, "Choosing a Cache Scope").
pub const CATALOG_CACHE: CacheHint = CacheHint {
    ttl_ms: 300_000,
    scope: CacheScope::Public,
};

/// Caching hints of `resources/read` of an order: it depends on the user,
/// so `private` (row R5).
pub const ORDER_CACHE: CacheHint = CacheHint {
    ttl_ms: 60_000,
    scope: CacheScope::Private,
};

/// The default MCP endpoint path of the HTTP binding.
pub const DEFAULT_ENDPOINT: &str = "/mcp";

/// Settings of the Streamable HTTP binding (`serve --http`), the `http`
/// member of a configuration file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HttpSettings {
    /// The MCP endpoint path (default `/mcp`).
    #[serde(default = "default_endpoint")]
    pub endpoint: String,
    /// Origins a request may come from (`Origin` header, compared without
    /// regard to ASCII case). `None`: the loopback origins of the bound
    /// address only.
    #[serde(default)]
    pub allowed_origins: Option<Vec<String>>,
    /// Host header values accepted (DNS rebinding). `None`: when bound to
    /// loopback, the loopback names with the bound port; otherwise any.
    #[serde(default)]
    pub allowed_hosts: Option<Vec<String>>,
    /// Authorization ([`crate::Authorization`]): `None`, the default, authenticates
    /// no one (DEC29).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization: Option<auth::Authorization>,
}

fn default_endpoint() -> String {
    DEFAULT_ENDPOINT.to_owned()
}

impl Default for HttpSettings {
    fn default() -> Self {
        HttpSettings {
            endpoint: default_endpoint(),
            allowed_origins: None,
            allowed_hosts: None,
            authorization: None,
        }
    }
}

/// One order of the snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Order {
    /// The order's id, unique in the snapshot.
    pub order_id: String,
    /// The user who may read it.
    pub owner: String,
    /// Fulfilment status, for example `processing`.
    pub status: String,
    /// RFC 3339 time at which the snapshot was taken.
    pub as_of: String,
    /// Version of the source the snapshot came from.
    pub source_version: String,
}

/// One row of the stock table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StockItem {
    /// The product's id, unique in the table.
    pub product_id: String,
    /// Units in stock.
    pub stock: u64,
}

/// `cacheScope` of a cacheable result (2026-07-28 `server/utilities/caching.mdx`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// No user-specific data: any cache may share it.
    Public,
    /// Cache only within the same authorization context.
    Private,
}

impl CacheScope {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// The caching hints of one cacheable result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CacheHint {
    /// `ttlMs`: how long the client may treat the result as fresh.
    pub ttl_ms: u64,
    /// `cacheScope`.
    pub scope: CacheScope,
}

/// How the server names itself (`_meta["io.modelcontextprotocol/serverInfo"]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    /// `name`, `book-orders` by default.
    pub name: String,
    /// `version`, `1.0.0` by default.
    pub version: String,
    /// `instructions` of the discover result, if any.
    #[serde(default)]
    pub instructions: Option<String>,
}

/// A validated configuration. Build it with [`Config::default`],
/// [`Config::from_json`] or [`Config::load`]; every constructor validates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    user: String,
    identity: Identity,
    orders: Vec<Order>,
    stock: Option<Vec<StockItem>>,
    versions: Vec<String>,
    legacy_versions: Vec<String>,
    discover_cache: CacheHint,
    tools_cache: CacheHint,
    max_line_bytes: usize,
    param_headers: BTreeMap<String, BTreeMap<String, String>>,
    http: HttpSettings,
    catalog: Catalog,
    input: Option<input::InputRequired>,
}

/// The file format: every member optional, defaults from the textbook.
/// Read by [`Config::from_json`], written by [`Config::to_json`].
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    user: Option<String>,
    server: Option<Identity>,
    orders: Option<Vec<Order>>,
    stock: Option<Vec<StockItem>>,
    protocol_versions: Option<Vec<String>>,
    legacy_versions: Option<Vec<String>>,
    discover_cache: Option<CacheHint>,
    tools_cache: Option<CacheHint>,
    max_line_bytes: Option<usize>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    param_headers: BTreeMap<String, BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    http: Option<HttpSettings>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resources: Option<Vec<Resource>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    order_template: Option<OrderTemplate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    prompts: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content_tools: Option<Vec<crate::catalog::ContentTool>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content_prompts: Option<Vec<crate::catalog::ContentPrompt>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content_templates: Option<Vec<crate::catalog::ContentTemplate>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    input_required: Option<input::InputRequired>,
}

/// Why a configuration was refused. Its `Display` is one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn invalid(msg: impl Into<String>) -> ConfigError {
    ConfigError(msg.into())
}

impl Default for Config {
    /// The textbook's data: user `mira`, orders `A-104` (mira's) and `B-205`
    /// (someone else's), no stock table, so `tools/list` offers exactly
    /// `get_order`, as in the recorded run.
    fn default() -> Self {
        Config {
            user: "mira".into(),
            identity: Identity {
                name: "book-orders".into(),
                version: "1.0.0".into(),
                instructions: Some(
                    "Read-only access to the orders of the configured user. \
                     Call get_order with the id of one of your orders."
                        .into(),
                ),
            },
            orders: vec![
                Order {
                    order_id: "A-104".into(),
                    owner: "mira".into(),
                    status: "processing".into(),
                    as_of: "2026-09-14T00:00:00Z".into(),
                    source_version: "ka3-orders-v1".into(),
                },
                Order {
                    order_id: "B-205".into(),
                    owner: "tomas".into(),
                    status: "shipped".into(),
                    as_of: "2026-09-12T08:30:00Z".into(),
                    source_version: "ka3-orders-v1".into(),
                },
            ],
            stock: None,
            versions: MODERN_VERSIONS.iter().map(|v| v.to_string()).collect(),
            legacy_versions: Vec::new(),
            discover_cache: CacheHint {
                ttl_ms: 3_600_000,
                scope: CacheScope::Public,
            },
            tools_cache: CacheHint {
                ttl_ms: 300_000,
                scope: CacheScope::Public,
            },
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            param_headers: BTreeMap::new(),
            http: HttpSettings::default(),
            catalog: Catalog::default(),
            input: None,
        }
    }
}

impl Config {
    /// Reads and validates a configuration file. The error names the file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let bytes = std::fs::read(path).map_err(|e| {
            invalid(format!(
                "cannot read config file {}: {}",
                path.display(),
                io_reason(&e)
            ))
        })?;
        Config::from_json(&bytes)
            .map_err(|e| invalid(format!("config file {}: {}", path.display(), e.0)))
    }

    /// Parses and validates a configuration from JSON bytes. Members left
    /// out take the textbook defaults.
    pub fn from_json(bytes: &[u8]) -> Result<Config, ConfigError> {
        let file: ConfigFile =
            serde_json::from_slice(bytes).map_err(|e| invalid(describe_json_error(&e, bytes)))?;
        let mut config = Config::default();
        if let Some(user) = file.user {
            config.user = user;
        }
        if let Some(identity) = file.server {
            config.identity = identity;
        }
        if let Some(orders) = file.orders {
            config.orders = orders;
        }
        config.stock = file.stock;
        if let Some(versions) = file.protocol_versions {
            config.versions = versions;
        }
        if let Some(legacy) = file.legacy_versions {
            config.legacy_versions = legacy;
        }
        if let Some(hint) = file.discover_cache {
            config.discover_cache = hint;
        }
        if let Some(hint) = file.tools_cache {
            config.tools_cache = hint;
        }
        if let Some(max) = file.max_line_bytes {
            config.max_line_bytes = max;
        }
        config.param_headers = file.param_headers;
        if let Some(http) = file.http {
            config.http = http;
        }
        config.catalog = Catalog {
            resources: file.resources.unwrap_or_default(),
            order_template: file.order_template,
            prompts: file.prompts.unwrap_or_default(),
            content_tools: file.content_tools.unwrap_or_default(),
            content_prompts: file.content_prompts.unwrap_or_default(),
            content_templates: file.content_templates.unwrap_or_default(),
        };
        config.input = file.input_required;
        config.catalog.sort();
        config.validate()?;
        Ok(config)
    }

    /// The configuration file (JSON) that [`Config::from_json`] reads back
    /// as this configuration, member for member.
    pub fn to_json(&self) -> String {
        let file = ConfigFile {
            user: Some(self.user.clone()),
            server: Some(self.identity.clone()),
            orders: Some(self.orders.clone()),
            stock: self.stock.clone(),
            protocol_versions: Some(self.versions.clone()),
            legacy_versions: Some(self.legacy_versions.clone()),
            discover_cache: Some(self.discover_cache),
            tools_cache: Some(self.tools_cache),
            max_line_bytes: Some(self.max_line_bytes),
            param_headers: self.param_headers.clone(),
            http: (self.http != HttpSettings::default()).then(|| self.http.clone()),
            resources: Some(self.catalog.resources.clone()).filter(|r| !r.is_empty()),
            order_template: self.catalog.order_template.clone(),
            prompts: Some(self.catalog.prompts.clone()).filter(|p| !p.is_empty()),
            content_tools: Some(self.catalog.content_tools.clone()).filter(|t| !t.is_empty()),
            content_prompts: Some(self.catalog.content_prompts.clone()).filter(|p| !p.is_empty()),
            content_templates: Some(self.catalog.content_templates.clone())
                .filter(|t| !t.is_empty()),
            input_required: self.input.clone(),
        };
        // Strings, numbers and lists only: serializing cannot fail.
        serde_json::to_string(&file).unwrap_or_default()
    }

    /// Replaces the trusted user (from `--user` or `MCP_REFERENCE_USER`).
    pub fn with_user(mut self, user: impl Into<String>) -> Result<Config, ConfigError> {
        self.user = user.into();
        self.validate()?;
        Ok(self)
    }

    /// Replaces the order snapshot.
    pub fn with_orders(mut self, orders: Vec<Order>) -> Result<Config, ConfigError> {
        self.orders = orders;
        self.validate()?;
        Ok(self)
    }

    /// Replaces the stock table (`None`: `lookup_stock` is not offered).
    pub fn with_stock(mut self, stock: Option<Vec<StockItem>>) -> Result<Config, ConfigError> {
        self.stock = stock;
        self.validate()?;
        Ok(self)
    }

    /// Turns the legacy `initialize` path on for these versions (empty: off).
    pub fn with_legacy_versions(mut self, versions: Vec<String>) -> Result<Config, ConfigError> {
        self.legacy_versions = versions;
        self.validate()?;
        Ok(self)
    }

    /// Replaces the catalog of resources, the order template and prompts
    /// (sorted into listing order, then validated).
    pub fn with_catalog(mut self, mut catalog: Catalog) -> Result<Config, ConfigError> {
        catalog.sort();
        self.catalog = catalog;
        self.validate()?;
        Ok(self)
    }

    /// Replaces the line limit.
    pub fn with_max_line_bytes(mut self, max: usize) -> Result<Config, ConfigError> {
        self.max_line_bytes = max;
        self.validate()?;
        Ok(self)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if self.user.is_empty() {
            return Err(invalid("the user must not be empty"));
        }
        if self.identity.name.is_empty() || self.identity.version.is_empty() {
            return Err(invalid("server.name and server.version must not be empty"));
        }
        let mut ids = BTreeSet::new();
        for order in &self.orders {
            if order.order_id.is_empty() {
                return Err(invalid("an order has an empty order_id"));
            }
            if order.owner.is_empty() {
                return Err(invalid(format!(
                    "order {:?} has an empty owner",
                    order.order_id
                )));
            }
            if !ids.insert(order.order_id.as_str()) {
                return Err(invalid(format!(
                    "order id {:?} appears more than once",
                    order.order_id
                )));
            }
            if !is_rfc3339_utc(&order.as_of) {
                return Err(invalid(format!(
                    "order {:?} has as_of {:?}, which is not an RFC 3339 date-time such as 2026-09-14T00:00:00Z",
                    order.order_id, order.as_of
                )));
            }
        }
        if let Some(stock) = &self.stock {
            let mut products = BTreeSet::new();
            for item in stock {
                if item.product_id.is_empty() {
                    return Err(invalid("a stock item has an empty product_id"));
                }
                if !products.insert(item.product_id.as_str()) {
                    return Err(invalid(format!(
                        "product id {:?} appears more than once in the stock table",
                        item.product_id
                    )));
                }
            }
        }
        if self.versions.is_empty() {
            return Err(invalid("protocol_versions must name at least one version"));
        }
        check_versions(&self.versions, MODERN_VERSIONS, "protocol_versions")?;
        check_versions(&self.legacy_versions, LEGACY_VERSIONS, "legacy_versions")?;
        if self.max_line_bytes < 1024 {
            return Err(invalid("max_line_bytes must be at least 1024"));
        }
        check_param_headers(&self.param_headers)?;
        check_http(&self.http)?;
        if let Some(input) = &self.input {
            let mut tools = vec!["get_order", "lookup_stock"];
            tools.extend(self.catalog.content_tools.iter().map(|t| t.name.as_str()));
            input
                .validate(&tools, crate::catalog::PROMPT_NAMES)
                .map_err(invalid)?;
        }
        self.catalog.validate(is_rfc3339_utc).map_err(invalid)
    }

    /// Mirrors a tool parameter into an HTTP header (`x-mcp-header`):
    /// `headers` maps tool names to `{parameter: header name}`.
    pub fn with_param_headers(
        mut self,
        headers: BTreeMap<String, BTreeMap<String, String>>,
    ) -> Result<Config, ConfigError> {
        self.param_headers = headers;
        self.validate()?;
        Ok(self)
    }

    /// Replaces the HTTP binding's settings.
    pub fn with_http(mut self, http: HttpSettings) -> Result<Config, ConfigError> {
        self.http = http;
        self.validate()?;
        Ok(self)
    }

    /// The header name (`x-mcp-header`) that mirrors `param` of `tool`, if
    /// one is configured.
    pub fn param_header(&self, tool: &str, param: &str) -> Option<&str> {
        self.param_headers.get(tool)?.get(param).map(String::as_str)
    }

    /// Every configured `x-mcp-header`: tool -> {parameter -> header name}.
    pub fn param_headers(&self) -> &BTreeMap<String, BTreeMap<String, String>> {
        &self.param_headers
    }

    /// The resources, order template and prompts offered besides the
    /// tools (empty in the textbook's configuration).
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The tools and prompts that ask for input (multi round-trip
    /// requests), if any.
    pub fn input(&self) -> Option<&input::InputRequired> {
        self.input.as_ref()
    }

    /// The HTTP binding's settings.
    pub fn http(&self) -> &HttpSettings {
        &self.http
    }

    /// The trusted user: the only basis for authorization.
    pub fn user(&self) -> &str {
        &self.user
    }
    /// Server name, version and instructions.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }
    /// The order snapshot, in file order.
    pub fn orders(&self) -> &[Order] {
        &self.orders
    }
    /// The stock table, if the configuration has one.
    pub fn stock(&self) -> Option<&[StockItem]> {
        self.stock.as_deref()
    }
    /// Modern protocol versions served, newest first as configured.
    pub fn versions(&self) -> &[String] {
        &self.versions
    }
    /// Legacy versions served through `initialize` (empty: legacy path off).
    pub fn legacy_versions(&self) -> &[String] {
        &self.legacy_versions
    }
    /// Caching hints of `server/discover`.
    pub fn discover_cache(&self) -> CacheHint {
        self.discover_cache
    }
    /// Caching hints of `tools/list`.
    pub fn tools_cache(&self) -> CacheHint {
        self.tools_cache
    }
    /// Longest input line accepted, newline excluded.
    pub fn max_line_bytes(&self) -> usize {
        self.max_line_bytes
    }
}

/// RFC 9110 section 5.6.2: `tchar`, what a header field name is made of.
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The constraints of `basic/transports/streamable-http.mdx` ("Schema
/// Extension") on `x-mcp-header` values, checked at load (row H14).
fn check_param_headers(
    headers: &BTreeMap<String, BTreeMap<String, String>>,
) -> Result<(), ConfigError> {
    for (tool, params) in headers {
        let mut seen = BTreeSet::new();
        for (param, header) in params {
            if !HEADER_PARAMS.contains(&(tool.as_str(), param.as_str())) {
                let offered: Vec<String> = HEADER_PARAMS
                    .iter()
                    .map(|(t, p)| format!("{t}.{p}"))
                    .collect();
                return Err(invalid(format!(
                    "param_headers names {tool:?}.{param:?}, which is not a tool parameter that can be mirrored into a header (these can: {})",
                    offered.join(", ")
                )));
            }
            if header.is_empty() || !header.bytes().all(is_tchar) {
                return Err(invalid(format!(
                    "param_headers gives {tool}.{param} the header name {header:?}, which is not an HTTP field-name token (letters, digits and !#$%&'*+-.^_`|~ only)"
                )));
            }
            if !seen.insert(header.to_ascii_lowercase()) {
                return Err(invalid(format!(
                    "param_headers gives two parameters of {tool} the header name {header:?} (names are compared without regard to case)"
                )));
            }
        }
    }
    Ok(())
}

/// The `http` member: an absolute path without query or fragment, and
/// origins and hosts that are plain visible ASCII.
fn check_http(http: &HttpSettings) -> Result<(), ConfigError> {
    let path = http.endpoint.as_bytes();
    if path.first() != Some(&b'/')
        || path
            .iter()
            .any(|b| !b.is_ascii_graphic() || b"?#".contains(b))
    {
        return Err(invalid(format!(
            "http.endpoint {:?} is not a path such as /mcp (it must start with / and hold no spaces, ? or #)",
            http.endpoint
        )));
    }
    let lists = [
        ("http.allowed_origins", &http.allowed_origins),
        ("http.allowed_hosts", &http.allowed_hosts),
    ];
    for (field, list) in lists {
        for entry in list.iter().flatten() {
            if entry.is_empty() || !entry.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(invalid(format!(
                    "{field} holds {entry:?}, which is not a plain ASCII value such as http://localhost:8080"
                )));
            }
        }
    }
    match &http.authorization {
        Some(a) => auth::check(a, &http.endpoint),
        None => Ok(()),
    }
}

fn check_versions(listed: &[String], known: &[&str], field: &str) -> Result<(), ConfigError> {
    let mut seen = BTreeSet::new();
    for v in listed {
        if !known.contains(&v.as_str()) {
            return Err(invalid(format!(
                "{field} names {v:?}, which this implementation does not serve (it serves {})",
                known.join(", ")
            )));
        }
        if !seen.insert(v.as_str()) {
            return Err(invalid(format!("{field} names {v:?} twice")));
        }
    }
    Ok(())
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn describe_json_error(e: &serde_json::Error, bytes: &[u8]) -> String {
    use serde_json::error::Category;
    let message = match e.classify() {
        Category::Syntax | Category::Eof => format!("not valid JSON ({e})"),
        Category::Data => match path::member_at(bytes, e.line(), e.column()) {
            Some(member) => format!("wrong shape at {member} ({e})"),
            None => format!("wrong shape ({e})"),
        },
        Category::Io => e.to_string(),
    };
    one_line(&message)
}

/// serde_json quotes an unknown member name as decoded, so a name with an
/// escaped newline (`{"a\nb": 1}`) would split the one-sentence error
/// over several lines: control characters and line separators are written
/// as escapes instead (found by the `config_load` fuzz target).
fn one_line(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for c in message.chars() {
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`, the shape of JSON Schema's
/// `date-time` format (RFC 3339 section 5.6), checked field by field.
fn is_rfc3339_utc(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    if !(digits(0..4) && at(4, b'-') && digits(5..7) && at(7, b'-') && digits(8..10)) {
        return false;
    }
    if !(matches!(b.get(10), Some(b'T' | b't')) && digits(11..13) && at(13, b':')) {
        return false;
    }
    if !(digits(14..16) && at(16, b':') && digits(17..19)) {
        return false;
    }
    let two = |i: usize| -> u32 {
        b.get(i..i + 2)
            .map(|d| d.iter().fold(0u32, |n, c| n * 10 + u32::from(c - b'0')))
            .unwrap_or(99)
    };
    let (month, day, hour, minute, second) = (two(5), two(8), two(11), two(14), two(17));
    let year = two(0) * 100 + two(2);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    // Leap seconds (second 60) are refused: whether one is real depends on
    // a table this server does not carry, and a snapshot time never needs one.
    if !(1..=12).contains(&month)
        || !(1..=days_in_month).contains(&day)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return false;
    }
    let mut i = 19;
    if at(i, b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            digits(i + 1..i + 3) && at(i + 3, b':') && digits(i + 4..i + 6) && i + 6 == b.len()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
