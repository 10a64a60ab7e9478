//! `mcp-reference check [--json] [--timeout-ms N] [--reply-timeout-ms N]
//! [--deadline-ms N] [--schema FILE] -- CMD [ARGS...]`: runs the library's
//! checker ([`mcp_reference_tools::check`]) against a command and prints the
//! report; with `--vectors [--fixture NAME]`, replays the committed test
//! vectors instead ([`mcp_reference_tools::vectors`]).
//!
//! Exit codes: 0 PASS (every MUST check ran and passed), 1 FAIL (a MUST
//! check failed), 3 INCOMPLETE (none failed, but one could not run: no
//! schema, the deadline), 2 the server could not be run (or a flag was
//! bad), with one sentence on stderr.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use mcp_reference_tools::check::{self, Options};
use mcp_reference_tools::vectors;

/// The arguments of `check`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Everything after `--` is the server's own command line, passed on as \
    is. To check the reference itself: `mcp-reference check -- mcp-reference serve [--config \
    FILE] [--user NAME] [--legacy VERSIONS]`: --config names the configuration file it serves \
    (data/config.example.json, vectors/configs/NAME.json), --user the trusted user whose orders \
    it shows (default mira), --legacy the legacy versions it also serves through initialize \
    (off by default). Exit codes: 0 PASS, 1 FAIL, 3 INCOMPLETE, 2 the server could not be run \
    or the command line is wrong; with --vectors: 0 every vector passed at the verdict's levels \
    (must, or up to --level) and the statelessness probe passed, 1 a vector failed there or the \
    probe failed (BASE-21, must), 3 the deadline cut some vectors or the probe could not run, 2 \
    could not run. See docs/check.md and docs/vectors.md."
)]
pub(crate) struct Args {
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,

    /// How long to wait for a fresh server process's first reply, its
    /// start-up included, in milliseconds.
    #[arg(long, default_value_t = 5000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: u64,

    /// How long to wait for each later reply of a process that has
    /// answered once, in milliseconds (at most --timeout-ms).
    #[arg(long, default_value_t = 2000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    reply_timeout_ms: u64,

    /// How long the whole run may take, in milliseconds; checks it cuts
    /// are reported as not run, and the verdict is then INCOMPLETE.
    #[arg(long, default_value_t = 120_000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    deadline_ms: u64,

    /// The official 2026-07-28 schema.json to validate stdout with
    /// (default: $MCP_SPEC_DIR/2026-07-28/schema.json, else the first of
    /// ../mcp-spec/schema/2026-07-28/schema.json (the README's recipe) and
    /// ../shared/spec/2026-07-28/schema.json beside the checkout this was
    /// built from). It is schema/2026-07-28/schema.json in a checkout of the
    /// public specification repository. Without one, the MUST check
    /// stdout.schema cannot run and the verdict is INCOMPLETE.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,

    /// Replay the committed test vectors (built into this binary; see
    /// docs/vectors.md) instead of the protocol checks: the `generic`
    /// vectors, which hold for any 2026-07-28 server whatever its tools, and
    /// with --fixture also that fixture's. Each level is reported on its
    /// own line, and so is a statelessness probe run first (BASE-21, must).
    /// Exit codes: 0 every vector passed at the verdict's levels (see
    /// --level) and the probe passed, 1 a vector failed there or the probe
    /// failed, 3 the deadline cut some or the probe could not run, 2 the
    /// server could not be run. Not with --json or --schema.
    #[arg(long, conflicts_with_all = ["json", "schema"])]
    vectors: bool,

    /// With --vectors: also replay every vector of this fixture (textbook,
    /// stock, short-lines, legacy or catalog), for a server started with that
    /// fixture's configuration (vectors/configs/NAME.json; for the
    /// reference: `mcp-reference serve --config vectors/configs/NAME.json`).
    /// With --vectors --http: the HTTP fixture, http (the default) or
    /// http-auth (the authorization vectors, rows A1 to A8).
    #[arg(long, value_name = "NAME", requires = "vectors")]
    fixture: Option<String>,

    /// Check a Streamable HTTP server at this endpoint URL (for example
    /// http://127.0.0.1:8080/mcp) instead of launching a stdio command:
    /// the binding's rules that hold whatever its tools (docs/check.md,
    /// "HTTP"). With --vectors: replay the HTTP vectors
    /// (vectors/http.jsonl, or with --fixture http-auth
    /// vectors/http-auth.jsonl) against it instead, for a server started
    /// with that fixture's configuration. Not with --schema.
    #[arg(long, value_name = "URL", conflicts_with_all = ["schema"])]
    http: Option<String>,

    /// With --vectors: the level the verdict and exit code rest on: must
    /// (the default: what the specification requires), should, textbook
    /// (the book-orders fixtures' behaviour) or canonical (the reference's
    /// exact bytes); failures at every level up to it count.
    #[arg(long, value_name = "LEVEL", default_value = "must", requires = "vectors",
          value_parser = clap::builder::PossibleValuesParser::new(vectors::LEVELS))]
    level: String,

    /// With --vectors: run every single vector on a fresh process of its
    /// own instead of one shared process (as if the server were restarted
    /// before each; slow on a slow starter). A server that takes no context
    /// from earlier requests (BASE-21) gets the same verdicts either way.
    #[arg(long, requires = "vectors", conflicts_with = "http")]
    fresh_each: bool,

    /// With --http: check the server as an OAuth 2.1 protected resource
    /// instead (docs/check.md, "Authorization"). A loopback authorization
    /// server of check's own (its RFC 8414 metadata and JWK Set) is started
    /// at --issuer-addr first, and the values to configure the server with
    /// are printed on stderr; then the server at URL is waited for and
    /// judged with tokens check mints. With a command after `--`, check
    /// starts that command once its issuer is up (with MCP_CHECK_ISSUER,
    /// MCP_CHECK_JWKS_URI, MCP_CHECK_RESOURCE and MCP_CHECK_SCOPE in its
    /// environment) and stops it at the end. Not with --vectors.
    #[arg(long, requires = "http", conflicts_with = "vectors")]
    auth: bool,

    /// With --auth: where the loopback issuer listens; its issuer
    /// identifier is http://ADDR. A loopback address; port 0 picks a free
    /// one (useful only with a command after `--`, which reads
    /// MCP_CHECK_ISSUER).
    #[arg(long, value_name = "ADDR", default_value = check::auth::DEFAULT_ISSUER_ADDR, requires = "auth")]
    issuer_addr: String,

    /// With --auth: the scope the server requires of every request; the
    /// valid tokens carry it, the insufficient-scope probe does not.
    #[arg(long, value_name = "SCOPE", default_value = check::auth::DEFAULT_SCOPE, requires = "auth")]
    scope: String,

    /// With --auth: how long to wait, in milliseconds, for the server to
    /// accept connections at URL once the issuer is up (the command after
    /// `--` starting, or a server started by hand).
    #[arg(long, value_name = "N", default_value_t = 30_000, requires = "auth", value_parser = clap::value_parser!(u64).range(1..))]
    wait_ms: u64,

    /// Also call this tool, as a client would, and judge every rule its
    /// replies make observable (docs/check.md, "Calling named tools and
    /// prompts"): TOOL, or TOOL=ARGUMENTS_JSON with a JSON object of
    /// arguments. Repeatable. Only the named tools are ever called (a tool
    /// may have effects); with neither --call nor --get, check calls no
    /// tool of the server's. With the stdio checks or --http; not with
    /// --vectors or --auth.
    #[arg(long = "call", value_name = "TOOL[=ARGUMENTS_JSON]", conflicts_with_all = ["vectors", "auth"])]
    call: Vec<String>,

    /// As --call, for a prompt (prompts/get): PROMPT or
    /// PROMPT=ARGUMENTS_JSON. Repeatable.
    #[arg(long = "get", value_name = "PROMPT[=ARGUMENTS_JSON]", conflicts_with_all = ["vectors", "auth"])]
    get: Vec<String>,

    /// The server's command and its arguments, after `--`.
    #[arg(last = true, required_unless_present = "http", value_name = "CMD")]
    command: Vec<OsString>,
}

pub(crate) fn run(args: Args) -> ExitCode {
    let calls = match targets(&args) {
        Ok(calls) => calls,
        Err(e) => {
            eprintln!("mcp-reference check: {e}");
            return ExitCode::from(2);
        }
    };
    if let (true, Some(url)) = (args.vectors, args.http.clone()) {
        let options = vectors::http::HttpOptions {
            url,
            fixture: args.fixture.clone(),
            timeout: Duration::from_millis(args.timeout_ms),
            deadline: Duration::from_millis(args.deadline_ms),
            level: args.level.clone(),
        };
        return printed(vectors::http::run_http(&options).map(|r| (r.text(), r.exit_code())));
    }
    if args.vectors {
        return replay(args);
    }
    if args.auth {
        return auth(args);
    }
    if let Some(url) = args.http.clone() {
        if !args.command.is_empty() {
            eprintln!(
                "mcp-reference check: a server command after -- goes with --http only when --auth is given"
            );
            return ExitCode::from(2);
        }
        let options = check::http::HttpOptions {
            url,
            timeout: Duration::from_millis(args.timeout_ms),
            deadline: Duration::from_millis(args.deadline_ms),
            calls,
        };
        return match check::http::run_http(&options) {
            Ok(report) => print_report(&report, args.json),
            Err(e) => {
                eprintln!("mcp-reference check: {e}");
                ExitCode::from(2)
            }
        };
    }
    let options = Options {
        command: args.command,
        env: Vec::new(),
        timeout: Duration::from_millis(args.timeout_ms),
        reply_timeout: Duration::from_millis(args.reply_timeout_ms),
        deadline: Duration::from_millis(args.deadline_ms),
        schema: args.schema,
        calls,
    };
    match check::run(&options) {
        Ok(report) => print_report(&report, args.json),
        Err(e) => {
            eprintln!("mcp-reference check: {e}");
            ExitCode::from(2)
        }
    }
}

/// The targets of `--call` and `--get`, tools first, each in the order
/// given.
fn targets(args: &Args) -> Result<Vec<check::call::Target>, String> {
    let tools = args
        .call
        .iter()
        .map(|t| check::call::Target::parse(check::call::Kind::Tool, t));
    let prompts = args
        .get
        .iter()
        .map(|p| check::call::Target::parse(check::call::Kind::Prompt, p));
    tools.chain(prompts).collect()
}

/// Prints a report as a table (or JSON) and returns its verdict's code.
fn print_report(report: &check::Report, json: bool) -> ExitCode {
    if json {
        match serde_json::to_string_pretty(&report.json()) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("mcp-reference check: cannot render the report: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        print!("{}", report.table());
    }
    ExitCode::from(report.verdict().exit_code())
}

/// `check --vectors [--fixture NAME]`: the committed vectors replayed.
fn replay(args: Args) -> ExitCode {
    let options = vectors::Options {
        command: args.command,
        fixture: args.fixture,
        timeout: Duration::from_millis(args.timeout_ms),
        reply_timeout: Duration::from_millis(args.reply_timeout_ms),
        deadline: Duration::from_millis(args.deadline_ms),
        level: args.level,
        fresh_each: args.fresh_each,
    };
    printed(vectors::run(&options).map(|r| (r.text(), r.exit_code())))
}

/// Prints a replay's report and returns its exit code, or says in one
/// sentence why it could not run (exit code 2).
fn printed(outcome: Result<(String, u8), String>) -> ExitCode {
    match outcome {
        Ok((text, code)) => {
            print!("{text}");
            ExitCode::from(code)
        }
        Err(e) => {
            eprintln!("mcp-reference check: {e}");
            ExitCode::from(2)
        }
    }
}

/// `check --http URL --auth [-- CMD]`: the issuer first, then the server
/// (started here when a command is given), then the checks.
fn auth(args: Args) -> ExitCode {
    let Some(url) = args.http.clone() else {
        eprintln!("mcp-reference check: --auth needs --http URL");
        return ExitCode::from(2);
    };
    let options = check::auth::AuthOptions {
        url: url.clone(),
        issuer_addr: args.issuer_addr.clone(),
        scope: args.scope.clone(),
        timeout: Duration::from_millis(args.timeout_ms),
        deadline: Duration::from_millis(args.deadline_ms),
    };
    let started = match check::auth::AuthCheck::start(&options) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("mcp-reference check: {e}");
            return ExitCode::from(2);
        }
    };
    eprint!("{}", started.setup().text());
    let mut child = None;
    if let Some((program, rest)) = args.command.split_first() {
        let mut command = std::process::Command::new(program);
        command
            .args(rest)
            .envs(started.setup().env())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null());
        match command.spawn() {
            Ok(c) => child = Some(Server(c)),
            Err(e) => {
                eprintln!(
                    "mcp-reference check: cannot start {}: {e}",
                    program.to_string_lossy()
                );
                return ExitCode::from(2);
            }
        }
    }
    let authority = match mcp_reference_tools::http_client::Url::parse(&url) {
        Ok(u) => u.authority,
        Err(e) => {
            eprintln!("mcp-reference check: {e}");
            return ExitCode::from(2);
        }
    };
    let until = std::time::Instant::now() + Duration::from_millis(args.wait_ms);
    loop {
        if std::net::TcpStream::connect(&authority).is_ok() {
            break;
        }
        if let Some(Server(c)) = child.as_mut()
            && let Ok(Some(status)) = c.try_wait()
        {
            eprintln!(
                "mcp-reference check: the server command exited ({status}) before {url} answered"
            );
            return ExitCode::from(2);
        }
        if std::time::Instant::now() >= until {
            eprintln!(
                "mcp-reference check: nothing accepted connections at {url} within {} ms (raise --wait-ms)",
                args.wait_ms
            );
            return ExitCode::from(2);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let outcome = started.run();
    let started_one = child.is_some();
    drop(child);
    match outcome {
        Ok(mut report) => {
            report.processes = usize::from(started_one);
            print_report(&report, args.json)
        }
        Err(e) => {
            eprintln!("mcp-reference check: {e}");
            ExitCode::from(2)
        }
    }
}

/// A server process `check --auth` started: stopped when dropped.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
