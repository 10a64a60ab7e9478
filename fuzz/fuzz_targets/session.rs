//! Fuzz target `session`: a sequence of lines through the session state machine.
//! The assertions are `mcp_reference_testkit::fuzzing::session`, which
//! tests/fuzz_replay.rs also runs over the committed corpus on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_reference_testkit::fuzzing::session(data));
