//! The binary's front end (`src/cli/mod.rs`, `src/cli/demo.rs`) as a user
//! meets it, through the real `mcp-reference` (README, "Command line" and
//! "Exit codes"): `--help` and `--version` succeed; `check`, `diff` and
//! `bench` without `mcp-reference-tools` beside the binary or on `PATH` are refused
//! in one sentence with exit 2; a stdin that cannot be read ends `serve`
//! with exit 1 and one sentence (none with `--log-level off`); the demo
//! prints the README's table, and a transcript it cannot write is exit 1
//! with one sentence; run outside the checkout it writes nothing there; a
//! user who owns no order is warned once; `--http localhost:8080` gets the
//! address to write. The stdio framing is `tests/binary.rs`'s.

use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-reference");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn help_and_version_succeed_on_stdout() {
    for flag in ["--help", "--version"] {
        let out = run(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}: {}", stderr(&out));
        assert!(!out.stdout.is_empty(), "{flag}");
        assert!(out.stderr.is_empty(), "{flag}: {}", stderr(&out));
    }
    let help = String::from_utf8_lossy(&run(&["--help"]).stdout).into_owned();
    for word in ["serve", "demo", "check", "diff", "bench"] {
        assert!(help.contains(word), "{help}");
    }
}

/// A copy of the binary alone in a folder, run with an empty `PATH`: the
/// tools binary is neither beside it nor on the path.
#[test]
fn check_and_diff_without_the_tools_binary_are_one_sentence_and_exit_2() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lone-binary");
    std::fs::create_dir_all(&dir).unwrap();
    let lone = dir.join("mcp-reference");
    std::fs::copy(BIN, &lone).unwrap();
    for sub in ["check", "diff", "bench"] {
        // The copy was just written: while another test of this binary
        // forks, the child may still hold it open for writing, and exec
        // says ETXTBSY ("Text file busy"), which is no answer of the
        // program's; try again.
        let mut tries = 0;
        let out = loop {
            match Command::new(&lone)
                .args([sub, "--", "true"])
                .env("PATH", "")
                .stdin(Stdio::null())
                .output()
            {
                Err(e) if e.raw_os_error() == Some(26) && tries < 50 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                other => break other.unwrap(),
            }
        };
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{sub}: {err}");
        assert!(out.stdout.is_empty(), "{sub}");
        assert_eq!(err.lines().count(), 1, "{sub}: {err}");
        assert!(
            err.starts_with(&format!(
                "mcp-reference: {sub} is in the mcp-reference-tools binary, which is not beside this one nor on PATH"
            )),
            "{sub}: {err}"
        );
    }
}

/// Reading stdin fails (it is a directory): exit 1, and the reason on
/// stderr unless logging is off.
#[test]
fn a_stdin_that_cannot_be_read_ends_serve_with_exit_1() {
    for (args, said) in [
        (&["serve"][..], true),
        (&["--log-level", "error", "serve"][..], true),
        (&["--log-level", "off", "serve"][..], false),
    ] {
        let out = Command::new(BIN)
            .args(args)
            .stdin(std::fs::File::open("/").unwrap())
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        if said {
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.starts_with("mcp-reference: reading stdin failed: "),
                "{args:?}: {err}"
            );
        } else {
            assert!(err.is_empty(), "{args:?}: {err}");
        }
    }
}

/// The demo's table is the README's (a README cell that ends in `...` is
/// the start of the demo's), and the transcript goes where `--out` says.
#[test]
fn the_demo_prints_the_readme_s_table() {
    let out_file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-table.json");
    let out = run(&["demo", "--out", out_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let start = readme
        .find("```text\nid  request")
        .expect("the README shows the demo's table");
    let table: Vec<&str> = readme[start + "```text\n".len()..]
        .lines()
        .take_while(|l| *l != "```")
        .collect();
    assert_eq!(table.len(), 6, "{table:?}");
    let lines: Vec<&str> = printed.lines().collect();
    for (want, got) in table.iter().zip(&lines) {
        match want.strip_suffix("...") {
            Some(start) => assert!(got.starts_with(start), "{got:?} does not start {start:?}"),
            None => assert_eq!(got, want),
        }
    }
    assert!(
        printed.contains(&format!("transcript written to {}", out_file.display())),
        "{printed}"
    );
    assert!(out_file.is_file());
}

/// `--out` naming a folder that does not exist, or a "folder" that is a
/// file: exit 2 before anything runs, one sentence, and no folder created
/// (issue 49, item 5: the demo made `/nonexistent/dir` for
/// `--out /nonexistent/dir/x.json`). A transcript that cannot be written
/// where the folder exists (here: the path is itself a folder): exit 1, one
/// sentence, after the run.
#[test]
fn a_demo_that_cannot_write_its_transcript_says_so_and_creates_nothing() {
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = tmp.join("demo-a-file");
    std::fs::write(&file, b"").unwrap();
    let absent = tmp.join(format!("demo-absent-{}", std::process::id()));
    for (out_file, says) in [
        (file.join("x.json"), "is not a folder"),
        (absent.join("deeper").join("x.json"), "does not exist"),
    ] {
        let out = run(&["demo", "--out", out_file.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("mcp-reference: --out "), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(out.stdout.is_empty(), "nothing ran");
    }
    assert!(!absent.exists(), "no folder was created for --out");
    let folder = tmp.join("demo-out-is-a-folder");
    std::fs::create_dir_all(&folder).unwrap();
    let out = run(&["demo", "--out", folder.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mcp-reference demo: cannot write "),
        "{err}"
    );
}

/// Run outside the checkout (an empty folder) with no `--out`, the demo
/// writes nothing into the working directory (neither `data/` nor
/// `target/`) and says where the transcript went (issue 39, item 7).
#[test]
fn a_demo_outside_the_checkout_writes_nothing_there() {
    // An empty directory, another Rust project (a Cargo.toml and no
    // textbook example), and a directory with the example alone.
    for (name, files) in [
        ("demo-elsewhere", &[][..]),
        ("demo-other-crate", &["Cargo.toml"][..]),
        ("demo-example-only", &["data/example-43.2.request.json"][..]),
    ] {
        demo_in(name, files);
    }
}

fn demo_in(name: &str, files: &[&str]) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    for f in files {
        std::fs::write(dir.join(f), "{}").unwrap();
    }
    let before = listing(&dir);
    let out = Command::new(BIN)
        .arg("demo")
        .current_dir(&dir)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
    assert_eq!(listing(&dir), before, "{name}: the demo wrote there");
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    let written = std::env::temp_dir().join("mcp-reference-demo/mcp-run.json");
    assert!(
        printed.contains(&format!(
            "transcript written to {} (this directory is not",
            written.display()
        )),
        "{printed}"
    );
    assert!(written.is_file());
}

/// Every path under `dir`, sorted.
fn listing(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path.clone());
            }
            out.push(path);
        }
    }
    out.sort();
    out
}

/// A trusted user who owns none of the configuration's orders is served
/// (a user with no order yet is real) but said once on stderr, with the
/// owners, since every order would read as not found; the owner of an
/// order, and `--log-level off`, hear nothing (issue 39, item 7).
#[test]
fn a_user_who_owns_no_order_is_warned_once() {
    let out = run(&["--user", "nobody", "serve"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mcp-reference: warning: the user \"nobody\" owns no order in this configuration (owners: mira, tomas)"),
        "{err}"
    );
    for args in [
        &["--user", "tomas", "serve"][..],
        &["--user", "nobody", "--log-level", "off"][..],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {}", stderr(&out));
    }
    // Over HTTP (no authorization: the launch user answers), the warning
    // follows the line that names the address, which stays the first.
    let mut child = Command::new(BIN)
        .args(["--user", "nobody", "serve", "--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stderr.take().unwrap()));
    let first = lines.next().unwrap().unwrap();
    let second = lines.next().unwrap().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        first.starts_with("mcp-reference: serving MCP over HTTP at http://127.0.0.1:"),
        "{first}"
    );
    assert!(
        second.starts_with("mcp-reference: warning: the user \"nobody\""),
        "{second}"
    );
}

/// `--http localhost:8080` is refused with the address to write instead
/// (host names are not resolved), in one sentence, exit 2.
#[test]
fn a_host_name_for_http_gets_the_address_to_write() {
    let out = run(&["serve", "--http", "localhost:8080"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("write one such as 127.0.0.1:8080"), "{err}");
}

/// A host whose client opens with `initialize` (the MCP Inspector's
/// `--config` of a stdio server, the Python SDK's legacy mode) is refused
/// by the reply (`-32022`, row D6), and the server says on stderr, once per
/// process, what it needs: `--legacy` (issue 39, item 2). Not with
/// `--legacy`, not for modern lines, not with `--log-level error`.
#[test]
fn a_refused_initialize_says_once_what_the_host_needs() {
    let init = |id: u8, v: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"{v}","capabilities":{{}},"clientInfo":{{"name":"host","version":"1"}}}}}}"#
        )
    };
    let modern = r#"{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let unknown = r#"{"jsonrpc":"2.0","id":7,"method":"initialize_everything","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let input = format!(
        "{}\n{}\n{modern}\n",
        init(1, "2025-11-25"),
        init(2, "2025-06-18")
    );
    let serve = |args: &[&str], input: &str| {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
        stderr(&out)
    };
    let err = serve(&["serve"], &input);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "mcp-reference: line 1: refused an initialize \"2025-11-25\": this server speaks \
             2026-07-28, which has no handshake; a host whose client opens with initialize needs \
             it started with --legacy 2025-11-25,2025-06-18"
        ),
        "{err}"
    );
    for (args, input) in [
        (&["serve", "--legacy", "2025-11-25"][..], input.as_str()),
        (&["--log-level", "error", "serve"][..], input.as_str()),
        (&["serve"][..], &format!("{modern}\n{modern}\n{modern}\n")),
        // A refused request that is not an initialize, though its line
        // says "initialize": no hint.
        (&["serve"][..], &format!("{unknown}\n{unknown}\n{modern}\n")),
    ] {
        let err = serve(args, input);
        assert!(err.is_empty(), "{args:?}: {err}");
    }
    // At the levels above warn the hint is said too, once, among the
    // lines of those levels.
    for level in ["info", "debug"] {
        let err = serve(&["--log-level", level, "serve"], &input);
        let hints = err
            .lines()
            .filter(|l| l.contains("needs it started with --legacy"))
            .count();
        assert_eq!(hints, 1, "{level}: {err}");
    }
}
