//! Fuzz target `http`: one HTTP request (method, target, header list, body)
//! through the Streamable HTTP binding. The assertions are
//! `mcp_reference_testkit::fuzzing::http::http`, which tests/fuzz_replay.rs
//! also runs over the committed corpus on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_reference_testkit::fuzzing::http(data));
