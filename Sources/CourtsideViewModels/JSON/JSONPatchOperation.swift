/// One RFC 6902 operation as the presenter emits it. The presenter only ever needs `add`, `remove` and `replace`;
/// the test target's applier implements all six to check these against the RFC.
public enum JSONPatchOperation: Equatable, Sendable {
    /// RFC 6902 §4.1: add a member (or insert an array element) at `path`.
    case add(path: JSONPointer, value: JSONValue)
    /// RFC 6902 §4.2: remove the value at `path`.
    case remove(path: JSONPointer)
    /// RFC 6902 §4.3: replace the existing value at `path`.
    case replace(path: JSONPointer, value: JSONValue)

    /// The operation as a JSON object, e.g. `{"op":"replace","path":"/score","value":"3 - 2"}`.
    public var json: JSONValue {
        switch self {
        case .add(let path, let value): ["op": "add", "path": .string(path.description), "value": value]
        case .remove(let path): ["op": "remove", "path": .string(path.description)]
        case .replace(let path, let value): ["op": "replace", "path": .string(path.description), "value": value]
        }
    }
}
