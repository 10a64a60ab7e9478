//! The environment switches of the test suite, read in one place so that
//! none can weaken a CI run (docs/fuzzing.md, "Switches that cannot weaken
//! a CI run"): the update switches
//! (`MCP_UPDATE_GOLDEN`, `MCP_UPDATE_VECTORS`) rewrite a committed file
//! before comparing with it, so under `CI=true` a set one fails the test
//! instead of turning the comparison into a copy; `PROPTEST_CASES` can
//! raise a property's case count, never lower it below [`FLOOR`] (an
//! inherited `PROPTEST_CASES=1` would run one case).
//!
//! Used by the tests in `tests/` through `#[path]`.

#![allow(dead_code)]

/// The fewest cases any property of the suite runs, whatever
/// `PROPTEST_CASES` says.
pub(crate) const FLOOR: u32 = 256;

/// The case count of a property whose own count is `default`:
/// `PROPTEST_CASES` when it is set and at least [`FLOOR`], [`FLOOR`] when
/// it is set lower. A value that is no number fails the test (a typo must
/// not pass as the default).
pub(crate) fn cases(default: u32) -> u32 {
    cases_from(std::env::var("PROPTEST_CASES").ok().as_deref(), default)
}

/// [`cases`], given the variable's value.
pub(crate) fn cases_from(value: Option<&str>, default: u32) -> u32 {
    match value {
        None => default,
        Some(text) => match text.trim().parse::<u32>() {
            Ok(n) => n.max(FLOOR),
            Err(_) => panic!("PROPTEST_CASES={text:?} is not a number of cases"),
        },
    }
}

/// Whether the update switch `name` is set: the test then rewrites its
/// committed file before comparing. Under `CI=true` a set switch fails
/// the test: a CI run compares with the committed files, never rewrites
/// them.
pub(crate) fn update(name: &str) -> bool {
    let set = std::env::var_os(name).is_some();
    assert!(
        !(set && ci()),
        "{name} is set under CI=true: a CI run compares with the committed files and never \
         rewrites them (unset it)"
    );
    set
}

/// Whether this is a CI run (`CI=true`, as `.ci/run` and the public
/// workflow set it).
pub(crate) fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}
