// RFC 6902 JSON Patch over RFC 6901 JSON Pointers.
// The server sends add, remove and replace; docs/protocol.md asks clients to implement all six operations anyway.
// applyPatch never touches its input: it works on a copy and returns it, so a failed patch (a `test` that does not
// hold, a path that does not exist) leaves the page's document as it was, and the caller can resync.

export class PatchError extends Error {
  constructor(message, op) {
    super(op ? `${message} (op ${JSON.stringify(op)})` : message);
    this.name = "PatchError";
  }
}

/** Splits a JSON Pointer into unescaped reference tokens (RFC 6901 §4: `~1` → `/` first, then `~0` → `~`). */
export function parsePointer(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || pointer[0] !== "/") throw new PatchError(`not a JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new PatchError(`bad escape in JSON Pointer: ${pointer}`);
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

/** Escapes one member name for use in a pointer. */
export function escapePointerToken(name) {
  return String(name).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Deep copy of a JSON value. */
export function cloneJSON(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Deep equality of JSON values (RFC 6902 §4.6: members in any order, arrays in order). */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}

function arrayIndex(token, length, allowEnd, op) {
  if (allowEnd && token === "-") return length;
  // RFC 6901 §4: array indices are decimal without leading zeros.
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index "${token}"`, op);
  const index = Number(token);
  if (index > length || (!allowEnd && index === length)) throw new PatchError(`array index ${index} out of range`, op);
  return index;
}

function isContainer(value) {
  return value !== null && typeof value === "object";
}

// Returns the container that holds the last token, and that token.
function locateParent(doc, tokens, op) {
  let node = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i];
    if (Array.isArray(node)) node = node[arrayIndex(token, node.length, false, op)];
    else if (isContainer(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else throw new PatchError(`path not found`, op);
  }
  if (!isContainer(node)) throw new PatchError(`path not found`, op);
  return { parent: node, key: tokens[tokens.length - 1] };
}

function getValue(doc, pointer, op) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return doc;
  const { parent, key } = locateParent(doc, tokens, op);
  if (Array.isArray(parent)) return parent[arrayIndex(key, parent.length, false, op)];
  if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new PatchError(`path not found`, op);
  return parent[key];
}

// Each of these returns the new root (an operation on "" replaces the whole document).
function addValue(doc, pointer, value, op) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const { parent, key } = locateParent(doc, tokens, op);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length, true, op), 0, value);
  else parent[key] = value;
  return doc;
}

function removeValue(doc, pointer, op) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new PatchError("cannot remove the whole document", op);
  const { parent, key } = locateParent(doc, tokens, op);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length, false, op), 1);
  else if (Object.prototype.hasOwnProperty.call(parent, key)) delete parent[key];
  else throw new PatchError("path not found", op);
  return doc;
}

function applyOne(doc, op) {
  if (!isContainer(op) || typeof op.path !== "string") throw new PatchError("operation without a path", op);
  switch (op.op) {
    case "add":
      if (!("value" in op)) throw new PatchError("add without a value", op);
      return addValue(doc, op.path, cloneJSON(op.value), op);
    case "remove":
      return removeValue(doc, op.path, op);
    case "replace":
      if (!("value" in op)) throw new PatchError("replace without a value", op);
      getValue(doc, op.path, op); // RFC 6902 §4.3: the target must exist.
      return addValue(removeOrRoot(doc, op.path, op), op.path, cloneJSON(op.value), op);
    case "move": {
      if (typeof op.from !== "string") throw new PatchError("move without from", op);
      // §4.4: a location cannot be moved into one of its children.
      if (op.path.startsWith(op.from + "/")) throw new PatchError("cannot move a value into itself", op);
      const value = getValue(doc, op.from, op);
      if (op.from === op.path) return doc;
      return addValue(removeOrRoot(doc, op.from, op), op.path, value, op);
    }
    case "copy": {
      if (typeof op.from !== "string") throw new PatchError("copy without from", op);
      return addValue(doc, op.path, cloneJSON(getValue(doc, op.from, op)), op);
    }
    case "test":
      if (!jsonEqual(getValue(doc, op.path, op), op.value)) throw new PatchError("test failed", op);
      return doc;
    default:
      throw new PatchError(`unknown operation "${op.op}"`, op);
  }
}

function removeOrRoot(doc, pointer, op) {
  return pointer === "" ? null : removeValue(doc, pointer, op);
}

/** Applies `ops` to a copy of `doc` and returns the copy; throws PatchError and leaves `doc` alone on failure. */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("ops is not an array");
  let result = cloneJSON(doc);
  for (const op of ops) result = applyOne(result, op);
  return result;
}
