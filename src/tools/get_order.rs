//! `get_order(order_id)`: the order snapshot of one of the user's orders
//! (textbook chapter 43).
//!
//! Authorization is decided here, once, at catalog build: only orders owned
//! by the configured user get a rendered success result. Every other id, an
//! order of someone else's or no order at all, gets the one forbidden result,
//! so the two are byte-identical by construction and nothing of an order the
//! user may not read is ever rendered (row T5, decision DEC12). Nothing from the
//! request other than `order_id` is consulted: a `clientInfo` that calls
//! itself `administrator` never reaches this module.
//!
//! Spec: 2026-07-28 `server/tools.mdx`, "Structured Content" and "Output
//! Schema"; "Error Handling" for the `isError` results.

use std::collections::BTreeMap;

use super::{
    Arguments, Checked, Era, Mirrored, Rendered, Tool, mirrored, property, read_only_annotations,
    structured_result, text_result,
};
use crate::canonical::{Node, arr, obj};
use crate::config::{Config, Order};
use crate::json::Shallow;

/// The tool's name.
pub(crate) const NAME: &str = "get_order";

/// Text of the result for an order the user may not read or that does not
/// exist (row T5). It says nothing about which. It begins `forbidden:`, a
/// stable prefix a host can search for (Table 43.2 of the textbook: "a
/// forbidden tool error"), and says how to go on.
pub(crate) const FORBIDDEN_TEXT: &str = "forbidden: no order with that id is visible to you; it does \
     not exist or belongs to another customer. Check the order id: you can only read your own \
     orders.";

/// Text of the result for arguments that break the `inputSchema`. Like
/// every constant text of the server it names no order: it goes to every
/// user.
pub(crate) const INVALID_TEXT: &str = "Invalid arguments for get_order: pass one argument, order_id, \
     the id of one of your orders as a string, for example {\"order_id\": \"<your order id>\"}.";

/// The snapshot of one order, in the `outputSchema`'s property order (row
/// W1): `get_order`'s `structuredContent`, and (serialized) the text of the
/// order resource (row R5) and of the resource a prompt embeds (row P3).
pub(crate) fn snapshot(o: &Order) -> Node {
    obj! {
        "order_id" => &o.order_id,
        "status" => &o.status,
        "as_of" => &o.as_of,
        "source_version" => &o.source_version,
    }
}

/// Whether the configured user may read `order`: the one statement of the
/// rule (DEC12), asked by `get_order`, the order template and the prompts.
pub(crate) fn readable(config: &Config) -> impl Iterator<Item = &Order> {
    config.orders().iter().filter(|o| o.owner == config.user())
}

/// `get_order`, with every result it can give already rendered.
pub(crate) struct GetOrder {
    readable: BTreeMap<String, Rendered>,
    forbidden: Rendered,
    invalid: Rendered,
    mirrored: Vec<Mirrored>,
}

impl GetOrder {
    /// Renders the results for the configuration's user and snapshot.
    pub(crate) fn new(config: &Config) -> Self {
        let identity = config.identity();
        // A BTreeMap compares ids with memcmp, which stops at the first
        // differing byte: a 4 KiB order_id is not hashed in full.
        let readable = readable(config)
            .map(|o| (o.order_id.clone(), structured_result(snapshot(o), identity)))
            .collect();
        GetOrder {
            readable,
            forbidden: text_result(FORBIDDEN_TEXT, true, identity),
            invalid: text_result(INVALID_TEXT, true, identity),
            mirrored: mirrored(config, NAME, &["order_id"]),
        }
    }
}

impl Tool for GetOrder {
    fn name(&self) -> &str {
        NAME
    }

    fn descriptor(&self) -> Node {
        // `schema.ts` `Tool` order: name, title (`BaseMetadata`), then
        // description, inputSchema, outputSchema, annotations. The schemas
        // declare their properties in the textbook's order (row W1).
        obj! {
            "name" => NAME,
            "title" => "Get order",
            "description" => "Returns the status snapshot of one of your orders: its status, \
                              when the snapshot was taken, and the source version.",
            "inputSchema" => obj! {
                "type" => "object",
                "properties" => obj! {
                    "order_id" => property(obj! {
                        "type" => "string",
                        "description" => "The id of one of your orders.",
                    }, "order_id", &self.mirrored),
                },
                "required" => arr!["order_id"],
            },
            "outputSchema" => obj! {
                "type" => "object",
                "properties" => obj! {
                    "order_id" => obj! { "type" => "string" },
                    "status" => obj! { "type" => "string" },
                    "as_of" => obj! { "type" => "string", "format" => "date-time" },
                    "source_version" => obj! { "type" => "string" },
                },
                "required" => arr!["order_id", "status", "as_of", "source_version"],
                "additionalProperties" => false,
            },
            "annotations" => read_only_annotations(),
        }
    }

    fn check<'b>(&self, args: &'b Arguments<'b>, era: Era) -> Result<Checked<'b>, &[u8]> {
        // inputSchema: an object whose `order_id` is a required string;
        // other members are allowed (no `additionalProperties: false`).
        match args.get("order_id") {
            Some(Shallow::Str(_)) => Ok(Checked::new(args, era)),
            _ => Err(self.invalid.get(era)),
        }
    }

    fn run(&self, args: Checked<'_>) -> &[u8] {
        self.readable
            .get(args.str("order_id"))
            .unwrap_or(&self.forbidden)
            .get(args.era())
    }

    fn mirrored(&self) -> &[Mirrored] {
        &self.mirrored
    }
}
