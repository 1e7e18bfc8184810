/**
 * `npm run invoke -- <FunctionLogicalId | "METHOD /path"> [event.json] [--as <email>]`
 *
 * The Docker-free counterpart of `sam local invoke`: runs one function of the synthesized
 * cloud assembly (cdk.out, stack Backoffice-dev; synthesized first when missing or stale),
 * its asset bundle and the handler the template names, in a worker with its template
 * environment resolved for the local store, its DynamoDB calls checked against its role's
 * grants by the IAM proxy (local/bundles). The store is the running `npm start`'s on
 * `$DATA_DIR`, else a DynamoDB Local of this command's own there.
 *
 * As SAM does: the function's logs on stderr, the JSON result on stdout (`npm run -s invoke`
 * keeps npm's own banner off stdout, so the JSON can be piped). The event is the
 * file given, else the route's sample event (`events/<handler>.json`, `npm run routes`).
 * `--as <email>`: a real session of that local user, its cookies in the event, and for a
 * protected route the authorizer bundle run first, its context put into the event.
 * `--assembly <dir>`: another cloud assembly than cdk.out (synthesized there when stale);
 * `--no-synth`: run the assembly as it is, stale or not.
 *
 * Exit code 0 when the function returned (whatever the status code it answered), 1 when it
 * threw or could not run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { authorizer, jobs, routeList } from '../lib/routes';
import { ensureAssembly, findFunction, readAssembly, type AssemblyRoute, type CloudAssembly } from '../local/bundles/assembly';
import { startBundleRuntime } from '../local/bundles/runner';
import { authorize, sessionCookieHeader, withCookie } from '../local/bundles/session';
import { InvocationError } from '../local/bundles/worker';
import { localSettings } from '../local/environment';
import { repoRoot } from '../local/runtime';
import { connectLocalStore } from '../local/store';

const USAGE = 'usage: npm run -s invoke -- <FunctionLogicalId | "METHOD /path"> [event.json] [--as <email>] [--assembly <cdk.out directory>] [--no-synth]';

/** The sample event of a function: the manifest names its handler, `events/<handler>.json` (tools: scripts/route-artifacts.ts). */
function sampleEventFile(assembly: CloudAssembly, functionId: string, route: AssemblyRoute | undefined): string | undefined {
  let handler: string | undefined;
  if (route) handler = routeList().find((candidate) => candidate.method === route.method && candidate.path === route.path)?.handler;
  else if (assembly.routes.some((candidate) => candidate.authorizerFunctionId === functionId)) handler = authorizer.handler;
  else handler = Object.entries(jobs).find(([id]) => `${id.charAt(0).toUpperCase()}${id.slice(1)}Function` === functionId)?.[1].handler;
  return handler ? join(repoRoot, 'events', `${basename(handler, '.ts')}.json`) : undefined;
}

/**
 * npm writes `> backoffice-api@0.1.0 invoke` on stdout before it runs a script, unless it runs
 * silent (`npm run -s`, which it tells the script as npm_config_loglevel). When stdout goes to
 * a pipe or a file, that banner would precede the JSON, so say how to keep it out.
 */
function noteNpmBanner(): void {
  if (process.env.npm_lifecycle_event === 'invoke' && process.env.npm_config_loglevel !== 'silent' && !process.stdout.isTTY) {
    console.error('Note: npm printed its banner on stdout before the result; `npm run -s invoke -- …` leaves the JSON alone there.');
  }
}

async function main(): Promise<number> {
  noteNpmBanner();
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { as: { type: 'string' }, assembly: { type: 'string' }, 'no-synth': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [target, eventArgument] = positionals;
  if (values.help || !target || positionals.length > 2) {
    console.error(USAGE);
    return values.help ? 0 : 1;
  }

  const dir = values.assembly === undefined ? undefined : resolve(values.assembly);
  if (!values['no-synth']) ensureAssembly({ ...(dir ? { dir } : {}), log: (line) => console.error(line) });
  const assembly = readAssembly(dir ? { dir } : {});
  const { fn, route } = findFunction(assembly, target);
  const eventFile = eventArgument ? resolve(eventArgument) : sampleEventFile(assembly, fn.logicalId, route);
  if (!eventFile || !existsSync(eventFile))
    throw new Error(
      `No event: give an event file (${eventFile ? `${eventFile} is missing; npm run routes writes the sample events` : `${fn.logicalId} has no sample event`})`,
    );
  let event = JSON.parse(readFileSync(eventFile, 'utf8')) as APIGatewayProxyEvent;

  // Tokens made here must verify in the bundles: the template's issuer and audience.
  const authorizerFn = route?.authorizerFunctionId ? assembly.functions.get(route.authorizerFunctionId) : undefined;
  for (const name of ['JWT_ISSUER', 'JWT_AUDIENCE'] as const) {
    const value = (authorizerFn ?? fn).environment[name];
    if (values.as !== undefined && typeof value === 'string') process.env[name] = value;
  }
  const store = await connectLocalStore({ privateStore: true });
  const settings = localSettings();
  const runtime = await startBundleRuntime({
    assembly,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT as string,
    dataDir: settings.dataDir,
    tableName: process.env.TABLE_NAME as string,
  });
  try {
    console.error(`Invoking ${fn.logicalId} (${fn.handler} in ${basename(fn.assetDir)}, ${fn.memoryMB} MB, ${fn.timeoutSeconds} s) with ${eventFile}`);
    if (values.as !== undefined) {
      event = withCookie(event, await sessionCookieHeader(values.as));
      if (route?.authorizerFunctionId) event = await authorize(event, runtime.worker(route.authorizerFunctionId));
    }
    try {
      const result = await runtime.worker(fn.logicalId).invoke(event, { awsRequestId: event.requestContext?.requestId });
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof InvocationError)) throw error;
      process.stdout.write(`${JSON.stringify(error)}\n`);
      return 1;
    }
  } finally {
    await runtime.stop();
    await store.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
