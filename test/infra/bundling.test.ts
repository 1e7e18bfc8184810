import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { LAMBDA_ESBUILD } from '../../infra/bundling';

/** The source files with code in one function's bundle (esbuild also lists those it read and shook out). */
async function bundledInputs(entry: string, options: { dropLabels?: string[] } = {}): Promise<string[]> {
  const result = await build({ ...LAMBDA_ESBUILD, ...options, entryPoints: [entry], outfile: 'bundle.mjs', write: false, metafile: true });
  const metafile: Metafile = result.metafile;
  const [output] = Object.values(metafile.outputs);
  return Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
}

const CLASSIC_ZOD = /^node_modules\/zod\/v4\/classic\//;

describe('the function bundles', () => {
  it("leave each route's ROUTE_DOCS out, and with them the view schemas only the docs import", async () => {
    const inputs = await bundledInputs('functions/auth/me.ts');

    expect(inputs).toContain('functions/auth/me.ts');
    expect(inputs).toContain('lib/auth/sessions.ts');
    expect(inputs).not.toContain('lib/auth/schemas.ts');
    expect(inputs).not.toContain('lib/http/route-docs.ts');
    expect(inputs.filter((input) => CLASSIC_ZOD.test(input))).toEqual([]);
  });

  it('would hold them without the dropped label (what the rule above guards against)', async () => {
    const inputs = await bundledInputs('functions/auth/me.ts', { dropLabels: [] });

    expect(inputs).toContain('lib/auth/schemas.ts');
    expect(inputs).toContain('lib/http/route-docs.ts');
    expect(inputs.some((input) => CLASSIC_ZOD.test(input))).toBe(true);
  });

  it('keep what a handler validates with: a body schema stays in', async () => {
    const inputs = await bundledInputs('functions/inventory/create-movement.ts');

    expect(inputs).toContain('lib/inventory/schemas.ts');
    expect(inputs).not.toContain('lib/http/route-docs.ts');
  });
});
