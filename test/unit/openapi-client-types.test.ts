import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../tools/openapi/document';

const directory = mkdtempSync(join(tmpdir(), 'openapi-types-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** `npx openapi-typescript docs/openapi.json -o api.d.ts`, with its default options. */
async function generatedTypes(): Promise<string> {
  const document = buildOpenApiDocument();
  return astToString(await openapiTS(JSON.parse(JSON.stringify(document)) as Parameters<typeof openapiTS>[0]));
}

/** `tsc --noEmit --strict api.d.ts` (and a file that uses it): the diagnostics, as text. */
function typeErrors(files: Record<string, string>): string[] {
  const paths = Object.entries(files).map(([name, text]) => {
    const path = join(directory, name);
    writeFileSync(path, text);
    return path;
  });
  const program = ts.createProgram(paths, {
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: false,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('the TypeScript types openapi-typescript generates from the document (default options)', () => {
  it('type-check under --strict, and read as a client expects: optional request defaults, one movement shape per type', async () => {
    const types = await generatedTypes();
    const usage = `import type { components } from './api';
type Schemas = components['schemas'];
// A request field with a default can be left out.
export const login: Schemas['LoginRequest'] = { email: 'ana@example.com', password: 'correct horse battery' };
// The movement types: IN needs a unit cost, SALE takes none.
export const receipt: Schemas['CreateMovementRequest'] = { productId: 'p', warehouseId: 'w', type: 'IN', quantity: 24, unitCost: 18.9 };
export const sale: Schemas['CreateMovementRequest'] = { productId: 'p', warehouseId: 'w', type: 'SALE', quantity: 2 };
// @ts-expect-error an IN without its unit cost
export const noCost: Schemas['CreateMovementRequest'] = { productId: 'p', warehouseId: 'w', type: 'IN', quantity: 24 };
// @ts-expect-error a SALE with a unit cost
export const costedSale: Schemas['CreateMovementRequest'] = { productId: 'p', warehouseId: 'w', type: 'SALE', quantity: 2, unitCost: 1 };
// @ts-expect-error a state outside the UFs
export const address: Schemas['AddressInput'] = { street: 'Av. Paulista', number: '1000', city: 'São Paulo', state: 'XX', zipCode: '01310-100' };
// Only a 400's problem names fields.
export const fields: Schemas['ValidationProblem']['errors'] = [{ field: 'name', message: 'must not be empty' }];
// @ts-expect-error other problems have no errors
export const none: Schemas['Problem']['errors'] = undefined;
`;

    expect(typeErrors({ 'api.d.ts': types, 'usage.ts': usage })).toEqual([]);
  }, 30_000);
});
