import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { vetTarget, type VettedTarget } from './ssrf';

/**
 * The POST of a webhook delivery, to exactly the addresses the SSRF guard checked (DNS pinning).
 *
 * `fetch` resolves the URL's name again when it connects: a name whose DNS server answers a
 * public address to the guard and 169.254.169.254 (the metadata service) a moment later would
 * pass the check and reach the metadata service (DNS rebinding). Here the connection's `lookup`
 * answers the vetted addresses from `vetTarget` and never asks DNS; the name is still the
 * TLS server name (SNI) and the name the certificate is verified for, and the Host header is
 * the URL's host. When the name has several vetted addresses, Node's own address selection
 * (happy eyeballs: IPv6 and IPv4 tried in turn) picks among them, as `fetch` did among all the
 * answers; every one of them was checked.
 *
 * Like `fetch` with `redirect: 'manual'`: a 3xx is answered as it came (never followed), the
 * answer is a WHATWG `Response` whose body streams, a connection failure rejects with
 * `TypeError('fetch failed')` whose `cause` carries the error's `code`, and the signal aborts
 * the request and the body's reading with its reason (a `TimeoutError` for `AbortSignal.timeout`).
 * One connection per request (no pool: a pooled socket would be shared by host name, not by
 * vetted address).
 */

/** What a delivery's POST gives (lib/webhooks/delivery `FetchLike`'s init). */
export interface PinnedInit {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  redirect: 'manual';
  signal: AbortSignal;
  /** The URL as the guard took it; without one, the URL is vetted here first (the `vet` option). */
  target?: VettedTarget;
}

export interface PinnedFetchOptions {
  /** Vets a URL given without a target; default `vetTarget` with the configured settings. */
  vet?: (url: string) => Promise<VettedTarget>;
  /** CA certificates trusted instead of Node's bundled roots (tests with their own certificate). */
  ca?: string | Buffer;
}

export type PinnedFetch = (url: string, init: PinnedInit) => Promise<Response>;

/** Why the signal aborted (a `TimeoutError` DOMException for `AbortSignal.timeout`), as an Error. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

/** A failed connection as `fetch` reports it: `TypeError('fetch failed')`, the error in `cause`. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

/**
 * The `lookup` of a pinned connection: the vetted addresses of the target's host, never a DNS
 * question. Another host name (none is expected: the connection names only the target's) fails.
 */
export function pinnedLookup(target: VettedTarget): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? target.addresses.filter((one) => one.family === options.family) : target.addresses;
    const first = wanted[0];
    if (hostname !== target.hostname || !first) {
      const error = Object.assign(new Error(`no vetted address for ${hostname}`), { code: 'ENOTFOUND', hostname });
      callback(error, '', 0);
      return;
    }
    if (options.all)
      callback(
        null,
        wanted.map((one): LookupAddress => ({ address: one.address, family: one.family })),
      );
    else callback(null, first.address, first.family);
  };
}

/** The URL's host as the request names it: no brackets around an IPv6 literal. */
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** The caller's headers less those this request sets itself (Host, Content-Length), in any case. */
const withoutOwn = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !['host', 'content-length'].includes(name.toLowerCase())));

/** Statuses whose answer has no body (a `Response` refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

function toResponse(message: IncomingMessage): Response {
  const status = message.statusCode ?? 0;
  // A `Response` takes 200..599 only; Node hands 1xx to 'information', so this is 600..999.
  if (status < 200 || status > 599) throw Object.assign(new Error(`invalid HTTP status ${status}`), { code: 'ERR_INVALID_STATUS' });
  const headers = new Headers();
  for (let index = 0; index + 1 < message.rawHeaders.length; index += 2)
    headers.append(message.rawHeaders[index] as string, message.rawHeaders[index + 1] as string);
  if (NULL_BODY.has(status)) {
    message.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(message) as ReadableStream<Uint8Array> as globalThis.ReadableStream<Uint8Array>, { status, headers });
}

/** A fetch for webhook deliveries that connects to the vetted addresses only (see above). */
export function createPinnedFetch(options: PinnedFetchOptions = {}): PinnedFetch {
  const vet = options.vet ?? ((url: string) => vetTarget(url));
  return async (url, init) => {
    const { signal } = init;
    signal.throwIfAborted();
    const parsed = new URL(url);
    const target = init.target ?? (await vet(url));
    signal.throwIfAborted();
    const hostname = bare(parsed.hostname);
    // A target vetted for another host would connect to addresses nobody checked for this one.
    if (target.hostname !== hostname) throw new Error(`the target was vetted for ${target.hostname}, not ${hostname}`);
    const https = parsed.protocol === 'https:';
    if (!https && parsed.protocol !== 'http:') throw new Error(`not an http(s) URL: ${parsed.protocol}`);
    const named = isIP(hostname) === 0;
    const requestOptions: RequestOptions = {
      method: init.method,
      hostname,
      ...(parsed.port ? { port: Number(parsed.port) } : {}),
      path: `${parsed.pathname}${parsed.search}`,
      headers: { ...withoutOwn(init.headers), host: parsed.host, 'content-length': String(Buffer.byteLength(init.body)) },
      agent: false,
      lookup: pinnedLookup(target),
      ...(https && named ? { servername: hostname } : {}),
      ...(https && options.ca !== undefined ? { ca: options.ca } : {}),
    };

    return new Promise<Response>((resolve, reject) => {
      let message: IncomingMessage | undefined;
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      const onAbort = () => {
        const error = abortError(signal);
        // The body's stream errors with the reason too, as fetch's does.
        message?.destroy(error);
        request.destroy();
        fail(error);
      };
      const done = () => signal.removeEventListener('abort', onAbort);
      const request: ClientRequest = (https ? httpsRequest : httpRequest)(requestOptions, (incoming) => {
        message = incoming;
        incoming.once('close', done);
        try {
          const response = toResponse(incoming);
          settled = true;
          resolve(response);
        } catch (error) {
          incoming.destroy();
          done();
          fail(fetchFailed(error));
        }
      });
      signal.addEventListener('abort', onAbort, { once: true });
      // `on`, not `once`: a second error (the socket's, after an abort) must find a listener too.
      request.on('error', (error) => {
        if (!message) done();
        fail(signal.aborted ? abortError(signal) : fetchFailed(error));
      });
      request.end(init.body);
    });
  };
}
