//! Fuzz target `http_auth`: arbitrary `Authorization` headers and tokens
//! (valid, changed in one place, edited byte by byte, raw) through the
//! authorization step of the HTTP binding. The assertions are
//! `mcp_reference_testkit::fuzzing::http_auth::http_auth`, which
//! tests/fuzz_replay.rs also runs over the committed corpus on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_reference_testkit::fuzzing::http_auth(data));
