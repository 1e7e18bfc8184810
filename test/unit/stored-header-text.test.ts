import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedHeaderText, textProblem } from '../../lib/domain/text';

/**
 * A header value the client chose (the User-Agent), as a session or an audit entry stores it
 * (lib/domain/text `storedHeaderText`): never refused, each character the stored-text rule
 * refuses and each line or paragraph separator becomes `?`, cut to a length in code points.
 */
describe('storedHeaderText', () => {
  it('keeps an ordinary User-Agent as it is, accented and non-Latin letters and emoji included', () => {
    for (const value of ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36', 'São Paulo — Café', 'Браузер 東京 😀'])
      expect(storedHeaderText(value, 512)).toBe(value);
  });

  it.each([
    ['a line feed and a carriage return', 'curl\r\nauth.login ok', 'curl??auth.login ok'],
    ['a tab and NUL', 'a\tb\u0000c', 'a?b?c'],
    ['DEL and a C1 control (NEL)', 'a\u007Fb\u0085c', 'a?b?c'],
    ['the line and paragraph separators', 'a\u2028b\u2029c', 'a?b?c'],
    ['bidirectional overrides and isolates (Trojan Source)', 'a\u202Eb\u2066c\u2069', 'a?b?c?'],
    ['U+FFFD, the mark of lost bytes', 'a\uFFFDb', 'a?b'],
    ['a lone high surrogate and a lone low one', 'a\uD83Db\uDE00c', 'a?b?c'],
  ])('turns %s into "?"', (_label, value, stored) => {
    expect(storedHeaderText(value, 512)).toBe(stored);
  });

  it('keeps a surrogate pair: it is one code point, not two lone halves', () => {
    expect(storedHeaderText('\uD83D\uDE00', 512)).toBe('😀');
  });

  it('cuts to `max` code points, never inside a surrogate pair', () => {
    expect(storedHeaderText('abcdef', 4)).toBe('abcd');
    expect(storedHeaderText('😀😀😀', 2)).toBe('😀😀');
    expect(storedHeaderText('a😀b', 2)).toBe('a😀');
    expect(storedHeaderText('', 512)).toBe('');
  });

  it('cuts after replacing, so a replaced character counts as one', () => {
    expect(storedHeaderText('\r\n\r\nabc', 3)).toBe('???');
  });

  it('always returns text the stored-text rule accepts, without separators, of at most `max` code points', () => {
    const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 80 });
    fc.assert(
      fc.property(codeUnits, fc.integer({ min: 0, max: 100 }), (value, max) => {
        const stored = storedHeaderText(value, max);
        expect(textProblem(stored)).toBeUndefined();
        expect(stored).not.toMatch(/[\u2028\u2029]/u);
        expect([...stored].length).toBeLessThanOrEqual(max);
      }),
    );
  });

  it('changes nothing in a value the rule accepts, short enough', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (value) => {
        fc.pre(textProblem(value) === undefined && !/[\u2028\u2029]/u.test(value));
        expect(storedHeaderText(value, 512)).toBe(value);
      }),
    );
  });
});
