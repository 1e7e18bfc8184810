import * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Document, Spectral } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader';
import { fetch } from '@stoplight/spectral-runtime';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../tools/openapi/document';

/** The document `npm run openapi` writes (docs/openapi.json is generated, not committed), as it writes it. */
const DOCUMENT = resolve('docs/openapi.json');
const RULESET = resolve('.spectral.yaml');

describe('the OpenAPI document under Spectral', () => {
  it('has no finding of the spectral:oas ruleset (.spectral.yaml), not even a hint', async () => {
    const spectral = new Spectral();
    spectral.setRuleset(await bundleAndLoadRuleset(RULESET, { fs, fetch }));

    const findings = await spectral.run(new Document(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`, Parsers.Json, DOCUMENT));

    const shown = findings.map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`);
    expect(shown).toEqual([]);
  }, 30_000);

  it('extends spectral:oas with no rule switched off', () => {
    const ruleset = readFileSync(RULESET, 'utf8');
    expect(ruleset).toMatch(/^extends: \["spectral:oas"\]$/m);
    expect(ruleset).not.toMatch(/^\s*rules:/m);
  });
});
