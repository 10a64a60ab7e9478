//! The client rules `mcp-reference judge` holds a client to: one entry per
//! rule, with its level, the statement of `docs/spec-coverage.md`
//! ("Client-side statements") it rests on, and the spec page it comes
//! from. The table is the rules' one list; `docs/judge.md` shows it and
//! `tests/judge_docs.rs` keeps the two equal. Which message breaks which
//! rule is decided in the modules beside this one, never here.
//!
//! Spec: 2026-07-28, the pages each entry names.

/// How binding a rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// A MUST or MUST NOT: a failure fails the session.
    Must,
    /// A SHOULD or SHOULD NOT: a failure is reported, the verdict stays.
    Should,
}

impl Level {
    /// Its name in the report: `must` or `should`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Must => "must",
            Level::Should => "should",
        }
    }
}

/// Where a rule can be observed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Over either binding.
    Both,
    /// Over stdio only.
    Stdio,
    /// Over Streamable HTTP only.
    Http,
}

/// One client rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Its stable id (`meta.protocol-version`).
    pub id: &'static str,
    /// Its level.
    pub level: Level,
    /// The id of its statement in `docs/spec-coverage.md`.
    pub statement: &'static str,
    /// The spec page, relative to `docs/specification/2026-07-28/`, with
    /// its anchor.
    pub section: &'static str,
    /// What the client must do, in one line (our words).
    pub text: &'static str,
    /// The bindings it can be observed over.
    pub scope: Scope,
    /// Why it was not run when no message exercised it: what a session
    /// must contain for it to be judged.
    pub needs: &'static str,
}

/// Index of a rule in [`RULES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum R {
    Valid,
    IdType,
    IdInFlight,
    NoResponse,
    NotificationId,
    ProtocolVersion,
    Capabilities,
    ClientInfo,
    RetrySupported,
    NoLegacyFallback,
    MrtrInputs,
    MrtrStateEcho,
    MrtrNoState,
    MrtrNewId,
    MrtrRetryOnly,
    MrtrAnswerValid,
    MrtrAnswerContent,
    MrtrAnswerDeclared,
    CancelKnown,
    ProgressType,
    ProgressUnique,
    HttpPost,
    HttpAccept,
    HttpVersionHeader,
    HttpMethodHeader,
    HttpNameHeader,
    HttpParamHeaders,
    StdioCloseFirst,
}

/// Every rule, in the order of the crate-internal index `R` (a unit test
/// keeps them aligned).
pub const RULES: &[Rule] = &[
    Rule {
        id: "jsonrpc.message",
        level: Level::Must,
        statement: "CLI-01",
        section: "basic/index.mdx#messages",
        text: "Every message is one JSON-RPC 2.0 object (`jsonrpc` \"2.0\", a string `method` or a response), valid JSON, one per line on stdio and one per body over HTTP (no batch).",
        scope: Scope::Both,
        needs: "the client sent no message",
    },
    Rule {
        id: "jsonrpc.id",
        level: Level::Must,
        statement: "CLI-02",
        section: "basic/index.mdx#requests",
        text: "A request's id is a string or an integer, never null.",
        scope: Scope::Both,
        needs: "the client sent no request",
    },
    Rule {
        id: "jsonrpc.id-in-flight",
        level: Level::Must,
        statement: "CLI-03",
        section: "basic/index.mdx#requests",
        text: "A request's id differs from the id of every request of the client still unanswered.",
        scope: Scope::Both,
        needs: "no request arrived while another of the client's was unanswered (over stdio the judge answers each line before it reads the next, so only HTTP requests in parallel exercise it; start the judge with --slow-tool over HTTP to hold one)",
    },
    Rule {
        id: "jsonrpc.no-response",
        level: Level::Must,
        statement: "CLI-04",
        section: "basic/transports/index.mdx#messages",
        text: "The client sends no response: a response answers a request, and a 2026-07-28 server sends the client none (input travels in InputRequiredResult).",
        scope: Scope::Both,
        needs: "the client sent no message",
    },
    Rule {
        id: "jsonrpc.notification-id",
        level: Level::Must,
        statement: "CLI-05",
        section: "basic/index.mdx#notifications",
        text: "A notification (a `notifications/` method) carries no id.",
        scope: Scope::Both,
        needs: "the client sent no notification",
    },
    Rule {
        id: "meta.protocol-version",
        level: Level::Must,
        statement: "CLI-06",
        section: "basic/index.mdx#meta",
        text: "Every request's `params._meta` names `io.modelcontextprotocol/protocolVersion` as a string.",
        scope: Scope::Both,
        needs: "the client sent no request",
    },
    Rule {
        id: "meta.client-capabilities",
        level: Level::Must,
        statement: "CLI-07",
        section: "basic/index.mdx#meta",
        text: "Every request's `params._meta` carries `io.modelcontextprotocol/clientCapabilities`, an object whose capabilities are objects.",
        scope: Scope::Both,
        needs: "the client sent no request",
    },
    Rule {
        id: "meta.client-info",
        level: Level::Should,
        statement: "CLI-08",
        section: "basic/index.mdx#meta",
        text: "Every request's `params._meta` carries `io.modelcontextprotocol/clientInfo`, an Implementation (`name` and `version` strings).",
        scope: Scope::Both,
        needs: "the client sent no request",
    },
    Rule {
        id: "version.retry-supported",
        level: Level::Should,
        statement: "CLI-09",
        section: "basic/versioning.mdx#protocol-version-negotiation",
        text: "After `-32022`, the client's next request names a version of the error's `data.supported`, or the client stops.",
        scope: Scope::Both,
        needs: "no request was answered -32022 (the client never named a version the server does not serve)",
    },
    Rule {
        id: "version.no-legacy-fallback",
        level: Level::Should,
        statement: "CLI-10",
        section: "basic/transports/stdio.mdx#backward-compatibility",
        text: "A client that got a 2026-07-28 answer (a result, or a modern error such as `-32022`) does not fall back to the legacy `initialize` handshake.",
        scope: Scope::Both,
        needs: "no request was answered with a 2026-07-28 result",
    },
    Rule {
        id: "mrtr.inputs",
        level: Level::Must,
        statement: "CLI-11",
        section: "basic/patterns/mrtr.mdx#client-requirements-basic-workflow",
        text: "A retry after an InputRequiredResult with `inputRequests` answers every key of it in `inputResponses` (client requirement 1).",
        scope: Scope::Both,
        needs: "no InputRequiredResult with inputRequests was retried (call an input-required tool of a configuration that has one, such as data/conformance.json)",
    },
    Rule {
        id: "mrtr.state-echo",
        level: Level::Must,
        statement: "CLI-12",
        section: "basic/patterns/mrtr.mdx#client-requirements-basic-workflow",
        text: "A retry echoes the InputRequiredResult's `requestState` exactly (client requirement 2).",
        scope: Scope::Both,
        needs: "no InputRequiredResult with a requestState was retried (call an input-required tool that issues state)",
    },
    Rule {
        id: "mrtr.state-none",
        level: Level::Must,
        statement: "CLI-13",
        section: "basic/patterns/mrtr.mdx#client-requirements-basic-workflow",
        text: "A retry of an InputRequiredResult without `requestState` carries none (client requirement 2).",
        scope: Scope::Both,
        needs: "no InputRequiredResult without a requestState was retried (call an input-required tool that issues no state)",
    },
    Rule {
        id: "mrtr.new-id",
        level: Level::Must,
        statement: "CLI-14",
        section: "basic/patterns/mrtr.mdx#client-requirements-basic-workflow",
        text: "A retry's JSON-RPC id differs from the id of the request it retries (client requirement 3).",
        scope: Scope::Both,
        needs: "no InputRequiredResult was retried",
    },
    Rule {
        id: "mrtr.retry-only",
        level: Level::Must,
        statement: "CLI-15",
        section: "basic/patterns/mrtr.mdx#client-requirements-basic-workflow",
        text: "`inputResponses` and `requestState` appear only on the retry of a request that got an InputRequiredResult, never on another request (client requirement 4).",
        scope: Scope::Both,
        needs: "the client sent no request",
    },
    Rule {
        id: "mrtr.answer-valid",
        level: Level::Must,
        statement: "CLI-16",
        section: "basic/patterns/mrtr.mdx#inputresponses",
        text: "Each `inputResponses` value has the shape of a result of the input request it answers: an ElicitResult (`action` accept, decline or cancel; a form-mode accept with a `content` object, a URL-mode accept without one), a CreateMessageResult, a ListRootsResult of `file://` roots.",
        scope: Scope::Both,
        needs: "no InputRequiredResult was answered",
    },
    Rule {
        id: "mrtr.answer-content",
        level: Level::Should,
        statement: "CLI-17",
        section: "client/elicitation.mdx#security-considerations",
        text: "A form-mode elicitation accepted carries `content` that the `requestedSchema` allows: every required property present, each present property of its declared type (and `enum`).",
        scope: Scope::Both,
        needs: "no form-mode elicitation was answered with accept",
    },
    Rule {
        id: "mrtr.answer-declared",
        level: Level::Must,
        statement: "CLI-18",
        section: "client/elicitation.mdx#capabilities",
        text: "A retry answers only inputs its own `clientCapabilities` declares support for, to the sub-capability (an elicitation's mode, `sampling.tools`, `sampling.context`): a client that supports a kind declares it on each request.",
        scope: Scope::Both,
        needs: "no InputRequiredResult was answered",
    },
    Rule {
        id: "cancel.known-request",
        level: Level::Must,
        statement: "CLI-19",
        section: "schema.mdx#cancellednotificationparams",
        text: "`notifications/cancelled` names, in `requestId`, a request the client itself sent.",
        scope: Scope::Both,
        needs: "the client sent no notifications/cancelled",
    },
    Rule {
        id: "progress.token-type",
        level: Level::Must,
        statement: "CLI-20",
        section: "basic/patterns/progress.mdx#progress-flow",
        text: "A `progressToken` is a string or an integer.",
        scope: Scope::Both,
        needs: "no request carried a progressToken",
    },
    Rule {
        id: "progress.token-unique",
        level: Level::Must,
        statement: "CLI-21",
        section: "basic/patterns/progress.mdx#progress-flow",
        text: "A `progressToken` differs from the token of every request of the client still unanswered.",
        scope: Scope::Both,
        needs: "no request with a progressToken arrived while another with one was unanswered (start the judge with --slow-tool over HTTP to hold one)",
    },
    Rule {
        id: "http.post",
        level: Level::Must,
        statement: "CLI-22",
        section: "basic/transports/streamable-http.mdx#sending-messages",
        text: "Every message goes to the endpoint as an HTTP POST.",
        scope: Scope::Http,
        needs: "no HTTP request reached the endpoint",
    },
    Rule {
        id: "http.accept",
        level: Level::Must,
        statement: "CLI-23",
        section: "basic/transports/streamable-http.mdx#sending-messages",
        text: "Every POST has an `Accept` header listing both `application/json` and `text/event-stream`.",
        scope: Scope::Http,
        needs: "no POST reached the endpoint",
    },
    Rule {
        id: "http.version-header",
        level: Level::Must,
        statement: "CLI-24",
        section: "basic/transports/streamable-http.mdx#protocol-version-header",
        text: "Every POST of a request carries `MCP-Protocol-Version`, equal to the body's protocolVersion.",
        scope: Scope::Http,
        needs: "no POST of a request naming a version reached the endpoint",
    },
    Rule {
        id: "http.method-header",
        level: Level::Must,
        statement: "CLI-25",
        section: "basic/transports/streamable-http.mdx#standard-request-headers",
        text: "Every POST of a request carries `Mcp-Method`, equal to the body's method.",
        scope: Scope::Http,
        needs: "no POST of a request reached the endpoint",
    },
    Rule {
        id: "http.name-header",
        level: Level::Must,
        statement: "CLI-26",
        section: "basic/transports/streamable-http.mdx#standard-request-headers",
        text: "A POST of `tools/call`, `prompts/get` or `resources/read` carries `Mcp-Name`, equal to `params.name` (`params.uri`), in the Base64 sentinel form where the value needs it.",
        scope: Scope::Http,
        needs: "no tools/call, prompts/get or resources/read was POSTed",
    },
    Rule {
        id: "http.param-headers",
        level: Level::Must,
        statement: "CLI-27",
        section: "basic/transports/streamable-http.mdx#custom-headers-from-tool-parameters",
        text: "A POST of `tools/call` carries an `Mcp-Param-{Name}` header for every argument the tool marks `x-mcp-header` (encoded; none for an absent or null one).",
        scope: Scope::Http,
        needs: "no tool with x-mcp-header parameters was called over HTTP (data/conformance.json offers one)",
    },
    Rule {
        id: "stdio.close-first",
        level: Level::Should,
        statement: "CLI-28",
        section: "basic/transports/stdio.mdx#shutdown",
        text: "The client ends a stdio session by closing the server's stdin first, before any signal.",
        scope: Scope::Stdio,
        needs: "the session has not ended, or ended at --duration",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_and_the_table_are_aligned() {
        let all = [
            R::Valid,
            R::IdType,
            R::IdInFlight,
            R::NoResponse,
            R::NotificationId,
            R::ProtocolVersion,
            R::Capabilities,
            R::ClientInfo,
            R::RetrySupported,
            R::NoLegacyFallback,
            R::MrtrInputs,
            R::MrtrStateEcho,
            R::MrtrNoState,
            R::MrtrNewId,
            R::MrtrRetryOnly,
            R::MrtrAnswerValid,
            R::MrtrAnswerContent,
            R::MrtrAnswerDeclared,
            R::CancelKnown,
            R::ProgressType,
            R::ProgressUnique,
            R::HttpPost,
            R::HttpAccept,
            R::HttpVersionHeader,
            R::HttpMethodHeader,
            R::HttpNameHeader,
            R::HttpParamHeaders,
            R::StdioCloseFirst,
        ];
        assert_eq!(all.len(), RULES.len());
        for (i, r) in all.iter().enumerate() {
            assert_eq!(*r as usize, i);
        }
        let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len(), "rule ids are unique");
        let mut statements: Vec<_> = RULES.iter().map(|r| r.statement).collect();
        statements.sort_unstable();
        statements.dedup();
        assert_eq!(statements.len(), RULES.len(), "one statement per rule");
    }
}
