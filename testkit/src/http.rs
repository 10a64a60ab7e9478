//! The checks of one HTTP exchange, for the property tests, the HTTP fuzz
//! target and its corpus replay: the binding's response against the model
//! ([`crate::model::http`]), the tools that ran against the ones the model
//! allows, the response of the same binding without the orders the user
//! may not read (noninterference: nothing of them can leak over HTTP), and,
//! where the core answered the body, every stdio invariant of
//! [`crate::invariants`] on the body.

use mcp_reference::Config;
use mcp_reference::Server;
use mcp_reference::http::{Binding, Bound, Request, Response};

use crate::fuzzing::Counting;
use crate::invariants::Checker;
use crate::model::http::{HttpExpect, HttpRequest, Listen, expect_http};

/// A binding under test, with everything its checks need built once.
pub struct HttpChecker {
    config: Config,
    listen: Listen,
    binding: Binding,
    public: Option<Binding>,
    checker: Checker,
}

/// The binding's view of a model request.
pub fn as_request<'a>(request: &'a HttpRequest, headers: &'a [(&'a str, &'a [u8])]) -> Request<'a> {
    Request {
        method: &request.method,
        target: &request.target,
        headers,
        body: &request.body,
    }
}

impl HttpChecker {
    /// Prepares the checks for `config`, served at `listen`.
    pub fn new(config: &Config, listen: Listen) -> HttpChecker {
        let bound = Bound {
            port: listen.port,
            loopback: listen.loopback,
        };
        let checker = Checker::new(config);
        let public = checker.public().config().clone();
        let public = (public != *config).then(|| Binding::new(Server::new(public), bound));
        HttpChecker {
            config: config.clone(),
            listen,
            binding: Binding::new(Server::new(config.clone()), bound),
            public,
            checker,
        }
    }

    /// The binding.
    pub fn binding(&self) -> &Binding {
        &self.binding
    }

    /// Answers `request` and checks the response; `Ok` is the model's
    /// expectation (with its row), and the response.
    pub fn check(&self, request: &HttpRequest) -> Result<(HttpExpect, Response), String> {
        let headers: Vec<(&str, &[u8])> = request
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_slice()))
            .collect();
        let req = as_request(request, &headers);
        let mut ran = Counting::default();
        let response = self.binding.respond_with(&req, &mut ran);
        let expect = expect_http(&self.config, self.listen, request);
        expect.check(
            &self.config,
            response.status,
            &response.headers,
            &response.body,
        )?;
        let allowed = expect.body.as_ref().and_then(|e| e.runs()).flatten();
        match (allowed, ran.ran.as_slice()) {
            (None, []) => {}
            (Some(tool), [one]) if *one == tool => {}
            (want, got) => {
                return Err(format!(
                    "row {}: tools run {got:?}, expected {want:?}",
                    expect.row
                ));
            }
        }
        if let Some(public) = &self.public {
            let other = public.respond(&req);
            if other != response {
                return Err(format!(
                    "row {}: the response depends on orders the user may not read: {:?} without them, {:?} with them",
                    expect.row,
                    String::from_utf8_lossy(&other.body),
                    String::from_utf8_lossy(&response.body)
                ));
            }
        }
        if let (Some(body), "H15" | "H17") = (&expect.body, expect.row) {
            let line = [response.body.as_slice(), b"\n"].concat();
            self.checker
                .check_with(&request.body, &line, body)
                .map_err(|e| format!("row {}: {e}", expect.row))?;
        }
        Ok((expect, response))
    }
}
