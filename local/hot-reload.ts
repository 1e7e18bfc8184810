import { watch, type FSWatcher } from 'node:fs';
import { register } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GENERATION_QUERY, nextGeneration, repoRoot } from './runtime';

/**
 * Hot reload for `npm start`: when a file under functions/ or lib/ changes, the handlers
 * loaded so far are imported again in a fresh module graph, while DynamoDB Local, the
 * gateway and the data stay as they are.
 *
 * ES modules cannot be unloaded, so each reload is a new generation: the handler's URL gets
 * `?generation=N`, and the resolve hook below hands that query on to every project file the
 * handler imports (node_modules stay shared: the AWS SDK is not evaluated again). The old
 * generation's project modules stay in memory (a few MB per reload); restart after hundreds.
 * The route manifest is read once: a new or changed route needs a restart (and says so).
 */

/** Runs in Node's loader thread, before tsx's hooks; plain JavaScript, hence a data: URL. */
const RESOLVE_HOOK = `
const root = ${JSON.stringify(pathToFileURL(repoRoot).href)};
const query = ${JSON.stringify(GENERATION_QUERY)};
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const generation = context.parentURL?.startsWith(root) ? new URL(context.parentURL).searchParams.get(query) : null;
  if (generation === null || !resolved.url.startsWith(root) || resolved.url.includes('/node_modules/')) return resolved;
  const url = new URL(resolved.url);
  url.searchParams.set(query, generation);
  return { ...resolved, url: url.href };
}
`;

const WATCHED = ['functions', 'lib'];
const MANIFEST = 'lib/routes/';
const DEBOUNCE_MS = 150;

export interface HotReload {
  /** Stop watching. */
  stop(): void;
}

/**
 * Watch functions/ and lib/ and reload on change. `log` gets one line per reload: what
 * changed, how many handlers were imported again and how long that took, or why one failed
 * (its route then answers 500 until the file is fixed).
 */
export function startHotReload(log: (line: string) => void): HotReload {
  register(`data:text/javascript,${encodeURIComponent(RESOLVE_HOOK)}`);
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const reload = async () => {
    const files = [...changed].sort();
    changed.clear();
    const started = performance.now();
    const { generation, reimport } = nextGeneration();
    const outcomes = await reimport();
    const failed = outcomes.filter((outcome) => outcome.error !== undefined);
    const what = files.length > 3 ? `${files.slice(0, 3).join(', ')} and ${files.length - 3} more` : files.join(', ');
    const took = `${Math.round(performance.now() - started)} ms`;
    log(
      failed.length === 0
        ? `[reload] ${what} changed: generation ${generation}, ${outcomes.length} loaded handler(s) imported again in ${took}`
        : `[reload] ${what} changed: generation ${generation}, ${failed.map((outcome) => `${outcome.file} failed to load (${outcome.error})`).join('; ')}; its route answers 500 until fixed`,
    );
    if (files.some((file) => file.startsWith(MANIFEST)))
      log(`[reload] the route manifest (${MANIFEST}) is read once at start: restart npm start for new or changed routes`);
  };

  const watchers: FSWatcher[] = WATCHED.map((folder) =>
    watch(join(repoRoot, folder), { recursive: true }, (_event, name) => {
      if (!name || !/\.(ts|json)$/.test(name)) return;
      changed.add(relative(repoRoot, join(repoRoot, folder, name.toString())));
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(reload, reload);
      }, DEBOUNCE_MS);
    }),
  );
  return {
    stop: () => {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
