//! Using the library as an oracle: answer the lines of a request file with
//! the reference's pure core ([`mcp_reference::Server::respond`]) and,
//! given your implementation's replies, compare them line by line as JSON
//! values (the member order and whitespace are the canonical form's
//! business, docs/behavior.md row W1; an oracle for behaviour compares
//! values).
//!
//! ```sh
//! cargo run --example oracle -- data/example-43.2.request.json
//! cargo run --example oracle -- requests.jsonl my-replies.jsonl   # exit 1 on a difference
//! ```
//!
//! With `--config FILE` the reference answers with that configuration
//! instead of the textbook's. A notification has no reply: its line in
//! the replies file is empty. Run by `cargo test` (its unit tests below
//! replay the book's Example 43.2 and find a changed reply).

use std::process::ExitCode;

use mcp_reference::{Config, Server};
use serde_json::Value;

/// The reference's reply to each line of `requests` (`None`: no reply).
fn answers(server: &Server, requests: &str) -> Vec<Option<String>> {
    requests
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            server
                .respond(line.as_bytes())
                .map(|r| String::from_utf8_lossy(&r).trim_end().to_owned())
        })
        .collect()
}

/// The lines where `replies` differ from `expected` as JSON values, each
/// as one sentence.
fn differences(expected: &[Option<String>], replies: &str) -> Vec<String> {
    let got: Vec<&str> = replies.lines().collect();
    let parse = |s: &str| serde_json::from_str::<Value>(s).ok();
    expected
        .iter()
        .enumerate()
        .filter_map(|(i, want)| {
            let line = got.get(i).copied().unwrap_or_default().trim();
            match want {
                None if line.is_empty() => None,
                None => Some(format!("line {}: no reply is due, got {line}", i + 1)),
                Some(want) if parse(want) == parse(line) && parse(line).is_some() => None,
                Some(want) => Some(format!("line {}: expected {want}, got {line}", i + 1)),
            }
        })
        .collect()
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let config = match args.iter().position(|a| a == "--config") {
        Some(at) if at + 1 < args.len() => {
            let path = args.remove(at + 1);
            args.remove(at);
            match Config::load(std::path::Path::new(&path)) {
                Ok(config) => config,
                Err(e) => {
                    eprintln!("oracle: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        _ => Config::default(),
    };
    let read = |path: &str| {
        std::fs::read_to_string(path).map_err(|e| eprintln!("oracle: cannot read {path}: {e}"))
    };
    let Some(Ok(requests)) = args.first().map(|p| read(p)) else {
        eprintln!("usage: oracle [--config FILE] REQUESTS [REPLIES]");
        return ExitCode::from(2);
    };
    let expected = answers(&Server::new(config), &requests);
    let Some(replies) = args.get(1) else {
        for reply in &expected {
            println!("{}", reply.as_deref().unwrap_or_default());
        }
        return ExitCode::SUCCESS;
    };
    let Ok(replies) = read(replies) else {
        return ExitCode::from(2);
    };
    let found = differences(&expected, &replies);
    for difference in &found {
        println!("{difference}");
    }
    println!("{} of {} lines differ", found.len(), expected.len());
    if found.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REQUEST: &str = include_str!("../data/example-43.2.request.json");
    const REPLY: &str = include_str!("../data/example-43.2.response.json");

    #[test]
    fn the_book_s_reply_agrees_and_a_changed_one_does_not() {
        let expected = answers(&Server::new(Config::default()), REQUEST);
        assert_eq!(expected.len(), 1);
        assert!(differences(&expected, REPLY).is_empty());
        let changed = REPLY.replace("processing", "shipped");
        assert_eq!(differences(&expected, &changed).len(), 1);
        assert_eq!(differences(&expected, "").len(), 1);
    }
}
