//! # mcp-reference
//!
//! A reference implementation of the Model Context Protocol, revision
//! 2026-07-28 (the stateless revision), for one small read-only server,
//! "book-orders", written to be used as an oracle: its bytes are the
//! product. Every rule it applies is a row of `docs/behavior.md`, with the
//! spec section it rests on.
//!
//! ## As an oracle
//!
//! [`Server::respond`] is a pure function: one request line in, at most one
//! response line out (newline included), after only the notification lines
//! that request's own `_meta` asked for (a configured content tool's
//! progress and log messages, rows T12 and T13; never in the textbook or
//! catalog configuration), no I/O, no clock, no global state.
//! Compare your implementation's reply with it:
//!
//! ```
//! use mcp_reference::{Config, Server};
//!
//! let server = Server::new(Config::default()); // the textbook's data
//! let request = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":"A-104"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"book-host","version":"1.0.0"}}}}"#;
//! let reply = server.respond(request).expect("a request is answered");
//! assert!(reply.starts_with(br#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete""#));
//!
//! // Notifications are never answered.
//! assert_eq!(server.respond(br#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#), None);
//! ```
//!
//! The crate is not published: depend on a checkout, as a dev-dependency
//! with the binary's feature off,
//! `mcp-reference = { path = "../mcp-reference", default-features = false }`
//! (or a `git` dependency on the repository), which brings serde,
//! serde_json, memchr and base64 (the HTTP binding's sentinel decoding),
//! nothing else. `examples/oracle.rs` compares a file of your replies with
//! the reference's (`cargo run --example oracle -- REQUESTS REPLIES`).
//!
//! A [`Session`] adds what belongs to a stdio process (the opt-in legacy
//! `initialize` handshake); [`serve`] is the stdio driver the binary runs.
//! [`http::Binding`] is the Streamable HTTP sibling of [`Server::respond`]:
//! a pure function from one HTTP request to one HTTP response, whose body
//! is the core's reply line without its newline.
//!
//! ## Layers
//!
//! A line walks down once; nothing reaches back up:
//!
//! | layer | module | owns |
//! | --- | --- | --- |
//! | driver | `stdio` | framing on stdin/stdout, line limit, flushing, end-of-file (the HTTP driver is the binary's: `serve --http`) |
//! | session | `session` | what belongs to the process: the opt-in legacy handshake |
//! | HTTP binding | [`http`] | one HTTP request in, one HTTP response out: path, method, origin, host, media type, size, the mirrored headers, statuses (rows H1 to H17); authorization, pure (rows A1 to A9) |
//! | core | `server` | one line in, at most one response out, after only the notifications its `_meta` asked for; the order of checks |
//! | legacy core | `legacy` | beside the core, for the session's legacy-era requests, behind one function |
//! | envelope | `envelope` | JSON-RPC 2.0: ids, requests, notifications, replies |
//! | metadata and versions | `meta` | `params._meta`, protocol versions, `initialize` |
//! | dispatch | `dispatch` | methods and their params |
//! | tools, resources, prompts | `tools`, `resources`, `prompts`, `completion` | the tool catalog, `inputSchema` checks, tool results; resource lists and reads; prompts; completion |
//! | multi round-trip requests | `input` | the configured tools and prompts that ask for input first: rounds, `InputRequiredResult`, the HMAC-protected `requestState` (feature `state`), `-32021` (rows I1 to I15) |
//! | configuration | `config`, [`catalog`] | user, data, identity, versions, hints, limits; the resources, order template and prompts offered |
//!
//! Beside the driver, [`judge`] holds the *client* to the client rules of
//! 2026-07-28: a pure state machine fed every message a client sends and
//! every reply the core gives it (`mcp-reference judge`); it asks the
//! core's decoding and the binding's header checks, and decides only what
//! a client must send.
//!
//! `error` (the error codes), `json` (borrowed, duplicate-detecting
//! decoding) and `canonical` (the canonical output form, row W1) are leaves
//! every layer may use.

#![forbid(unsafe_code)]

mod canonical;
pub mod catalog;
mod completion;
mod config;
mod dispatch;
mod envelope;
mod error;
pub mod http;
mod input;
mod json;
pub mod judge;
mod legacy;
mod meta;
mod notices;
mod prompts;
mod resources;
mod schema;
mod server;
mod session;
mod stdio;
mod tools;

pub use config::auth::{Authorization, OAuthSettings, SUPPORTED_ALGORITHMS};
pub use config::input::{InputKind, InputRequired, InputSpec, InputTarget};
pub use config::{
    CATALOG_CACHE, CacheHint, CacheScope, Config, ConfigError, DEFAULT_ENDPOINT,
    DEFAULT_MAX_LINE_BYTES, HEADER_PARAMS, HttpSettings, Identity, LEGACY_VERSIONS,
    MODERN_VERSIONS, ORDER_CACHE, Order, StockItem,
};
pub use legacy::LegacyVersion;
pub use server::{Disposition, Server};
pub use session::{Session, State};
pub use stdio::{End, LogLevel, Observer, Stats, serve, serve_observed};
pub use tools::{Call, Direct, Executor};
