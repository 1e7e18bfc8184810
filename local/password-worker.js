/**
 * One thread of the local password pool (local/password-pool.ts): bcryptjs, one request at a
 * time, off the emulator's event loop. Plain JavaScript, so the thread starts without tsx.
 *
 * Message in: `{ op: 'hash', input, cost }` or `{ op: 'compare', input, hash }`.
 * Message out: `{ result }` (the hash, or true/false) or `{ error }` (a message).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { compareSync, hashSync } from 'bcryptjs';

if (!parentPort) throw new Error('local/password-worker.js runs as a worker thread');
const port = parentPort;

// On AWS a hash runs on its function's own vCPU and takes no CPU from any other request. A
// laptop has fewer cores than that, so this thread yields to the rest of the emulator: on
// Linux it lowers its own priority (nice 10; a thread's id is a process id to setpriority).
// Elsewhere it runs at the normal priority.
try {
  const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(thread) && thread > 0) setPriority(thread, 10);
} catch {
  // No /proc (macOS, Windows): normal priority.
}

port.on('message', (request) => {
  try {
    const result = request.op === 'hash' ? hashSync(request.input, request.cost) : compareSync(request.input, request.hash);
    port.postMessage({ result });
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
