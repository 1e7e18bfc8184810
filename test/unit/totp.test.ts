import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, codeAt, hotp, matchingStep, newTotpSecret, stepAt, totpUri } from '../../lib/auth/totp';

/** RFC 4226 appendix D and RFC 6238 appendix B: the key is the ASCII string "12345678901234567890". */
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');

describe('HOTP (RFC 4226)', () => {
  it.each([
    [0, '755224'],
    [1, '287082'],
    [2, '359152'],
    [3, '969429'],
    [4, '338314'],
    [5, '254676'],
    [6, '287922'],
    [7, '162583'],
    [8, '399871'],
    [9, '520489'],
  ])('gives the test vector of count %i: %s', (count, value) => {
    expect(hotp(RFC_KEY, count)).toBe(value);
  });
});

describe('TOTP (RFC 6238, SHA-1)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('gives the 8-digit test vector at %i s', (seconds, value) => {
    expect(hotp(RFC_KEY, stepAt(seconds * 1000), 8)).toBe(value);
  });

  it('gives the 6-digit codes the service uses, from a base32 secret (values otpauth gave)', () => {
    const secret = 'JBSWY3DPEHPK3PXP';
    expect([0, 59_000, 1_111_111_109_000, 1_234_567_890_000, 1_700_000_000_000].map((ms) => codeAt(secret, ms))).toEqual([
      '282760',
      '996554',
      '071271',
      '742275',
      '324550',
    ]);
    expect(codeAt(base32Encode(RFC_KEY), 59_000)).toBe('287082');
  });

  it('matches a code of the current step, then the one before, then the one after, and no other', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_012_345;
    const step = stepAt(now);
    expect(matchingStep(secret, codeAt(secret, now), now)).toBe(step);
    expect(matchingStep(secret, codeAt(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchingStep(secret, codeAt(secret, now + 30_000), now)).toBe(step + 1);
    expect(matchingStep(secret, codeAt(secret, now - 60_000), now)).toBeUndefined();
    expect(matchingStep(secret, codeAt(secret, now + 60_000), now)).toBeUndefined();
    expect(matchingStep(secret, codeAt(secret, now).slice(1), now)).toBeUndefined();
    expect(matchingStep(secret, `${codeAt(secret, now)}0`, now)).toBeUndefined();
  });
});

describe('base32 (RFC 4648)', () => {
  it.each([
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ])('encodes %j as %s (the RFC vectors, without padding) and back', (text, base32) => {
    expect(base32Encode(Buffer.from(text))).toBe(base32);
    expect(base32Decode(base32).toString()).toBe(text);
  });

  it('decodes lower case, padding and blanks, and refuses other characters', () => {
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow(TypeError);
  });

  it('makes 160-bit secrets, 32 base32 characters, each new', () => {
    const secrets = new Set(Array.from({ length: 50 }, newTotpSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  });
});

describe('totpUri', () => {
  it('is the key URI authenticator apps read, the label and issuer encoded', () => {
    expect(totpUri('JBSWY3DPEHPK3PXP', 'ana+1@example.com')).toBe(
      'otpauth://totp/Backoffice:ana%2B1%40example.com?issuer=Backoffice&secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
    );
  });
});
