"""The vector replayer behind scripts/replay_vectors.py (docs/vectors.md,
"Replay"; Python's standard library only), in modules that each own one
part, as tools/src/vectors/ splits the Rust replayer:

- vectors: the file format (versions 1 to 6) and which vectors a run reads;
- judge: the judgement of what came back, level by level ("Levels",
  "Format 6");
- process: a server process, its lines and the probes written to it;
- stdio: the replay of single vectors, sequences and chains, and the
  tries again;
- stateless: the statelessness probe (BASE-21);
- report: the report and the exit code;
- http_replay: the HTTP vectors (--http URL, "HTTP vectors").
"""
