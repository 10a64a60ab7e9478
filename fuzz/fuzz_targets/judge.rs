//! Fuzz target `judge`: hostile client input to the client judge, over
//! stdio lines or HTTP requests. The assertions are
//! `mcp_reference_testkit::fuzzing::judge`, which tests/fuzz_replay.rs also
//! runs over the committed corpus on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_reference_testkit::fuzzing::judge(data));
