"""RFC 6902 JSON Patch and RFC 6901 JSON Pointer, written here so the end-to-end tests check the server's patches
with an applier that shares no code with it.

All six operations are implemented (the server only sends add, remove and replace, but docs/protocol.md asks
clients to take any). `apply_patch` never changes its input: it works on a deep copy and, like RFC 6902 §5 asks,
either applies every operation or raises `PatchError` and leaves the caller's document as it was.
"""

import copy
import json


class PatchError(Exception):
    """An operation that cannot be applied (RFC 6902 §5: the whole patch is then an error)."""


def parse_pointer(pointer):
    """The reference tokens of a JSON Pointer (RFC 6901 §3, §4: `~1` is `/`, then `~0` is `~`)."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError(f"pointer {pointer!r} does not start with '/' (RFC 6901 §3)")
    tokens = []
    for raw in pointer[1:].split("/"):
        # Order matters (RFC 6901 §4): "~01" is "~1", not "/".
        tokens.append(raw.replace("~1", "/").replace("~0", "~"))
    return tokens


def _array_index(token, array, allow_end):
    """An array index token (RFC 6901 §4: no leading zeros; `-` is the position after the last element)."""
    if token == "-":
        if allow_end:
            return len(array)
        raise PatchError("'-' names no existing element")
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"{token!r} is not an array index")
    index = int(token)
    limit = len(array) if allow_end else len(array) - 1
    if index > limit:
        raise PatchError(f"index {index} is out of range (array of {len(array)})")
    return index


def _parent(document, tokens, pointer):
    """The container holding the last token's target."""
    node = document
    for token in tokens[:-1]:
        if isinstance(node, dict):
            if token not in node:
                raise PatchError(f"{pointer}: no member {token!r}")
            node = node[token]
        elif isinstance(node, list):
            node = node[_array_index(token, node, allow_end=False)]
        else:
            raise PatchError(f"{pointer}: {token!r} goes through a scalar")
    return node


def get(document, pointer):
    """The value `pointer` names in `document`."""
    node = document
    for token in parse_pointer(pointer):
        if isinstance(node, dict):
            if token not in node:
                raise PatchError(f"{pointer}: no member {token!r}")
            node = node[token]
        elif isinstance(node, list):
            node = node[_array_index(token, node, allow_end=False)]
        else:
            raise PatchError(f"{pointer}: {token!r} goes through a scalar")
    return node


def _add(document, pointer, value):
    tokens = parse_pointer(pointer)
    if not tokens:
        return value  # RFC 6902 §4.1: adding at the root replaces the document
    parent = _parent(document, tokens, pointer)
    last = tokens[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        parent.insert(_array_index(last, parent, allow_end=True), value)
    else:
        raise PatchError(f"{pointer}: parent is a scalar")
    return document


def _remove(document, pointer):
    tokens = parse_pointer(pointer)
    if not tokens:
        raise PatchError("remove at the root")
    parent = _parent(document, tokens, pointer)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise PatchError(f"{pointer}: no member to remove (RFC 6902 §4.2)")
        return document, parent.pop(last)
    if isinstance(parent, list):
        return document, parent.pop(_array_index(last, parent, allow_end=False))
    raise PatchError(f"{pointer}: parent is a scalar")


def _replace(document, pointer, value):
    tokens = parse_pointer(pointer)
    if not tokens:
        return value
    parent = _parent(document, tokens, pointer)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise PatchError(f"{pointer}: no member to replace (RFC 6902 §4.3)")
        parent[last] = value
    elif isinstance(parent, list):
        parent[_array_index(last, parent, allow_end=False)] = value
    else:
        raise PatchError(f"{pointer}: parent is a scalar")
    return document


def apply_operation(document, operation):
    """One operation; returns the new document (the same object, changed, unless the root was replaced)."""
    if not isinstance(operation, dict) or "op" not in operation or "path" not in operation:
        raise PatchError(f"not an operation: {operation!r}")
    op, path = operation["op"], operation["path"]
    if op == "add":
        return _add(document, path, copy.deepcopy(operation["value"]))
    if op == "remove":
        return _remove(document, path)[0]
    if op == "replace":
        return _replace(document, path, copy.deepcopy(operation["value"]))
    if op == "move":
        source = operation["from"]
        if path.startswith(source + "/"):
            raise PatchError(f"move from {source} into its own child {path} (RFC 6902 §4.4)")
        document, value = _remove(document, source)
        return _add(document, path, value)
    if op == "copy":
        return _add(document, path, copy.deepcopy(get(document, operation["from"])))
    if op == "test":
        if canonical(get(document, path)) != canonical(operation["value"]):
            raise PatchError(f"test failed at {path}")
        return document
    raise PatchError(f"unknown operation {op!r}")


def apply_patch(document, operations):
    """A new document: `operations` applied in order to a copy of `document` (all or nothing)."""
    result = copy.deepcopy(document)
    for operation in operations:
        result = apply_operation(result, operation)
    return result


def apply_patch_in_place(document, operations):
    """`operations` applied to `document` itself, no copy: for a client that follows thousands of patches of a
    growing document (the cluster test's fifty spectators), where `apply_patch`'s deep copy per patch is quadratic.
    Not all or nothing: after a `PatchError` the document is part-changed, so the caller must count it as broken
    (resync or fail), never go on from it. Returns the document (a new object only when the root was replaced)."""
    for operation in operations:
        document = apply_operation(document, operation)
    return document


def canonical(value):
    """docs/protocol.md's canonical form: members sorted, no whitespace, UTF-8 as is (code-point order of Python's
    sort is the UTF-8 byte order)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def first_difference(expected, actual, path=""):
    """A short description of where two JSON values first differ, for failure messages."""
    if type(expected) is not type(actual):
        return f"{path or '/'}: expected {canonical(expected)[:120]}, got {canonical(actual)[:120]}"
    if isinstance(expected, dict):
        for key in sorted(set(expected) | set(actual)):
            sub = f"{path}/{key.replace('~', '~0').replace('/', '~1')}"
            if key not in actual:
                return f"{sub}: missing (expected {canonical(expected[key])[:120]})"
            if key not in expected:
                return f"{sub}: unexpected {canonical(actual[key])[:120]}"
            found = first_difference(expected[key], actual[key], sub)
            if found:
                return found
        return None
    if isinstance(expected, list):
        if len(expected) != len(actual):
            return f"{path or '/'}: expected {len(expected)} elements, got {len(actual)}"
        for index, (left, right) in enumerate(zip(expected, actual)):
            found = first_difference(left, right, f"{path}/{index}")
            if found:
                return found
        return None
    if expected != actual:
        return f"{path or '/'}: expected {canonical(expected)[:120]}, got {canonical(actual)[:120]}"
    return None


def self_test():
    """RFC 6902 Appendix A cases, run by the tests before they trust the applier."""
    cases = [
        ({"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}], {"baz": "qux", "foo": "bar"}),
        ({"foo": ["bar", "baz"]}, [{"op": "add", "path": "/foo/1", "value": "qux"}], {"foo": ["bar", "qux", "baz"]}),
        ({"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
        ({"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}], {"foo": ["bar", "baz"]}),
        ({"baz": "qux", "foo": "bar"}, [{"op": "replace", "path": "/baz", "value": "boo"}], {"baz": "boo", "foo": "bar"}),
        (
            {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
            [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
            {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}},
        ),
        ({"foo": ["all", "grass", "cows", "eat"]}, [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
         {"foo": ["all", "cows", "eat", "grass"]}),
        ({"foo": "bar"}, [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
         {"foo": "bar", "child": {"grandchild": {}}}),
        ({"foo": ["bar"]}, [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}],
         {"foo": ["bar", ["abc", "def"]]}),
        ({"/": 1, "m~n": 2}, [{"op": "replace", "path": "/~1", "value": 3}, {"op": "remove", "path": "/m~0n"}], {"/": 3}),
        ({"a": 1}, [{"op": "copy", "from": "/a", "path": "/b"}, {"op": "test", "path": "/b", "value": 1}],
         {"a": 1, "b": 1}),
    ]
    for document, operations, expected in cases:
        got = apply_patch(document, operations)
        assert canonical(got) == canonical(expected), (operations, got, expected)
    for document, operations in [
        ({"foo": "bar"}, [{"op": "remove", "path": "/baz"}]),
        ({"foo": "bar"}, [{"op": "replace", "path": "/baz", "value": 1}]),
        ({"foo": ["bar"]}, [{"op": "add", "path": "/foo/2", "value": 1}]),
        ({"foo": ["bar"]}, [{"op": "add", "path": "/foo/01", "value": 1}]),
        ({"foo": "bar"}, [{"op": "test", "path": "/foo", "value": "baz"}]),
    ]:
        original = copy.deepcopy(document)
        try:
            apply_patch(document, operations)
        except PatchError:
            assert document == original
            continue
        raise AssertionError(f"{operations} should have failed")
