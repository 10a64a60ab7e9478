//! `lookup_stock(product_id)`: units in stock of one product (the textbook's
//! companion lesson). Offered only when the configuration has a stock table.
//!
//! Its `inputSchema` has `additionalProperties: false`, so any argument other
//! than `product_id` is an invalid call. An unknown product is a business
//! failure: a result with `isError: true`.
//!
//! Spec: 2026-07-28 `server/tools.mdx`, "Structured Content", "Output Schema"
//! and "Error Handling".

use std::collections::BTreeMap;

use super::{
    Arguments, Checked, Era, Mirrored, Rendered, Tool, mirrored, property, read_only_annotations,
    structured_result, text_result,
};
use crate::canonical::{Node, arr, obj};
use crate::config::{Config, StockItem};
use crate::json::Shallow;

/// The tool's name.
pub(crate) const NAME: &str = "lookup_stock";

/// Text of the result for a product not in the stock table.
pub(crate) const UNKNOWN_TEXT: &str = "No product with that id is in the stock table. Check the \
     product id, for example python-book.";

/// Text of the result for arguments that break the `inputSchema`.
pub(crate) const INVALID_TEXT: &str = "Invalid arguments for lookup_stock: pass exactly one argument, \
     product_id, as a string, for example {\"product_id\": \"python-book\"}.";

/// `lookup_stock`, with every result it can give already rendered.
pub(crate) struct LookupStock {
    products: BTreeMap<String, Rendered>,
    unknown: Rendered,
    invalid: Rendered,
    mirrored: Vec<Mirrored>,
}

impl LookupStock {
    /// Renders the results for the stock table.
    pub(crate) fn new(config: &Config, stock: &[StockItem]) -> Self {
        let identity = config.identity();
        let products = stock
            .iter()
            .map(|item| {
                let structured = obj! { "product_id" => &item.product_id, "stock" => item.stock };
                (
                    item.product_id.clone(),
                    structured_result(structured, identity),
                )
            })
            .collect();
        LookupStock {
            products,
            unknown: text_result(UNKNOWN_TEXT, true, identity),
            invalid: text_result(INVALID_TEXT, true, identity),
            mirrored: mirrored(config, NAME, &["product_id"]),
        }
    }
}

impl Tool for LookupStock {
    fn name(&self) -> &str {
        NAME
    }

    fn descriptor(&self) -> Node {
        // `schema.ts` `Tool` order, as for get_order (row W1).
        obj! {
            "name" => NAME,
            "title" => "Look up stock",
            "description" => "Returns how many units of a product are in stock.",
            "inputSchema" => obj! {
                "type" => "object",
                "properties" => obj! {
                    "product_id" => property(obj! {
                        "type" => "string",
                        "description" => "The product id, for example python-book.",
                    }, "product_id", &self.mirrored),
                },
                "required" => arr!["product_id"],
                "additionalProperties" => false,
            },
            "outputSchema" => obj! {
                "type" => "object",
                "properties" => obj! {
                    "product_id" => obj! { "type" => "string" },
                    "stock" => obj! { "type" => "integer", "minimum" => 0u64 },
                },
                "required" => arr!["product_id", "stock"],
                "additionalProperties" => false,
            },
            "annotations" => read_only_annotations(),
        }
    }

    fn check<'b>(&self, args: &'b Arguments<'b>, era: Era) -> Result<Checked<'b>, &[u8]> {
        // inputSchema: exactly one member, `product_id`, a string.
        match args.get("product_id") {
            Some(Shallow::Str(_)) if args.len() == 1 => Ok(Checked::new(args, era)),
            _ => Err(self.invalid.get(era)),
        }
    }

    fn run(&self, args: Checked<'_>) -> &[u8] {
        self.products
            .get(args.str("product_id"))
            .unwrap_or(&self.unknown)
            .get(args.era())
    }

    fn mirrored(&self) -> &[Mirrored] {
        &self.mirrored
    }
}
