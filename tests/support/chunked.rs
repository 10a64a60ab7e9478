//! The body of an HTTP/1.1 response sent with `Transfer-Encoding: chunked`
//! (RFC 9112, section 7.1), for the hand-written HTTP clients of the tests
//! (`support/http_server.rs`) and of the faulty client fixture
//! (`examples/faulty_client/http.rs`), through `#[path]`.

/// The body carried by the chunks of `raw` (what follows the head), up to
/// the last chunk or the first malformed one.
pub(crate) fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&raw[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 || raw.len() < end + 2 + size {
            break;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[(end + 4 + size).min(raw.len())..];
    }
    out
}
