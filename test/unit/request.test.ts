import { describe, expect, it } from 'vitest';
import { cookies, header } from '../../lib/http/request';

describe('header', () => {
  it('reads a header whatever its casing', () => {
    const event = { headers: { 'CONTENT-type': 'application/json' } };

    expect(header(event, 'Content-Type')).toBe('application/json');
  });

  it('is undefined when the header or the whole map is absent', () => {
    expect(header({ headers: { Accept: '*/*' } }, 'origin')).toBeUndefined();
    expect(header({ headers: null }, 'origin')).toBeUndefined();
  });
});

describe('cookies', () => {
  it('parses the Cookie header', () => {
    const event = { headers: { Cookie: 'accessToken=a.b.c; theme=dark' } };

    expect(cookies(event)).toEqual({ accessToken: 'a.b.c', theme: 'dark' });
  });

  it('joins several Cookie headers of the multi-value map', () => {
    const event = { headers: { cookie: 'theme=dark' }, multiValueHeaders: { cookie: ['accessToken=a.b.c', 'refreshToken=d.e.f'] } };

    expect(cookies(event)).toEqual({ accessToken: 'a.b.c', refreshToken: 'd.e.f' });
  });

  it('is empty without a Cookie header', () => {
    expect(cookies({ headers: {}, multiValueHeaders: {} })).toEqual({});
  });
});
