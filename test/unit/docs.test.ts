import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../local/runtime';

/**
 * The README and docs/ stand on their own: the README stays a short front door, no page
 * points outside the repository or speaks of issue numbers or of the machine it was written
 * on, every relative link lands on a file, and the layout in docs/architecture.md is the tree.
 */

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const pages = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

/** The lines of every page that match `pattern`, as `file:line: text`. */
function linesMatching(pattern: RegExp): string[] {
  return pages.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe('the README and docs/', () => {
  it('keep the README a front door of at most 200 lines', () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('never point outside the repository', () => {
    expect(linesMatching(/\.\.\/shared|interface\.md|contract\.md/)).toEqual([]);
  });

  it('mention no issue numbers and no machine they were measured on', () => {
    expect(linesMatching(/\bissues? #?\d+|\(#\d+\)|this (2-core )?machine/i)).toEqual([]);
  });

  it('link only to files that exist', () => {
    const broken = pages.flatMap((file) =>
      [...read(file).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => (match[1] as string).split('#')[0] as string)
        .filter((target) => target !== '' && !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(path.resolve(path.dirname(path.join(repoRoot, file)), target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });
});

describe("the code's comments", () => {
  it('cite no issue number and no document outside the repository: they say the reason, or link into docs/', () => {
    const tracked = execFileSync('git', ['ls-files', 'lib', 'functions', 'infra', 'local', 'tools', 'scripts', 'bench', 'console/src', 'test'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => /\.(ts|tsx|js)$/.test(file) && file !== 'test/unit/docs.test.ts');
    const citing = tracked.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) =>
          /\bissues? #?\d+\b|contract section|interface\.md|contract\.md|\.\.\/shared\//i.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(citing).toEqual([]);
  });
});

describe('the layout of docs/architecture.md', () => {
  const block = /## Layout\n\n```text\n([\s\S]*?)\n```/.exec(read('docs/architecture.md'))?.[1] ?? '';
  const listed = block
    .split('\n')
    .filter((line) => /^\S/.test(line))
    .map((line) => line.split(/\s{2,}/)[0] as string);

  it('is a block of paths with their descriptions', () => {
    expect(listed.length).toBeGreaterThan(20);
  });

  it('names only paths that exist, folders with a trailing slash', () => {
    const wrong = listed.filter((entry) => {
      const full = path.join(repoRoot, entry);
      if (!existsSync(full)) return true;
      const isFolder = readdirSyncSafe(full) !== undefined;
      return isFolder !== entry.endsWith('/');
    });
    expect(wrong).toEqual([]);
  });

  it('names every tracked top-level folder and everything directly under lib/ and scripts/', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
    const topFolders = new Set(tracked.filter((file) => file.includes('/')).map((file) => `${file.split('/')[0]}/`));
    const under = (folder: string) =>
      new Set(
        tracked
          .filter((file) => file.startsWith(`${folder}/`))
          .map((file) => {
            const [first, ...rest] = file.slice(folder.length + 1).split('/');
            return `${folder}/${first}${rest.length > 0 ? '/' : ''}`;
          }),
      );
    const expected = [...topFolders, ...under('lib'), ...under('scripts')].sort();
    expect(expected.filter((entry) => !listed.includes(entry))).toEqual([]);
  });
});

function readdirSyncSafe(full: string): string[] | undefined {
  try {
    return readdirSync(full);
  } catch {
    return undefined;
  }
}
