import { describe, expect, it } from 'vitest';
import { credentialsChange, credentialsItemChange } from '../../lib/auth/session-opening';
import { joinParts, updateItem } from '../../lib/db/update-parts';

/**
 * One UpdateItem that several concerns contribute to (lib/db/update-parts): a sign-in's own
 * fields, the credential guard, the session count. Each names its own placeholders; joining
 * keeps every clause in order and refuses a placeholder given two values, or a name placeholder
 * given two attributes.
 */
const KEY = { pk: 'TENANT#t#USER#u', sk: 'PROFILE' };

describe('joinParts', () => {
  it('keeps every clause of every part, in the order given', () => {
    expect(
      joinParts(
        { set: ['a = :a'], conditions: ['attribute_exists(pk)'], values: { ':a': 1 } },
        { set: ['b = :b', '#c = :c'], remove: ['d'], conditions: ['b < :b'], names: { '#c': 'count' }, values: { ':b': 2, ':c': 3 } },
        { remove: ['e'] },
      ),
    ).toEqual({
      set: ['a = :a', 'b = :b', '#c = :c'],
      remove: ['d', 'e'],
      conditions: ['attribute_exists(pk)', 'b < :b'],
      names: { '#c': 'count' },
      values: { ':a': 1, ':b': 2, ':c': 3 },
    });
  });

  it('joins nothing into empty lists and maps', () => {
    expect(joinParts()).toEqual({ set: [], remove: [], conditions: [], names: {}, values: {} });
    expect(joinParts({})).toEqual({ set: [], remove: [], conditions: [], names: {}, values: {} });
  });

  it('takes a placeholder two parts give the same value', () => {
    expect(joinParts({ set: ['a = :now'], values: { ':now': 'T' } }, { set: ['b = :now'], values: { ':now': 'T' } }).values).toEqual({ ':now': 'T' });
  });

  it('throws, naming it, when two parts give one placeholder two values', () => {
    expect(() => joinParts({ values: { ':count': 1 } }, { values: { ':count': 2 } })).toThrow('update parts: :count given twice');
  });

  it('throws for a placeholder whose values are equal but not the same object (a Set of the same codes)', () => {
    // Values are compared by identity: two parts must share one value, not two equal ones.
    expect(() => joinParts({ values: { ':codes': new Set(['a']) } }, { values: { ':codes': new Set(['a']) } })).toThrow('update parts: :codes given twice');
  });

  it('takes a name placeholder two parts map to the same attribute', () => {
    expect(
      joinParts(
        { conditions: ['#s = :a'], names: { '#s': 'status' }, values: { ':a': 1 } },
        { set: ['#s = :b'], names: { '#s': 'status' }, values: { ':b': 2 } },
      ).names,
    ).toEqual({ '#s': 'status' });
  });

  it('throws, naming it, when two parts map one name placeholder to two attributes', () => {
    // Otherwise the later would silently win, and the earlier part's clause would read another attribute.
    expect(() =>
      joinParts({ set: ['#n = :a'], names: { '#n': 'name' }, values: { ':a': 1 } }, { set: ['#n = :b'], names: { '#n': 'note' }, values: { ':b': 2 } }),
    ).toThrow('update parts: #n names two attributes');
  });

  it('does not change the parts it joins', () => {
    const part = { set: ['a = :a'], values: { ':a': 1 } };

    joinParts(part, { set: ['b = :b'], values: { ':b': 2 } });

    expect(part).toEqual({ set: ['a = :a'], values: { ':a': 1 } });
  });
});

describe('updateItem', () => {
  it('makes one transaction Update: SET then REMOVE, the conditions joined with AND', () => {
    expect(
      updateItem(
        'test-table',
        KEY,
        { set: ['a = :a'], remove: ['b'], conditions: ['attribute_exists(pk)'], values: { ':a': 1 } },
        { set: ['#c = :c'], conditions: ['#c < :c'], names: { '#c': 'count' }, values: { ':c': 2 } },
      ),
    ).toEqual({
      Update: {
        TableName: 'test-table',
        Key: KEY,
        UpdateExpression: 'SET a = :a, #c = :c REMOVE b',
        ConditionExpression: 'attribute_exists(pk) AND #c < :c',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':a': 1, ':c': 2 },
      },
    });
  });

  it('leaves out the condition, the names and the values when no part has any', () => {
    expect(updateItem('test-table', KEY, { remove: ['totpEnabledAt'] })).toEqual({
      Update: { TableName: 'test-table', Key: KEY, UpdateExpression: 'REMOVE totpEnabledAt' },
    });
  });

  it('writes a condition alone with SET only', () => {
    expect(updateItem('test-table', KEY, { set: ['a = :a'], values: { ':a': 1 } }, { conditions: ['attribute_exists(pk)'] }).Update).toEqual({
      TableName: 'test-table',
      Key: KEY,
      UpdateExpression: 'SET a = :a',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':a': 1 },
    });
  });

  it('throws when the parts update nothing (conditions alone are a ConditionCheck, not an Update)', () => {
    expect(() => updateItem('test-table', KEY, { conditions: ['attribute_exists(pk)'], values: { ':v': 1 } })).toThrow('update parts: nothing to update');
  });

  it('throws the duplicate-placeholder error rather than building the item', () => {
    expect(() => updateItem('test-table', KEY, { set: ['a = :x'], values: { ':x': 1 } }, { set: ['b = :x'], values: { ':x': 2 } })).toThrow(
      'update parts: :x given twice',
    );
  });

  it("joins the credential change with a flow's own parts as the second factor's reset writes it", () => {
    expect(
      updateItem('test-table', KEY, credentialsChange(3, 'T'), { remove: ['totpEnabledAt'] }, { conditions: ['attribute_exists(totpEnabledAt)'] }),
    ).toEqual({
      Update: {
        TableName: 'test-table',
        Key: KEY,
        UpdateExpression:
          'SET credentialVersion = :nextCredentialVersion, sessionsValidFrom = :credentialsChangedAt, updatedAt = :credentialsChangedAt REMOVE totpEnabledAt',
        // The user must still exist (a removed one is not written back as a stub), at the version read.
        ConditionExpression: 'attribute_exists(pk) AND credentialVersion = :readCredentialVersion AND attribute_exists(totpEnabledAt)',
        ExpressionAttributeValues: { ':readCredentialVersion': 3, ':nextCredentialVersion': 4, ':credentialsChangedAt': 'T' },
      },
    });
  });

  it("joins the credentials item's side of the change with the secrets the reset removes", () => {
    expect(updateItem('test-table', KEY, credentialsItemChange(3), { remove: ['totpSecret', 'recoveryCodeHashes'] })).toEqual({
      Update: {
        TableName: 'test-table',
        Key: KEY,
        UpdateExpression: 'SET credentialVersion = :nextCredentialVersion REMOVE totpSecret, recoveryCodeHashes',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':nextCredentialVersion': 4 },
      },
    });
  });
});
