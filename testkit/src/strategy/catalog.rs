//! Generators of the catalog's method params (issue 32): URIs for
//! `resources/read` (static resources, orders through the template, the
//! user's, someone else's, none, anything), `prompts/get` names and
//! arguments, and `completion/complete` references and arguments; each
//! mostly well-formed, sometimes broken in one place.

use proptest::prelude::*;
use proptest::sample::select;

use super::values::{
    Pools, esc, name_and_arguments, not_a, order_id, str_json, text, unknown_member,
};
use crate::model::tree::{Esc, Json, Member};

/// A URI for `resources/read`: a static resource, an order through the
/// template (the user's, someone else's, none), or anything.
fn uri(pools: &Pools) -> BoxedStrategy<String> {
    let mut choices: Vec<BoxedStrategy<String>> = vec![
        select(vec![
            "book-orders://policies/returns",
            "book-orders://nothing",
            "",
            "file:///etc/passwd",
        ])
        .prop_map(String::from)
        .boxed(),
        text().boxed(),
    ];
    if !pools.uris.is_empty() {
        choices.push(select(pools.uris.clone()).boxed());
        choices.push(select(pools.uris.clone()).boxed());
    }
    let mut filled = Vec::new();
    for (prefix, suffix) in &pools.content_templates {
        // R8: a value of unreserved characters fills the template; any
        // other (`%41`, `a/b`, empty) names nothing (R6).
        let (prefix, suffix) = (prefix.clone(), suffix.clone());
        let value = prop_oneof![3 => "[A-Za-z0-9._~-]{1,6}", 1 => Just(String::new()), 1 => Just("%41".to_string()), 1 => Just("a/b".to_string()), 1 => text()];
        filled.push(
            value
                .prop_map(move |v| format!("{prefix}{v}{suffix}"))
                .boxed(),
        );
    }
    if let Some((template, prefix)) = &pools.template {
        let prefix = prefix.clone();
        choices.push(Just(template.clone()).boxed());
        for _ in 0..3 {
            let prefix = prefix.clone();
            choices.push(
                order_id(pools)
                    .prop_map(move |id| format!("{prefix}{}", crate::model::catalog::expand(&id)))
                    .boxed(),
            );
        }
        choices.push(
            order_id(pools)
                .prop_map(move |id| format!("{prefix}{id}"))
                .boxed(),
        );
    }
    let others = proptest::strategy::Union::new(choices);
    if filled.is_empty() {
        return others.boxed();
    }
    // A configured template is read as often as everything else together.
    prop_oneof![1 => proptest::strategy::Union::new(filled), 1 => others].boxed()
}

pub(crate) fn resource_read(pools: &Pools) -> BoxedStrategy<Vec<Member>> {
    prop_oneof![
        12 => (str_json(uri(pools)), esc()).prop_map(|(u, e)| vec![("uri".to_string(), e, u)]),
        1 => Just(vec![]),
        1 => not_a("string").prop_map(|v| vec![("uri".to_string(), Esc::Plain, v)]),
    ]
    .boxed()
}

/// A `tone` value: one of the list, a near miss, or anything.
fn tone() -> BoxedStrategy<String> {
    prop_oneof![
        3 => select(vec!["friendly", "formal", "brief"]).prop_map(String::from),
        2 => select(vec!["Friendly", "rude", "", "brief "]).prop_map(String::from),
        1 => text(),
    ]
    .boxed()
}

/// `prompts/get` of a configured prompt: each of its arguments sent or
/// not, as a URI, a near miss or any text (P11 to P13).
fn content_prompt_get(pools: &Pools) -> BoxedStrategy<Vec<Member>> {
    let prompts = pools.content_prompts.clone();
    select(prompts)
        .prop_flat_map(|(name, arguments)| {
            let names: Vec<String> = arguments.into_iter().map(|(n, _)| n).collect();
            let n = names.len();
            let value = prop_oneof![
                3 => "test://[a-z]{1,5}",
                1 => Just("not a uri".to_string()),
                1 => text(),
                1 => Just("{{a0}}".to_string()),
            ];
            (
                Just(name),
                Just(names),
                proptest::collection::vec(proptest::option::weighted(0.85, value), n..=n),
            )
        })
        .prop_map(|(name, names, values)| {
            let members = names
                .into_iter()
                .zip(values)
                .filter_map(|(n, v)| v.map(|v| (n, Esc::Plain, Json::str(v))))
                .collect();
            name_and_arguments(Some(Json::str(name)), Some(Json::Obj(members)))
        })
        .boxed()
}

pub(crate) fn prompt_get(pools: &Pools) -> BoxedStrategy<Vec<Member>> {
    if !pools.content_prompts.is_empty() {
        return prop_oneof![1 => content_prompt_get(pools), 1 => coded_prompt_get(pools)].boxed();
    }
    coded_prompt_get(pools)
}

fn coded_prompt_get(pools: &Pools) -> BoxedStrategy<Vec<Member>> {
    let name = prop_oneof![
        6 => Just(Some(Json::str("reply_to_customer"))),
        4 => Just(Some(Json::str("returns_help"))),
        1 => str_json(select(vec!["get_order", "Reply_To_Customer", ""]).prop_map(String::from)).prop_map(Some),
        1 => not_a("string").prop_map(Some),
        1 => Just(None),
    ];
    let good = (
        proptest::option::weighted(0.8, str_json(order_id(pools))),
        proptest::option::weighted(0.6, str_json(tone())),
        proptest::collection::vec(unknown_member(), 0..2),
    )
        .prop_map(|(id, tone, extra)| {
            let mut m = Vec::new();
            if let Some(id) = id {
                m.push(("order_id".to_string(), Esc::Plain, id));
            }
            if let Some(t) = tone {
                m.push(("tone".to_string(), Esc::Plain, t));
            }
            for (k, e, v) in extra {
                if !m.iter().any(|(n, _, _)| *n == k) {
                    m.push((k, e, Json::str(v.as_str().unwrap_or("x"))));
                }
            }
            Some(Json::Obj(m))
        });
    let args = prop_oneof![
        10 => good,
        1 => Just(None),
        1 => not_a("object").prop_map(Some),
        1 => not_a("string").prop_map(|v| Some(Json::Obj(vec![("order_id".to_string(), Esc::Plain, v)]))),
    ];
    (name, args)
        .prop_map(|(name, args)| name_and_arguments(name, args))
        .boxed()
}

/// `completion/complete` of a configured prompt's argument (or one it
/// does not have), with a prefix of one of its completions (C5, C6).
fn content_complete(pools: &Pools) -> BoxedStrategy<Vec<Member>> {
    select(pools.content_prompts.clone())
        .prop_flat_map(|(name, arguments)| {
            let mut names: Vec<String> = arguments.iter().map(|(n, _)| n.clone()).collect();
            names.push("nope".into());
            let mut values: Vec<String> = arguments.into_iter().flat_map(|(_, c)| c).collect();
            values.push(String::new());
            (Just(name), select(names), select(values), 0..3usize)
        })
        .prop_map(|(name, argument, value, cut)| {
            let prefix: String = value.chars().take(cut).collect();
            vec![
                (
                    "ref".to_string(),
                    Esc::Plain,
                    Json::obj([("type", Json::str("ref/prompt")), ("name", Json::str(name))]),
                ),
                (
                    "argument".to_string(),
                    Esc::Plain,
                    Json::obj([("name", Json::str(argument)), ("value", Json::str(prefix))]),
                ),
            ]
        })
        .boxed()
}

pub(crate) fn complete(pools: &Pools) -> BoxedStrategy<Vec<Member>> {
    if !pools.content_prompts.is_empty() {
        return prop_oneof![1 => content_complete(pools), 2 => coded_complete(pools)].boxed();
    }
    coded_complete(pools)
}

fn coded_complete(pools: &Pools) -> BoxedStrategy<Vec<Member>> {
    let template = pools
        .template
        .as_ref()
        .map(|(t, _)| t.clone())
        .unwrap_or_else(|| "book-orders://orders/{order_id}".into());
    let reference = prop_oneof![
        4 => Just(Json::obj([("type", Json::str("ref/prompt")), ("name", Json::str("reply_to_customer"))])),
        4 => Just(Json::obj([("type", Json::str("ref/resource")), ("uri", Json::str(template))])),
        1 => Just(Json::obj([("type", Json::str("ref/prompt")), ("name", Json::str("returns_help"))])),
        1 => Just(Json::obj([("type", Json::str("ref/resource")), ("uri", Json::str("book-orders://policies/returns"))])),
        1 => Just(Json::obj([("type", Json::str("ref/prompt"))])),
        1 => Just(Json::obj([("type", Json::str("ref/tool")), ("name", Json::str("get_order"))])),
        1 => not_a("object"),
    ];
    let prefix = prop_oneof![
        3 => order_id(pools).prop_map(|id| id.chars().take(2).collect::<String>()),
        2 => order_id(pools),
        1 => Just(String::new()),
        1 => tone().prop_map(|t| t.chars().take(2).collect::<String>()),
    ];
    let argument = prop_oneof![
        10 => (select(vec!["order_id", "order_id", "tone", "status"]), prefix)
            .prop_map(|(n, v)| Json::obj([("name", Json::str(n)), ("value", Json::str(v))])),
        1 => Just(Json::obj([("name", Json::str("order_id"))])),
        1 => not_a("object"),
    ];
    (
        proptest::option::weighted(0.95, reference),
        proptest::option::weighted(0.95, argument),
    )
        .prop_map(|(r, a)| {
            let mut m = Vec::new();
            if let Some(r) = r {
                m.push(("ref".to_string(), Esc::Plain, r));
            }
            if let Some(a) = a {
                m.push(("argument".to_string(), Esc::Plain, a));
            }
            m
        })
        .boxed()
}
