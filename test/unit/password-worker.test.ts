import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { compare, getRounds, hash } from 'bcryptjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decoyHash, hashPassword, usePasswordHasher, verifyPassword } from '../../lib/auth/passwords';
import { defaultPasswordPoolSize, localPasswordHasher, startPasswordPool, type PasswordPool } from '../../local/password-pool';

const BCRYPT_HASH = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;

describe('the password worker pool (local/password-pool.ts)', () => {
  let pool: PasswordPool;

  beforeAll(() => {
    pool = startPasswordPool({ size: 2 });
  });

  afterAll(async () => {
    await pool.stop();
  });

  it('hashes, and the hash compares true with the same input', async () => {
    const stored = await pool.hash('input', 4);

    expect(stored).toMatch(BCRYPT_HASH);
    expect(getRounds(stored)).toBe(4);
    await expect(pool.compare('input', stored)).resolves.toBe(true);
  });

  it('compares false with another input', async () => {
    const stored = await pool.hash('input', 4);

    await expect(pool.compare('another input', stored)).resolves.toBe(false);
  });

  it('is bcryptjs: its hashes verify in process, and the other way round', async () => {
    await expect(compare('input', await pool.hash('input', 4))).resolves.toBe(true);
    await expect(pool.compare('input', await hash('input', 4))).resolves.toBe(true);
  });

  it('runs several in parallel, each with its own salt and answer', async () => {
    const inputs = Array.from({ length: 6 }, (_, index) => `input ${index}`);
    const stored = await Promise.all(inputs.map((input) => pool.hash(input, 4)));

    expect(new Set(stored).size).toBe(inputs.length);
    const right = await Promise.all(inputs.map((input, index) => pool.compare(input, stored[index] as string)));
    const wrong = await Promise.all(inputs.map((input, index) => pool.compare(input, stored[(index + 1) % inputs.length] as string)));
    expect(right).toEqual(inputs.map(() => true));
    expect(wrong).toEqual(inputs.map(() => false));
  });

  it('keeps the event loop free while it hashes', async () => {
    // Two hashes at cost 12 take about 350 ms each here; in process they would block that long.
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    try {
      const started = performance.now();
      await Promise.all([pool.hash('slow one', 12), pool.hash('slow two', 12)]);
      const took = performance.now() - started;
      expect(longestGap).toBeLessThan(Math.min(150, took / 2));
    } finally {
      clearInterval(ticker);
    }
  });

  it.runIf(process.platform === 'linux')('runs its threads at a lower priority than the event loop (nice 10)', async () => {
    await pool.hash('input', 4);
    const nice = (task: string) => {
      const stat = readFileSync(`/proc/${process.pid}/task/${task}/stat`, 'utf8');
      // The fields after the command's closing parenthesis; nice is the 19th field of the line.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const threads = readdirSync(`/proc/${process.pid}/task`).map(nice);

    // (A process already run under `nice` above 10 keeps its own value: lowering it needs privileges.)
    expect(threads).toContain(Math.max(10, nice(String(process.pid))));
  });

  it('rejects what the worker refuses, and goes on working', async () => {
    await expect(pool.compare('input', 42 as unknown as string)).rejects.toThrow(/password worker/);
    await expect(pool.compare('input', await pool.hash('input', 4))).resolves.toBe(true);
  });
});

describe('the pool installed with usePasswordHasher', () => {
  let pool: PasswordPool;

  beforeAll(() => {
    pool = startPasswordPool({ size: 2 });
    usePasswordHasher(pool);
  });

  afterAll(async () => {
    usePasswordHasher(undefined);
    await pool.stop();
  });

  it('hashes and verifies passwords, prehashed as in process', async () => {
    const stored = await hashPassword('correct horse battery staple');

    expect(getRounds(stored)).toBe(10);
    await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse battery stapler', stored)).resolves.toBe(false);
    await expect(verifyPassword('anything', decoyHash())).resolves.toBe(false);
  });

  it('makes hashes the in-process default verifies', async () => {
    const stored = await hashPassword('made in a worker');
    usePasswordHasher(undefined);
    try {
      await expect(verifyPassword('made in a worker', stored)).resolves.toBe(true);
    } finally {
      usePasswordHasher(pool);
    }
  });
});

describe('stopping the pool', () => {
  afterEach(() => usePasswordHasher(undefined));

  it('rejects what waits and what comes after', async () => {
    const pool = startPasswordPool({ size: 1 });
    const outcomes = Promise.allSettled([pool.hash('first', 10), pool.hash('second', 4)]);
    await pool.stop();

    const [running, waiting] = await outcomes;
    expect(running?.status).toBe('rejected');
    expect(waiting).toEqual({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/stopped/) }) });
    await expect(pool.hash('third', 4)).rejects.toThrow(/stopped/);
  });

  it('is not needed for the process to exit: idle workers keep nothing alive', async () => {
    const script = [
      "const { startPasswordPool } = await import('./local/password-pool.ts');",
      'const pool = startPasswordPool({ size: 2 });',
      "console.log(await pool.compare('input', await pool.hash('input', 4)));",
    ].join('\n');
    const run = promisify(execFile);
    const { stdout } = await run(join('node_modules', '.bin', 'tsx'), ['--input-type=module', '--eval', `await (async () => { ${script} })();`], {
      timeout: 20_000,
    });

    expect(stdout.trim()).toBe('true');
  }, 30_000);
});

describe('localPasswordHasher', () => {
  it.each([[undefined], [''], ['pool']])('is the pool by default (%j)', (value) => {
    expect(localPasswordHasher(value)).toBe('pool');
  });

  it('is in process when asked', () => {
    expect(localPasswordHasher('in-process')).toBe('in-process');
  });

  it('refuses anything else', () => {
    expect(() => localPasswordHasher('threads')).toThrow(/LOCAL_PASSWORD_HASHER/);
  });

  it('sizes the pool one thread under the cores, at least one', () => {
    expect(defaultPasswordPoolSize()).toBeGreaterThanOrEqual(1);
  });
});
