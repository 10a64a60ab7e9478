//! Fuzz target `config_load`: raw bytes as a configuration file.
//! The assertions are `mcp_reference_testkit::fuzzing::config_load`, which
//! tests/fuzz_replay.rs also runs over the committed corpus on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_reference_testkit::fuzzing::config_load(data));
