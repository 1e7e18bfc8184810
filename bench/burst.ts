/**
 * Sign-in and registration floods against the local emulator: does a burst of 200
 * unauthenticated requests from one address slow GET /auth/me for everyone else? The target:
 * /auth/me's median while the burst is in flight stays within 2× its idle median, measured
 * in the same run.
 *
 * Each hasher gets a fresh local API (`startLocalApi`, in memory): `in-process`, bcryptjs on
 * the event loop (LOCAL_PASSWORD_HASHER=in-process, what the emulator did before its pool),
 * then `pool`, the default of `npm start` (local/password-pool.ts). On each:
 *
 * 1. a few accounts signed up through the e-mailed invitation, and every route warmed (the
 *    handlers imported, DynamoDB Local's JIT past its first seconds);
 * 2. idle: several hundred GET /auth/me from a few concurrent clients, one per account;
 * 3. login burst: the same clients run while 200 parallel POST /auth/login with rotating
 *    unknown e-mails come from ONE source address (the gateway reads it from the socket:
 *    the burst binds to a loopback address). The per-IP ceiling lets 30 through to bcrypt
 *    (a 401 each, against the decoy hash) and answers the rest 429;
 * 4. registration burst: the same with 200 POST /auth/register with made-up invitation
 *    tokens from another address: 403 (no bcrypt) up to the ceiling, then 429;
 * 5. idle again. The ratios divide by the lower of the two idle figures, so a store still
 *    warming up during the first cannot flatter them.
 *
 * Only the /auth/me requests sent between the burst's first request and its last answer
 * count for a burst. The burst is sent from a worker thread, so building and reading its 200
 * requests does not delay the measuring clients' own event loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SIGN_IN_ATTEMPTS_PER_IP } from '../lib/routes';
import { startLocalApi, type LocalApi } from '../tools/local-api';
import { signUp, type SignedUp } from './support/sign-up';

type Hasher = 'in-process' | 'pool';

export interface BurstFigure {
  hasher: Hasher;
  /** Worker threads of the pool (0 in process). */
  poolSize: number;
  phase: 'idle before' | 'login burst' | 'register burst' | 'idle after';
  /** From the burst's first request to its last answer (null when idle). */
  burstMs: number | null;
  /** GET /auth/me answered in the phase (sent within the burst's window, for a burst). */
  meRequests: number;
  meMedianMs: number;
  meP90Ms: number;
  meMaxMs: number;
  /** /auth/me answers other than 200 (expected 0). */
  meFailures: number;
  /** The median over the idle median of the same API (the lower of the two idle phases). */
  ratio: number;
  /** The p90 over the idle p90 of the same API (the lower of the two idle phases). */
  p90Ratio: number;
  /** The burst's answers by status. */
  statuses: Record<string, number> | null;
  /** 401 (login) or 403 (register) with the expected problem type: what reached the route's check. */
  refused: number | null;
  /** 429: the per-IP ceiling. */
  throttled: number | null;
  /** Refused equals the ceiling, the rest are 429, nothing else. */
  countsAsExpected: boolean | null;
  /** The 1-minute load average as the phase began: what else the machine was running. */
  loadAverage: number;
  /** ratio <= TARGET_RATIO, and every /auth/me answered 200 (null when idle). */
  met: boolean | null;
}

export interface BurstResults {
  targetRatio: number;
  burstSize: number;
  perIpLimit: number;
  clients: number;
  idleRequests: number;
  figures: BurstFigure[];
}

export const TARGET_RATIO = 2;
const BURST = 200;
const ACCOUNTS = 4;
const IDLE_REQUESTS = 400;
const WARM_UP_MS = 10_000;
const LOGIN_ADDRESS = '127.77.0.1';
const REGISTER_ADDRESS = '127.77.0.2';
/** The address the warm-up signs in and registers from, so it uses none of the bursts' slots. */
const WARM_UP_ADDRESS = '127.78.0.1';

const now = () => performance.timeOrigin + performance.now();
const loadAverage = () => loadavg()[0] ?? 0;
const round = (value: number) => Math.round(value * 10) / 10;

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

interface Sample {
  startedAt: number;
  ms: number;
  status: number;
}

/** One GET /auth/me on a keep-alive connection of the client's agent. */
function me(url: string, agent: Agent, cookie: string): Promise<Sample> {
  return new Promise((resolveSample, reject) => {
    const startedAt = now();
    const outgoing = request(`${url}/auth/me`, { agent, headers: { cookie } }, (incoming) => {
      incoming.resume();
      incoming.on('end', () => resolveSample({ startedAt, ms: now() - startedAt, status: incoming.statusCode ?? 0 }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** One measuring client per account, each on its own keep-alive connection. */
function clients(accounts: SignedUp[]) {
  return accounts.map((account) => ({ account, agent: new Agent({ keepAlive: true, maxSockets: 1 }) }));
}

/** Plain JavaScript (an eval worker): send every body at once from one address, report each answer. */
const BURST_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { request } = require('node:http');
const { url, path, localAddress, bodies } = workerData;
const now = () => performance.timeOrigin + performance.now();
const send = (body) => new Promise((resolve) => {
  const payload = JSON.stringify(body);
  const outgoing = request(url + path, { method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (incoming) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', () => {
      let type = null;
      try { type = JSON.parse(Buffer.concat(chunks).toString('utf8')).type ?? null; } catch {}
      resolve({ status: incoming.statusCode, type });
    });
  });
  outgoing.on('error', (error) => resolve({ status: 0, type: String(error) }));
  outgoing.end(payload);
});
const startedAt = now();
Promise.all(bodies.map(send)).then((answers) => parentPort.postMessage({ startedAt, endedAt: now(), answers }));
`;

interface BurstOutcome {
  startedAt: number;
  endedAt: number;
  answers: { status: number; type: string | null }[];
}

function sendBurst(url: string, path: string, localAddress: string, bodies: unknown[]): Promise<BurstOutcome> {
  return new Promise((resolveBurst, reject) => {
    const worker = new Worker(BURST_WORKER, { eval: true, workerData: { url, path, localAddress, bodies } });
    worker.once('message', (outcome: BurstOutcome) => {
      resolveBurst(outcome);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

function summary(samples: Sample[], loadAverage: number) {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    meRequests: samples.length,
    meMedianMs: round(percentile(sorted, 0.5)),
    meP90Ms: round(percentile(sorted, 0.9)),
    meMaxMs: round(sorted.at(-1) ?? Number.NaN),
    meFailures: samples.filter((sample) => sample.status !== 200).length,
    loadAverage: round(loadAverage),
  };
}

async function idle(url: string, accounts: SignedUp[]): Promise<Measured> {
  const load = loadAverage();
  const samples: Sample[] = [];
  const perClient = Math.ceil(IDLE_REQUESTS / accounts.length);
  const measuring = clients(accounts);
  await Promise.all(
    measuring.map(async ({ account, agent }) => {
      for (let index = 0; index < perClient; index += 1) samples.push(await me(url, agent, account.cookie));
    }),
  );
  for (const { agent } of measuring) agent.destroy();
  return summary(samples, load);
}

const pause = (ms: number) => new Promise((resolvePause) => setTimeout(resolvePause, ms));

/** The measuring clients, each sending GET /auth/me after GET /auth/me until `during` settles. */
async function meWhile<T>(url: string, accounts: SignedUp[], during: () => Promise<T>): Promise<{ samples: Sample[]; outcome: T }> {
  const samples: Sample[] = [];
  let running = true;
  const measuring = clients(accounts);
  const loops = measuring.map(async ({ account, agent }) => {
    while (running) samples.push(await me(url, agent, account.cookie));
  });
  try {
    return { samples, outcome: await during() };
  } finally {
    running = false;
    await Promise.all(loops);
    for (const { agent } of measuring) agent.destroy();
  }
}

/** The measuring clients run from before the burst until after its last answer; the samples sent in its window count. */
async function duringBurst(url: string, accounts: SignedUp[], burst: () => Promise<BurstOutcome>): Promise<{ measured: Measured; outcome: BurstOutcome }> {
  const load = loadAverage();
  const { samples, outcome } = await meWhile(url, accounts, async () => {
    // The clients at their pace before the burst starts.
    await pause(200);
    return burst();
  });
  return {
    measured: summary(
      samples.filter((sample) => sample.startedAt >= outcome.startedAt && sample.startedAt <= outcome.endedAt),
      load,
    ),
    outcome,
  };
}

async function startWith(hasher: Hasher, dataDir: string): Promise<{ api: LocalApi; poolSize: number }> {
  let output = '';
  const previous = process.env.LOCAL_PASSWORD_HASHER;
  // startLocalApi hands this process's environment to the API it spawns.
  process.env.LOCAL_PASSWORD_HASHER = hasher;
  let api: LocalApi;
  try {
    api = await startLocalApi({ dataDir, inMemory: true, allowedOrigins: 'https://app.example.com', onOutput: (text) => (output += text) });
  } finally {
    if (previous === undefined) delete process.env.LOCAL_PASSWORD_HASHER;
    else process.env.LOCAL_PASSWORD_HASHER = previous;
  }
  // The line comes right after "API listening on": wait for it, and check the API runs the hasher asked for.
  for (let waited = 0; !/Passwords hashed/.test(output) && waited < 5_000; waited += 20) await pause(20);
  const pool = /Passwords hashed by (\d+) worker thread/.exec(output);
  const inProcess = /Passwords hashed on the event loop/.test(output);
  if (hasher === 'pool' ? !pool : !inProcess) {
    await api.stop();
    throw new Error(`the local API did not run the ${hasher} hasher:\n${output}`);
  }
  return { api, poolSize: pool ? Number(pool[1]) : 0 };
}

async function post(url: string, path: string, body: unknown, localAddress: string): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const payload = JSON.stringify(body);
    const outgoing = request(
      `${url}${path}`,
      { method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (incoming) => {
        incoming.resume();
        incoming.on('end', () => resolveStatus(incoming.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

type Measured = ReturnType<typeof summary>;
const ratioOf = (value: number, baseline: number) => Math.round((value / baseline) * 100) / 100;

function idleFigure(base: Pick<BurstFigure, 'hasher' | 'poolSize'>, phase: 'idle before' | 'idle after', measured: Measured, baseline: Measured): BurstFigure {
  return {
    ...base,
    phase,
    burstMs: null,
    ...measured,
    ratio: ratioOf(measured.meMedianMs, baseline.meMedianMs),
    p90Ratio: ratioOf(measured.meP90Ms, baseline.meP90Ms),
    statuses: null,
    refused: null,
    throttled: null,
    countsAsExpected: null,
    met: null,
  };
}

function burstFigure(
  base: Pick<BurstFigure, 'hasher' | 'poolSize'>,
  phase: 'login burst' | 'register burst',
  baseline: Measured,
  { measured, outcome }: { measured: Measured; outcome: BurstOutcome },
): BurstFigure {
  const refusal = phase === 'login burst' ? { status: 401, type: /\/unauthorized$/ } : { status: 403, type: /\/forbidden$/ };
  const statuses: Record<string, number> = {};
  for (const answer of outcome.answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  const refused = outcome.answers.filter((answer) => answer.status === refusal.status && refusal.type.test(answer.type ?? '')).length;
  const throttled = statuses['429'] ?? 0;
  return {
    ...base,
    phase,
    burstMs: Math.round(outcome.endedAt - outcome.startedAt),
    ...measured,
    ratio: ratioOf(measured.meMedianMs, baseline.meMedianMs),
    p90Ratio: ratioOf(measured.meP90Ms, baseline.meP90Ms),
    statuses,
    refused,
    throttled,
    countsAsExpected: refused === SIGN_IN_ATTEMPTS_PER_IP.limit && throttled === BURST - SIGN_IN_ATTEMPTS_PER_IP.limit,
    met: measured.meFailures === 0 && measured.meMedianMs <= TARGET_RATIO * baseline.meMedianMs,
  };
}

async function runOne(hasher: Hasher, log: (line: string) => void): Promise<BurstFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), `backoffice-burst-${hasher}-`));
  const { api, poolSize } = await startWith(hasher, dataDir);
  try {
    const base = { hasher, poolSize };
    const accounts: SignedUp[] = [];
    for (let index = 0; index < ACCOUNTS; index += 1) {
      accounts.push(
        await signUp(api.url, dataDir, {
          tenantName: `burst-${index}`,
          name: `Burst ${index}`,
          email: `burst-${index}@bench.example`,
          password: `burst password ${index}`,
        }),
      );
    }
    // Warm every route the run uses (each handler's first call imports it: a cold start), and
    // DynamoDB Local's JVM, whose first seconds are slower.
    log(`burst (${hasher}): warming up for ${WARM_UP_MS / 1000} s ...`);
    await post(api.url, '/auth/login', { email: 'warm-up@unknown.example', password: 'not the password' }, WARM_UP_ADDRESS);
    await post(
      api.url,
      '/auth/register',
      { name: 'Warm', email: 'warm-up@unknown.example', password: 'warm up password', tenantId: accounts[0]?.tenantId, invitationToken: 'made-up' },
      WARM_UP_ADDRESS,
    );
    await meWhile(api.url, accounts, () => pause(WARM_UP_MS));

    log(`burst (${hasher}): idle GET /auth/me, ${IDLE_REQUESTS} requests from ${ACCOUNTS} clients ...`);
    const idleBefore = await idle(api.url, accounts);

    log(`burst (${hasher}): ${BURST} POST /auth/login from ${LOGIN_ADDRESS} ...`);
    const logins = Array.from({ length: BURST }, (_, index) => ({ email: `nobody-${index}@unknown.example`, password: `guess number ${index}` }));
    const login = await duringBurst(api.url, accounts, () => sendBurst(api.url, '/auth/login', LOGIN_ADDRESS, logins));

    await pause(500);
    log(`burst (${hasher}): ${BURST} POST /auth/register from ${REGISTER_ADDRESS} ...`);
    const tenantId = accounts[0]?.tenantId;
    const registrations = Array.from({ length: BURST }, (_, index) => ({
      name: `Nobody ${index}`,
      email: `nobody-${index}@unknown.example`,
      password: `password number ${index}`,
      tenantId,
      invitationToken: `made-up-token-${index}`,
    }));
    const register = await duringBurst(api.url, accounts, () => sendBurst(api.url, '/auth/register', REGISTER_ADDRESS, registrations));

    await pause(500);
    log(`burst (${hasher}): idle GET /auth/me again ...`);
    const idleAfter = await idle(api.url, accounts);
    // The stronger baseline: the lower idle median (and p90) of the two.
    const baseline = {
      ...idleBefore,
      meMedianMs: Math.min(idleBefore.meMedianMs, idleAfter.meMedianMs),
      meP90Ms: Math.min(idleBefore.meP90Ms, idleAfter.meP90Ms),
    };

    return [
      idleFigure(base, 'idle before', idleBefore, baseline),
      burstFigure(base, 'login burst', baseline, login),
      burstFigure(base, 'register burst', baseline, register),
      idleFigure(base, 'idle after', idleAfter, baseline),
    ];
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runBurstBench(log: (line: string) => void): Promise<BurstResults> {
  const figures: BurstFigure[] = [];
  for (const hasher of ['in-process', 'pool'] as const) figures.push(...(await runOne(hasher, log)));
  return { targetRatio: TARGET_RATIO, burstSize: BURST, perIpLimit: SIGN_IN_ATTEMPTS_PER_IP.limit, clients: ACCOUNTS, idleRequests: IDLE_REQUESTS, figures };
}
