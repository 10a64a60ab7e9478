//! Fuzz target `respond_structured`: an arbitrary-decoded request, held to the oracle.
//! The assertions are `mcp_reference_testkit::fuzzing::respond_structured`, which
//! tests/fuzz_replay.rs also runs over the committed corpus on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_reference_testkit::fuzzing::respond_structured(data));
