//! Unit tests of the configured-`inputSchema` validator (row T14): each
//! keyword of the subset accepting and refusing, and each load refusal.

use serde_json::{Value, json};

use super::{DIALECT, InputSchema, MAX_DEPTH, MAX_EXPANSION};

fn schema(s: Value) -> InputSchema {
    match InputSchema::parse(&s.to_string()) {
        Ok(schema) => schema,
        Err(e) => panic!("{s} should load: {e}"),
    }
}

/// `{"type": "object", "properties": {"x": sub}}`, checked on `{"x": v}`.
fn under_x(sub: Value, v: Value) -> Result<(), String> {
    schema(json!({"type": "object", "properties": {"x": sub}})).check(&json!({"x": v}))
}

fn refused(s: Value) -> String {
    match InputSchema::parse(&s.to_string()) {
        Ok(_) => panic!("{s} should be refused"),
        Err(e) => e,
    }
}

#[test]
fn type_accepts_its_types_and_refuses_others() {
    assert!(under_x(json!({"type": "string"}), json!("a")).is_ok());
    assert!(under_x(json!({"type": "string"}), json!(1)).is_err());
    assert!(under_x(json!({"type": "integer"}), json!(2.0)).is_ok());
    assert!(under_x(json!({"type": "integer"}), json!(2.5)).is_err());
    assert!(under_x(json!({"type": "number"}), json!(2.5)).is_ok());
    assert!(under_x(json!({"type": ["null", "boolean"]}), json!(null)).is_ok());
    assert!(under_x(json!({"type": ["null", "boolean"]}), json!([])).is_err());
    assert!(under_x(json!({"type": "array"}), json!({})).is_err());
    let e = under_x(json!({"type": "string"}), json!(1)).unwrap_err();
    assert!(e.contains("/x") && e.contains("string"), "{e}");
}

#[test]
fn properties_apply_to_present_members_only() {
    let s = schema(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    assert!(s.check(&json!({})).is_ok());
    assert!(s.check(&json!({"a": "x", "b": 1})).is_ok());
    assert!(s.check(&json!({"a": 1})).is_err());
}

#[test]
fn required_names_the_missing_member() {
    let s = schema(json!({"type": "object", "required": ["a"]}));
    assert!(s.check(&json!({"a": null})).is_ok());
    let e = s.check(&json!({"b": 1})).unwrap_err();
    assert!(e.contains("\"a\""), "{e}");
}

#[test]
fn additional_properties_false_refuses_unlisted_members() {
    let s =
        schema(json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}));
    assert!(s.check(&json!({"a": 1})).is_ok());
    assert!(s.check(&json!({"a": 1, "b": 2})).is_err());
    let open = schema(json!({"type": "object", "additionalProperties": true}));
    assert!(open.check(&json!({"b": 2})).is_ok());
}

#[test]
fn enum_and_const_compare_json_values() {
    assert!(under_x(json!({"enum": ["a", 1, {"k": [1]}]}), json!({"k": [1.0]})).is_ok());
    assert!(under_x(json!({"enum": ["a", 1]}), json!("b")).is_err());
    assert!(under_x(json!({"const": 3}), json!(3.0)).is_ok());
    assert!(under_x(json!({"const": 3}), json!(4)).is_err());
    assert!(under_x(json!({"const": "3"}), json!(3)).is_err());
}

#[test]
fn all_of_any_of_one_of_and_not() {
    let s = |k: &str| json!({k: [{"type": "string"}, {"const": "a"}]});
    assert!(under_x(s("allOf"), json!("a")).is_ok());
    assert!(under_x(s("allOf"), json!("b")).is_err());
    assert!(under_x(s("anyOf"), json!("b")).is_ok());
    assert!(under_x(s("anyOf"), json!(1)).is_err());
    assert!(under_x(s("oneOf"), json!("b")).is_ok());
    assert!(under_x(s("oneOf"), json!("a")).is_err());
    assert!(under_x(s("oneOf"), json!(1)).is_err());
    assert!(under_x(json!({"not": {"type": "string"}}), json!(1)).is_ok());
    assert!(under_x(json!({"not": {"type": "string"}}), json!("a")).is_err());
}

#[test]
fn if_then_else_picks_the_branch() {
    let s = json!({"if": {"type": "string"}, "then": {"const": "a"}, "else": {"type": "integer"}});
    assert!(under_x(s.clone(), json!("a")).is_ok());
    assert!(under_x(s.clone(), json!("b")).is_err());
    assert!(under_x(s.clone(), json!(2)).is_ok());
    assert!(under_x(s, json!(2.5)).is_err());
    // Without then or else, if alone constrains nothing.
    assert!(under_x(json!({"if": {"type": "string"}}), json!(1)).is_ok());
}

#[test]
fn refs_to_defs_and_anchors_apply_their_target() {
    let s = schema(json!({
        "$schema": DIALECT,
        "type": "object",
        "$defs": {"s": {"type": "string"}, "n": {"$anchor": "num", "type": "number"}},
        "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#num"}}
    }));
    assert!(s.check(&json!({"a": "x", "b": 1})).is_ok());
    assert!(s.check(&json!({"a": 1})).is_err());
    assert!(s.check(&json!({"b": "x"})).is_err());
}

#[test]
fn boolean_schemas_and_annotations() {
    assert!(under_x(json!(true), json!([1])).is_ok());
    assert!(under_x(json!(false), json!(1)).is_err());
    let annotated =
        json!({"title": "t", "description": "d", "default": 1, "examples": [1], "type": "integer"});
    assert!(under_x(annotated.clone(), json!(1)).is_ok());
    assert!(under_x(annotated, json!("1")).is_err());
}

#[test]
fn the_conformance_fixture_s_schema_is_enforced() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/conformance.json"
    ))
    .unwrap_or_default();
    let config: Value = serde_json::from_str(&text).unwrap_or_default();
    let tool = config["content_tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "json_schema_2020_12_tool"))
        .cloned()
        .unwrap_or_default();
    let s = schema(tool["inputSchema"].clone());
    assert!(s.check(&json!({"email": "e"})).is_ok());
    assert!(
        s.check(&json!({"contactMethod": "phone", "phone": "1"}))
            .is_ok()
    );
    assert!(
        s.check(&json!({"contactMethod": "phone", "email": "e"}))
            .is_err()
    );
    assert!(s.check(&json!({})).is_err());
    assert!(
        s.check(&json!({"email": "e", "address": {"city": 1}}))
            .is_err()
    );
    assert!(
        s.check(&json!({"email": "e", "address": {"city": "c", "zip": 1}}))
            .is_ok()
    );
    assert!(s.check(&json!({"email": "e", "fax": "f"})).is_err());
    assert!(
        s.check(&json!({"email": "e", "contactMethod": "fax"}))
            .is_err()
    );
}

#[test]
fn the_text_keeps_the_configured_member_order() {
    let s = InputSchema::parse(
        "{ \"type\" : \"object\",\n \"required\": [\"b\"], \"$defs\": {\"z\": {}, \"a\": {\"description\": \"x y\"}} }",
    );
    assert_eq!(
        s.map(|s| s.text().to_owned()),
        Ok(
            r#"{"type":"object","required":["b"],"$defs":{"z":{},"a":{"description":"x y"}}}"#
                .to_owned()
        )
    );
}

#[test]
fn loading_refuses_what_the_subset_cannot_enforce() {
    let cases = [
        (json!({"properties": {}}), "type"),
        (json!({"type": "string"}), "type"),
        (json!({"type": "object", "minLength": 1}), "minLength"),
        (
            json!({"type": "object", "properties": {"a": {"pattern": "x"}}}),
            "pattern",
        ),
        (
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            "boolean",
        ),
        (
            json!({"type": "object", "$schema": "http://json-schema.org/draft-07/schema#"}),
            "$schema",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$schema": DIALECT}}}),
            "$schema",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}),
            "does not resolve",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#nowhere"}}}),
            "does not resolve",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "other.json"}}}),
            "does not resolve",
        ),
        (
            json!({"type": "object", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"not": {"$ref": "#/$defs/a"}}}, "properties": {"x": {"$ref": "#/$defs/a"}}}),
            "cycle",
        ),
        (
            json!({"type": "object", "$defs": {"n": {"$anchor": "n", "properties": {"c": {"$ref": "#n"}}}}, "properties": {"x": {"$ref": "#n"}}}),
            "cycle",
        ),
        (
            json!({"type": "object", "$defs": {"a": {"$anchor": "d"}, "b": {"$anchor": "d"}}}),
            "twice",
        ),
        (
            json!({"type": "object", "$defs": {"a": {"$anchor": "1d"}}}),
            "$anchor",
        ),
        (
            json!({"type": "object", "required": ["a", "a"]}),
            "required",
        ),
        (json!({"type": "object", "allOf": []}), "allOf"),
        (json!({"type": "object", "type2": 1}), "type2"),
        (json!({"type": "object", "properties": {"a": 3}}), "neither"),
        (json!({"type": ["object", "object"]}), "type"),
    ];
    for (s, names) in cases {
        let e = refused(s.clone());
        assert!(e.contains(names), "{s}: {e}");
        assert!(!e.contains('\n'), "one sentence: {e}");
    }
}

#[test]
fn deep_schemas_are_refused_and_deep_arguments_bounded() {
    let mut deep = json!({"type": "string"});
    for _ in 0..=MAX_DEPTH {
        deep = json!({"not": deep});
    }
    let e = refused(json!({"type": "object", "properties": {"a": deep}}));
    assert!(e.contains("deeper"), "{e}");
    // Deep arguments under a shallow schema: nothing to recurse into.
    let mut v = json!(1);
    for _ in 0..100 {
        v = json!({"a": v});
    }
    let s = schema(json!({"type": "object", "properties": {"a": {"type": "object"}}}));
    assert!(s.check(&json!({"a": v})).is_ok());
}

/// Numbers past 2^53, where an `f64` can no longer tell neighbours apart:
/// `enum` and `const` compare them exactly, as integers.
#[test]
fn enum_and_const_tell_big_integers_apart() {
    let big = [
        (
            json!(18_446_744_073_709_551_615_u64),
            json!(18_446_744_073_709_551_614_u64),
        ),
        (
            json!(-9_007_199_254_740_993_i64),
            json!(-9_007_199_254_740_992_i64),
        ),
        (
            json!(9_007_199_254_740_993_i64),
            json!(9_007_199_254_740_992_i64),
        ),
    ];
    for (v, neighbour) in big {
        assert!(under_x(json!({"enum": [v]}), v.clone()).is_ok(), "{v}");
        assert!(under_x(json!({"const": v}), v.clone()).is_ok(), "{v}");
        assert!(
            under_x(json!({"enum": [v]}), neighbour.clone()).is_err(),
            "{v} {neighbour}"
        );
        assert!(under_x(json!({"const": v}), neighbour).is_err(), "{v}");
    }
    // An integer type holds for every whole number, however large.
    assert!(
        under_x(
            json!({"type": "integer"}),
            json!(18_446_744_073_709_551_615_u64)
        )
        .is_ok()
    );
    assert!(
        under_x(
            json!({"type": "integer"}),
            json!(-9_007_199_254_740_993_i64)
        )
        .is_ok()
    );
    assert!(under_x(json!({"type": "integer"}), json!(1e300)).is_ok());
}

/// Arrays and objects are equal only member for member: a longer one is
/// not equal to its prefix, in either order.
#[test]
fn const_compares_arrays_and_objects_whole() {
    assert!(under_x(json!({"const": [1]}), json!([1, 2])).is_err());
    assert!(under_x(json!({"const": [1, 2]}), json!([1])).is_err());
    assert!(under_x(json!({"const": {"a": 1}}), json!({"a": 1, "b": 2})).is_err());
    assert!(under_x(json!({"const": {"a": 1, "b": 2}}), json!({"a": 1})).is_err());
    assert!(
        under_x(
            json!({"const": {"a": 1, "b": [2]}}),
            json!({"b": [2.0], "a": 1})
        )
        .is_ok()
    );
}

/// The load-time nesting bound holds at its edge through every keyword
/// that nests: `MAX_DEPTH` levels load, one more is refused.
#[test]
fn nesting_bound_holds_at_its_edge_through_each_keyword() {
    type Wrap = fn(Value) -> Value;
    let wraps: [(&str, Wrap); 4] = [
        ("not", |s| json!({"not": s})),
        ("properties", |s| json!({"properties": {"p": s}})),
        ("$defs", |s| json!({"$defs": {"d": s}})),
        ("allOf", |s| json!({"allOf": [true, s]})),
    ];
    for (name, wrap) in wraps {
        // The property `a` is at depth 1; `levels` wraps put its innermost
        // schema at depth 1 + levels. Every other wrap is a `not`, so the
        // text stays within serde_json's 128 levels of JSON nesting.
        let nested = |levels: usize| {
            let mut s = json!({"type": "string"});
            for i in 0..levels {
                s = if i % 2 == 0 {
                    wrap(s)
                } else {
                    json!({"not": s})
                };
            }
            json!({"type": "object", "properties": {"a": s}})
        };
        assert!(
            InputSchema::parse(&nested(MAX_DEPTH - 1).to_string()).is_ok(),
            "{name}: depth {MAX_DEPTH} loads"
        );
        let e = refused(nested(MAX_DEPTH));
        assert!(e.contains("deeper"), "{name}: {e}");
    }
}

/// `$ref`s let a call's evaluation go deeper than the schema nests; that
/// depth has its own bound, at `MAX_DEPTH` evaluations.
#[test]
fn evaluation_depth_bound_holds_at_its_edge() {
    // `x` is evaluated at depth 1 and each `$ref` of the chain one deeper:
    // a chain of `n` definitions ends at depth `n + 1`.
    let chain = |n: usize| {
        let mut defs = serde_json::Map::new();
        for i in 0..n {
            let d = if i + 1 == n {
                json!({"type": "integer"})
            } else {
                json!({"$ref": format!("#/$defs/d{}", i + 1)})
            };
            defs.insert(format!("d{i}"), d);
        }
        schema(
            json!({"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}}),
        )
    };
    let edge = chain(MAX_DEPTH - 1);
    assert!(edge.check(&json!({"x": 1})).is_ok());
    assert!(edge.check(&json!({"x": "1"})).is_err());
    let e = chain(MAX_DEPTH)
        .check(&json!({"x": 1}))
        .expect_err("one evaluation too deep");
    assert!(e.contains("nested checks"), "{e}");
}

/// The expansion bound counts every subschema reached from the root:
/// `MAX_EXPANSION` of them load, one more is refused.
#[test]
fn expansion_bound_holds_at_its_edge() {
    // The root and `n` property schemas: `n + 1` subschemas.
    let wide = |n: usize| {
        let properties: serde_json::Map<String, Value> =
            (0..n).map(|i| (format!("p{i}"), json!({}))).collect();
        json!({"type": "object", "properties": properties})
    };
    assert!(InputSchema::parse(&wide(MAX_EXPANSION - 1).to_string()).is_ok());
    let e = refused(wide(MAX_EXPANSION));
    assert!(e.contains("expands"), "{e}");
    // Through `$ref`s and `allOf`: each level doubles what it reaches.
    let mut defs = serde_json::Map::new();
    for i in 0..14 {
        defs.insert(
            format!("d{i}"),
            json!({"allOf": [{"$ref": format!("#/$defs/d{}", i + 1)}, {"$ref": format!("#/$defs/d{}", i + 1)}]}),
        );
    }
    defs.insert("d14".into(), json!({}));
    let e = refused(
        json!({"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}}),
    );
    assert!(e.contains("expands"), "{e}");
}

/// A cycle of `$ref`s through each combining keyword is refused at load.
#[test]
fn ref_cycles_through_combinators_are_refused() {
    for k in ["allOf", "anyOf", "oneOf"] {
        let e = refused(json!({
            "type": "object",
            "$defs": {"a": {k: [{"type": "string"}, {"$ref": "#/$defs/a"}]}},
            "properties": {"x": {"$ref": "#/$defs/a"}}
        }));
        assert!(e.contains("cycle"), "{k}: {e}");
    }
    for k in ["if", "then", "else"] {
        let e = refused(json!({
            "type": "object",
            "$defs": {"a": {k: {"$ref": "#/$defs/a"}}},
            "properties": {"x": {"$ref": "#/$defs/a"}}
        }));
        assert!(e.contains("cycle"), "{k}: {e}");
    }
}

/// `type` below the root: an empty list, an unknown name and a repeated
/// name are each refused.
#[test]
fn type_lists_below_the_root_are_checked() {
    for t in [
        json!([]),
        json!(["strin"]),
        json!("strin"),
        json!(["string", "string"]),
        json!(3),
    ] {
        let e = refused(json!({"type": "object", "properties": {"a": {"type": t}}}));
        assert!(e.contains("\"type\""), "{t}: {e}");
    }
    assert!(under_x(json!({"type": ["string", "null"]}), json!(null)).is_ok());
}

/// A schema shows and compares as its configured text.
#[test]
fn a_schema_shows_and_compares_as_its_text() {
    let parse = |text: &str| InputSchema::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let a = parse(r#"{ "type": "object", "properties": {"a": {}} }"#);
    let b = parse(r#"{"type": "object", "properties": {"b": {}}}"#);
    assert_eq!(
        format!("{a:?}"),
        r#"{"type":"object","properties":{"a":{}}}"#
    );
    assert_ne!(a, b);
    assert_eq!(a, a.clone());
}
