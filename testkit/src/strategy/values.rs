//! The leaves the request generators are built from, shared by the
//! generators of the core methods ([`mod@super::request`]) and of the catalog's
//! ([`mod@super::catalog`]): a configuration's pools of orders, products and
//! URIs, random text and JSON, values of the wrong type, unknown members,
//! `order_id` values and `name`/`arguments` members. Neither of those two
//! modules is imported here, so they form layers, not a circle
//! (`tests/layout.rs`).
//!
//! Generators only: what a line must get is the model's to say
//! ([`crate::model`]).

use proptest::prelude::*;
use proptest::sample::select;

use crate::model::{Esc, Json, Member};
use mcp_reference::Config;

/// Orders and products of a configuration, by what a call on them gets.
#[derive(Debug, Clone)]
pub(crate) struct Pools {
    pub(crate) readable: Vec<String>,
    pub(crate) forbidden: Vec<String>,
    pub(crate) products: Vec<String>,
    pub(crate) versions: Vec<String>,
    pub(crate) stock: bool,
    /// The static resources' URIs.
    pub(crate) uris: Vec<String>,
    /// The order template's `uriTemplate` and its prefix, if offered.
    pub(crate) template: Option<(String, String)>,
    /// The configured content tools' names (T10, T11).
    pub(crate) content_tools: Vec<String>,
    /// The configured prompts: name, argument names and completions (P11
    /// to P13, C6).
    pub(crate) content_prompts: Vec<(String, Completions)>,
    /// The configured templates' prefixes and suffixes (R8).
    pub(crate) content_templates: Vec<(String, String)>,
}

impl Pools {
    pub(crate) fn new(config: &Config) -> Pools {
        let (readable, forbidden) = config
            .orders()
            .iter()
            .partition::<Vec<_>, _>(|o| o.owner == config.user());
        Pools {
            readable: readable.into_iter().map(|o| o.order_id.clone()).collect(),
            forbidden: forbidden.into_iter().map(|o| o.order_id.clone()).collect(),
            products: config
                .stock()
                .unwrap_or_default()
                .iter()
                .map(|s| s.product_id.clone())
                .collect(),
            versions: config.versions().to_vec(),
            stock: config.stock().is_some(),
            uris: config
                .catalog()
                .resources
                .iter()
                .map(|r| r.uri.clone())
                .collect(),
            template: config.catalog().order_template.as_ref().map(|t| {
                let prefix = t.uri_template.trim_end_matches("{order_id}").to_string();
                (t.uri_template.clone(), prefix)
            }),
            content_tools: config
                .catalog()
                .content_tools
                .iter()
                .map(|t| t.name.clone())
                .collect(),
            content_templates: config
                .catalog()
                .content_templates
                .iter()
                .filter_map(|t| t.parts().map(|(p, _, s)| (p.to_string(), s.to_string())))
                .collect(),
            content_prompts: config
                .catalog()
                .content_prompts
                .iter()
                .map(|p| {
                    let arguments = p.arguments.iter();
                    let arguments = arguments.map(|a| (a.name.clone(), a.completions.clone()));
                    (p.name.clone(), arguments.collect())
                })
                .collect(),
        }
    }
}

/// A configured prompt's arguments, each with its completions.
pub(crate) type Completions = Vec<(String, Vec<String>)>;

/// How a generated string is written: mostly plainly.
pub fn esc() -> impl Strategy<Value = Esc> {
    prop_oneof![8 => Just(Esc::Plain), 1 => Just(Esc::Unicode), 1 => Just(Esc::Solidus)]
}

/// A string written in a random style.
pub(crate) fn str_json(s: impl Strategy<Value = String>) -> impl Strategy<Value = Json> {
    (s, esc()).prop_map(|(s, e)| Json::Str(s, e))
}

/// Random text: printable, any scalar value, or JSON's special characters.
pub fn text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => "[a-zA-Z0-9 _.:-]{0,12}",
        2 => "\\PC{0,10}",
        1 => proptest::collection::vec(any::<char>(), 0..6).prop_map(String::from_iter),
        1 => select(vec!["\"", "\\", "\"quoted\"", "back\\slash", "tab\there", "nul\0", "\u{2028}", "é", "😀", "/"])
            .prop_map(String::from),
    ]
    .boxed()
}

/// A random JSON value of bounded size (no duplicates, numbers that fit a
/// double).
pub fn any_json() -> BoxedStrategy<Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(Json::int),
        select(vec![
            "1.5",
            "-0.25",
            "1e10",
            "0",
            "-0",
            "1E-3",
            "123456789012345678901234567890"
        ])
        .prop_map(|s| Json::Num(s.into())),
        str_json(text()),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Json::Arr),
            proptest::collection::btree_map(text(), inner, 0..4).prop_map(Json::obj),
        ]
    })
    .boxed()
}

/// A value of any JSON type but `kind`'s, for type errors.
pub(crate) fn not_a(kind: &'static str) -> BoxedStrategy<Json> {
    any_json()
        .prop_filter("another type", move |j| {
            let is = match j {
                Json::Str(..) => "string",
                Json::Obj(_) => "object",
                Json::Arr(_) => "array",
                _ => "scalar",
            };
            is != kind
        })
        .boxed()
}

/// A member added for forward compatibility, which the server must ignore.
pub(crate) fn unknown_member() -> impl Strategy<Value = Member> {
    (
        prop_oneof![
            Just("x".to_string()),
            Just("io.modelcontextprotocol/future".to_string()),
            Just("com.example/trace".to_string()),
            "[a-z]{1,8}",
        ],
        esc(),
        any_json(),
    )
}

/// An `order_id` argument value for `config`: an order the user owns, one
/// of someone else's, one that does not exist, or a near miss.
pub(crate) fn order_id(pools: &Pools) -> BoxedStrategy<String> {
    let mut choices: Vec<BoxedStrategy<String>> =
        vec![prop_oneof!["[A-Z]-[0-9]{3}", text(), Just("".to_string())].boxed()];
    if !pools.readable.is_empty() {
        for _ in 0..3 {
            choices.push(select(pools.readable.clone()).boxed());
        }
    }
    if !pools.forbidden.is_empty() {
        choices.push(select(pools.forbidden.clone()).boxed());
        choices.push(select(pools.forbidden.clone()).boxed());
    }
    let all: Vec<String> = pools
        .readable
        .iter()
        .chain(&pools.forbidden)
        .cloned()
        .collect();
    if !all.is_empty() {
        choices.push(
            (select(all), 0..4usize)
                .prop_map(|(id, how)| match how {
                    0 => id.to_lowercase(),
                    1 => format!("{id} "),
                    2 => format!(" {id}"),
                    _ => id.chars().rev().collect(),
                })
                .boxed(),
        );
    }
    proptest::strategy::Union::new(choices).boxed()
}

/// `name` and `arguments` members (`tools/call`, `prompts/get`), each
/// when given.
pub(crate) fn name_and_arguments(name: Option<Json>, args: Option<Json>) -> Vec<Member> {
    let named = [("name", name), ("arguments", args)];
    named
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), Esc::Plain, v)))
        .collect()
}
