//! The server process every tool runs (`mcp_reference_tools::process`),
//! through its public API: dropping it stops everything the server
//! started, whether the server is still running or has exited.

#[path = "support/fixture.rs"]
mod fixture;

#[cfg(target_os = "linux")]
#[test]
fn dropping_a_launcher_kills_what_it_started() {
    use mcp_reference_tools::process::{Launch, Next, Proc};
    use std::time::{Duration, Instant};

    let soon = || Instant::now() + Duration::from_secs(10);
    // A launcher that starts a child detached from every pipe (so only the
    // process group ties it to the launcher), then either waits or exits
    // at once, leaving the child behind.
    let start = "sleep 300 </dev/null >/dev/null 2>&1 & echo $!";
    for (then, exits) in [("exec sleep 300", false), ("exit 0", true)] {
        let launch = Launch {
            argv: vec!["sh".into(), "-c".into(), format!("{start}; {then}").into()],
            env: Vec::new(),
            env_remove: Vec::new(),
        };
        let mut p = Proc::spawn(&launch).expect("sh starts");
        let Next::Line(line) = p.next(soon()) else {
            panic!("the launcher did not print its child's pid");
        };
        let pid = String::from_utf8(line.bytes).expect("a pid");
        if exits {
            assert!(matches!(p.next(soon()), Next::Closed));
            assert!(p.wait_exit(soon()).is_some_and(|s| s.success()));
        }
        assert!(
            fixture::running(&pid),
            "{then}: the launcher's child {pid} is not running"
        );
        drop(p);
        let left = fixture::left_running(&[&pid]);
        assert!(
            left.is_empty(),
            "{then}: the launcher's child {pid} outlived it"
        );
    }
}
