//! The floor of the HTTP load runs (docs/performance.md, "HTTP"): the least
//! any server on this stack (hyper 1.x, tokio, HTTP/1.1 keep-alive, the
//! same runtime as `serve --http`) can do per request. It reads each
//! request's whole body and answers 200 with Example 43.2's reply as a
//! constant, deciding nothing. `scripts/http_load.py` runs it beside the
//! real server in alternating rounds.
//!
//! Usage: `cargo run --release --example http_floor -- ADDR` (prints the
//! address it listens on, on stderr). Not a server to deploy: it checks
//! nothing.

use std::convert::Infallible;
use std::net::SocketAddr;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

async fn answer(
    reply: Bytes,
    request: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let _ = request.into_body().collect().await;
    let mut response = hyper::Response::new(Full::new(reply));
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    Ok(response)
}

fn main() {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 0)));
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/example-43.2.response.json"
    );
    let reply = match std::fs::read(path) {
        Ok(bytes) => Bytes::from(bytes.strip_suffix(b"\n").unwrap_or(&bytes).to_vec()),
        Err(e) => {
            eprintln!("http_floor: cannot read {path}: {e}");
            std::process::exit(1);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("http_floor: cannot start the runtime: {e}");
            std::process::exit(1);
        }
    };
    runtime.block_on(async move {
        let listener = match TcpListener::bind(addr).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("http_floor: cannot listen on {addr}: {e}");
                std::process::exit(1);
            }
        };
        if let Ok(local) = listener.local_addr() {
            eprintln!("http_floor: listening at http://{local}/mcp");
        }
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let reply = reply.clone();
            let service = service_fn(move |request| answer(reply.clone(), request));
            tokio::spawn(async move {
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
}
