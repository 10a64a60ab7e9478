//! Methods: which exist, what their params mean, and what each returns.
//!
//! | method | result |
//! | --- | --- |
//! | `server/discover` | `DiscoverResult`, rendered once |
//! | `tools/list` | `ListToolsResult`, rendered once; any `cursor` is `-32602` |
//! | `tools/call` | the tool's result, or `-32602` for a malformed call or an unknown tool |
//! | `resources/list`, `resources/templates/list`, `resources/read` | [`crate::resources`], when the catalog offers resources; else `-32601` |
//! | `prompts/list`, `prompts/get` | [`crate::prompts`], when the catalog offers prompts; else `-32601` |
//! | `completion/complete` | [`crate::completion`], when there is something to complete; else `-32601` |
//! | `ping`, `logging/setLevel` (removed in 2026-07-28) | `-32601`, saying so |
//! | anything else | `-32601` |
//!
//! By the time a request gets here its envelope, `_meta` and version have
//! been checked (decision DEC9); this module only reads the method's own
//! params. The params decoder captures the members any method of this
//! server reads (`name`, `arguments`, `cursor`, and the `protocolVersion`,
//! `capabilities` and `clientInfo` of the legacy `initialize`) leniently, so
//! the method decides what a wrong type means. [`call_tool`] is shared with
//! the legacy path ([`crate::legacy`]), which renders the same tools'
//! results in the legacy shape.
//!
//! Spec: 2026-07-28 `server/discover.mdx`; `server/tools.mdx`, "Listing
//! Tools", "Calling Tools" and "Error Handling"; `server/utilities/
//! pagination.mdx` ("invalid cursors SHOULD result in `-32602`");
//! `server/utilities/caching.mdx` for `ttlMs` and `cacheScope`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};

use crate::canonical::{Node, obj};
use crate::completion::Completion;
use crate::config::Config;
use crate::error::{Code, RpcError};
use crate::input::{Ask, Inputs, Judged};
use crate::json::{KeySet, MemberSeed, ScanSeed, Shallow, Str, ValueSeed};
use crate::prompts::Prompts;
use crate::resources::Resources;
pub(crate) use crate::tools::ArgumentsField;
use crate::tools::{Arguments, Call, Catalog, Era, Executor, Tool, cache_fields, complete_result};

/// The method params of a request, beyond `_meta`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MethodParams<'a> {
    /// `name` (`tools/call`).
    pub name: Option<Shallow<'a>>,
    /// `arguments` (`tools/call`).
    pub arguments: Option<ArgumentsField<'a>>,
    /// Whether a `cursor` member was present (`tools/list`).
    pub cursor: bool,
    /// `protocolVersion` (the legacy `initialize`).
    pub protocol_version: Option<Shallow<'a>>,
    /// `capabilities` (the legacy `initialize`): its JSON type.
    pub capabilities: Option<Shallow<'a>>,
    /// `clientInfo` (the legacy `initialize`): its JSON type. Self-reported
    /// and never read beyond that.
    pub client_info: Option<Shallow<'a>>,
    /// `uri` (`resources/read`).
    pub uri: Option<Shallow<'a>>,
    /// `ref` (`completion/complete`), decoded member by member.
    pub reference: Option<ArgumentsField<'a>>,
    /// `argument` (`completion/complete`), decoded member by member.
    pub argument: Option<ArgumentsField<'a>>,
    /// `inputResponses` (a retry of a multi round-trip request), whole;
    /// boxed, so that the params of every other request stay small.
    pub input_responses: Option<Box<serde_json::Value>>,
    /// `requestState` (likewise).
    pub request_state: Option<Shallow<'a>>,
}

impl<'a> MethodParams<'a> {
    /// Decodes the params member called `key` if it is one a method reads;
    /// otherwise scans it (for duplicates) and ignores it, since unknown
    /// params members are ignored for forward compatibility (decision
    /// DEC10).
    pub fn visit_member<A: MapAccess<'a>>(
        &mut self,
        key: &str,
        map: &mut A,
        dup: &mut bool,
    ) -> Result<(), A::Error> {
        match key {
            "name" => self.name = Some(map.next_value_seed(ScanSeed { dup })?),
            "arguments" => self.arguments = Some(map.next_value_seed(ArgumentsSeed { dup })?),
            "cursor" => {
                map.next_value_seed(ScanSeed { dup })?;
                self.cursor = true;
            }
            "protocolVersion" => {
                self.protocol_version = Some(map.next_value_seed(ScanSeed { dup })?)
            }
            "capabilities" => self.capabilities = Some(map.next_value_seed(ScanSeed { dup })?),
            "clientInfo" => self.client_info = Some(map.next_value_seed(ScanSeed { dup })?),
            "uri" => self.uri = Some(map.next_value_seed(ScanSeed { dup })?),
            "ref" => self.reference = Some(map.next_value_seed(ArgumentsSeed { dup })?),
            "argument" => self.argument = Some(map.next_value_seed(ArgumentsSeed { dup })?),
            "inputResponses" => {
                self.input_responses = Some(Box::new(map.next_value_seed(ValueSeed { dup })?))
            }
            "requestState" => self.request_state = Some(map.next_value_seed(ScanSeed { dup })?),
            _ => {
                map.next_value_seed(ScanSeed { dup })?;
            }
        }
        Ok(())
    }
}

struct ArgumentsSeed<'d> {
    dup: &'d mut bool,
}

impl<'de> DeserializeSeed<'de> for ArgumentsSeed<'_> {
    type Value = ArgumentsField<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ArgumentsSeed<'_> {
    type Value = ArgumentsField<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("tool arguments")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut args = Arguments::default();
        let mut keys = KeySet::default();
        while let Some(Str(key)) = map.next_key::<Str<'de>>()? {
            // A nested value is kept whole for a configured `inputSchema`
            // (row T14); a scalar is its `Shallow` form.
            let (value, nested) = map.next_value_seed(MemberSeed { dup: self.dup })?;
            if !keys.insert(key.clone()) {
                *self.dup = true;
            }
            args.push_nested(key, value, nested);
        }
        Ok(ArgumentsField::Object(args))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        ScanSeed { dup: self.dup }
            .visit_seq(seq)
            .map(ArgumentsField::Other)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(ArgumentsField::Other(Shallow::Null))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(ArgumentsField::Other(Shallow::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(ArgumentsField::Other(Shallow::Integer(v.into())))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(ArgumentsField::Other(Shallow::Integer(v.into())))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(ArgumentsField::Other(Shallow::Number(v.to_bits())))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(ArgumentsField::Other(Shallow::Str(Cow::Owned(
            v.to_owned(),
        ))))
    }
}

/// The methods of this server, with their constant results rendered.
pub(crate) struct Methods {
    catalog: Catalog,
    discover: Vec<u8>,
    list: Vec<u8>,
    resources: Option<Resources>,
    prompts: Option<Prompts>,
    completion: Option<Completion>,
    inputs: Option<Inputs>,
    principal: String,
}

/// What a request brings besides its method and params: the input
/// capabilities its `_meta` declares and the time it is answered at, the
/// two things a multi round-trip request is judged on (`crate::input`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Context {
    /// `crate::meta::Meta::declared`.
    pub declared: u8,
    /// Now, in seconds since 1970.
    pub now: u64,
}

/// `-32602` for `tools/call` without a string `name`.
pub(crate) const NO_NAME: RpcError<'static> =
    RpcError::invalid_params("Invalid params: tools/call needs a string name");
/// `-32602` for `tools/call` with `arguments` that is not an object.
pub(crate) const ARGS_NOT_OBJECT: RpcError<'static> =
    RpcError::invalid_params("Invalid params: tools/call arguments must be an object");
/// `-32602` for a tool this server does not offer.
pub(crate) const UNKNOWN_TOOL: RpcError<'static> = RpcError::invalid_params(
    "Unknown tool: this server offers no tool of that name; see tools/list",
);
/// `-32602` for any cursor: this server never issues one.
pub(crate) const INVALID_CURSOR: RpcError<'static> =
    RpcError::invalid_params("Invalid cursor: this server never issues cursors");
/// `-32601`.
pub(crate) const METHOD_NOT_FOUND: RpcError<'static> =
    RpcError::new(Code::MethodNotFound, "Method not found");
/// `-32601` for the methods 2026-07-28 removed (`changelog.mdx`): the same
/// code as any unknown method, with a message that says why.
pub(crate) const REMOVED_METHOD: RpcError<'static> = RpcError::new(
    Code::MethodNotFound,
    "Method not found: removed in protocol version 2026-07-28",
);

impl Methods {
    /// Builds the catalog and renders the constant results.
    ///
    /// `supported_versions` is what `server/discover` lists.
    pub(crate) fn new(config: &Config, supported_versions: &[String]) -> Self {
        let inputs = Inputs::new(config);
        let extra = inputs
            .iter()
            .flat_map(|i| i.tools())
            .map(|t| Box::new(t.clone()) as Box<dyn Tool>)
            .collect();
        let catalog = Catalog::new(config).with_extra(extra);
        let identity = config.identity();
        let resources = Resources::new(config);
        let extra_prompts = inputs
            .iter()
            .flat_map(|i| i.prompts())
            .map(|p| (p.target().name.clone(), p.descriptor()))
            .collect();
        let prompts = Prompts::new(config, extra_prompts);
        let completion = Completion::new(config);

        // `DiscoverResult`: supportedVersions, capabilities, instructions,
        // then the caching hints (row W1). `ServerCapabilities` in
        // `schema.ts` order: logging, completions, prompts, resources,
        // tools (`logging` only when a content tool logs: LOG-03, T13); no
        // `listChanged` or `subscribe`: the catalog is fixed for the
        // process (DEC16).
        let versions = supported_versions.iter().map(Node::from).collect();
        let mut capabilities = Vec::new();
        let logs = config
            .catalog()
            .content_tools
            .iter()
            .any(|t| !t.log.is_empty());
        for (name, offered) in [
            ("logging", logs),
            ("completions", completion.is_some()),
            ("prompts", prompts.is_some()),
            ("resources", resources.is_some()),
            ("tools", true),
        ] {
            if offered {
                capabilities.push((name, obj! {}));
            }
        }
        let mut members = vec![
            ("supportedVersions", Node::Arr(versions)),
            ("capabilities", Node::Obj(capabilities)),
        ];
        if let Some(instructions) = &identity.instructions {
            members.push(("instructions", Node::from(instructions)));
        }
        cache_fields(&mut members, config.discover_cache());
        let discover = complete_result(members, identity);

        // `ListToolsResult`: tools, then the caching hints.
        let tools = catalog.iter().map(|t| t.descriptor()).collect();
        let mut members = vec![("tools", Node::Arr(tools))];
        cache_fields(&mut members, config.tools_cache());
        let list = complete_result(members, identity);

        Methods {
            catalog,
            discover,
            list,
            resources,
            prompts,
            completion,
            inputs,
            principal: config.user().to_owned(),
        }
    }

    /// The tool catalog.
    pub(crate) fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Runs `method` and returns the body of its `result`, or its error.
    /// `ran` is set to the configuration of the notifications the tool
    /// that ran may send (T12, T13), if any.
    pub(crate) fn call<'s, E: Executor>(
        &'s self,
        method: &str,
        params: &MethodParams<'_>,
        context: Context,
        executor: &mut E,
        ran: &mut Option<&'s crate::catalog::ContentTool>,
    ) -> Result<Cow<'s, [u8]>, RpcError<'static>> {
        let list = |body: &'s [u8]| {
            if params.cursor {
                Err(INVALID_CURSOR)
            } else {
                Ok(Cow::Borrowed(body))
            }
        };
        let resources = self.resources.as_ref();
        let prompts = self.prompts.as_ref();
        match (method, resources, prompts, &self.completion) {
            ("server/discover", ..) => Ok(Cow::Borrowed(&self.discover)),
            ("tools/list", ..) => list(&self.list),
            ("tools/call", ..) => self.call_tool(params, context, executor, ran),
            ("resources/list", Some(r), ..) => list(r.list()),
            ("resources/templates/list", Some(r), ..) => list(r.templates()),
            ("resources/read", Some(r), ..) => r.read(params.uri.as_ref()),
            ("prompts/list", _, Some(p), _) => list(p.list()),
            ("prompts/get", _, Some(p), _) => self.get_prompt(p, params, context),
            ("completion/complete", _, _, Some(c)) => c
                .complete(params.reference.as_ref(), params.argument.as_ref())
                .map(Cow::Owned),
            (
                "ping"
                | "logging/setLevel"
                | "notifications/initialized"
                | "notifications/roots/list_changed",
                ..,
            ) => Err(REMOVED_METHOD),
            _ => Err(METHOD_NOT_FOUND),
        }
    }

    fn call_tool<'s, E: Executor>(
        &'s self,
        params: &MethodParams<'_>,
        context: Context,
        executor: &mut E,
        ran: &mut Option<&'s crate::catalog::ContentTool>,
    ) -> Result<Cow<'s, [u8]>, RpcError<'static>> {
        if let (Some(inputs), Some(Shallow::Str(name))) = (&self.inputs, &params.name)
            && let (Some(input), Some(tool)) = (inputs.tool(name), self.catalog.find(name))
        {
            return self.call_input_tool(inputs, input, tool, params, context, executor);
        }
        match call_tool(&self.catalog, params, executor, Era::Modern)? {
            ToolOutcome::Ran(body) => {
                *ran = match &params.name {
                    Some(Shallow::Str(name)) => self.catalog.find(name).and_then(|t| t.notices()),
                    _ => None,
                };
                Ok(Cow::Borrowed(body))
            }
            ToolOutcome::InvalidArguments(body) => Ok(Cow::Borrowed(body)),
        }
    }

    /// `tools/call` of an input tool (`crate::input`): the params and the
    /// arguments as for any tool, then the rounds; the tool runs, through
    /// `executor`, only once every round is answered.
    fn call_input_tool<'s, E: Executor>(
        &'s self,
        inputs: &'s Inputs,
        input: &'s crate::input::InputTool,
        tool: &'s dyn Tool,
        params: &MethodParams<'_>,
        context: Context,
        executor: &mut E,
    ) -> Result<Cow<'s, [u8]>, RpcError<'static>> {
        let empty = Arguments::default();
        let args = match &params.arguments {
            None => &empty,
            Some(ArgumentsField::Object(args)) => args,
            Some(ArgumentsField::Other(_)) => return Err(ARGS_NOT_OBJECT),
        };
        let checked = match tool.check(args, Era::Modern) {
            Ok(checked) => checked,
            Err(invalid) => return Ok(Cow::Borrowed(invalid)),
        };
        match inputs.judge(
            input.target(),
            input.requests(),
            "tools/call",
            args,
            &self.ask(params, context),
        )? {
            Judged::Complete => Ok(Cow::Borrowed(executor.run(Call::new(tool, checked)))),
            Judged::Refused => Ok(Cow::Borrowed(input.refused())),
            Judged::Input(body) => Ok(Cow::Owned(body)),
        }
    }

    /// `prompts/get`: an input prompt's rounds, or [`Prompts::get`].
    fn get_prompt<'s>(
        &'s self,
        prompts: &'s Prompts,
        params: &MethodParams<'_>,
        context: Context,
    ) -> Result<Cow<'s, [u8]>, RpcError<'static>> {
        let input = match (&self.inputs, &params.name) {
            (Some(inputs), Some(Shallow::Str(name))) => inputs.prompt(name).map(|p| (inputs, p)),
            _ => None,
        };
        let Some((inputs, prompt)) = input else {
            return prompts.get(params.name.as_ref(), params.arguments.as_ref());
        };
        let empty = Arguments::default();
        let args = match &params.arguments {
            None => &empty,
            Some(ArgumentsField::Object(args)) if prompt.accepts(args) => args,
            Some(_) => return Err(crate::prompts::BAD_ARGUMENTS),
        };
        match inputs.judge(
            prompt.target(),
            prompt.requests(),
            "prompts/get",
            args,
            &self.ask(params, context),
        )? {
            Judged::Complete => Ok(Cow::Borrowed(prompt.complete())),
            Judged::Refused => Err(crate::input::PROMPT_REFUSED),
            Judged::Input(body) => Ok(Cow::Owned(body)),
        }
    }

    fn ask<'r>(&'r self, params: &'r MethodParams<'r>, context: Context) -> Ask<'r> {
        Ask {
            principal: &self.principal,
            declared: context.declared,
            now: context.now,
            responses: params.input_responses.as_deref(),
            state: params.request_state.as_ref(),
        }
    }
}

/// What a well-formed `tools/call` of a known tool came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ToolOutcome<'s> {
    /// The tool ran; the body of its result.
    Ran(&'s [u8]),
    /// The arguments broke the tool's `inputSchema`, so it did not run; the
    /// body of the `isError: true` result that says how to fix them. The
    /// era decides whether this is sent as a result (2026-07-28 and
    /// 2025-11-25, SEP-1303) or as `-32602` (2025-06-18).
    InvalidArguments(&'s [u8]),
}

/// `tools/call` in any era: `name` and `arguments` checked (`-32602` when
/// malformed), the tool found in `catalog` (`-32602` when unknown), its
/// arguments checked against its `inputSchema`, and, only then, the tool
/// run through `executor`, with bodies rendered for `era`.
pub(crate) fn call_tool<'s, E: Executor>(
    catalog: &'s Catalog,
    params: &MethodParams<'_>,
    executor: &mut E,
    era: Era,
) -> Result<ToolOutcome<'s>, RpcError<'static>> {
    let Some(Shallow::Str(name)) = &params.name else {
        return Err(NO_NAME);
    };
    let empty = Arguments::default();
    let args = match &params.arguments {
        None => &empty,
        Some(ArgumentsField::Object(args)) => args,
        Some(ArgumentsField::Other(_)) => return Err(ARGS_NOT_OBJECT),
    };
    let tool = catalog
        .find(name)
        .filter(|t| era == Era::Modern || !t.modern_only())
        .ok_or(UNKNOWN_TOOL)?;
    match tool.check(args, era) {
        Ok(args) => Ok(ToolOutcome::Ran(executor.run(Call::new(tool, args)))),
        Err(invalid) => Ok(ToolOutcome::InvalidArguments(invalid)),
    }
}
