/**
 * One thread of the local password pool (local/password-pool.ts): bcryptjs, one request at a
 * time, off the emulator's event loop. Plain JavaScript, so the thread starts without tsx.
 *
 * Message in: `{ id, op: 'hash', input, cost }` or `{ id, op: 'compare', input, hash }`.
 * Message out: `{ id, result }` (the hash, or true/false) or `{ id, error }` (a message).
 */
import { parentPort } from 'node:worker_threads';
import { compareSync, hashSync } from 'bcryptjs';

if (!parentPort) throw new Error('local/password-worker.js runs as a worker thread');
const port = parentPort;

port.on('message', (request) => {
  try {
    const result = request.op === 'hash' ? hashSync(request.input, request.cost) : compareSync(request.input, request.hash);
    port.postMessage({ id: request.id, result });
  } catch (error) {
    port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
