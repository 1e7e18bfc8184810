import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../../local/runtime';
import { FILES_THAT_MOCK_MODULES } from '../../vitest.config';

it('runs every unit and handler test file that mocks a module in the isolated project', () => {
  const files = ['test/unit', 'test/handlers'].flatMap((folder) =>
    readdirSync(path.join(repoRoot, folder))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `${folder}/${file}`),
  );
  const mocking = files.filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(path.join(repoRoot, file), 'utf8'))).sort();
  expect(mocking).toEqual([...FILES_THAT_MOCK_MODULES].sort());
});
