//! Fuzz target `respond_bytes`: raw bytes as one request line to the core.
//! The assertions are `mcp_reference_testkit::fuzzing::respond_bytes`, which
//! tests/fuzz_replay.rs also runs over the committed corpus on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_reference_testkit::fuzzing::respond_bytes(data));
