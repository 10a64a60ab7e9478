//! The configured content tools (`content_tools` of the configuration,
//! [`crate::catalog::ContentTool`]): tools whose result is the configured
//! content blocks and `isError`, rendered once at load (rows T10 and T11
//! of docs/behavior.md), that take no arguments or, with a configured
//! `inputSchema`, the arguments it accepts (row T14, `crate::schema`). They are the kind of tool the
//! official conformance suite's fixture names (`test_simple_text`,
//! `test_image_content`, `test_error_handling`, ...; `data/conformance.json`),
//! served as configuration, never as names special-cased in code.
//!
//! Members are written in `schema.ts` declaration order (row W1): a tool
//! `name, title, description, inputSchema, annotations`; a content block
//! `type` first, then `text`, or `data, mimeType`, or `resource` with
//! `uri, mimeType, text | blob`; the result `content, isError`.
//!
//! Spec: 2026-07-28 `server/tools.mdx` ("Tool Result": text, image, audio
//! and embedded resource content; "Error Handling": a tool error is a
//! result with `isError: true`), `schema.ts` `ContentBlock`,
//! `EmbeddedResource`, `CallToolResult`.

use crate::canonical::{Node, obj};
use crate::catalog::{Content, ContentTool};
use crate::config::Config;

use super::{Arguments, Checked, Era, Mirrored, Rendered, Tool, read_only_annotations};

/// The text of the `isError` result to a call with arguments (row T11).
pub(crate) const NO_ARGUMENTS_TEXT: &str = "invalid arguments: this tool takes no arguments; call it with arguments {} or without arguments";

/// The text of the `isError` result to a call whose arguments break the
/// tool's configured `inputSchema` (row T14, DEC51).
pub(crate) const SCHEMA_TEXT: &str = "invalid arguments: they do not satisfy this tool's inputSchema (JSON Schema 2020-12, as tools/list shows it); call it with an object that does";

/// One configured content tool, its results rendered.
pub(crate) struct Configured {
    tool: ContentTool,
    result: Rendered,
    invalid: Rendered,
}

/// A content block in canonical member order.
pub(crate) fn block(content: &Content) -> Node {
    match content {
        Content::Text { text } => obj! { "type" => "text", "text" => text.as_str() },
        Content::Image { data, mime_type } => {
            obj! { "type" => "image", "data" => data.as_str(), "mimeType" => mime_type.as_str() }
        }
        Content::Audio { data, mime_type } => {
            obj! { "type" => "audio", "data" => data.as_str(), "mimeType" => mime_type.as_str() }
        }
        Content::Resource { resource } => {
            let mut members = vec![("uri", Node::from(resource.uri.as_str()))];
            if let Some(m) = &resource.mime_type {
                members.push(("mimeType", Node::from(m.as_str())));
            }
            if let Some(t) = &resource.text {
                members.push(("text", Node::from(t.as_str())));
            }
            if let Some(b) = &resource.blob {
                members.push(("blob", Node::from(b.as_str())));
            }
            obj! { "type" => "resource", "resource" => Node::Obj(members) }
        }
    }
}

impl Configured {
    /// Renders `tool`'s results for `config`'s identity.
    pub(crate) fn new(config: &Config, tool: &ContentTool) -> Self {
        let identity = config.identity();
        let result = Rendered::new(
            vec![
                (
                    "content",
                    Node::Arr(tool.content.iter().map(block).collect()),
                ),
                ("isError", Node::Bool(tool.is_error)),
            ],
            identity,
        );
        Configured {
            tool: tool.clone(),
            result,
            invalid: super::text_result(
                if tool.input_schema.is_some() {
                    SCHEMA_TEXT
                } else {
                    NO_ARGUMENTS_TEXT
                },
                true,
                identity,
            ),
        }
    }
}

impl Tool for Configured {
    fn name(&self) -> &str {
        &self.tool.name
    }

    fn descriptor(&self) -> Node {
        let mut members = vec![("name", Node::from(self.tool.name.as_str()))];
        if let Some(title) = &self.tool.title {
            members.push(("title", Node::from(title.as_str())));
        }
        members.push(("description", Node::from(self.tool.description.as_str())));
        members.push((
            "inputSchema",
            match &self.tool.input_schema {
                // T14: the configured schema, as configured.
                Some(schema) => Node::Raw(schema.text().to_owned()),
                None => obj! { "type" => "object", "additionalProperties" => false },
            },
        ));
        members.push(("annotations", read_only_annotations()));
        Node::Obj(members)
    }

    fn check<'b>(&self, args: &'b Arguments<'b>, era: Era) -> Result<Checked<'b>, &[u8]> {
        let valid = match &self.tool.input_schema {
            // T10, T11: an object with no members.
            None => args.is_empty(),
            // T14: the configured schema, applied by the core's own
            // validator (src/schema.rs).
            Some(schema) => schema.check(&args.to_value()).is_ok(),
        };
        if valid {
            Ok(Checked::new(args, era))
        } else {
            Err(self.invalid.get(era))
        }
    }

    fn run(&self, args: Checked<'_>) -> &[u8] {
        self.result.get(args.era())
    }

    fn mirrored(&self) -> &[Mirrored] {
        &[]
    }

    fn notices(&self) -> Option<&ContentTool> {
        let t = &self.tool;
        (!t.progress.is_empty() || !t.log.is_empty()).then_some(t)
    }
}
