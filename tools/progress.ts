import { Presets, SingleBar } from 'cli-progress';

/** A step's progress as a command-line tool shows it. */
export interface Progress {
  increment(): void;
  update(value: number): void;
  stop(): void;
}

/**
 * A progress bar on a terminal; elsewhere (a pipe, a file, CI) one line when the step ends,
 * `label  done/total in 1.2 s`, since a redrawn bar only makes sense where it can be redrawn.
 */
export function progress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): Progress {
  if (stream.isTTY) {
    const bar = new SingleBar({ format: `${label.padEnd(22)} {bar} {value}/{total}`, hideCursor: true, stream }, Presets.shades_classic);
    bar.start(total, 0);
    return { increment: () => bar.increment(), update: (value) => bar.update(value), stop: () => bar.stop() };
  }
  const started = now();
  let done = 0;
  let stopped = false;
  return {
    increment: () => void (done += 1),
    update: (value) => void (done = value),
    stop: () => {
      if (stopped) return;
      stopped = true;
      stream.write(`${label.padEnd(22)} ${done}/${total} in ${((now() - started) / 1000).toFixed(1)} s\n`);
    },
  };
}
