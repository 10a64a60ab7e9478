//! Resources: `resources/list`, `resources/templates/list` and
//! `resources/read` (rows R1 to R7), offered only when the configuration's
//! catalog has static resources or the order template (otherwise the
//! methods are `-32601`, row D4).
//!
//! Every reply depends only on the configuration, so every body is
//! rendered once, when the server is built: the two lists, and one
//! `ReadResourceResult` per readable URI, the static resources' and the
//! order template expanded with each order the configured user may read.
//! A read looks the URI up, byte for byte: a URI that is in the map is
//! served, any other (another user's order, an order that does not exist,
//! a URI naming nothing) gets the one `-32602`, so "not found" and "not
//! yours" are byte-identical by construction (DEC12) and nothing of an
//! order the user may not read is ever rendered.
//!
//! Spec: 2026-07-28 `server/resources.mdx` ("Listing Resources", "Reading
//! Resources", "Resource Templates", "Error Handling": `-32602` for a
//! resource that does not exist, MUST; never an empty `contents`, MUST
//! NOT); `server/utilities/caching.mdx` (hints on both lists and on every
//! read; `private` for a read that depends on the user);
//! `server/utilities/pagination.mdx` (an invalid cursor: `-32602`).

use std::collections::BTreeMap;

use crate::canonical::{Node, obj};
use crate::catalog::{self, OrderTemplate, Resource};
use crate::config::{CATALOG_CACHE, CacheHint, Config, ORDER_CACHE};
use crate::error::RpcError;
use crate::json::Shallow;
use crate::tools::get_order::{readable, snapshot};
use crate::tools::{cache_fields, complete_result};

/// `-32602` for a `resources/read` without a string `uri`.
pub(crate) const NO_URI: RpcError<'static> =
    RpcError::invalid_params("Invalid params: resources/read needs a string uri");
/// `-32602` for a URI that names no resource the user may read (row R6):
/// never `-32002`, never an empty `contents`; `data.uri` is the uri as the
/// client sent it (the page's example, SEP-2164's SHOULD). It is the
/// client's own input, so another user's order and one that does not
/// exist still answer alike apart from the id and that uri (DEC12).
pub(crate) fn not_found(uri: &str) -> RpcError<'static> {
    RpcError {
        code: crate::error::Code::InvalidParams,
        message: NOT_FOUND_MESSAGE,
        data: crate::error::ErrorData::Uri(std::borrow::Cow::Owned(uri.to_owned())),
    }
}
/// The message of [`not_found`].
pub(crate) const NOT_FOUND_MESSAGE: &str = "Resource not found: no resource with that uri is visible to you; see resources/list and resources/templates/list";

/// The resource methods, rendered.
pub(crate) struct Resources {
    list: Vec<u8>,
    templates: Vec<u8>,
    reads: BTreeMap<String, Vec<u8>>,
}

/// `schema.ts` `Annotations`: `audience, priority, lastModified`.
fn annotations(a: &catalog::Annotations) -> Node {
    let mut members = Vec::new();
    if let Some(audience) = &a.audience {
        let roles = audience.iter().map(|r| Node::from(r.as_str())).collect();
        members.push(("audience", Node::Arr(roles)));
    }
    if let Some(p) = &a.priority {
        members.push(("priority", Node::Num(p.clone())));
    }
    if let Some(t) = &a.last_modified {
        members.push(("lastModified", Node::from(t)));
    }
    Node::Obj(members)
}

/// Pushes the optional members `name` (a string) when present.
fn optional(members: &mut Vec<(&'static str, Node)>, name: &'static str, value: &Option<String>) {
    if let Some(v) = value {
        members.push((name, Node::from(v)));
    }
}

/// A `Resource` of `resources/list`: `name, title` (`BaseMetadata`), then
/// `uri, description, mimeType, annotations` (`schema.ts` `Resource`, row W1).
fn descriptor(r: &Resource) -> Node {
    let mut m = vec![("name", Node::from(&r.name))];
    optional(&mut m, "title", &r.title);
    m.push(("uri", Node::from(&r.uri)));
    optional(&mut m, "description", &r.description);
    optional(&mut m, "mimeType", &r.mime_type);
    if let Some(a) = &r.annotations {
        m.push(("annotations", annotations(a)));
    }
    Node::Obj(m)
}

/// A `ResourceTemplate`: `name, title`, then `uriTemplate, description,
/// mimeType` (`schema.ts` `ResourceTemplate`, row W1).
fn template_descriptor(t: &OrderTemplate) -> Node {
    let mut m = vec![("name", Node::from(&t.name))];
    optional(&mut m, "title", &t.title);
    m.push(("uriTemplate", Node::from(&t.uri_template)));
    optional(&mut m, "description", &t.description);
    m.push(("mimeType", Node::from(&t.mime_type)));
    Node::Obj(m)
}

/// The `TextResourceContents` or `BlobResourceContents` of a static
/// resource: `uri, mimeType` (`ResourceContents`), then `text` or `blob`.
pub(crate) fn contents(r: &Resource) -> Node {
    let mut m = vec![("uri", Node::from(&r.uri))];
    optional(&mut m, "mimeType", &r.mime_type);
    optional(&mut m, "text", &r.text);
    optional(&mut m, "blob", &r.blob);
    Node::Obj(m)
}

/// The URI of an order: the template's prefix and the RFC 6570 expansion
/// of its id.
pub(crate) fn order_uri(t: &OrderTemplate, order_id: &str) -> String {
    format!("{}{}", t.prefix(), catalog::expand(order_id))
}

/// The `TextResourceContents` of an order the user may read: its text is
/// exactly `get_order`'s `structuredContent` serialized (row R5).
pub(crate) fn order_contents(t: &OrderTemplate, o: &crate::config::Order) -> Node {
    obj! {
        "uri" => order_uri(t, &o.order_id),
        "mimeType" => &t.mime_type,
        "text" => snapshot(o).to_text(),
    }
}

/// A `ReadResourceResult` of one contents item.
fn read_result(contents: Node, hint: CacheHint, config: &Config) -> Vec<u8> {
    let mut members = vec![("contents", Node::Arr(vec![contents]))];
    cache_fields(&mut members, hint);
    complete_result(members, config.identity())
}

impl Resources {
    /// Renders every reply, or `None` when the configuration offers no
    /// resource and no template.
    pub(crate) fn new(config: &Config) -> Option<Self> {
        let c = config.catalog();
        if c.resources.is_empty() && c.order_template.is_none() {
            return None;
        }
        let identity = config.identity();
        let list_of = |name: &'static str, items: Vec<Node>| {
            let mut members = vec![(name, Node::Arr(items))];
            cache_fields(&mut members, CATALOG_CACHE);
            complete_result(members, identity)
        };
        let list = list_of("resources", c.resources.iter().map(descriptor).collect());
        let templates = list_of(
            "resourceTemplates",
            c.order_template.iter().map(template_descriptor).collect(),
        );
        let mut reads: BTreeMap<String, Vec<u8>> = c
            .resources
            .iter()
            .map(|r| {
                (
                    r.uri.clone(),
                    read_result(contents(r), CATALOG_CACHE, config),
                )
            })
            .collect();
        if let Some(t) = &c.order_template {
            for o in readable(config) {
                let body = read_result(order_contents(t, o), ORDER_CACHE, config);
                reads.insert(order_uri(t, &o.order_id), body);
            }
        }
        Some(Resources {
            list,
            templates,
            reads,
        })
    }

    /// `resources/list` (row R1).
    pub(crate) fn list(&self) -> &[u8] {
        &self.list
    }

    /// `resources/templates/list` (row R2).
    pub(crate) fn templates(&self) -> &[u8] {
        &self.templates
    }

    /// `resources/read` of `uri` (rows R4 to R7).
    pub(crate) fn read(&self, uri: Option<&Shallow<'_>>) -> Result<&[u8], RpcError<'static>> {
        let Some(Shallow::Str(uri)) = uri else {
            return Err(NO_URI);
        };
        self.reads
            .get(uri.as_ref())
            .map(Vec::as_slice)
            .ok_or_else(|| not_found(uri))
    }
}
