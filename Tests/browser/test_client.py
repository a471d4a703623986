"""The shared client module, exercised inside Chromium: JSON Patch (RFC 6902, with RFC 6901 escapes), the clock
formatting and offset rules, and the backoff. Runs first: a broken client breaks every page."""

import json

from harness import console_errors

RUN = """
const done = arguments[arguments.length - 1];
import(arguments[0] + "/js/courtside.js").then((c) => {
  const results = {};
  const attempt = (name, f) => { try { results[name] = f(); } catch (e) { results[name] = "threw " + e.name + ": " + e.message; } };
  const doc = {"a/b": 1, "m~n": 2, list: [1, 2, 3], nested: {x: {y: 1}}};
  attempt("escapes", () => c.applyPatch(doc, [{op: "replace", path: "/a~1b", value: 10}, {op: "remove", path: "/m~0n"}]));
  attempt("array", () => c.applyPatch(doc, [{op: "add", path: "/list/1", value: 9}, {op: "add", path: "/list/-", value: 4}, {op: "remove", path: "/list/0"}]));
  attempt("move_copy", () => c.applyPatch(doc, [{op: "copy", from: "/nested/x", path: "/copied"}, {op: "move", from: "/nested/x/y", path: "/moved"}]));
  attempt("test_ok", () => c.applyPatch(doc, [{op: "test", path: "/nested", value: {x: {y: 1}}}, {op: "replace", path: "", value: {whole: true}}]));
  attempt("test_fails", () => c.applyPatch(doc, [{op: "replace", path: "/list/0", value: 7}, {op: "test", path: "/list/0", value: 1}]));
  attempt("missing_path", () => c.applyPatch(doc, [{op: "replace", path: "/nope", value: 1}]));
  attempt("leading_zero", () => c.applyPatch(doc, [{op: "remove", path: "/list/01"}]));
  attempt("into_itself", () => c.applyPatch(doc, [{op: "move", from: "/nested", path: "/nested/x/z"}]));
  results.untouched = doc;
  results.pointer = c.parsePointer("/~01/~10/");
  results.clock = [c.formatClock(0), c.formatClock(13250), c.formatClock(599999), c.formatClock(3723400)];
  results.reading = [
    c.clockReading({running: false, elapsedMs: 13250, asOf: 1000}, 600000, 99999),
    c.clockReading({running: true, elapsedMs: 1000, asOf: 5000}, 600000, 7500),
    c.clockReading({running: true, elapsedMs: 599000, asOf: 0}, 600000, 5000),
  ];
  const sc = new c.ServerClock();
  sc.sample(10000, 9000); sc.sample(10000, 9400); sc.sample(20000, 19100);
  results.offset = sc.offset;
  results.backoff = [0, 1, 2, 3, 10, 30].map((n) => c.backoffDelay(n, 5000, () => 1));
  results.backoffLow = c.backoffDelay(3, 5000, () => 0);
  results.cid = /^[A-Za-z0-9._:-]{1,64}$/.test(c.makeCommandID()) && c.makeCommandID() !== c.makeCommandID();
  results.words = c.errorInWords({code: "nothing_to_undo", message: "x"});
  done(JSON.stringify(results));
}).catch((e) => done(JSON.stringify({importFailed: String(e)})));
"""


def test_client_module_patch_clock_backoff(server, browsers):
    driver = browsers["spectator"]
    driver.get(server.base + "/")
    r = json.loads(driver.execute_async_script(RUN, server.base))
    assert "importFailed" not in r, r
    assert r["escapes"] == {"a/b": 10, "list": [1, 2, 3], "nested": {"x": {"y": 1}}}
    assert r["array"]["list"] == [9, 2, 3, 4]
    assert r["move_copy"]["copied"] == {"y": 1} and r["move_copy"]["moved"] == 1 and r["move_copy"]["nested"] == {"x": {}}
    assert r["test_ok"] == {"whole": True}
    for failing in ("test_fails", "missing_path", "leading_zero", "into_itself"):
        assert str(r[failing]).startswith("threw PatchError"), (failing, r[failing])
    assert r["untouched"] == {"a/b": 1, "m~n": 2, "list": [1, 2, 3], "nested": {"x": {"y": 1}}}, "applyPatch changed its input"
    assert r["pointer"] == ["~1", "/0", ""]
    assert r["clock"] == ["00:00.0", "00:13.2", "09:59.9", "62:03.4"]
    assert r["reading"] == [13250, 3500, 600000]
    assert r["offset"] == 1000  # the least-delayed sample wins
    assert r["backoff"] == [300, 600, 1200, 2400, 5000, 5000]
    assert r["backoffLow"] == 1200  # jitter: between half and all of the ceiling
    assert r["cid"] is True
    assert "no move left to undo" in r["words"]
    assert console_errors(driver) == []
