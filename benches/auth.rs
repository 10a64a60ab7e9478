//! The cold verification of one access token by the HTTP binding's
//! authorization step: `Binding::respond_at` of Example 43.2's request
//! with a valid token, ES256 and RS256, against `Binding::respond` of the
//! same request on the binding without authorization, in one run. Every
//! call verifies the token from scratch (the binding keeps no cache: a
//! cache of verified tokens is the driver's).
//!
//! Before anything is timed, each response is checked against the model
//! (`mcp_reference_testkit::http_auth::AuthChecker`). Run: `cargo bench
//! --bench auth`; the figures are in docs/performance.md.

use std::hint::black_box;

use criterion::Criterion;
use mcp_reference::http::{Binding, Bound, Keys, Trust};
use mcp_reference::{Config, Server};
use mcp_reference_testkit::http::{as_request, conforming, header_refs};
use mcp_reference_testkit::http_auth::AuthChecker;
use mcp_reference_testkit::issuer::{LISTEN, NOW, issuer, settings, with_auth};
use mcp_reference_testkit::model::http::HttpRequest;

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let example = std::fs::read(format!("{root}/data/example-43.2.request.json"))
        .unwrap_or_else(|e| panic!("Example 43.2: {e}"));
    let body = example.strip_suffix(b"\n").unwrap_or(&example).to_vec();
    let plain = Config::default();
    let authorized = with_auth(plain.clone(), settings(issuer().jwks()));
    let bound = Bound {
        port: 8080,
        loopback: true,
    };
    let keys = Keys::from_jwks(issuer().jwks()).unwrap_or_else(|e| panic!("{e}"));
    let trust = Trust {
        keys: &keys,
        now: NOW,
        verified: None,
    };
    let checker = AuthChecker::new(&authorized, LISTEN, issuer().jwks());
    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group("verify");
    let binding = Binding::new(Server::new(plain.clone()), bound);
    let request = |token: Option<&str>| {
        let mut headers = conforming(&plain, LISTEN, &body);
        if let Some(t) = token {
            headers.push(("Authorization".into(), format!("Bearer {t}").into_bytes()));
        }
        HttpRequest {
            method: "POST".into(),
            target: "/mcp".into(),
            headers,
            body: body.clone(),
        }
    };
    let none = request(None);
    let heads = header_refs(&none);
    let req = as_request(&none, &heads);
    group.bench_function("no_auth", |b| {
        b.iter(|| black_box(binding.respond(black_box(&req))))
    });
    let protected = Binding::new(Server::new(authorized.clone()), bound);
    for (name, rs256) in [("es256", false), ("rs256", true)] {
        let http = request(Some(&issuer().token("mira", "orders:read", rs256)));
        let (expect, _) = checker
            .check(NOW, &http)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            expect.row(),
            "A7",
            "{name}: the bench request must reach the core"
        );
        let heads = header_refs(&http);
        let req = as_request(&http, &heads);
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(protected.respond_at(black_box(&req), &trust, &mut mcp_reference::Direct))
            })
        });
    }
    group.finish();
    criterion.final_summary();
}
