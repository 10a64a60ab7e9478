//! End-to-end figures of the release binary over stdio: throughput and peak
//! memory on pipelined input, memory growth with the number of requests,
//! and startup (process start to the first reply).
//!
//! Run: `cargo bench --bench stdio` (builds the binary first). The
//! figures are printed as Markdown tables for docs/performance.md. They are
//! benchmarks, not tests: nothing here fails on a slow machine; it fails
//! only when the binary answers wrongly (a reply missing or unexpected).
//!
//! - **Throughput.** A file of 1,000,000 `tools/call` requests and a file
//!   of 200,000 mixed requests (the twelve classes of `benches/common`, in
//!   turn, each with its own id) are generated under the target dir. Each
//!   is written into the binary's stdin through a pipe, as fast as the pipe
//!   takes it, while a reader drains its stdout through another pipe and
//!   counts the reply lines. The floor is `cat` in the binary's place,
//!   moving the same bytes through the same two pipes. The machine is
//!   shared, so `cat` and the binary are measured side by side: seven
//!   rounds, each running both (the order turning from round to round);
//!   the figure is the median over the rounds of the binary's time over
//!   `cat`'s, with the median time of each. Two rates are given: requests
//!   per wall-clock second, and requests per second of the binary's own
//!   CPU time (user + system, from GNU time), which is what one core
//!   sustains even when other work shares the machine. The files stay
//!   under `target/tmp/stdio/`, and the bench prints the shell loop that
//!   measures the same by hand. With `STDIO_BENCH_BASELINE=<path to an
//!   earlier build>`, that binary runs in the same rounds too (before and
//!   after, under the same load).
//! - **Peak memory.** The binary runs under GNU time (`/usr/bin/time -f
//!   "%M %U %S"`), which reports the child's peak resident set size and CPU
//!   time as the kernel counted them. Without GNU time the figure is read from `VmHWM` in
//!   `/proc/PID/status`, polled while the binary runs.
//! - **Flat memory.** The same measurement for 10,000, 100,000 and
//!   1,000,000 `tools/call` requests (streamed, not stored).
//! - **Startup.** The time from spawning the binary to reading the first
//!   reply line to one `server/discover` (stdin still open), over many
//!   runs; the median is reported.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-reference");
const GNU_TIME: &str = "/usr/bin/time";
const REQUESTS: usize = 200_000;
/// `tools/call` requests in the throughput file compared with `cat`.
const CALLS: usize = 1_000_000;
/// Alternating rounds of `cat` and the binary per input.
const ROUNDS: usize = 7;
const STARTUP_RUNS: usize = 200;

/// A class's line with its id (the first member) replaced by `id`.
fn with_id(line: &[u8], id: &str) -> Vec<u8> {
    const PREFIX: &[u8] = br#"{"jsonrpc":"2.0","id":"#;
    let rest = line
        .strip_prefix(PREFIX)
        .expect("every class's line starts with jsonrpc and id");
    let comma = memchr::memchr(b',', rest).expect("a member after the id");
    [PREFIX, id.as_bytes(), &rest[comma..]].concat()
}

/// `n` requests: the classes in turn (or only `only`), ids 1, 2, 3, ...
/// (the large-id class keeps ids beyond 64 bits).
fn requests(n: usize, only: Option<&str>) -> Vec<u8> {
    let classes: Vec<_> = common::classes()
        .into_iter()
        .filter(|c| only.is_none_or(|o| o == c.name))
        .collect();
    let mut out = Vec::new();
    for i in 0..n {
        let class = &classes[i % classes.len()];
        let id = if class.name == "large_id" {
            format!("9{:029}", i + 1)
        } else {
            (i + 1).to_string()
        };
        out.extend_from_slice(&with_id(&class.line, &id));
        out.push(b'\n');
    }
    out
}

struct Run {
    elapsed: Duration,
    replies: usize,
    out_bytes: usize,
    peak_kib: Option<u64>,
    /// User plus system CPU time of the child, from GNU time.
    cpu: Option<Duration>,
}

/// Spawns `program`, writes `input` (repeated `times` times) into its stdin
/// from one thread, and drains its stdout in another.
fn pipe_through(mut command: Command, input: &[u8], times: usize, measure_rss: bool) -> Run {
    let rss_file = std::env::temp_dir().join(format!("mcp-stdio-rss-{}", std::process::id()));
    let use_time = measure_rss && Path::new(GNU_TIME).exists();
    if use_time {
        let program = command.get_program().to_owned();
        let args: Vec<_> = command.get_args().map(|a| a.to_owned()).collect();
        command = Command::new(GNU_TIME);
        command
            .args(["-f", "%M %U %S", "-o"])
            .arg(&rss_file)
            .arg(program)
            .args(args);
    }
    let start = Instant::now();
    let mut child: Child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {:?}: {e}", command.get_program()));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let pid = child.id();
    let (replies, out_bytes, peak_polled) = std::thread::scope(|s| {
        s.spawn(move || {
            for _ in 0..times {
                stdin.write_all(input).expect("write to the child");
            }
            // Dropping stdin closes it: end-of-file for the child.
        });
        let poller = (measure_rss && !use_time).then(|| s.spawn(move || poll_vmhwm(pid)));
        let mut buf = vec![0u8; 256 * 1024];
        let (mut lines, mut bytes) = (0usize, 0usize);
        loop {
            let n = stdout.read(&mut buf).expect("read from the child");
            if n == 0 {
                break;
            }
            bytes += n;
            lines += memchr::memchr_iter(b'\n', &buf[..n]).count();
        }
        let polled = poller.and_then(|p| p.join().ok()).flatten();
        (lines, bytes, polled)
    });
    let status = child.wait().expect("wait for the child");
    let elapsed = start.elapsed();
    assert!(
        status.success(),
        "{:?} exited with {status}",
        command.get_program()
    );
    let (peak_kib, cpu) = if use_time {
        let text = std::fs::read_to_string(&rss_file).expect("GNU time's output");
        let _ = std::fs::remove_file(&rss_file);
        let fields: Vec<&str> = text
            .lines()
            .last()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        let seconds = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
        let cpu = seconds(1)
            .zip(seconds(2))
            .map(|(u, s)| Duration::from_secs_f64(u + s));
        (fields.first().and_then(|f| f.parse().ok()), cpu)
    } else {
        (peak_polled, None)
    };
    Run {
        elapsed,
        replies,
        out_bytes,
        peak_kib,
        cpu,
    }
}

/// `VmHWM` (peak resident set, KiB) of `pid`, polled until it exits; the
/// last value read.
fn poll_vmhwm(pid: u32) -> Option<u64> {
    let path = format!("/proc/{pid}/status");
    let mut last = None;
    while let Ok(status) = std::fs::read_to_string(&path) {
        if status.contains("State:\tZ") {
            break;
        }
        last = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .or(last);
        std::thread::sleep(Duration::from_millis(1));
    }
    last
}

fn server_command() -> Command {
    let mut c = Command::new(BIN);
    c.args(["--log-level", "off"]);
    c
}

/// Requests per second of the child's own CPU time (user + system): what
/// one core sustains, whatever else the machine was doing.
fn per_cpu_second(requests: usize, cpu: Option<Duration>) -> String {
    match cpu {
        // GNU time reports hundredths of a second.
        Some(cpu) if cpu >= Duration::from_millis(10) => {
            format!("{:.0}", requests as f64 / cpu.as_secs_f64())
        }
        Some(_) => "(under 10 ms)".into(),
        None => "n/a".into(),
    }
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or("n/a".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
}

/// One round of `throughput`: the programs run one after another, each on
/// the whole input.
struct Round {
    cat: Run,
    server: Run,
    baseline: Option<Run>,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The binary against `cat` on the same bytes, in alternating rounds: each
/// round runs `cat` and the binary (and the baseline binary, if one is
/// given) one after the other, the order turning from round to round, so
/// both see the same load. What is reported is the median of the rounds'
/// ratios, and the median of each program's times.
fn throughput(
    name: &str,
    path: &Path,
    input: &[u8],
    expected_replies: usize,
    baseline: Option<&str>,
) {
    std::fs::write(path, input).expect("write the request file");
    let lines = input.iter().filter(|&&b| b == b'\n').count();
    let server_run = || pipe_through(server_command(), input, 1, true);
    let baseline_run = |bin: &str| {
        let mut c = Command::new(bin);
        c.args(["--log-level", "off"]);
        pipe_through(c, input, 1, true)
    };
    let cat_run = || pipe_through(Command::new("cat"), input, 1, false);
    let programs = if baseline.is_some() { 3 } else { 2 };
    let rounds: Vec<Round> = (0..ROUNDS)
        .map(|i| {
            // The order turns from round to round.
            let mut runs: [Option<Run>; 3] = [None, None, None];
            for k in 0..programs {
                let which = (i + k) % programs;
                runs[which] = match (which, baseline) {
                    (0, _) => Some(cat_run()),
                    (1, _) => Some(server_run()),
                    (_, Some(bin)) => Some(baseline_run(bin)),
                    (_, None) => None,
                };
            }
            let [cat, server, baseline] = runs;
            Round {
                cat: cat.expect("cat ran"),
                server: server.expect("the server ran"),
                baseline,
            }
        })
        .collect();
    for r in &rounds {
        assert_eq!(
            r.server.replies, expected_replies,
            "{name}: every request gets exactly one reply"
        );
        assert_eq!(r.cat.out_bytes, input.len(), "cat moves every byte");
    }
    let secs = |f: &dyn Fn(&Round) -> Option<Duration>| {
        median(
            rounds
                .iter()
                .filter_map(f)
                .map(|d| d.as_secs_f64())
                .collect(),
        )
    };
    let ratio = |f: &dyn Fn(&Round) -> Option<&Run>| {
        median(
            rounds
                .iter()
                .filter_map(|r| Some(f(r)?.elapsed.as_secs_f64() / r.cat.elapsed.as_secs_f64()))
                .collect(),
        )
    };
    let (cat, server) = (
        secs(&|r| Some(r.cat.elapsed)),
        secs(&|r| Some(r.server.elapsed)),
    );
    // The median of the rounds' CPU times, as requests per CPU-second.
    let cpu_rate = |f: &dyn Fn(&Round) -> Option<&Run>| {
        let cpu: Vec<f64> = rounds
            .iter()
            .filter_map(|r| f(r)?.cpu)
            .map(|d| d.as_secs_f64())
            .collect();
        if cpu.is_empty() {
            "n/a".to_string()
        } else {
            per_cpu_second(lines, Some(Duration::from_secs_f64(median(cpu))))
        }
    };
    let peak = rounds.iter().filter_map(|r| r.server.peak_kib).max();
    println!(
        "| {name} ({}) | {lines} | {:.1} MiB | {:.3} s | {:.3} s | {:.2} | {:.0} | {} | {:.0} | {} |",
        path.file_name().and_then(|f| f.to_str()).unwrap_or("?"),
        input.len() as f64 / (1024.0 * 1024.0),
        cat,
        server,
        ratio(&|r| Some(&r.server)),
        lines as f64 / server,
        cpu_rate(&|r| Some(&r.server)),
        lines as f64 / cat,
        mib(peak),
    );
    if baseline.is_some() {
        println!(
            "| baseline, same rounds | | | | {:.3} s | {:.2} | {:.0} | {} | | {} |",
            secs(&|r| r.baseline.as_ref().map(|b| b.elapsed)),
            ratio(&|r| r.baseline.as_ref()),
            lines as f64 / secs(&|r| r.baseline.as_ref().map(|b| b.elapsed)),
            cpu_rate(&|r| r.baseline.as_ref()),
            mib(rounds
                .iter()
                .filter_map(|r| r.baseline.as_ref()?.peak_kib)
                .max()),
        );
    }
}

fn startup() {
    let discover = common::classes()
        .into_iter()
        .find(|c| c.name == "discover")
        .expect("discover class");
    let mut line = discover.line.clone();
    line.push(b'\n');
    let mut times = Vec::with_capacity(STARTUP_RUNS);
    for _ in 0..STARTUP_RUNS {
        let start = Instant::now();
        let mut child = server_command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the server");
        let mut stdin = child.stdin.take().expect("stdin");
        let mut stdout = child.stdout.take().expect("stdout");
        stdin.write_all(&line).expect("write the request");
        let mut reply = Vec::new();
        let mut byte = [0u8; 4096];
        while !reply.contains(&b'\n') {
            let n = stdout.read(&mut byte).expect("read the reply");
            assert!(n > 0, "the server closed stdout before replying");
            reply.extend_from_slice(&byte[..n]);
        }
        times.push(start.elapsed());
        drop(stdin);
        assert!(child.wait().expect("wait").success());
        assert!(
            reply.starts_with(br#"{"jsonrpc":"2.0","id":1,"result":"#),
            "not the discover result"
        );
    }
    times.sort();
    let pct = |p: usize| times[(times.len() - 1) * p / 100].as_secs_f64() * 1000.0;
    println!("| runs | min | median | p90 | max |\n| ---: | ---: | ---: | ---: | ---: |");
    println!(
        "| {STARTUP_RUNS} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms |",
        pct(0),
        pct(50),
        pct(90),
        pct(100)
    );
}

fn main() {
    // The bench harness flags (`--bench`) are ignored.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stdio");
    std::fs::create_dir_all(&dir).expect("create the bench dir");
    let server = common::server();
    for class in common::classes() {
        class.check(&server).unwrap_or_else(|e| panic!("{e}"));
    }

    // A previous build to measure in the same rounds, for before/after.
    let baseline = std::env::var("STDIO_BENCH_BASELINE").ok();
    let call = dir.join("call-1m.jsonl");
    println!(
        "## Throughput: the binary against cat on the same bytes, {ROUNDS} alternating rounds\n"
    );
    println!(
        "| input | requests | size | cat (median) | server (median) | server / cat (median of rounds) | server req/s (wall) | server req per CPU-second | cat req/s (wall) | server peak RSS |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    throughput(
        "tools/call",
        &call,
        &requests(CALLS, Some("call_success")),
        CALLS,
        baseline.as_deref(),
    );
    throughput(
        "mixed",
        &dir.join("mixed-200k.jsonl"),
        &requests(REQUESTS, None),
        REQUESTS,
        baseline.as_deref(),
    );
    let bin = Path::new(BIN)
        .strip_prefix(std::env::current_dir().unwrap_or_default())
        .unwrap_or(Path::new(BIN))
        .display()
        .to_string();
    let file = call
        .strip_prefix(std::env::current_dir().unwrap_or_default())
        .unwrap_or(&call)
        .display()
        .to_string();
    println!(
        "\nThe same by hand, alternating (the file stays for it):\n\n```sh\n\
         for i in 1 2 3 4 5; do\n  \
         /usr/bin/time -f \"cat    %e s\" sh -c 'cat {file} | cat | wc -l'\n  \
         /usr/bin/time -f \"server %e s\" sh -c 'cat {file} | {bin} --log-level off | wc -l'\n\
         done\n```"
    );

    println!("\n## Peak memory against the number of tools/call requests\n");
    println!(
        "| requests | elapsed | req/s (wall) | req per CPU-second | peak RSS |\n\
         | ---: | ---: | ---: | ---: | ---: |"
    );
    let block = requests(10_000, Some("call_success"));
    let mut peaks = Vec::new();
    for times in [1, 10, 100] {
        let run = pipe_through(server_command(), &block, times, true);
        assert_eq!(run.replies, 10_000 * times);
        println!(
            "| {} | {:.2} s | {:.0} | {} | {} |",
            10_000 * times,
            run.elapsed.as_secs_f64(),
            (10_000 * times) as f64 / run.elapsed.as_secs_f64(),
            per_cpu_second(10_000 * times, run.cpu),
            mib(run.peak_kib)
        );
        peaks.extend(run.peak_kib);
    }
    if let (Some(lo), Some(hi)) = (peaks.iter().min(), peaks.iter().max()) {
        println!(
            "\nspread of peak RSS from 10,000 to 1,000,000 requests: {} KiB",
            hi - lo
        );
    }

    println!("\n## Startup: spawn to first reply of one server/discover\n");
    startup();
}
