import { describe, expect, it } from 'vitest';
import { phoneSchema, toE164 } from '../../lib/domain/phones';

describe('toE164', () => {
  it.each([
    ['+55 11 98765-4321', '+5511987654321'],
    ['+55 (11) 98765-4321', '+5511987654321'],
    ['+55.11.98765.4321', '+5511987654321'],
    ['+55-11-98765-4321', '+5511987654321'],
    ['+5511987654321', '+5511987654321'],
    ['  +55 11 98765-4321  ', '+5511987654321'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('turns %j into %s', (input, e164) => {
    expect(toE164(input)).toBe(e164);
  });

  it.each([
    ['5511987654321', 'no leading plus'],
    ['55 11 98765-4321', 'no leading plus, punctuated'],
    ['+55 11 9876A-4321', 'a letter'],
    ['+55 11 98765-4321 ext 2', 'an extension'],
    ['+55 11 9876', 'too short'],
    ['+55', 'only the country code'],
    ['+', 'only the plus'],
    ['', 'empty'],
    ['+55/11/98765-4321', 'slashes'],
  ])('refuses %j (%s)', (input) => {
    expect(toE164(input)).toBeUndefined();
  });
});

describe('phoneSchema', () => {
  it('outputs E.164', () => {
    expect(phoneSchema.parse('+55 (11) 98765-4321')).toBe('+5511987654321');
  });

  it('refuses an invalid phone with a message that shows the expected format', () => {
    const result = phoneSchema.safeParse('11 98765-4321');

    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['must be a valid phone in international format, e.g. +55 11 98765-4321']);
  });
});
