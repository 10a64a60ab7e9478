//! The committed test vectors (`vectors/`, format 4 in `docs/vectors.md`),
//! built into this binary, and how a reply is judged at each verdict level
//! (`must`, `should`, `textbook`, `canonical`): at its own level against
//! what the vector's `expect` says its source requires, at `textbook`
//! against the reference's reply with wording and `error.data` left out,
//! at `canonical` byte for byte. Like [`crate::check`],
//! this module never calls the reference's core: it compares what a server
//! writes with the committed lines. `scripts/replay_vectors.py` is the same
//! replayer in Python's standard library; `tools/tests/vectors.rs` holds the
//! two to the same verdicts.
//!
//! The rows a vector exercises are named by its `rule` (a row id of
//! docs/behavior.md); no rule is decided here.
//!
//! | module | owns |
//! | --- | --- |
//! | [`format`](mod@self::format) | the committed vectors, parsed, and the judgement of a reply at each level |
//! | [`process`] | a server process as the replay runs it: options, reads, waits, the opening line |
//! | `stateless` | the statelessness probe (BASE-21), run before the vectors |
//! | `replay` | single vectors on a shared process, sequences on fresh ones, the report |
//! | [`http`] | the HTTP vectors, over [`crate::http_client`] |

pub mod format;
pub mod http;
pub mod process;
mod replay;
mod stateless;

pub use self::format::{
    FIXTURES, Got, LEVELS, Step, Vector, failed_levels, meets, select, textbook_equal,
};
pub use self::process::Options;
pub use self::replay::{Outcome, Report, run};
pub use self::stateless::Stateless;
