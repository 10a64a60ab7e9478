//! The authenticated side of the HTTP load runs (docs/performance.md,
//! "HTTP with authorization"): writes a configuration file, the textbook's
//! data with `http.authorization` on and the test issuer's keys fixed
//! (`mcp-reference-testkit`'s issuer, never a deployment's), and prints on
//! stdout one access token for mira that the issuer signed, valid from now
//! for the given seconds (ES256 by default, `--rs256` for RS256). The
//! server, not this program, decides whether the token is valid.
//!
//! Usage: `cargo run --release --example auth_fixture -- CONFIG_OUT
//! [SECONDS] [--rs256]`. `scripts/http_load.py --auth` runs it.

use mcp_reference::Config;
use mcp_reference_testkit::issuer::{self, Issuer};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rs256 = args.iter().any(|a| a == "--rs256");
    let mut rest = args.iter().filter(|a| *a != "--rs256");
    let (Some(out), seconds) = (rest.next(), rest.next()) else {
        eprintln!("usage: auth_fixture CONFIG_OUT [SECONDS] [--rs256]");
        return std::process::ExitCode::from(2);
    };
    let Ok(seconds) = seconds.map_or(Ok(3600), |s| s.parse::<u64>()) else {
        eprintln!("auth_fixture: SECONDS is not a whole number of seconds");
        return std::process::ExitCode::from(2);
    };
    let signer = Issuer::default();
    let config = issuer::with_auth(Config::default(), issuer::settings(signer.jwks()));
    if let Err(e) = std::fs::write(out, config.to_json()) {
        eprintln!("auth_fixture: cannot write {out}: {e}");
        return std::process::ExitCode::FAILURE;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut claims = issuer::claims("mira", "orders:read");
    claims["iat"] = now.into();
    claims["exp"] = (now + seconds).into();
    let header = if rs256 {
        serde_json::json!({"typ": "at+jwt", "alg": "RS256", "kid": "rsa1"})
    } else {
        issuer::header()
    };
    println!("{}", signer.mint(&header, &claims));
    std::process::ExitCode::SUCCESS
}
