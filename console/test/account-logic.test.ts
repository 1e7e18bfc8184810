import { describe, expect, it } from 'vitest';
import { deviceOf, disableBody, groupSecret, myDataFileName, myDataText, svgDataUrl } from '../src/pages/account/logic';
import { invitationOf, newPasswordProblem, slugOf, slugProblem } from '../src/pages/auth/recovery';

describe('the QR code as an image address', () => {
  it('is a base64 data URL that decodes to the SVG, non-ASCII text included', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><title>Conta de João</title></svg>';
    const url = svgDataUrl(svg);
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const decoded = new TextDecoder().decode(Uint8Array.from(atob(url.slice('data:image/svg+xml;base64,'.length)), (c) => c.charCodeAt(0)));
    expect(decoded).toBe(svg);
  });
});

describe('the secret for manual entry', () => {
  it('is grouped by four, spaces ignored', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPAB')).toBe('JBSW Y3DP EHPK 3PXP AB');
    expect(groupSecret('JBSW Y3DP')).toBe('JBSW Y3DP');
    expect(groupSecret('')).toBe('');
  });
});

describe('turning the second factor off', () => {
  it('sends six digits as a code and anything else as a recovery code', () => {
    expect(disableBody('123 456')).toEqual({ code: '123456' });
    expect(disableBody(' abcd-efgh ')).toEqual({ recoveryCode: 'abcd-efgh' });
    expect(disableBody('12345')).toEqual({ recoveryCode: '12345' });
    expect(disableBody('1234567')).toEqual({ recoveryCode: '1234567' });
  });
});

describe('a session’s device', () => {
  it('names the browser and the system', () => {
    expect(deviceOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36')).toBe('Chrome · Linux');
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36 Edg/140.0')).toBe('Edge · Windows');
    expect(deviceOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36')).toBe('Chrome · Linux');
    expect(deviceOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36')).toBe(
      'Chrome · Android',
    );
    expect(
      deviceOf('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'),
    ).toBe('Safari · iPhone');
    expect(deviceOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Gecko/20100101 Firefox/130.0')).toBe('Firefox · macOS');
  });
  it('cuts an unknown agent short, and leaves an empty one empty', () => {
    expect(deviceOf('curl-like-agent')).toBe('curl-like-agent');
    expect(deviceOf('x'.repeat(50))).toBe(`${'x'.repeat(40)}…`);
    expect(deviceOf('')).toBe('');
  });
});

describe('a new password typed twice', () => {
  it('follows the API’s rule: 8 to 128 characters, not blank', () => {
    expect(newPasswordProblem('short', 'short')).toBe('tooShort');
    expect(newPasswordProblem('        ', '        ')).toBe('blank');
    expect(newPasswordProblem('a'.repeat(129), 'a'.repeat(129))).toBe('tooLong');
    expect(newPasswordProblem('a'.repeat(128), 'a'.repeat(128))).toBeUndefined();
  });
  it('must be typed the same twice', () => {
    expect(newPasswordProblem('long enough', 'long enougH')).toBe('mismatch');
    expect(newPasswordProblem('long enough', 'long enough')).toBeUndefined();
  });
  it('says the length before the mismatch', () => {
    expect(newPasswordProblem('short', '')).toBe('tooShort');
  });
});

describe('the tenant slug from a company name', () => {
  it('drops accents, lowers the case and joins words with single dashes', () => {
    expect(slugOf('Café São João')).toBe('cafe-sao-joao');
    expect(slugOf('  Loja & Cia. -- Ltda  ')).toBe('loja-cia-ltda');
    expect(slugOf('AÇÚCAR 2026')).toBe('acucar-2026');
    expect(slugOf('***')).toBe('');
  });
  it('is cut to 63 characters without a trailing dash', () => {
    const slug = slugOf(`${'a'.repeat(62)} bc`);
    expect(slug.length).toBeLessThanOrEqual(63);
    expect(slug.endsWith('-')).toBe(false);
    expect(slugProblem(slug)).toBeUndefined();
  });
  it('is checked as the API checks it', () => {
    expect(slugProblem('ab')).toBe('tooShort');
    expect(slugProblem('a'.repeat(64))).toBe('tooLong');
    expect(slugProblem('Loja')).toBe('format');
    expect(slugProblem('loja--sul')).toBe('format');
    expect(slugProblem('-loja')).toBe('format');
    expect(slugProblem('admin')).toBe('reserved');
    expect(slugProblem('platform')).toBe('reserved');
    expect(slugProblem('loja-da-ana-2')).toBeUndefined();
  });
});

describe('the invitation link', () => {
  it('needs the tenant, the e-mail and the token', () => {
    expect(invitationOf('?tenantId=t1&email=ana%40example.com&token=abc')).toEqual({ tenantId: 't1', email: 'ana@example.com', token: 'abc' });
    expect(invitationOf('tenantId=t1&email=a%2Bb%40example.com&token=abc')?.email).toBe('a+b@example.com');
    expect(invitationOf('?tenantId=t1&token=abc')).toBeUndefined();
    expect(invitationOf('')).toBeUndefined();
  });
});

describe('the copy of my data', () => {
  it('is named after the day on the user’s clock', () => {
    expect(myDataFileName('meus-dados', new Date(2026, 10, 26, 23, 59))).toBe('meus-dados-2026-11-26.json');
    expect(myDataFileName('my-data', new Date(2027, 0, 5, 0, 0))).toBe('my-data-2027-01-05.json');
  });

  it('holds the API’s document as it came, indented', () => {
    const data = { generatedAt: '2026-11-26T15:00:00.000Z', user: { email: 'ana@example.com', name: 'Ana' } };
    const text = myDataText(data);
    expect(JSON.parse(text)).toEqual(data);
    expect(text).toBe(`${JSON.stringify(data, null, 2)}\n`);
  });
});
