import { describe, expect, it } from 'vitest';
import { checkTarget, classify, UnsafeTarget, vetTarget, type Resolver } from '../../lib/webhooks/ssrf';

/** A resolver that answers from a table (no network), and fails for any other name. */
const resolver =
  (answers: Record<string, string[]>): Resolver =>
  (hostname) => {
    const found = answers[hostname];
    if (!found) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

const deployed = { allowLoopback: false, resolve: resolver({ 'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] }) };
const local = { ...deployed, allowLoopback: true };

async function refusal(url: string, options = deployed): Promise<UnsafeTarget> {
  const error = await checkTarget(url, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, url).toBeInstanceOf(UnsafeTarget);
  return error as UnsafeTarget;
}

describe('the webhook target guard', () => {
  it('takes an https URL whose name resolves to public addresses only, answering the addresses checked', async () => {
    await expect(checkTarget('https://hooks.example.com/in', deployed)).resolves.toEqual(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    await expect(checkTarget('https://93.184.215.14:8443/in', deployed)).resolves.toEqual(['93.184.215.14']);
    await expect(checkTarget('https://[2606:4700::1111]/in', deployed)).resolves.toEqual(['2606:4700::1111']);
  });

  it('answers, for the connection, the host to name and every address checked with its family (vetTarget), the name resolved once', async () => {
    let asked = 0;
    const counting: Resolver = (hostname) => {
      asked += 1;
      return deployed.resolve(hostname);
    };
    await expect(vetTarget('https://hooks.example.com:8443/in?x=1', { ...deployed, resolve: counting })).resolves.toEqual({
      href: 'https://hooks.example.com:8443/in?x=1',
      hostname: 'hooks.example.com',
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
    });
    expect(asked).toBe(1);
    // An IP literal is its own answer: no question asked.
    await expect(vetTarget('https://[2606:4700::1111]/in', { ...deployed, resolve: counting })).resolves.toMatchObject({
      hostname: '2606:4700::1111',
      addresses: [{ address: '2606:4700::1111', family: 6 }],
    });
    expect(asked).toBe(1);
    // It refuses as checkTarget does.
    await expect(vetTarget('https://169.254.169.254/latest/meta-data/', deployed)).rejects.toMatchObject({ name: 'UnsafeTarget', reason: 'link-local' });
  });

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.45.6.7', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:c0a8:101::1', 'private'],
    ['2001:db8::1', 'reserved'],
    ['::10.0.0.1', 'reserved'],
    ['100::1', 'reserved'],
  ])('refuses %s, an IP literal (%s)', async (address, kind) => {
    expect(classify(address)).toBe(kind);
    const host = address.includes(':') ? `[${address}]` : address;
    const error = await refusal(`https://${host}/hook`);
    expect(error.reason).toBe(kind);
    expect(error.message).toContain('public addresses only');
  });

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '169.255.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'takes %s, a public address',
    (address) => {
      expect(classify(address)).toBeUndefined();
    },
  );

  it('refuses a name that resolves to a private address, naming it', async () => {
    const error = await refusal('https://intranet.example.com/hook', { ...deployed, resolve: resolver({ 'intranet.example.com': ['10.1.2.3'] }) });
    expect(error.reason).toBe('private');
    expect(error.message).toBe('resolves to 10.1.2.3, a private address: webhooks go to public addresses only');
  });

  it('refuses a name that resolves to a public and a private address: every answer counts', async () => {
    const error = await refusal('https://mixed.example.com/hook', {
      ...deployed,
      resolve: resolver({ 'mixed.example.com': ['93.184.215.14', '192.168.0.10'] }),
    });
    expect(error.reason).toBe('private');
  });

  it('refuses a name resolving to the metadata service over IPv6 too', async () => {
    const error = await refusal('https://meta.example.com/', { ...deployed, resolve: resolver({ 'meta.example.com': ['2606:4700::1111', 'fd00:ec2::254'] }) });
    expect(error.reason).toBe('private');
  });

  it('refuses a name that does not resolve, http, other schemes, credentials and text that is no URL', async () => {
    expect((await refusal('https://nowhere.example.com/hook')).reason).toBe('unresolvable');
    expect((await refusal('http://hooks.example.com/hook')).reason).toBe('scheme');
    expect((await refusal('http://hooks.example.com/hook')).message).toBe('must be an https URL');
    expect((await refusal('ftp://hooks.example.com/hook')).reason).toBe('scheme');
    expect((await refusal('https://user:pass@hooks.example.com/hook')).reason).toBe('credentials');
    expect((await refusal('/relative/hook')).reason).toBe('invalid');
  });

  it('reads IPv4 written in other forms as the URL parser does (0x7f.1 is 127.0.0.1)', async () => {
    expect((await refusal('https://0x7f.1/hook')).reason).toBe('loopback');
    expect((await refusal('https://2130706433/hook')).reason).toBe('loopback');
    expect((await refusal('https://0251.0376.0251.0376/hook')).reason).toBe('link-local');
  });

  describe('with loopback allowed (npm start)', () => {
    it('takes loopback targets, over http too', async () => {
      await expect(checkTarget('http://127.0.0.1:8080/hook', local)).resolves.toEqual(['127.0.0.1']);
      await expect(checkTarget('http://[::1]:8080/hook', local)).resolves.toEqual(['::1']);
      await expect(checkTarget('https://127.0.0.2/hook', local)).resolves.toEqual(['127.0.0.2']);
      await expect(checkTarget('http://localhost:8080/hook', { ...local, resolve: resolver({ localhost: ['::1', '127.0.0.1'] }) })).resolves.toEqual([
        '::1',
        '127.0.0.1',
      ]);
    });

    it('still refuses private and link-local targets, and http to anything not loopback', async () => {
      expect((await refusal('http://10.0.0.1/hook', local)).reason).toBe('private');
      expect((await refusal('https://169.254.169.254/latest/meta-data/', local)).reason).toBe('link-local');
      expect((await refusal('https://[fd00:ec2::254]/', local)).reason).toBe('private');
      expect((await refusal('http://hooks.example.com/hook', local)).message).toBe('must be an https URL (http only to a loopback address)');
      expect((await refusal('http://nowhere.example.com/hook', local)).reason).toBe('scheme');
    });
  });
});
