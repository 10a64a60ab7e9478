//! `check --vectors` against a server whose data is not the fixture's the
//! vectors were recorded against (issue 49, item 4): the README's HTTP
//! lines copied in order (`serve --http` with the default configuration,
//! then `check --vectors --http URL`) gave `must 29/36` and a FAIL, and
//! said nothing of `vectors/configs/http.json`. The vectors say what the
//! reference answered with that fixture's data, so on other data none is
//! run: each is NOT RUN, never PASS or FAIL, the report names the
//! configuration to serve and the exit code is 3 (INCOMPLETE). The same
//! over stdio (`--fixture catalog` against `serve` with the default
//! configuration). Run through the real binaries, as a user runs them.

#[path = "support/fixture.rs"]
mod fixture;

/// Whether `text` reports a vector as passed or failed: a `FAIL` line, or
/// a per-level count with anything judged.
fn judged_any(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("FAIL"))
        || text
            .lines()
            .filter(|l| l.starts_with("http vectors: ") || l.starts_with("must "))
            .any(|l| !l.contains("must 0/0"))
}

#[test]
fn http_vectors_against_other_data_are_not_run_and_name_the_configuration() {
    let server = fixture::serve_http(&[]);
    let url = server.url.clone();
    let (code, out, err) = fixture::cli(&["check", "--vectors", "--http", &url]);
    drop(server);
    assert_eq!(code, 3, "{out}{err}");
    assert!(!judged_any(&out), "{out}");
    let authority = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let serve =
        format!("mcp-reference serve --http {authority} --config vectors/configs/http.json");
    assert!(
        out.starts_with("NOT RUN: the 49 vectors of vectors/http.jsonl: the server's data is not the http fixture's")
            && out.contains(&serve),
        "{out}"
    );
    assert!(out.contains("verdict: INCOMPLETE"), "{out}");
    assert!(
        out.contains("must 0/0, should 0/0, textbook 0/0, canonical 0/0"),
        "{out}"
    );

    // Served with that configuration, as the report says: every vector
    // runs and passes.
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/configs/http.json");
    let server = fixture::serve_http(&["--config", config]);
    let url = server.url.clone();
    let (code, out, err) = fixture::cli(&["check", "--vectors", "--http", &url]);
    drop(server);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("http vectors: must 36/36, should 5/5, textbook 49/49, canonical 49/49"),
        "{out}"
    );
}

#[test]
fn stdio_fixture_vectors_against_other_data_are_not_run_and_name_the_configuration() {
    let bin = fixture::bin();
    // `check --vectors --fixture catalog -- BIN serve EXTRA...`.
    let catalog = |extra: &[&str]| {
        let mut args = vec![
            "check",
            "--vectors",
            "--fixture",
            "catalog",
            "--",
            &bin,
            "serve",
        ];
        args.extend_from_slice(extra);
        fixture::cli(&args)
    };
    let (code, out, err) = catalog(&[]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(!out.lines().any(|l| l.starts_with("FAIL")), "{out}");
    assert!(
        out.contains(
            "NOT RUN: every vector of vectors/catalog.jsonl: the server's data is not the catalog \
             fixture's (vectors/configs/catalog.json)"
        ) && out.contains("mcp-reference serve --config vectors/configs/catalog.json"),
        "{out}"
    );
    // The generic vectors, which hold for any server, still run and pass;
    // none of the catalog's 59 is judged.
    assert!(out.contains(", 59 not run;"), "{out}");
    assert!(
        out.contains("verdict: INCOMPLETE (the server's data is not the catalog fixture's"),
        "{out}"
    );

    let config = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../vectors/configs/catalog.json"
    );
    let (code, out, err) = catalog(&["--config", config]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(", 0 not run;") && !out.contains("NOT RUN"),
        "{out}"
    );
}
