//! The executable model of `docs/behavior.md`: given a request line (bytes,
//! read with the model's own parser into the one JSON tree), the
//! configuration and, on the legacy path, the model's own session state,
//! what the reply must be (silence, an error with its id, code, message and
//! data, or a result of a given kind with its content where the
//! configuration fixes it) and which row of `docs/behavior.md` decided it.
//!
//! It is the one oracle of the test kit: the property tests, the state
//! machine test, the fuzz checks, the corpus replay, `diff` and the benches
//! all compare the server with it. It depends only on the server's `Config`
//! (the data of a configuration) and serde_json, never on the server's
//! decoders or decisions, and reads the code and message of every fixed
//! error from the row registry `docs/rows.json` ([`rows`]), so that it can
//! move to a test-kit package of its own.
//!
//! The order of checks is that of `docs/behavior.md`, "Order of checks":
//! framing -> envelope -> `initialize` -> `params._meta` (version before the
//! other fields) -> method -> params -> the tool's `inputSchema` -> the tool.
//!
//! | rows | where |
//! | --- | --- |
//! | F1, F2, F3 | [`core::frame`] |
//! | E1, E2, E3, E4 | [`core::frame`] (UTF-8) and [`parse::parse`] (syntax, depth, numbers, surrogates), judged in [`core::refused`] |
//! | E5, E6, E7, E8, E9, E11, E12, E13, E14, E15, E16 | [`core::envelope`] |
//! | E10, E17 | [`core::envelope`] (noted on the reply) |
//! | D6 | [`core::initialize`] |
//! | D7 | [`core::answer`] (`_meta` as every request, then `-32601`) |
//! | M1 to M13, M15 | [`core::meta`] (M10, M15: [`core::meta`] refining M7 and M1 to M4) |
//! | M14, M16 | [`core::meta`], [`core::call`] (noted on the reply) |
//! | D1 to D5 | [`core::method`] |
//! | T1 to T9 | [`core::call`] |
//! | R1 to R7, P1 to P10, C1 to C5 | [`catalog::method`], [`catalog::check_result`] |
//! | W1 | [`canonical::check`], applied by [`read_reply`] to every reply; named by [`Expect::rows`] for every reply due |
//! | W2 | [`ERROR_CODES`]; named by [`Expect::rows`] for every error due |
//! | E18 | [`core::expect_line`] (noted on the silence of E16) |
//! | L1 to L13 | [`legacy::step`] and [`legacy::serve`] |
//! | L14, L15, L16, L17 | [`legacy::step`] (era), [`core::meta`] (L15, L17), [`core::method`] (L16) |
//! | A1 to A9 | [`auth::expect_auth`] (the HTTP rows under the token's user: [`http::expect_http`]) |
//! | I1 to I15 | [`input::expect`] and [`input::check`] (at a time); in the generic model [`input::generic`] for `tools/call` and `prompts/get` of an input target ([`Reply::Input`], judged at the epoch), and I1 noted by [`core::method`]; I3 and I14's capabilities [`capabilities`] |
//!
//! The contract's decisions are cited by the ids `docs/behavior.md` gives
//! them (DEC1 to DEC49; DEC48 and DEC49 are the HTTP driver's, not the
//! model's).

pub mod auth;
pub mod canonical;
pub mod capabilities;
pub mod catalog;
pub mod core;
pub mod expect;
pub mod http;
pub mod input;
pub mod legacy;
pub mod notices;
pub mod parse;
pub mod reply;
pub mod rows;
pub mod tree;

pub use self::core::{expect_line, supported_versions};
pub use self::expect::{Body, ERROR_CODES, Era, Expect, GET_ORDER, LOOKUP_STOCK, Reply};
pub use self::legacy::State;
pub use self::parse::{Parsed, Refusal, parse};
pub use self::reply::{ReplyLine, ReplyTree, read_reply, read_reply_tree, tool_names};
pub use self::tree::{Esc, Json, MAX_DEPTH, Member};
