//! Unit tests of the configured-`inputSchema` validator (row T14): each
//! keyword of the subset accepting and refusing, and each load refusal.

use serde_json::{Value, json};

use super::{DIALECT, InputSchema, MAX_DEPTH};

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
