//! Prompts: `prompts/list` and `prompts/get` (rows P1 to P9), offered only
//! when the configuration's catalog names prompts (otherwise `-32601`,
//! row D4).
//!
//! | prompt | arguments | messages |
//! | --- | --- | --- |
//! | `reply_to_customer` | `order_id` (required), `tone` (`friendly`, the default, `formal` or `brief`) | an instruction, then the order resource embedded (`type: "resource"`) |
//! | `returns_help` | none | an instruction, then the returns policy embedded |
//! | each of `content_prompts` | as configured | the configured blocks, `{{argument}}` replaced by its value (rows P11 to P13) |
//!
//! The texts are constants; argument values are data. `tone` picks one of
//! three constant sentences and is refused when it is anything else;
//! `order_id` picks one of the configured user's orders, never anyone
//! else's: every result is rendered once, at build, for the orders the
//! user may read, and an id that is not among them (another user's order,
//! no order at all, any text) gets the one `-32602`, byte-identical either
//! way (DEC12). No argument value of these two is ever copied into a
//! reply; a configured prompt copies its values exactly where its
//! configuration put a `{{placeholder}}`, and nowhere else (P11).
//!
//! Spec: 2026-07-28 `server/prompts.mdx` ("Listing Prompts", "Getting a
//! Prompt", "Embedded Resources": a valid URI, a MIME type and the content,
//! MUST; "Error Handling": `-32602` for an invalid prompt name or a missing
//! required argument, SHOULD; "Security": validate inputs and outputs,
//! prevent unauthorized access to resources, MUST);
//! `server/utilities/caching.mdx` (hints on `prompts/list`, none on
//! `prompts/get`).

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::canonical::{Node, obj};
use crate::catalog::{
    ContentPrompt, REPLY_TO_CUSTOMER, RETURNS_HELP, RETURNS_POLICY_URI, TONES, fill, valid_block,
};
use crate::config::{CATALOG_CACHE, Config};
use crate::error::RpcError;
use crate::json::Shallow;
use crate::resources::{contents, order_contents};
use crate::tools::content::block;
use crate::tools::get_order::readable;
use crate::tools::{Arguments, ArgumentsField, cache_fields, complete_result, text_block};

/// `-32602` for a `prompts/get` without a string `name`.
pub(crate) const NO_NAME: RpcError<'static> =
    RpcError::invalid_params("Invalid params: prompts/get needs a string name");
/// `-32602` for `arguments` that is not an object of strings.
pub(crate) const BAD_ARGUMENTS: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: prompts/get arguments must be an object whose values are strings",
);
/// `-32602` for a prompt this server does not offer.
pub(crate) const UNKNOWN_PROMPT: RpcError<'static> = RpcError::invalid_params(
    "Unknown prompt: this server offers no prompt of that name; see prompts/list",
);
/// `-32602` for `reply_to_customer` without `order_id`.
pub(crate) const NO_ORDER_ID: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: reply_to_customer needs the argument order_id, the id of one of your orders",
);
/// `-32602` for a `tone` outside the list.
pub(crate) const BAD_TONE: RpcError<'static> =
    RpcError::invalid_params("Invalid params: tone must be friendly, formal or brief");
/// `-32602` for an order the user may not read, or that does not exist
/// (row P5, DEC12): one constant, whichever it is.
pub(crate) const ORDER_NOT_VISIBLE: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: no order with that id is visible to you; it does not exist or belongs to another customer",
);

/// `-32602` for a configured prompt without one of its required arguments
/// (row P12).
pub(crate) const MISSING_ARGUMENT: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: a required argument of this prompt is missing; see its arguments in prompts/list",
);
/// `-32602` for an argument value that would make a configured prompt's
/// embedded resource uri no URI (row P13).
pub(crate) const BAD_URI_ARGUMENT: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: an argument value makes the uri of this prompt's embedded resource invalid; send a URI such as test://example",
);

/// The instruction of `reply_to_customer`, per tone (the order of [`TONES`]).
const REPLY_TEXTS: [&str; 3] = [
    "Draft a reply to the customer about the order below, in a friendly tone. Use only the facts in the order snapshot.",
    "Draft a reply to the customer about the order below, in a formal tone. Use only the facts in the order snapshot.",
    "Draft a brief reply to the customer about the order below, two sentences at most. Use only the facts in the order snapshot.",
];
const REPLY_DESCRIPTION: &str = "A reply to a customer about one of your orders.";
const RETURNS_TEXT: &str =
    "Answer the customer's question about returns using only the returns policy below.";
const RETURNS_DESCRIPTION: &str = "A returns question answered from the returns policy.";

/// The prompt methods, rendered.
pub(crate) struct Prompts {
    list: Vec<u8>,
    /// `reply_to_customer`, if offered: order id -> one body per tone.
    reply: Option<BTreeMap<String, [Vec<u8>; 3]>>,
    /// `returns_help`, if offered.
    returns: Option<Vec<u8>>,
    /// The configured prompts (P11 to P13), rendered per request.
    content: Vec<ContentPrompt>,
    identity: crate::config::Identity,
}

/// The `Prompt` of a configured prompt: `name, title, description,
/// arguments` (each `name, description, required`).
fn content_descriptor(p: &ContentPrompt) -> Node {
    let mut members = vec![("name", Node::from(p.name.as_str()))];
    if let Some(t) = &p.title {
        members.push(("title", Node::from(t.as_str())));
    }
    members.push(("description", Node::from(p.description.as_str())));
    if !p.arguments.is_empty() {
        let arguments = p.arguments.iter().map(|a| {
            let mut m = vec![("name", Node::from(a.name.as_str()))];
            if let Some(d) = &a.description {
                m.push(("description", Node::from(d.as_str())));
            }
            m.push(("required", Node::Bool(a.required)));
            Node::Obj(m)
        });
        members.push(("arguments", Node::Arr(arguments.collect())));
    }
    Node::Obj(members)
}

/// A `PromptMessage` from the user: `role, content` (`schema.ts`).
fn user(content: Node) -> Node {
    obj! { "role" => "user", "content" => content }
}

/// An `EmbeddedResource` content block: `type, resource`.
fn embedded(resource: Node) -> Node {
    obj! { "type" => "resource", "resource" => resource }
}

/// A `PromptArgument`: `name` (`BaseMetadata`), `description, required`.
fn argument(name: &str, description: &str, required: bool) -> Node {
    obj! { "name" => name, "description" => description, "required" => required }
}

/// The `Prompt` of `name`: `name, title` (`BaseMetadata`), then
/// `description, arguments` (`schema.ts` `Prompt`, row W1).
fn descriptor(name: &str) -> Node {
    if name == REPLY_TO_CUSTOMER {
        obj! {
            "name" => REPLY_TO_CUSTOMER,
            "title" => "Reply to a customer",
            "description" => "Drafts a reply to a customer about one of your orders, from its status snapshot.",
            "arguments" => Node::Arr(vec![
                argument("order_id", "The id of one of your orders.", true),
                argument("tone", "friendly (the default), formal or brief.", false),
            ]),
        }
    } else {
        obj! {
            "name" => RETURNS_HELP,
            "title" => "Returns help",
            "description" => "Answers a customer's question about returns from the returns policy.",
        }
    }
}

/// A `GetPromptResult`: `description, messages` (no caching hints).
fn get_result(description: &str, messages: Vec<Node>, config: &Config) -> Vec<u8> {
    complete_result(
        vec![
            ("description", Node::from(description)),
            ("messages", Node::Arr(messages)),
        ],
        config.identity(),
    )
}

impl Prompts {
    /// Renders every reply, or `None` when no prompt is offered.
    ///
    /// `extra` are the `prompts/list` entries of the input prompts
    /// (`crate::input`), by name; they are listed among the catalog's, in
    /// name order, and answered by `crate::dispatch`.
    pub(crate) fn new(config: &Config, extra: Vec<(String, Node)>) -> Option<Self> {
        let c = config.catalog();
        if c.prompts.is_empty() && c.content_prompts.is_empty() && extra.is_empty() {
            return None;
        }
        // Coded, configured and input prompts together, in name order (P1).
        let mut listed: Vec<(String, Node)> = c
            .prompts
            .iter()
            .map(|p| (p.clone(), descriptor(p)))
            .collect();
        listed.extend(
            c.content_prompts
                .iter()
                .map(|p| (p.name.clone(), content_descriptor(p))),
        );
        listed.extend(extra);
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        let mut members = vec![(
            "prompts",
            Node::Arr(listed.into_iter().map(|(_, d)| d).collect()),
        )];
        cache_fields(&mut members, CATALOG_CACHE);
        let list = complete_result(members, config.identity());
        let offered = |name: &str| c.prompts.iter().any(|p| p == name);
        let reply = offered(REPLY_TO_CUSTOMER)
            .then_some(c.order_template.as_ref())
            .flatten()
            .map(|t| {
                readable(config)
                    .map(|o| {
                        let body = |text: &str| {
                            let messages = vec![
                                user(text_block(text.to_owned())),
                                user(embedded(order_contents(t, o))),
                            ];
                            get_result(REPLY_DESCRIPTION, messages, config)
                        };
                        (o.order_id.clone(), REPLY_TEXTS.map(body))
                    })
                    .collect()
            });
        let returns = offered(RETURNS_HELP)
            .then(|| c.resources.iter().find(|r| r.uri == RETURNS_POLICY_URI))
            .flatten()
            .map(|policy| {
                let messages = vec![
                    user(text_block(RETURNS_TEXT.to_owned())),
                    user(embedded(contents(policy))),
                ];
                get_result(RETURNS_DESCRIPTION, messages, config)
            });
        Some(Prompts {
            list,
            reply,
            returns,
            content: c.content_prompts.clone(),
            identity: config.identity().clone(),
        })
    }

    /// `prompts/list` (row P1).
    pub(crate) fn list(&self) -> &[u8] {
        &self.list
    }

    /// `prompts/get` (rows P3 to P9), checked in the order of `tools/call`:
    /// the name's type, the arguments' shape, the prompt, its arguments.
    pub(crate) fn get(
        &self,
        name: Option<&Shallow<'_>>,
        arguments: Option<&ArgumentsField<'_>>,
    ) -> Result<Cow<'_, [u8]>, RpcError<'static>> {
        let Some(Shallow::Str(name)) = name else {
            return Err(NO_NAME);
        };
        let empty = Arguments::default();
        let args = match arguments {
            None => &empty,
            Some(ArgumentsField::Object(args)) => args,
            Some(ArgumentsField::Other(_)) => return Err(BAD_ARGUMENTS),
        };
        if args.iter().any(|(_, v)| !matches!(v, Shallow::Str(_))) {
            return Err(BAD_ARGUMENTS);
        }
        match (name.as_ref(), &self.reply, &self.returns) {
            (REPLY_TO_CUSTOMER, Some(reply), _) => {
                let order_id = args.get("order_id").and_then(Shallow::as_str);
                let order_id = order_id.ok_or(NO_ORDER_ID)?;
                let tone = match args.get("tone").and_then(Shallow::as_str) {
                    None => 0,
                    Some(t) => TONES.iter().position(|x| *x == t).ok_or(BAD_TONE)?,
                };
                let bodies = reply.get(order_id).ok_or(ORDER_NOT_VISIBLE)?;
                let body = bodies.get(tone).map(Vec::as_slice).ok_or(BAD_TONE)?;
                Ok(Cow::Borrowed(body))
            }
            (RETURNS_HELP, _, Some(body)) => Ok(Cow::Borrowed(body)),
            (other, ..) => {
                let prompt = self.content.iter().find(|p| p.name == other);
                self.content_get(prompt.ok_or(UNKNOWN_PROMPT)?, args)
                    .map(Cow::Owned)
            }
        }
    }

    /// `prompts/get` of a configured prompt (P11 to P13): its required
    /// arguments present, each placeholder replaced by its argument's
    /// value (an absent optional one by nothing), every block still valid.
    /// Arguments it does not declare are ignored.
    fn content_get(
        &self,
        prompt: &ContentPrompt,
        args: &Arguments<'_>,
    ) -> Result<Vec<u8>, RpcError<'static>> {
        let given = |name: &str| args.get(name).and_then(Shallow::as_str);
        if prompt
            .arguments
            .iter()
            .any(|a| a.required && given(&a.name).is_none())
        {
            return Err(MISSING_ARGUMENT);
        }
        let value = |name: &str| {
            prompt
                .arguments
                .iter()
                .any(|a| a.name == name)
                .then(|| given(name).unwrap_or_default().to_owned())
        };
        let mut messages = Vec::with_capacity(prompt.messages.len());
        for m in &prompt.messages {
            // Validated at load: every placeholder names an argument.
            let content = fill(&m.content, &value).ok_or(BAD_URI_ARGUMENT)?;
            if !valid_block(&content) {
                return Err(BAD_URI_ARGUMENT);
            }
            messages.push(obj! { "role" => m.role.as_str(), "content" => block(&content) });
        }
        Ok(complete_result(
            vec![
                ("description", Node::from(prompt.description.as_str())),
                ("messages", Node::Arr(messages)),
            ],
            &self.identity,
        ))
    }
}

/// The argument names of an offered prompt, for completion.
pub(crate) fn argument_names(name: &str) -> &'static [&'static str] {
    if name == REPLY_TO_CUSTOMER {
        &["order_id", "tone"]
    } else {
        &[]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_text_per_tone() {
        assert_eq!(super::REPLY_TEXTS.len(), super::TONES.len());
    }
}
