"""The side-by-side comparison of the conformance suite's client scenarios
and `mcp-reference judge` (scripts/suite_side_by_side.py; issue 48, the
client rules of docs/judge.md), on synthetic runs: no network, no suite, no
binary. A run equal to the committed file passes; a changed suite status, a
changed judge status, a changed client exit, a missing scenario, an
undecided disagreement and a stale decision each fail; checks are matched
to rules as COVER says.

Run: python3 -m unittest discover -s scripts/tests
"""

import copy
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import suite_side_by_side as sbs  # noqa: E402

RULES = {"meta.client-info": "pass", "http.version-header": "pass", "version.retry-supported": "not-run",
         "http.accept": "pass", "cancel.known-request": "not-run"}


def observed() -> dict:
    """A run of every scenario: request-metadata with one agreeing check,
    one that differs (SUCCESS against not-run) and one judge-only rule
    (http.accept); every other scenario one suite-only check."""
    run = {}
    for s in sbs.SCENARIOS:
        checks = {"made-up-check#Made": "SUCCESS"}
        rules = {"cancel.known-request": "not-run"}
        if s == "request-metadata":
            checks = {"sep-2575-client-sends-client-info#ClientSendsClientInfo": "SUCCESS",
                      "sep-2575-client-retry-supported-version#ClientRetrySupportedVersion": "SUCCESS"}
            rules = dict(RULES)
        run[s] = sbs.observed_entry({"checks": checks, "client_exit": 0},
                                    {"checks": None, "rules": rules, "verdict": "PASS", "client_exit": 0})
    return run


def committed(run: dict) -> dict:
    comparison = {s: sbs.compare_scenario(s, o["suite"]["checks"], o["judge"]["rules"]) for s, o in run.items()}
    decisions = {k: {"spec": "basic/index.mdx#meta", "decision": "decided"} for k in sbs.disagreement_keys(comparison)}
    return {"scenarios": copy.deepcopy(run), "decisions": decisions}


class Differences(unittest.TestCase):
    def test_a_run_equal_to_the_committed_file_passes(self):
        run = observed()
        self.assertEqual(sbs.differences(run, committed(run)), [])

    def test_a_changed_suite_status_fails(self):
        run = observed()
        expected = committed(run)
        run["request-metadata"]["suite"]["checks"]["sep-2575-client-sends-client-info#ClientSendsClientInfo"] = "WARNING"
        problems = sbs.differences(run, expected)
        self.assertTrue(any("suite sep-2575-client-sends-client-info" in p and "is WARNING, committed SUCCESS" in p
                            for p in problems), problems)

    def test_a_changed_judge_status_fails(self):
        run = observed()
        expected = committed(run)
        run["request-metadata"]["judge"]["rules"]["http.accept"] = "fail"
        problems = sbs.differences(run, expected)
        self.assertIn("request-metadata: judge http.accept is fail, committed pass", problems)

    def test_a_check_that_appears_or_vanishes_fails(self):
        run = observed()
        expected = committed(run)
        del run["tools_call"]["suite"]["checks"]["made-up-check#Made"]
        run["tools_call"]["suite"]["checks"]["other#Other"] = "SUCCESS"
        problems = sbs.differences(run, expected)
        self.assertIn("tools_call: suite made-up-check#Made is absent, committed SUCCESS", problems)
        self.assertIn("tools_call: suite other#Other is SUCCESS, committed absent", problems)

    def test_a_changed_client_exit_or_verdict_fails(self):
        run = observed()
        expected = committed(run)
        run["http-custom-headers"]["suite"]["client_exit"] = 1
        run["http-custom-headers"]["judge"]["verdict"] = "FAIL"
        problems = sbs.differences(run, expected)
        self.assertIn("http-custom-headers: the client's exit status before the suite is 1, committed 0", problems)
        self.assertIn("http-custom-headers: judge verdict FAIL, committed PASS", problems)

    def test_a_missing_scenario_fails(self):
        run = observed()
        expected = committed(run)
        del run["sep-2322-client-request-state"]
        self.assertIn("sep-2322-client-request-state: did not run", sbs.differences(run, expected))
        run = observed()
        del expected["scenarios"]["http-standard-headers"]
        self.assertIn("http-standard-headers: not in the committed file", sbs.differences(run, expected))

    def test_a_disagreement_without_a_decision_fails(self):
        run = observed()
        expected = committed(run)
        key = "request-metadata sep-2575-client-retry-supported-version#ClientRetrySupportedVersion"
        self.assertIn(key, expected["decisions"])
        expected["decisions"][key]["spec"] = ""
        problems = sbs.differences(run, expected)
        self.assertIn(f"disagreement without a decision (spec and decision) in the committed file: {key}", problems)

    def test_a_decision_for_a_disagreement_gone_fails(self):
        run = observed()
        expected = committed(run)
        # The judge now exercises the rule and it passes: agreement, so the
        # decision about the disagreement is stale (and the status changed).
        run["request-metadata"]["judge"]["rules"]["version.retry-supported"] = "pass"
        problems = sbs.differences(run, expected)
        self.assertIn("decision for a disagreement that no longer happens: request-metadata "
                      "sep-2575-client-retry-supported-version#ClientRetrySupportedVersion", problems)


class Comparison(unittest.TestCase):
    def test_checks_are_set_beside_their_rules(self):
        comp = sbs.compare_scenario("request-metadata", observed()["request-metadata"]["suite"]["checks"], RULES)
        rows = {r["check"]: r for r in comp["rows"]}
        info = rows["sep-2575-client-sends-client-info#ClientSendsClientInfo"]
        self.assertEqual((info["rules"], info["judge"], info["agreement"]), (["meta.client-info"], "pass", "agree"))
        retry = rows["sep-2575-client-retry-supported-version#ClientRetrySupportedVersion"]
        self.assertEqual((retry["judge"], retry["agreement"]), ("not-run", "differs"))
        # http.version-header and http.accept were exercised; no check here covers them.
        self.assertEqual(comp["judge_only"], ["http.accept", "http.version-header"])

    def test_statuses_agree_only_in_kind(self):
        for suite, judge, agree in [("SUCCESS", "pass", True), ("FAILURE", "fail", True), ("WARNING", "fail", True),
                                    ("SKIPPED", "not-run", True), ("SUCCESS", "fail", False),
                                    ("WARNING", "pass", False), ("SKIPPED", "pass", False)]:
            comp = sbs.compare_scenario("request-metadata",
                                        {"sep-2575-client-sends-client-info#X": suite}, {"meta.client-info": judge})
            self.assertEqual(comp["rows"][0]["agreement"] == "agree", agree, (suite, judge))

    def test_a_check_of_several_rules_fails_when_one_fails(self):
        comp = sbs.compare_scenario("request-metadata", {"sep-2575-client-populates-meta#P": "SUCCESS"},
                                    {"meta.protocol-version": "pass", "meta.client-capabilities": "fail"})
        self.assertEqual((comp["rows"][0]["judge"], comp["rows"][0]["agreement"]), ("fail", "differs"))

    def test_a_check_no_rule_covers_is_suite_only(self):
        comp = sbs.compare_scenario("tools_call", {"tool-add-numbers#ToolAddNumbers": "SUCCESS"}, {})
        self.assertEqual(comp["rows"][0]["agreement"], "suite-only")
        self.assertEqual(sbs.disagreement_keys({"tools_call": comp}), ["tools_call tool-add-numbers#ToolAddNumbers"])

    def test_the_name_prefix_chooses_the_rule(self):
        s = "http-standard-headers"
        self.assertEqual(sbs.rules_for(s, "sep-2243-client-includes-standard-headers#ClientMcpNameHeader_tools_call"),
                         ["http.name-header"])
        self.assertEqual(sbs.rules_for(s, "sep-2243-client-includes-standard-headers#ClientMcpMethodHeader_tools_call"),
                         ["http.method-header"])
        self.assertIsNone(sbs.rules_for(s, "sep-2243-client-includes-standard-headers#Other"))

    def test_suite_checks_drop_info_and_number_repeats(self):
        raw = [{"id": "a", "name": "N", "status": "SUCCESS"}, {"id": "a", "name": "N", "status": "FAILURE"},
               {"id": "b", "name": "M", "status": "INFO"}]
        self.assertEqual(sbs.suite_checks(raw), {"a#N": "SUCCESS", "a#N#2": "FAILURE"})


if __name__ == "__main__":
    unittest.main()
