//! Completion: `completion/complete` (rows C1 to C5), offered only when
//! there is something to complete: the order template, or the prompt
//! `reply_to_customer` (otherwise `-32601`, row D4).
//!
//! | reference | argument | values |
//! | --- | --- | --- |
//! | `ref/prompt` `reply_to_customer`, `ref/resource` the order template | `order_id` | the configured user's own order ids that start with the typed value, in id order |
//! | `ref/prompt` `reply_to_customer` | `tone` | `friendly`, `formal`, `brief`, those that start with the typed value |
//! | `ref/prompt` a configured prompt (`content_prompts`) | any of its arguments | its configured `completions` that start with the typed value, in configured order (row C6) |
//!
//! At most 100 values; `total` counts the matches and `hasMore` says
//! whether there are more than the values sent. Both count only the user's
//! own orders: another user's order id is never a value and never changes
//! a count, so a completion says nothing of anyone else's orders. The typed
//! value is data, compared as a prefix and never copied into the reply
//! (only configured ids and constant tones are). `context` is not read: no
//! argument's values depend on another's.
//!
//! Spec: 2026-07-28 `server/utilities/completion.mdx` ("Capabilities",
//! "Completion Results": at most 100 values, `total`, `hasMore`; "Error
//! Handling": `-32602` for an invalid prompt name, SHOULD; "Security":
//! validate all inputs, control access to suggestions, prevent
//! completion-based information disclosure, MUST); `schema.ts`
//! `CompleteRequestParams`, `CompleteResult`.

use crate::canonical::{Node, obj};
use crate::catalog::{MAX_COMPLETIONS, ORDER_VARIABLE, REPLY_TO_CUSTOMER, TONES};
use crate::config::{Config, Identity};
use crate::error::RpcError;
use crate::json::Shallow;
use crate::prompts::argument_names;
use crate::tools::get_order::readable;
use crate::tools::{Arguments, ArgumentsField, complete_result};

/// `-32602` for a request that breaks `CompleteRequestParams`.
pub(crate) const BAD_PARAMS: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: completion/complete needs ref (ref/prompt with a string name, or ref/resource with a string uri) and argument with a string name and value",
);
/// `-32602` for a reference to no prompt or template this server offers.
pub(crate) const UNKNOWN_REF: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: no prompt or resource template of that reference to complete; see prompts/list and resources/templates/list",
);
/// `-32602` for an argument the reference does not have.
pub(crate) const UNKNOWN_ARGUMENT: RpcError<'static> = RpcError::invalid_params(
    "Invalid params: the prompt or resource template has no argument of that name",
);

/// A configured prompt's arguments: each name with its completions.
type Completions = Vec<(String, Vec<String>)>;

/// What completion offers.
pub(crate) struct Completion {
    /// The user's own order ids, in id order.
    order_ids: Vec<String>,
    /// The order template's `uriTemplate`, if offered.
    template: Option<String>,
    /// Whether `reply_to_customer` is offered.
    prompt: bool,
    /// The configured prompts: name -> their arguments' names and
    /// completions (row C6).
    content: Vec<(String, Completions)>,
    identity: Identity,
}

/// What a string member of a decoded object is, if it is a string.
fn string<'a>(object: &'a Arguments<'_>, name: &str) -> Option<&'a str> {
    object.get(name).and_then(Shallow::as_str)
}

impl Completion {
    /// `None` when there is nothing to complete.
    pub(crate) fn new(config: &Config) -> Option<Self> {
        let c = config.catalog();
        let template = c.order_template.as_ref().map(|t| t.uri_template.clone());
        let prompt = c.prompts.iter().any(|p| p == REPLY_TO_CUSTOMER);
        let content: Vec<(String, Completions)> = c
            .content_prompts
            .iter()
            .map(|p| {
                let arguments = p.arguments.iter();
                let arguments = arguments.map(|a| (a.name.clone(), a.completions.clone()));
                (p.name.clone(), arguments.collect())
            })
            .collect();
        let arguments = content.iter().any(|(_, a)| !a.is_empty());
        if template.is_none() && !prompt && !arguments {
            return None;
        }
        let mut order_ids: Vec<String> = readable(config).map(|o| o.order_id.clone()).collect();
        order_ids.sort();
        Some(Completion {
            order_ids,
            template,
            prompt,
            content,
            identity: config.identity().clone(),
        })
    }

    /// `completion/complete` (rows C1 to C5): the body of its result.
    pub(crate) fn complete(
        &self,
        reference: Option<&ArgumentsField<'_>>,
        argument: Option<&ArgumentsField<'_>>,
    ) -> Result<Vec<u8>, RpcError<'static>> {
        let (Some(ArgumentsField::Object(r)), Some(ArgumentsField::Object(a))) =
            (reference, argument)
        else {
            return Err(BAD_PARAMS);
        };
        let (Some(name), Some(value)) = (string(a, "name"), string(a, "value")) else {
            return Err(BAD_PARAMS);
        };
        let arguments: &[&str] = match string(r, "type") {
            Some("ref/prompt") => {
                let prompt = string(r, "name").ok_or(BAD_PARAMS)?;
                if let Some((_, arguments)) = self.content.iter().find(|(p, _)| p == prompt) {
                    // C6: a configured prompt's argument, its configured
                    // completions that start with the typed value.
                    let (_, values) = arguments
                        .iter()
                        .find(|(a, _)| a == name)
                        .ok_or(UNKNOWN_ARGUMENT)?;
                    let matches = values.iter().map(String::as_str);
                    return Ok(self.result(matches.filter(|v| v.starts_with(value)).collect()));
                }
                if !(self.prompt && prompt == REPLY_TO_CUSTOMER) {
                    return Err(UNKNOWN_REF);
                }
                argument_names(prompt)
            }
            Some("ref/resource") => {
                let uri = string(r, "uri").ok_or(BAD_PARAMS)?;
                if self.template.as_deref() != Some(uri) {
                    return Err(UNKNOWN_REF);
                }
                &[ORDER_VARIABLE]
            }
            _ => return Err(BAD_PARAMS),
        };
        if !arguments.contains(&name) {
            return Err(UNKNOWN_ARGUMENT);
        }
        let matches: Vec<&str> = if name == ORDER_VARIABLE {
            self.order_ids
                .iter()
                .map(String::as_str)
                .filter(|id| id.starts_with(value))
                .collect()
        } else {
            TONES
                .iter()
                .copied()
                .filter(|t| t.starts_with(value))
                .collect()
        };
        Ok(self.result(matches))
    }

    /// The `CompleteResult` of `matches`: at most 100 of them.
    fn result(&self, matches: Vec<&str>) -> Vec<u8> {
        let total = matches.len();
        let values = matches
            .iter()
            .take(MAX_COMPLETIONS)
            .map(|v| Node::from(*v))
            .collect();
        // `schema.ts` `CompleteResult.completion`: values, total, hasMore.
        let completion = obj! {
            "values" => Node::Arr(values),
            "total" => u64::try_from(total).unwrap_or(u64::MAX),
            "hasMore" => total > MAX_COMPLETIONS,
        };
        complete_result(vec![("completion", completion)], &self.identity)
    }
}
