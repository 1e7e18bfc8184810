import { describe, expect, it } from 'vitest';
import { inspectJson, MAX_JSON_DEPTH } from '../../lib/http/json';

const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

describe('inspectJson', () => {
  it('accepts ordinary JSON, strings that look like structure included', () => {
    expect(inspectJson('{"name":"Acme {[,\\"}]","tags":["a","b"],"settings":{"x":{"y":[1,{"z":null}]}}}')).toBeUndefined();
    expect(inspectJson('[{"a":1},{"a":2}]')).toBeUndefined();
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    expect(inspectJson(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(inspectJson(nested(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'too-deep' });
    expect(inspectJson('['.repeat(5000))).toEqual({ kind: 'too-deep' });
  });

  it('names a reserved key by its path, at any depth and however it is escaped', () => {
    const message = 'is a reserved name (__proto__, constructor and prototype are refused)';
    expect(inspectJson('{"__proto__":{}}')).toEqual({ kind: 'key', field: '__proto__', message });
    expect(inspectJson('{"settings":{"a":[{"b":1},{"constructor":1}]}}')).toEqual({ kind: 'key', field: 'settings.a.1.constructor', message });
    expect(inspectJson('{"settings":{"\\u005f_proto__":1}}')).toEqual({ kind: 'key', field: 'settings.__proto__', message });
    expect(inspectJson('{"prototype":1}')).toEqual({ kind: 'key', field: 'prototype', message });
  });

  it('names a key given twice in one object, but not the same key in two objects', () => {
    expect(inspectJson('{"name":"a","name":"b"}')).toEqual({ kind: 'key', field: 'name', message: 'is given more than once' });
    expect(inspectJson('{"s":{"k":1,"\\u006b":2}}')).toEqual({ kind: 'key', field: 's.k', message: 'is given more than once' });
    expect(inspectJson('{"a":{"k":1},"b":{"k":1}}')).toBeUndefined();
  });

  it('does not treat string values as keys', () => {
    expect(inspectJson('{"a":"__proto__","b":["constructor","constructor"]}')).toBeUndefined();
  });
});
