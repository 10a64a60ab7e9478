//! Validation of wire messages against the official MCP JSON Schemas.
//!
//! The server never uses this module: it is the oracle's own check, used by
//! the tests, the fuzz targets and `mcp-reference check`. The schemas are
//! not part of this project; they are read at run time from the folder
//! named by `MCP_SPEC_DIR`, or else the checkout's `../mcp-spec/schema` (the
//! README's recipe) or `../shared/spec` ([`spec_dir`]), laid out as
//! `<version>/schema.json`. Where they are missing, every load fails with
//! the one sentence of [`missing`]: the pinned specification commit and the
//! commands that fetch the schemas.
//!
//! A reply is validated twice: as a whole against the schema's message type
//! for its method (`DiscoverResultResponse`, `ListToolsResultResponse`,
//! `CallToolResultResponse`, `JSONRPCErrorResponse`, ...), and its `result`
//! against the result type where the version names no response type. An
//! error reply whose id is null is validated with the id left out:
//! JSON-RPC 2.0 requires null there, and the schema's `RequestId` cannot
//! express it.

use std::path::{Path, PathBuf};

use jsonschema::ValidatorMap;
use serde_json::Value;

// The gate's list of places, compiled in here too: one list, and no
// dependency on the gate, whose build script reruns on every build while the
// schemas are missing.
#[path = "../schema-gate/src/places.rs"]
#[allow(dead_code, unreachable_pub)]
mod places;

/// The commit of the public specification repository
/// (modelcontextprotocol/modelcontextprotocol) whose schemas and prose this
/// project rests on: `docs/spec-coverage.md`, the vectors' manifest and CI
/// all name it.
pub use places::SPEC_COMMIT;

/// The one sentence for a schema that is not where it was looked for
/// (`path`; `None`: no folder was found at all): where it was looked for,
/// and the recipe that fetches the schemas to where they are found
/// (`testkit/schema-gate/src/places.rs`, shared with the schema gate).
pub fn missing(path: Option<&Path>) -> String {
    let place = match path {
        Some(p) => format!("no official schema at {}", p.display()),
        None => format!("no official schema at {}", places::where_looked()),
    };
    format!(
        "{place}: these tests need the JSON Schemas of the MCP specification, which this \
         repository does not hold; {}",
        places::recipe()
    )
}

/// The folder holding `<version>/schema.json`: `MCP_SPEC_DIR` if set, else
/// the first of the checkout's `../mcp-spec/schema` (the README's recipe)
/// and `../shared/spec` that holds the 2026-07-28 schema, wherever the
/// working directory is (`testkit/schema-gate/src/places.rs`).
pub fn spec_dir() -> Option<PathBuf> {
    places::spec_dir()
}

/// Where [`spec_dir`] looks, in one phrase for a sentence.
pub fn where_looked() -> String {
    places::where_looked()
}

/// A schema a server advertises (a tool's `inputSchema` or
/// `outputSchema`), compiled with its formats (`date-time`) asserted.
pub struct ToolSchema(jsonschema::Validator);

impl ToolSchema {
    /// Compiles `schema` (JSON Schema 2020-12 unless it says otherwise).
    pub fn new(schema: &Value) -> Result<ToolSchema, String> {
        jsonschema::options()
            .should_validate_formats(true)
            .build(schema)
            .map(ToolSchema)
            .map_err(|e| e.to_string())
    }

    /// Compiles `schema` as JSON Schema 2020-12, whatever it declares, after
    /// checking it against the 2020-12 meta-schema bundled with the
    /// validator (offline): the dialect `basic/index.mdx#schema-dialect`
    /// gives a schema without `$schema` (docs/spec-coverage.md, BASE-29,
    /// BASE-33).
    pub fn new_2020_12(schema: &Value) -> Result<ToolSchema, String> {
        jsonschema::draft202012::meta::validate(schema).map_err(|e| e.to_string())?;
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(schema)
            .map(ToolSchema)
            .map_err(|e| e.to_string())
    }

    /// Whether `instance` satisfies the schema.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.0.is_valid(instance)
    }

    /// Every way `instance` breaks the schema, one sentence each.
    pub fn errors(&self, instance: &Value) -> Vec<String> {
        self.0
            .iter_errors(instance)
            .map(|e| format!("{} at {}", e.masked(), e.instance_path()))
            .collect()
    }
}

/// The compiled schema of one protocol version.
pub struct Schema {
    version: String,
    map: ValidatorMap,
    defs: &'static str,
}

impl Schema {
    /// Loads `<dir>/<version>/schema.json`.
    pub fn load(dir: &Path, version: &str) -> Result<Schema, String> {
        Schema::load_file(&dir.join(version).join("schema.json"), version)
    }

    /// Loads the schema of `version` from the file at `path`.
    pub fn load_file(path: &Path, version: &str) -> Result<Schema, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let schema: Value = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        let defs = if schema.get("$defs").is_some() {
            "#/$defs/"
        } else {
            "#/definitions/"
        };
        let map = jsonschema::validator_map_for(&schema)
            .map_err(|e| format!("{} is not a usable schema: {e}", path.display()))?;
        Ok(Schema {
            version: version.to_string(),
            map,
            defs,
        })
    }

    /// Loads the schema of `version` from [`spec_dir`]; where it is
    /// missing, the error is [`missing`]'s sentence.
    ///
    /// A missing schema's sentence (the recipe) is given once per process;
    /// every later failure of this kind says so in a few words, so that a
    /// property test that fails on each of its cases prints the recipe
    /// once, not thousands of times (issue 39, item 3).
    pub fn find(version: &str) -> Result<Schema, String> {
        static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        let dir = spec_dir();
        let found = Schema::find_in(dir.as_deref(), version);
        let absent = dir
            .as_deref()
            .is_none_or(|d| !d.join(version).join("schema.json").is_file());
        match found {
            Err(_) if absent && SAID.swap(true, std::sync::atomic::Ordering::Relaxed) => Err(
                "no official schema (the first failure of this run said where to get it)".into(),
            ),
            other => other,
        }
    }

    /// Loads `<dir>/<version>/schema.json`; where the file (or `dir`) is
    /// missing, the error is [`missing`]'s sentence.
    pub fn find_in(dir: Option<&Path>, version: &str) -> Result<Schema, String> {
        let dir = dir.ok_or_else(|| missing(None))?;
        let path = dir.join(version).join("schema.json");
        if !path.is_file() {
            return Err(missing(Some(&path)));
        }
        Schema::load_file(&path, version)
    }

    /// The version this schema is for.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Whether the schema defines `name`.
    pub fn defines(&self, name: &str) -> bool {
        self.map.get(&format!("{}{name}", self.defs)).is_some()
    }

    /// Validates `value` against the definition `name`.
    pub fn validate(&self, name: &str, value: &Value) -> Result<(), String> {
        let key = format!("{}{name}", self.defs);
        let validator = self
            .map
            .get(&key)
            .ok_or_else(|| format!("schema {} has no {name}", self.version))?;
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|e| format!("{} at {}", e.masked(), e.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "not a valid {} {name}: {}",
                self.version,
                errors.join("; ")
            ))
        }
    }

    /// Validates a reply to a request for `method` (`None`: unknown).
    pub fn validate_reply(&self, method: Option<&str>, reply: &Value) -> Result<(), String> {
        let mut reply = reply.clone();
        if let Some(obj) = reply.as_object_mut()
            && obj.contains_key("error")
            && obj.get("id") == Some(&Value::Null)
        {
            obj.remove("id");
        }
        if reply.get("error").is_some() {
            let name = if self.defines("JSONRPCErrorResponse") {
                "JSONRPCErrorResponse"
            } else {
                "JSONRPCError"
            };
            self.validate(name, &reply)?;
            if reply["error"]["code"] == -32022 && self.defines("UnsupportedProtocolVersionError") {
                self.validate("UnsupportedProtocolVersionError", &reply)?;
            }
            if reply["error"]["code"] == -32021
                && self.defines("MissingRequiredClientCapabilityError")
            {
                self.validate("MissingRequiredClientCapabilityError", &reply)?;
            }
            return Ok(());
        }
        // A multi round-trip request's first rounds (docs/behavior.md, I2).
        if reply["result"]["resultType"] == "input_required" && self.defines("InputRequiredResult")
        {
            let envelope = if self.defines("JSONRPCResultResponse") {
                "JSONRPCResultResponse"
            } else {
                "JSONRPCResponse"
            };
            self.validate(envelope, &reply)?;
            return self.validate("InputRequiredResult", &reply["result"]);
        }
        let result_type = match method {
            Some("server/discover") => Some("DiscoverResult"),
            Some("tools/list") => Some("ListToolsResult"),
            Some("tools/call") => Some("CallToolResult"),
            Some("initialize") => Some("InitializeResult"),
            Some("ping") => Some("EmptyResult"),
            Some("resources/list") => Some("ListResourcesResult"),
            Some("resources/templates/list") => Some("ListResourceTemplatesResult"),
            Some("resources/read") => Some("ReadResourceResult"),
            Some("prompts/list") => Some("ListPromptsResult"),
            Some("prompts/get") => Some("GetPromptResult"),
            Some("completion/complete") => Some("CompleteResult"),
            _ => None,
        };
        let response = result_type.map(|r| format!("{r}Response"));
        match response {
            Some(response) if self.defines(&response) => self.validate(&response, &reply),
            _ => {
                let envelope = if self.defines("JSONRPCResultResponse") {
                    "JSONRPCResultResponse"
                } else {
                    "JSONRPCResponse"
                };
                self.validate(envelope, &reply)?;
                match result_type {
                    Some(r) => self.validate(r, &reply["result"]),
                    None => Ok(()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_schema_names_the_commit_and_the_commands() {
        let dir = std::env::temp_dir().join(format!("mcp-no-spec-{}", std::process::id()));
        for error in [
            Schema::find_in(Some(&dir), "2026-07-28").err(),
            Schema::find_in(None, "2026-07-28").err(),
        ] {
            let error = error.unwrap_or_default();
            assert!(error.contains(SPEC_COMMIT), "{error}");
            assert!(error.contains("git clone"), "{error}");
            assert!(error.contains("mcp-spec checkout"), "{error}");
            assert!(!error.contains('\n'), "one sentence, one line: {error}");
        }
    }

    #[test]
    fn the_pinned_commit_is_the_one_the_docs_and_ci_name() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for file in [
            "README.md",
            "docs/spec-coverage.md",
            ".github/workflows/ci.yml",
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap_or_default();
            assert!(text.contains(SPEC_COMMIT), "{file} names another commit");
        }
    }
}
