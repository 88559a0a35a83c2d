// RFC 6902 JSON Patch on parsed JSON, as the daemon applies it (protocol/README.md, "Field-level updates"):
// what `updates: "patch"` rows carry and what `patchContent` sends. Pointers (RFC 6901): "" is the whole
// value, else "/"-separated tokens with ~1 = "/" and ~0 = "~"; array indices are "0" or digits without a
// leading zero; "-" is the end of an array (for add). A member add replaces in place when the name exists
// and appends otherwise (object key order), as the daemon does. `test` compares by value, objects unordered.
// Iterative: no recursion, whatever the depth.

/** A patch that does not apply: `index` is the failing op's index in the patch. */
export class PatchError extends Error {
  constructor(index, message) {
    super(`patch op ${index}: ${message}`);
    this.name = 'PatchError';
    this.index = index;
  }
}

/** The unescaped tokens of a pointer; throws on a string that is not one. */
export function parsePointer(pointer) {
  if (pointer === '') return [];
  if (typeof pointer !== 'string' || !pointer.startsWith('/')) throw new Error(`${JSON.stringify(pointer)} is not a JSON Pointer`);
  return pointer.slice(1).split('/').map((raw) => {
    if (/~[^01]|~$/.test(raw)) throw new Error(`${JSON.stringify(pointer)}: ~ must be ~0 or ~1`);
    return raw.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

/** A token escaped for a pointer. */
export function escapeToken(token) {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

function index(token, length, endOk) {
  if (token === '-' && endOk) return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`${JSON.stringify(token)} is not an array index`);
  const i = Number(token);
  if (i > length || (i === length && !endOk)) throw new Error(`index ${i} is out of range (${length} elements)`);
  return i;
}

function get(doc, tokens) {
  let value = doc;
  for (const token of tokens) {
    if (Array.isArray(value)) value = value[index(token, value.length, false)];
    else if (isObject(value)) {
      if (!own(value, token)) throw new Error(`no member ${JSON.stringify(token)}`);
      value = value[token];
    } else throw new Error(`${JSON.stringify(token)}: not inside an object or array`);
  }
  return value;
}

function parentOf(doc, tokens) {
  const parent = get(doc, tokens.slice(0, -1));
  if (!Array.isArray(parent) && !isObject(parent)) throw new Error('the parent is neither an object nor an array');
  return [parent, tokens[tokens.length - 1]];
}

function add(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const [parent, last] = parentOf(doc, tokens);
  if (Array.isArray(parent)) parent.splice(index(last, parent.length, true), 0, value);
  // an own member even when it is named __proto__ (as JSON.parse makes it)
  else Object.defineProperty(parent, last, { value, writable: true, enumerable: true, configurable: true });
  return doc;
}

function remove(doc, tokens) {
  if (tokens.length === 0) throw new Error('the whole value cannot be removed');
  const [parent, last] = parentOf(doc, tokens);
  if (Array.isArray(parent)) return parent.splice(index(last, parent.length, false), 1)[0];
  if (!own(parent, last)) throw new Error(`no member ${JSON.stringify(last)}`);
  const value = parent[last];
  delete parent[last];
  return value;
}

/** RFC 6902 `test` equality: numbers by value, objects unordered, arrays in order. */
export function jsonEqual(a, b) {
  const pending = [[a, b]];
  while (pending.length) {
    const [x, y] = pending.pop();
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      x.forEach((v, i) => pending.push([v, y[i]]));
    } else if (isObject(x) || isObject(y)) {
      if (!isObject(x) || !isObject(y)) return false;
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length || !keys.every((k) => own(y, k))) return false;
      keys.forEach((k) => pending.push([x[k], y[k]]));
    } else if (x !== y) return false;
  }
  return true;
}

const clone = (value) => (value === undefined ? undefined : structuredClone(value));

/** `document` (not modified) with the ops applied in order; throws PatchError naming the failing op. */
export function applyPatch(document, patch) {
  let doc = clone(document);
  patch.forEach((op, i) => {
    try {
      const path = parsePointer(op.path);
      switch (op.op) {
        case 'add': doc = add(doc, path, clone(op.value)); break;
        case 'remove': remove(doc, path); break;
        case 'replace':
          get(doc, path);
          if (path.length && Array.isArray(parentOf(doc, path)[0])) {
            const [parent, last] = parentOf(doc, path);
            parent[index(last, parent.length, false)] = clone(op.value);
          } else doc = add(doc, path, clone(op.value));
          break;
        case 'move':
        case 'copy': {
          const from = parsePointer(op.from);
          let value = clone(get(doc, from));
          if (op.op === 'move') {
            if (from.length < path.length && from.every((t, k) => t === path[k])) throw new Error('a value cannot move into its own child');
            if (from.length === path.length && from.every((t, k) => t === path[k])) break;
            value = remove(doc, from);
          }
          doc = add(doc, path, value);
          break;
        }
        case 'test':
          if (!jsonEqual(get(doc, path), op.value)) throw new Error(`test failed at ${JSON.stringify(op.path)}`);
          break;
        default: throw new Error(`unknown op ${JSON.stringify(op.op)}`);
      }
    } catch (error) {
      throw new PatchError(i, error.message);
    }
  });
  return doc;
}

/** The `edit` op that patches an item's content (as the ops before it left it). */
export function patchContent(id, patch) {
  return { op: 'patchContent', id, patch: [...patch] };
}
