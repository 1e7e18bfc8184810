import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { TableKeys } from './iam';
import { repoRoot } from '../runtime';

/**
 * The synthesized cloud assembly (`cdk.out`), read the way the deployment reads it: each
 * AWS::Lambda::Function with its asset directory and handler, its template environment, its
 * role and the statements of every policy attached to that role; the REST API's routes, from
 * the API Gateway Method resources (their integration URI names the function); the table's
 * key schema. Nothing here comes from the sources: what runs is what deploys.
 */

export const DEFAULT_ASSEMBLY_DIR = join(repoRoot, 'cdk.out');
export const DEFAULT_STACK_NAME = 'Backoffice-dev';

/** A value of the template: a literal or an intrinsic function (`Ref`, `Fn::GetAtt`, `Fn::Join`…). */
export type TemplateValue = string | number | boolean | null | TemplateValue[] | { [key: string]: TemplateValue };

/** A scalar template value as text (what CloudFormation makes of it); anything else, `fallback`. */
export function scalarText(value: TemplateValue | undefined, fallback = ''): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : fallback;
}

export interface TemplateResource {
  Type: string;
  Properties?: Record<string, TemplateValue>;
  Metadata?: Record<string, TemplateValue>;
  DependsOn?: string | string[];
}

export interface Template {
  Resources: Record<string, TemplateResource>;
  Parameters?: Record<string, TemplateValue>;
  Outputs?: Record<string, { Value: TemplateValue }>;
}

/** Renames the logical ids of a template value (Ref, Fn::GetAtt, Fn::Sub's `${Id}`) and puts values for Refs and nested outputs. */
function rewrite(
  value: TemplateValue,
  change: { ids?: ReadonlyMap<string, string>; refs?: ReadonlyMap<string, TemplateValue>; outputs?: ReadonlyMap<string, TemplateValue> },
): TemplateValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => rewrite(item, change));
  if (typeof value.Ref === 'string' && Object.keys(value).length === 1) {
    const put = change.refs?.get(value.Ref);
    if (put !== undefined) return put;
    return { Ref: change.ids?.get(value.Ref) ?? value.Ref };
  }
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string' && typeof getAtt[1] === 'string') {
    const output = change.outputs?.get(`${getAtt[0]}.${getAtt[1]}`);
    if (output !== undefined) return output;
    return { 'Fn::GetAtt': [change.ids?.get(getAtt[0]) ?? getAtt[0], getAtt[1]] };
  }
  const sub = value['Fn::Sub'];
  if (typeof sub === 'string' && change.ids) {
    return {
      'Fn::Sub': sub.replace(/\$\{([A-Za-z0-9]+)(\.[A-Za-z0-9.]+)?\}/g, (whole, id: string, rest = '') =>
        change.ids?.has(id) ? `\${${change.ids.get(id) as string}${rest as string}}` : whole,
      ),
    };
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewrite(item, change)]));
}

/**
 * A stack's template with its nested stacks' resources in it, as if it were one template: each
 * nested stack's parameters replaced by what the parent passes, the parent's reads of its
 * outputs by their values, and a nested logical id the template already holds renamed
 * `<nested stack id><id>`. The functions, roles and methods of the area stacks are then read
 * (and resolved, and evaluated) as the parent's. The nested stack resources themselves are left out.
 */
export function flattenedTemplate(dir: string, file: string): Template {
  const template = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Template;
  const resources: Record<string, TemplateResource> = {};
  const outputs = new Map<string, TemplateValue>();
  const nestedStacks = Object.entries(template.Resources).filter(([, resource]) => resource.Type === 'AWS::CloudFormation::Stack');
  for (const [logicalId, resource] of Object.entries(template.Resources)) if (resource.Type !== 'AWS::CloudFormation::Stack') resources[logicalId] = resource;
  for (const [stackId, resource] of nestedStacks) {
    const nestedFile = resource.Metadata?.['aws:asset:path'];
    if (typeof nestedFile !== 'string') throw new Error(`${stackId} in ${file} has no aws:asset:path: synthesize with asset metadata (the CLI's default)`);
    const nested = flattenedTemplate(dir, nestedFile);
    const ids = new Map<string, string>();
    for (const id of Object.keys(nested.Resources)) ids.set(id, id in resources || id in template.Resources ? `${stackId}${id}` : id);
    const passed = (resource.Properties?.Parameters ?? {}) as Record<string, TemplateValue>;
    const refs = new Map(Object.keys(nested.Parameters ?? {}).flatMap((name) => (name in passed ? [[name, passed[name] as TemplateValue] as const] : [])));
    for (const [id, nestedResource] of Object.entries(nested.Resources)) {
      if (nestedResource.Type === 'AWS::CDK::Metadata') continue;
      const renamed = rewrite(nestedResource as unknown as TemplateValue, { ids, refs }) as unknown as TemplateResource;
      if (nestedResource.DependsOn !== undefined) renamed.DependsOn = [nestedResource.DependsOn].flat().map((dependency) => ids.get(dependency) ?? dependency);
      resources[ids.get(id) as string] = renamed;
    }
    for (const [name, output] of Object.entries(nested.Outputs ?? {})) outputs.set(`${stackId}.Outputs.${name}`, rewrite(output.Value, { ids, refs }));
  }
  const stackIds = new Set(nestedStacks.map(([stackId]) => stackId));
  const flattened = Object.fromEntries(
    Object.entries(resources).map(([id, resource]) => {
      const rewritten = rewrite(resource as unknown as TemplateValue, { outputs }) as unknown as TemplateResource;
      if (resource.DependsOn !== undefined) {
        const kept = [resource.DependsOn].flat().filter((dependency) => !stackIds.has(dependency));
        if (kept.length > 0) rewritten.DependsOn = kept;
        else delete rewritten.DependsOn;
      }
      return [id, rewritten];
    }),
  );
  return {
    ...template,
    Resources: flattened,
    ...(template.Outputs
      ? {
          Outputs: Object.fromEntries(
            Object.entries(template.Outputs).map(([name, output]) => [name, { ...output, Value: rewrite(output.Value, { outputs }) }]),
          ),
        }
      : {}),
  };
}

export interface AssemblyFunction {
  /** CloudFormation logical id: `LoginFunction` (infra/constructs/functions.ts overrides it so). */
  logicalId: string;
  /** Absolute asset directory (Metadata `aws:asset:path`). */
  assetDir: string;
  /** The template's Handler, `index.handler`. */
  handler: string;
  /** The module file the handler names (`index.mjs`, else `index.js`/`index.cjs`), absolute. */
  entryFile: string;
  /** The export the handler names: `handler`. */
  exportName: string;
  runtime: string;
  memoryMB: number;
  timeoutSeconds: number;
  description: string;
  /** Environment.Variables as the template has them, intrinsics unresolved. */
  environment: Record<string, TemplateValue>;
  role: { logicalId: string; name: string };
  /** Statements of the role's policies (AWS::IAM::Policy / ManagedPolicy naming the role, and its inline Policies), unresolved. */
  statements: TemplateValue[];
}

export interface AssemblyRoute {
  method: string;
  /** API Gateway resource path: `/tenants/{id}`. */
  path: string;
  functionId: string;
  /** The authorizer's function when the method has one (`AuthorizationType: CUSTOM`). */
  authorizerFunctionId?: string;
}

export interface AssemblyTable {
  logicalId: string;
  keys: TableKeys;
}

export interface CloudAssembly {
  dir: string;
  stackName: string;
  template: Template;
  functions: Map<string, AssemblyFunction>;
  routes: AssemblyRoute[];
  tables: AssemblyTable[];
}

/** Newest modification time under a path (files only; node_modules skipped). */
function newestMtime(path: string): { time: number; file: string } {
  if (!existsSync(path)) return { time: 0, file: path };
  const stats = statSync(path);
  if (!stats.isDirectory()) return { time: stats.mtimeMs, file: path };
  let newest = { time: 0, file: path };
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    const candidate = newestMtime(join(path, entry));
    if (candidate.time > newest.time) newest = candidate;
  }
  return newest;
}

/** What the assembly is built from: a change to any of these makes cdk.out stale. */
export const ASSEMBLY_INPUTS = ['infra', 'lib', 'functions', 'package-lock.json', 'cdk.json', 'tsconfig.json'];

/** Why the assembly must be synthesized again, or undefined when it is up to date. */
export function staleness(dir = DEFAULT_ASSEMBLY_DIR, stackName = DEFAULT_STACK_NAME): string | undefined {
  const templateFile = join(dir, `${stackName}.template.json`);
  if (!existsSync(templateFile)) return `${relative(repoRoot, templateFile) || templateFile} is missing`;
  const built = statSync(templateFile).mtimeMs;
  for (const input of ASSEMBLY_INPUTS) {
    const newest = newestMtime(join(repoRoot, input));
    if (newest.time > built) return `${relative(repoRoot, newest.file)} changed after the last synth`;
  }
  return undefined;
}

/**
 * Synthesizes when the assembly is missing or stale (`npx cdk synth --quiet`, into `dir`),
 * saying so on `log`. Returns whether it synthesized.
 */
export function ensureAssembly(options: { dir?: string; stackName?: string; log?: (line: string) => void } = {}): boolean {
  const dir = options.dir ?? DEFAULT_ASSEMBLY_DIR;
  const reason = staleness(dir, options.stackName);
  if (reason === undefined) return false;
  const log = options.log ?? ((line: string) => console.error(line));
  const args = ['cdk', 'synth', '--quiet', ...(dir === DEFAULT_ASSEMBLY_DIR ? [] : ['--output', dir])];
  log(`${reason}: synthesizing (npx ${args.join(' ')})…`);
  const result = spawnSync('npx', args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) {
    const tail = result.stderr.trimEnd().split('\n').slice(-40).join('\n');
    throw new Error(
      `npx ${args.join(' ')} failed (exit ${result.status}); the end of its output:\n${tail}\n(npm run invoke -- … --no-synth runs the assembly as it is)`,
    );
  }
  return true;
}

function refOf(value: TemplateValue | undefined): string | undefined {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    if (typeof value.Ref === 'string') return value.Ref;
    const getAtt = value['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  }
  return undefined;
}

/** Logical ids of resources a value refers to (Ref, Fn::GetAtt, anywhere inside). */
function referencedIds(value: TemplateValue | undefined): string[] {
  if (value === null || value === undefined || typeof value !== 'object') return [];
  const direct = refOf(value);
  const nested = Array.isArray(value) ? value.flatMap(referencedIds) : Object.values(value).flatMap(referencedIds);
  return direct ? [direct, ...nested] : nested;
}

function statementsOfRole(template: Template, roleId: string): TemplateValue[] {
  const statementsOf = (document: TemplateValue | undefined): TemplateValue[] => {
    const statement = (document as { Statement?: TemplateValue } | undefined)?.Statement;
    return statement === undefined ? [] : Array.isArray(statement) ? statement : [statement];
  };
  const statements: TemplateValue[] = [];
  const role = template.Resources[roleId];
  for (const policy of (role?.Properties?.Policies ?? []) as { PolicyDocument?: TemplateValue }[]) statements.push(...statementsOf(policy.PolicyDocument));
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy' && resource.Type !== 'AWS::IAM::ManagedPolicy') continue;
    const roles = (resource.Properties?.Roles ?? []) as TemplateValue[];
    if (roles.some((value) => refOf(value) === roleId)) statements.push(...statementsOf(resource.Properties?.PolicyDocument));
  }
  return statements;
}

function entryOf(assetDir: string, handler: string): { entryFile: string; exportName: string } {
  const dot = handler.lastIndexOf('.');
  const base = handler.slice(0, dot);
  const exportName = handler.slice(dot + 1);
  const file = ['.mjs', '.js', '.cjs'].map((extension) => join(assetDir, `${base}${extension}`)).find((candidate) => existsSync(candidate));
  return { entryFile: file ?? join(assetDir, `${base}.mjs`), exportName };
}

function readFunctions(dir: string, template: Template): Map<string, AssemblyFunction> {
  const functions = new Map<string, AssemblyFunction>();
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const properties = resource.Properties ?? {};
    const assetPath = resource.Metadata?.['aws:asset:path'];
    if (typeof assetPath !== 'string') continue; // inline code or no asset metadata: nothing to run
    const assetDir = isAbsolute(assetPath) ? assetPath : join(dir, assetPath);
    const handler = scalarText(properties.Handler, 'index.handler');
    const roleId = refOf(properties.Role) ?? '';
    functions.set(logicalId, {
      logicalId,
      assetDir,
      handler,
      ...entryOf(assetDir, handler),
      runtime: scalarText(properties.Runtime, 'nodejs22.x'),
      memoryMB: Number(properties.MemorySize ?? 128),
      timeoutSeconds: Number(properties.Timeout ?? 3),
      description: scalarText(properties.Description),
      environment: (properties.Environment as { Variables?: Record<string, TemplateValue> } | undefined)?.Variables ?? {},
      role: { logicalId: roleId, name: roleId },
      statements: statementsOfRole(template, roleId),
    });
  }
  return functions;
}

/** The resource path of an AWS::ApiGateway::Resource (its PathPart and its parents'), `/` for the root. */
function resourcePath(template: Template, value: TemplateValue | undefined): string {
  const id = refOf(value);
  const resource = id ? template.Resources[id] : undefined;
  if (!resource || resource.Type !== 'AWS::ApiGateway::Resource') return '';
  return `${resourcePath(template, resource.Properties?.ParentId)}/${scalarText(resource.Properties?.PathPart)}`;
}

function functionOfUri(template: Template, uri: TemplateValue | undefined): string | undefined {
  return referencedIds(uri).find((id) => template.Resources[id]?.Type === 'AWS::Lambda::Function');
}

function readRoutes(template: Template): AssemblyRoute[] {
  const routes: AssemblyRoute[] = [];
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::ApiGateway::Method') continue;
    const properties = resource.Properties ?? {};
    const functionId = functionOfUri(template, (properties.Integration as { Uri?: TemplateValue } | undefined)?.Uri);
    if (!functionId) continue; // MOCK (CORS preflight) and other integrations
    const authorizerId = refOf(properties.AuthorizerId);
    const authorizerFunctionId = authorizerId ? functionOfUri(template, template.Resources[authorizerId]?.Properties?.AuthorizerUri) : undefined;
    routes.push({
      method: scalarText(properties.HttpMethod),
      path: resourcePath(template, properties.ResourceId) || '/',
      functionId,
      ...(authorizerFunctionId ? { authorizerFunctionId } : {}),
    });
  }
  return routes;
}

function readTables(template: Template): AssemblyTable[] {
  const tables: AssemblyTable[] = [];
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::DynamoDB::Table' && resource.Type !== 'AWS::DynamoDB::GlobalTable') continue;
    type KeyElement = { AttributeName: string; KeyType: 'HASH' | 'RANGE' };
    const schema = (elements: TemplateValue | undefined) => {
      const list = (elements ?? []) as KeyElement[];
      const sortKey = list.find((element) => element.KeyType === 'RANGE')?.AttributeName;
      return { partitionKey: list.find((element) => element.KeyType === 'HASH')?.AttributeName ?? '', ...(sortKey ? { sortKey } : {}) };
    };
    const indexes: TableKeys['indexes'] = {};
    for (const index of (resource.Properties?.GlobalSecondaryIndexes ?? []) as { IndexName: string; KeySchema: TemplateValue }[]) {
      indexes[index.IndexName] = schema(index.KeySchema);
    }
    for (const index of (resource.Properties?.LocalSecondaryIndexes ?? []) as { IndexName: string; KeySchema: TemplateValue }[]) {
      indexes[index.IndexName] = schema(index.KeySchema);
    }
    tables.push({ logicalId, keys: { ...schema(resource.Properties?.KeySchema), indexes } });
  }
  return tables;
}

/**
 * Reads the stack of an assembly directory. `template` replaces the template file (a test
 * that edits a grant); asset paths still resolve against `dir`.
 */
export function readAssembly(options: { dir?: string; stackName?: string; template?: Template } = {}): CloudAssembly {
  const dir = options.dir ?? DEFAULT_ASSEMBLY_DIR;
  const stackName = options.stackName ?? DEFAULT_STACK_NAME;
  const template = options.template ?? flattenedTemplate(dir, `${stackName}.template.json`);
  return { dir, stackName, template, functions: readFunctions(dir, template), routes: readRoutes(template), tables: readTables(template) };
}

/** The function of a logical id or of a route `"METHOD /path"` (resource path, or a concrete path). */
export function findFunction(assembly: CloudAssembly, target: string): { fn: AssemblyFunction; route?: AssemblyRoute } {
  const byId = assembly.functions.get(target);
  if (byId) {
    const route = routeOf(assembly, target);
    return { fn: byId, ...(route ? { route } : {}) };
  }
  const match = /^([A-Za-z]+)\s+(\/\S*)$/.exec(target.trim());
  if (match) {
    const method = (match[1] as string).toUpperCase();
    const path = match[2] as string;
    const route =
      assembly.routes.find((candidate) => candidate.method === method && candidate.path === path) ??
      assembly.routes.find((candidate) => candidate.method === method && new RegExp(`^${candidate.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
    const fn = route ? assembly.functions.get(route.functionId) : undefined;
    if (route && fn) return { fn, route };
    throw new Error(`No route ${method} ${path} in ${assembly.stackName}`);
  }
  const known = [...assembly.functions.keys()].join(', ');
  throw new Error(`No function ${target} in ${assembly.stackName} (functions: ${known})`);
}

/** The route a function serves, when it serves one. */
export function routeOf(assembly: CloudAssembly, functionId: string): AssemblyRoute | undefined {
  return assembly.routes.find((route) => route.functionId === functionId);
}
