#!/usr/bin/env python3
"""Explains the cases of an Autobahn report that did not pass: for each case whose behaviour is in BEHAVIOURS
(default FAILED), its id, behaviour, description, expectation, result and close codes, read from the per-case
JSON files next to index.json.

    autobahn_cases.py RESULTS/reports/index.json [BEHAVIOUR ...]     e.g. FAILED NON-STRICT INFORMATIONAL
"""

import json
import os
import sys


def case_key(case_id):
    return [int(part) for part in case_id.split(".")]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    index_path = sys.argv[1]
    wanted = set(sys.argv[2:]) or {"FAILED"}
    index = json.load(open(index_path))
    folder = os.path.dirname(index_path)
    for agent, cases in index.items():
        for case_id in sorted(cases, key=case_key):
            summary = cases[case_id]
            if summary["behavior"] not in wanted and summary.get("behaviorClose") not in wanted:
                continue
            detail = json.load(open(os.path.join(folder, summary["reportfile"])))
            print(f'{case_id} [{summary["behavior"]}, close {summary.get("behaviorClose")}] {agent}')
            print(f'  case:        {detail.get("description")}')
            print(f'  expectation: {detail.get("expectation")}')
            print(f'  result:      {detail.get("result")}')
            if detail.get("resultClose") and detail.get("resultClose") != detail.get("result"):
                print(f'  close:       {detail.get("resultClose")}')
            print(f'  close codes: ours {detail.get("localCloseCode")}, server {detail.get("remoteCloseCode")}'
                  f' ({detail.get("remoteCloseReason")!r}), clean={detail.get("wasClean")}')
    return 0


if __name__ == "__main__":
    sys.exit(main())
