//! The legacy methods: how a process that opened with `initialize` is
//! answered, under protocol version 2025-11-25 or 2025-06-18.
//!
//! This module sits beside the core ([`crate::server`]), one layer below the
//! session: it knows the methods of the
//! legacy versions and renders their results, once, when the server is
//! built; which requests reach it, and when, is the session's business
//! ([`crate::session`]). Nothing here is used unless the configuration
//! lists legacy versions (`--legacy`).
//!
//! | method | result |
//! | --- | --- |
//! | `initialize` | `InitializeResult` for the negotiated version, rendered once per version |
//! | `ping` | `{}` |
//! | `tools/list` | `ListToolsResult`: the same tools as 2026-07-28, no `ttlMs`, `cacheScope`, `resultType` or `_meta`; any `cursor` is `-32602` |
//! | `tools/call` | the same tools, results rendered in the legacy shape ([`crate::tools::Era::Legacy`]) |
//! | anything else | `-32601` |
//!
//! The two versions differ in one rule this server meets: arguments that
//! break a tool's `inputSchema` are a tool result with `isError: true` in
//! 2025-11-25 (SEP-1303, "Input validation errors") but a JSON-RPC error in
//! 2025-06-18 ("Invalid arguments" is listed among the protocol errors), so
//! there they get `-32602`.
//!
//! Spec: 2025-11-25 and 2025-06-18 `basic/lifecycle.mdx` ("Initialization",
//! "Version Negotiation": the requested version if supported, else another
//! the server supports, which SHOULD be the latest), `basic/utilities/
//! ping.mdx` ("MUST respond promptly with an empty response"),
//! `server/tools.mdx` ("Listing Tools", "Calling Tools", "Error Handling")
//! and `schema.json` (`InitializeResult`, `ListToolsResult`,
//! `CallToolResult`); 2026-07-28 `basic/versioning.mdx` ("Backward
//! Compatibility with Initialization-Based Versions": an `initialize`
//! request selects legacy semantics as specified by the negotiated legacy
//! version).

use crate::canonical::{Node, obj};
use crate::config::Config;
use crate::dispatch::{INVALID_CURSOR, METHOD_NOT_FOUND, MethodParams, ToolOutcome, call_tool};
use crate::error::{Code, ErrorData, RpcError};
use crate::json::Shallow;
use crate::meta::{META_NOT_OBJECT, MetaField, PARAMS_NOT_OBJECT, ParamsField};
use crate::tools::{Catalog, Era, Executor, render, server_info};

/// A legacy protocol version this implementation can serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LegacyVersion {
    /// `2025-06-18`.
    V2025_06_18,
    /// `2025-11-25`.
    V2025_11_25,
}

impl LegacyVersion {
    /// Every legacy version, oldest first.
    pub const ALL: [LegacyVersion; 2] = [LegacyVersion::V2025_06_18, LegacyVersion::V2025_11_25];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            LegacyVersion::V2025_06_18 => "2025-06-18",
            LegacyVersion::V2025_11_25 => "2025-11-25",
        }
    }

    /// The version spelled `s`, if it is one of [`LegacyVersion::ALL`].
    pub fn parse(s: &str) -> Option<LegacyVersion> {
        LegacyVersion::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// The body of `ping`'s result (`EmptyResult`).
pub(crate) const EMPTY_RESULT: &[u8] = b"{}";

/// `-32602` for an `initialize` whose params break `InitializeRequest`.
pub(crate) const BAD_INITIALIZE: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: initialize needs protocolVersion (a string), capabilities (an object) \
     and clientInfo (an object)",
);

/// `-32602` for arguments that break a tool's `inputSchema`, under
/// 2025-06-18 (where invalid arguments are a protocol error).
pub(crate) const INVALID_ARGUMENTS: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: the arguments do not match the tool's inputSchema; see tools/list",
);

/// `-32602` for a legacy request (no modern `_meta`) before `initialize`
/// (row L6). `data.supported` names every version served, modern and legacy.
pub(crate) const NOT_INITIALIZED: RpcError<'static> = RpcError {
    code: Code::InvalidParams,
    message: "Invalid params: no protocol version; send initialize first, or name one of \
              data.supported in params._meta as io.modelcontextprotocol/protocolVersion",
    data: ErrorData::Supported,
};

/// `-32600` for an `initialize` after one was answered (row L4).
pub(crate) const ALREADY_INITIALIZED: RpcError<'static> = RpcError::invalid_request(
    "Invalid request: this process is already initialized; initialize may be sent only once",
);

/// What a legacy request came to: the reply, and the version it
/// negotiated, if it was an `initialize` that succeeded.
#[derive(Debug)]
pub struct Answer<'s> {
    /// The body of the result, or the error.
    pub reply: Result<&'s [u8], RpcError<'static>>,
    /// `Some` when this request negotiated a version (a first `initialize`).
    pub negotiated: Option<LegacyVersion>,
}

/// The legacy path of one configuration, with every constant result
/// rendered.
pub struct Legacy {
    served: Vec<LegacyVersion>,
    newest: Option<LegacyVersion>,
    initialize: Vec<(LegacyVersion, Vec<u8>)>,
    list: Vec<u8>,
}

impl Legacy {
    /// Renders the legacy results of `config` over `catalog` (the one the
    /// modern methods use: the tools exist once). With no legacy version
    /// configured nothing is rendered and [`Legacy::is_on`] is false.
    pub fn new(config: &Config, catalog: &Catalog) -> Self {
        // The configuration admits only known legacy versions, once each.
        let served: Vec<LegacyVersion> = config
            .legacy_versions()
            .iter()
            .filter_map(|v| LegacyVersion::parse(v))
            .collect();
        let newest = served.iter().copied().max();
        let identity = config.identity();
        let initialize = served
            .iter()
            .map(|&version| {
                // `InitializeResult` order of both legacy `schema.ts` files
                // (row W1).
                let mut members = vec![
                    ("protocolVersion", Node::from(version.as_str())),
                    ("capabilities", obj! { "tools" => obj! {} }),
                    ("serverInfo", server_info(identity)),
                ];
                if let Some(instructions) = &identity.instructions {
                    members.push(("instructions", Node::from(instructions)));
                }
                (version, render(members, identity, Era::Legacy))
            })
            .collect();
        let list = if served.is_empty() {
            Vec::new()
        } else {
            let tools = catalog
                .iter()
                .filter(|t| !t.modern_only())
                .map(|t| t.descriptor())
                .collect();
            render(vec![("tools", Node::Arr(tools))], identity, Era::Legacy)
        };
        Legacy {
            served,
            newest,
            initialize,
            list,
        }
    }

    /// Whether the legacy path is on (at least one legacy version served).
    pub fn is_on(&self) -> bool {
        !self.served.is_empty()
    }

    /// Version negotiation: `requested` if it is served, else the newest
    /// legacy version served. `None` only when the legacy path is off.
    pub fn negotiate(&self, requested: &str) -> Option<LegacyVersion> {
        LegacyVersion::parse(requested)
            .filter(|v| self.served.contains(v))
            .or(self.newest)
    }

    /// Answers one legacy-era request (rows L1 to L13) of a process whose
    /// negotiated version is `negotiated` (`None`: no `initialize` answered
    /// yet), running tools of `catalog` through `executor`. The only entry
    /// point of the legacy answers: the session decides which requests come
    /// here and keeps the state.
    pub fn answer<'s, E: Executor>(
        &'s self,
        catalog: &'s Catalog,
        negotiated: Option<LegacyVersion>,
        method: &str,
        params: Option<&ParamsField<'_>>,
        executor: &mut E,
    ) -> Answer<'s> {
        let reply = |reply| Answer {
            reply,
            negotiated: None,
        };
        let absent = MethodParams::default();
        let method_params = match params {
            None => &absent,
            Some(ParamsField::Other(_)) => return reply(Err(PARAMS_NOT_OBJECT)),
            Some(ParamsField::Object(p)) if p.meta == MetaField::NotObject => {
                return reply(Err(META_NOT_OBJECT));
            }
            Some(ParamsField::Object(p)) => &p.method,
        };
        match (negotiated, method) {
            (_, "ping") => reply(Ok(EMPTY_RESULT)),
            (None, "initialize") => match self.initialize(method_params) {
                Ok((version, body)) => Answer {
                    reply: Ok(body),
                    negotiated: Some(version),
                },
                Err(error) => reply(Err(error)),
            },
            (None, _) => reply(Err(NOT_INITIALIZED)),
            (Some(_), "initialize") => reply(Err(ALREADY_INITIALIZED)),
            (Some(version), _) => {
                reply(self.call(catalog, version, method, method_params, executor))
            }
        }
    }

    /// Answers `initialize`: the negotiated version and the body of its
    /// `InitializeResult`, or `-32602` when the params break
    /// `InitializeRequest` (its three members are required). `clientInfo`
    /// is checked for being an object and never read: it is self-reported.
    fn initialize(
        &self,
        params: &MethodParams<'_>,
    ) -> Result<(LegacyVersion, &[u8]), RpcError<'static>> {
        let Some(Shallow::Str(requested)) = &params.protocol_version else {
            return Err(BAD_INITIALIZE);
        };
        if params.capabilities != Some(Shallow::Object)
            || params.client_info != Some(Shallow::Object)
        {
            return Err(BAD_INITIALIZE);
        }
        let version = self.negotiate(requested).ok_or(METHOD_NOT_FOUND)?;
        let body = self
            .initialize
            .iter()
            .find(|(v, _)| *v == version)
            .map(|(_, body)| body.as_slice())
            .ok_or(METHOD_NOT_FOUND)?;
        Ok((version, body))
    }

    /// Answers any other method of an initialized legacy session under
    /// `version`, running tools of `catalog` through `executor`.
    fn call<'s, E: Executor>(
        &'s self,
        catalog: &'s Catalog,
        version: LegacyVersion,
        method: &str,
        params: &MethodParams<'_>,
        executor: &mut E,
    ) -> Result<&'s [u8], RpcError<'static>> {
        // `ping` never comes here: `answer` serves it in every state.
        match method {
            "tools/list" if params.cursor => Err(INVALID_CURSOR),
            "tools/list" => Ok(&self.list),
            "tools/call" => match call_tool(catalog, params, executor, Era::Legacy)? {
                ToolOutcome::Ran(body) => Ok(body),
                ToolOutcome::InvalidArguments(_) if version == LegacyVersion::V2025_06_18 => {
                    Err(INVALID_ARGUMENTS)
                }
                ToolOutcome::InvalidArguments(body) => Ok(body),
            },
            _ => Err(METHOD_NOT_FOUND),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::Direct;

    fn on(versions: &[&str]) -> (Config, Catalog) {
        let config = Config::default()
            .with_legacy_versions(versions.iter().map(|v| v.to_string()).collect())
            .unwrap();
        let catalog = Catalog::new(&config);
        (config, catalog)
    }

    fn init_params(version: &str) -> MethodParams<'static> {
        MethodParams {
            protocol_version: Some(Shallow::Str(version.to_string().into())),
            capabilities: Some(Shallow::Object),
            client_info: Some(Shallow::Object),
            ..MethodParams::default()
        }
    }

    #[test]
    fn versions_are_known_and_ordered() {
        for v in crate::config::LEGACY_VERSIONS {
            assert_eq!(LegacyVersion::parse(v).map(LegacyVersion::as_str), Some(*v));
        }
        assert!(LegacyVersion::V2025_11_25 > LegacyVersion::V2025_06_18);
        assert_eq!(LegacyVersion::parse("2026-07-28"), None);
    }

    #[test]
    fn off_renders_nothing() {
        let (config, catalog) = on(&[]);
        let legacy = Legacy::new(&config, &catalog);
        assert!(!legacy.is_on());
        assert_eq!(legacy.negotiate("2025-11-25"), None);
        assert!(legacy.initialize(&init_params("2025-11-25")).is_err());
    }

    #[test]
    fn negotiation_is_the_requested_version_else_the_newest_served() {
        let (config, catalog) = on(&["2025-06-18", "2025-11-25"]);
        let legacy = Legacy::new(&config, &catalog);
        assert_eq!(
            legacy.negotiate("2025-06-18"),
            Some(LegacyVersion::V2025_06_18)
        );
        assert_eq!(
            legacy.negotiate("2025-11-25"),
            Some(LegacyVersion::V2025_11_25)
        );
        for other in ["2024-11-05", "2026-07-28", "", "x"] {
            assert_eq!(legacy.negotiate(other), Some(LegacyVersion::V2025_11_25));
        }
        let (config, catalog) = on(&["2025-06-18"]);
        let legacy = Legacy::new(&config, &catalog);
        assert_eq!(
            legacy.negotiate("2025-11-25"),
            Some(LegacyVersion::V2025_06_18)
        );
    }

    #[test]
    fn initialize_result_shape() {
        let (config, catalog) = on(&["2025-11-25"]);
        let legacy = Legacy::new(&config, &catalog);
        let (version, body) = legacy.initialize(&init_params("2025-11-25")).unwrap();
        assert_eq!(version, LegacyVersion::V2025_11_25);
        // Canonical order (row W1): `InitializeResult` as declared.
        assert_eq!(
            std::str::from_utf8(body).unwrap(),
            format!(
                r#"{{"protocolVersion":"2025-11-25","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"book-orders","version":"1.0.0"}},"instructions":{}}}"#,
                serde_json::to_string(config.identity().instructions.as_ref().unwrap()).unwrap()
            )
        );
    }

    #[test]
    fn initialize_needs_its_three_members() {
        let (config, catalog) = on(&["2025-11-25"]);
        let legacy = Legacy::new(&config, &catalog);
        let good = init_params("2025-11-25");
        let cases = [
            MethodParams {
                protocol_version: None,
                ..good.clone()
            },
            MethodParams {
                protocol_version: Some(Shallow::Integer(1u64.into())),
                ..good.clone()
            },
            MethodParams {
                capabilities: None,
                ..good.clone()
            },
            MethodParams {
                capabilities: Some(Shallow::Array),
                ..good.clone()
            },
            MethodParams {
                client_info: Some(Shallow::Str("x".into())),
                ..good.clone()
            },
        ];
        for case in cases {
            assert_eq!(legacy.initialize(&case).unwrap_err(), BAD_INITIALIZE);
        }
        assert!(legacy.initialize(&good).is_ok());
    }

    #[test]
    fn invalid_arguments_differ_by_version() {
        let (config, catalog) = on(&["2025-11-25", "2025-06-18"]);
        let legacy = Legacy::new(&config, &catalog);
        let params = MethodParams {
            name: Some(Shallow::Str("get_order".into())),
            ..MethodParams::default()
        };
        let new = legacy
            .call(
                &catalog,
                LegacyVersion::V2025_11_25,
                "tools/call",
                &params,
                &mut Direct,
            )
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(new).unwrap();
        assert_eq!(v["isError"], true);
        assert!(v.get("resultType").is_none());
        let old = legacy.call(
            &catalog,
            LegacyVersion::V2025_06_18,
            "tools/call",
            &params,
            &mut Direct,
        );
        assert_eq!(old.unwrap_err(), INVALID_ARGUMENTS);
    }

    #[test]
    fn list_is_the_modern_catalog_without_modern_fields() {
        let (config, catalog) = on(&["2025-11-25"]);
        let legacy = Legacy::new(&config, &catalog);
        let body = legacy
            .call(
                &catalog,
                LegacyVersion::V2025_11_25,
                "tools/list",
                &MethodParams::default(),
                &mut Direct,
            )
            .unwrap();
        let modern: Vec<Node> = catalog.iter().map(|t| t.descriptor()).collect();
        assert_eq!(body, obj! { "tools" => Node::Arr(modern) }.to_vec());
        assert_eq!(
            legacy
                .call(
                    &catalog,
                    LegacyVersion::V2025_11_25,
                    "resources/list",
                    &MethodParams::default(),
                    &mut Direct
                )
                .unwrap_err(),
            METHOD_NOT_FOUND
        );
    }
}
