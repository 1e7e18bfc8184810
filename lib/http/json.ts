/**
 * What a request body's JSON may be, beyond being JSON ("JSON that cannot crash
 * or lose data"). `JSON.parse` accepts all of these, and each would hurt later:
 *
 * - nesting deeper than `MAX_JSON_DEPTH` levels (validation recurses: a few thousand levels
 *   overflow the stack);
 * - a key named `__proto__`, `constructor` or `prototype`, at any depth (copying such an
 *   object can change its prototype, and zod drops them from records without a word);
 * - a key given twice in one object (I-JSON, RFC 7493: names must be unique; `JSON.parse`
 *   keeps the last silently, while another parser may keep the first).
 */

export const MAX_JSON_DEPTH = 32;
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type JsonFinding = { kind: 'too-deep' } | { kind: 'key'; field: string; message: string };

interface Frame {
  kind: 'object' | 'array';
  /** The field name of this container, as the validation errors name fields (`a.b.0`). */
  path: string;
  keys: Set<string>;
  key: string;
  index: number;
  expectKey: boolean;
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);

function childPath(parent: Frame | undefined): string {
  if (!parent) return '';
  return join(parent.path, parent.kind === 'object' ? parent.key : String(parent.index));
}

/** The text of a JSON string literal's body, or undefined when it is not valid. */
function decodeKey(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

/**
 * The first rule `text` breaks, in one pass; undefined when none. The scan does not
 * validate the syntax: on text that is not JSON its key findings mean nothing (the caller
 * lets the JSON parser answer then), but nesting is counted either way.
 */
export function inspectJson(text: string): JsonFinding | undefined {
  const stack: Frame[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    const top = stack[stack.length - 1];
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top?.kind === 'object' && top.expectKey) {
        const key = decodeKey(text.slice(index + 1, end));
        if (key === undefined) return undefined;
        if (RESERVED_KEYS.has(key))
          return { kind: 'key', field: join(top.path, key), message: 'is a reserved name (__proto__, constructor and prototype are refused)' };
        if (top.keys.has(key)) return { kind: 'key', field: join(top.path, key), message: 'is given more than once' };
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      index = end;
    } else if (char === '{' || char === '[') {
      if (stack.length >= MAX_JSON_DEPTH) return { kind: 'too-deep' };
      stack.push({ kind: char === '{' ? 'object' : 'array', path: childPath(top), keys: new Set(), key: '', index: 0, expectKey: char === '{' });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',' && top) {
      if (top.kind === 'object') top.expectKey = true;
      else top.index += 1;
    }
  }
  return undefined;
}

/** Whether `text` parses as JSON. */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
