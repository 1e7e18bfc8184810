import { describe, expect, it } from 'vitest';
import { cycles, runtimeImports } from '../../tools/import-cycles';

/** The lint step that refuses import cycles: what counts as an import at run time, and the cycles it finds. */
describe('runtimeImports', () => {
  it('counts value imports and re-exports, not type-only ones or dynamic imports', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C, type D } from './c';",
      "import { type E, f } from './e';",
      "import g from './g';",
      "import * as h from './h';",
      "import './side-effect';",
      "export { i } from './i';",
      "export type { J } from './j';",
      "export * from './k';",
      "const later = () => import('./lazy');",
    ].join('\n');
    expect(runtimeImports(source)).toEqual(['./a', './e', './g', './h', './side-effect', './i', './k']);
  });
});

describe('cycles', () => {
  it('finds each set of modules that import each other, and nothing in a tree', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
      ['f.ts', ['d.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    expect(
      cycles(
        new Map([
          ['x.ts', ['y.ts']],
          ['y.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});
