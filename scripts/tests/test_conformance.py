"""The conformance harness's judgement (scripts/conformance.py), on result
files written here: a scenario passes only when it ran and no check of it is
FAILURE or WARNING; a required scenario that did not run fails; SKIPPED is
listed, never counted as passed; extension scenarios never decide.

Run: python3 -m unittest discover -s scripts/tests
"""

import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import conformance  # noqa: E402

SETS = {"required": ["alpha", "beta"], "pending": ["gamma"], "extension": ["tasks-x"]}


def write(root: Path, scenario: str, statuses: list[str]) -> None:
    d = root / f"server-{scenario}-2026-12-06T03-16-34-091Z"
    d.mkdir()
    checks = [{"id": f"{scenario}-{i}", "status": s, "description": "d"} for i, s in enumerate(statuses)]
    (d / "checks.json").write_text(json.dumps(checks))


def verdict(files: dict[str, list[str]]) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory() as t:
        root = Path(t)
        for name, statuses in files.items():
            write(root, name, statuses)
        results = conformance.read_results(root)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            ok = conformance.judge("t", results, SETS, SETS["required"] + SETS["pending"] + SETS["extension"])
        return ok, out.getvalue()


class Judge(unittest.TestCase):
    def test_all_successes_pass(self):
        ok, out = verdict({"alpha": ["SUCCESS"], "beta": ["SUCCESS", "INFO"], "gamma": ["SUCCESS"]})
        self.assertTrue(ok)
        self.assertIn("required: 2 of 2", out)

    def test_a_failure_fails(self):
        ok, _ = verdict({"alpha": ["SUCCESS", "FAILURE"], "beta": ["SUCCESS"], "gamma": ["SUCCESS"]})
        self.assertFalse(ok)

    def test_a_warning_fails(self):
        ok, out = verdict({"alpha": ["SUCCESS"], "beta": ["WARNING"], "gamma": ["SUCCESS"]})
        self.assertFalse(ok)
        self.assertIn("WARNING beta-0", out)

    def test_a_failing_pending_scenario_fails(self):
        ok, _ = verdict({"alpha": ["SUCCESS"], "beta": ["SUCCESS"], "gamma": ["FAILURE"]})
        self.assertFalse(ok)

    def test_a_required_scenario_that_did_not_run_fails(self):
        ok, out = verdict({"alpha": ["SUCCESS"], "gamma": ["SUCCESS"]})
        self.assertFalse(ok)
        self.assertIn("did not run", out)

    def test_skipped_is_listed_not_counted_as_a_failure(self):
        ok, out = verdict({"alpha": ["SUCCESS", "SKIPPED"], "beta": ["SUCCESS"], "gamma": ["SUCCESS"]})
        self.assertTrue(ok)
        self.assertIn("skipped by the suite alpha-1", out)

    def test_extension_failures_are_reported_not_required(self):
        ok, out = verdict({"alpha": ["SUCCESS"], "beta": ["SUCCESS"], "gamma": ["SUCCESS"], "tasks-x": ["FAILURE"]})
        self.assertTrue(ok)
        self.assertIn("extension (not required): 0 of 1", out)

    def test_an_unreadable_result_file_fails(self):
        with tempfile.TemporaryDirectory() as t:
            root = Path(t)
            write(root, "alpha", ["SUCCESS"])
            write(root, "gamma", ["SUCCESS"])
            d = root / "server-beta-2026-12-06T03-16-34-091Z"
            d.mkdir()
            (d / "checks.json").write_text("{not json")
            results = conformance.read_results(root)
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertFalse(conformance.judge("t", results, SETS, SETS["required"] + SETS["pending"]))


if __name__ == "__main__":
    unittest.main()
