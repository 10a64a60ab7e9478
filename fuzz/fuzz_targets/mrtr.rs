//! Fuzz target `mrtr`: a retry of a multi round-trip request whose
//! `requestState` and `inputResponses` come from the input, judged by the
//! model (`model::input`). The assertions are
//! `mcp_reference_testkit::fuzzing::mrtr`, which tests/fuzz_replay.rs also
//! runs over the committed corpus on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_reference_testkit::fuzzing::mrtr(data));
