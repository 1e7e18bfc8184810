import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AssemblyFunction, CloudAssembly } from './assembly';
import { assumedRoleArn, dynamoContextOptions, resolvedStatements, type LocalWorld } from './environment';
import { authorizeDynamoCall, type Decision, type DynamoContextOptions, type PolicyStatement } from './iam';

/**
 * A loopback HTTP proxy in front of DynamoDB Local that enforces each function's IAM grants.
 * It reads the operation (`X-Amz-Target: DynamoDB_20120810.<Operation>`) and the JSON body,
 * knows the caller by the access key id of the SigV4 `Authorization` header (each function's
 * worker gets its logical id as access key id, local/bundles/environment.ts), evaluates the
 * function's policy statements (local/bundles/iam.ts), and either forwards the request
 * byte for byte (DynamoDB Local does not verify signatures) or answers as DynamoDB answers a
 * call IAM denies: 400, `AccessDeniedException`, AWS's message wording. One log line per
 * denial names the function and the missing grant.
 */

/** A function the proxy knows: its statements (local ARNs) and the role session AWS would name. */
export interface ProxyCaller {
  functionId: string;
  roleSessionArn: string;
  statements: PolicyStatement[];
}

export function proxyCaller(assembly: CloudAssembly, fn: AssemblyFunction, world: LocalWorld): ProxyCaller {
  return { functionId: fn.logicalId, roleSessionArn: assumedRoleArn(fn, world), statements: resolvedStatements(assembly, fn, world) };
}

export interface DynamoProxyOptions {
  /** DynamoDB Local's endpoint, e.g. `http://127.0.0.1:8000`. */
  target: string;
  /** The caller of an access key id (undefined: an unknown key, refused as AWS refuses one). */
  caller: (accessKeyId: string) => ProxyCaller | undefined;
  context: DynamoContextOptions;
  /** One line per denied call. */
  log?: (line: string) => void;
  /** 0 (default): any free port. */
  port?: number;
}

export interface DynamoProxy {
  endpoint: string;
  stop(): Promise<void>;
}

/** Every caller of an assembly (its Lambda functions), looked up by access key id = logical id. */
export function assemblyCallers(
  assembly: CloudAssembly,
  world: LocalWorld,
): { caller: (accessKeyId: string) => ProxyCaller | undefined; context: DynamoContextOptions } {
  const cache = new Map<string, ProxyCaller>();
  return {
    caller: (accessKeyId) => {
      const fn = assembly.functions.get(accessKeyId);
      if (!fn) return undefined;
      let known = cache.get(accessKeyId);
      if (!known) {
        known = proxyCaller(assembly, fn, world);
        cache.set(accessKeyId, known);
      }
      return known;
    },
    context: dynamoContextOptions(assembly, world),
  };
}

const TARGET_PREFIX = 'DynamoDB_20120810.';
export const AMZ_JSON = 'application/x-amz-json-1.0';

/** The access key id of a SigV4 Authorization header (`Credential=<id>/<date>/<region>/<service>/aws4_request`). */
export function accessKeyIdOf(authorization: string | undefined): string | undefined {
  return /Credential=([^/,\s]+)\//.exec(authorization ?? '')?.[1];
}

/** The message DynamoDB (IAM) gives for a denied call. */
export function accessDeniedMessage(roleSessionArn: string, decision: Extract<Decision, { allowed: false }>): string {
  const { action, resource } = decision.request;
  const because =
    decision.deny === 'explicit' ? 'with an explicit deny in an identity-based policy' : `because no identity-based policy allows the ${action} action`;
  return `User: ${roleSessionArn} is not authorized to perform: ${action} on resource: ${resource} ${because}`;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolveBody(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * DynamoDB's `__type` for errors of the authorization layer (the AWS service framework,
 * "coral"), as the service sends it; the SDK names the error by what follows `#`.
 */
const ERROR_TYPE_PREFIX = 'com.amazon.coral.service#';

function answerError(response: ServerResponse, type: string, message: string): void {
  const body = JSON.stringify({ __type: `${ERROR_TYPE_PREFIX}${type}`, Message: message });
  response.writeHead(400, { 'Content-Type': AMZ_JSON, 'Content-Length': Buffer.byteLength(body), 'x-amzn-RequestId': randomUUID() });
  response.end(body);
}

function forward(target: URL, request: IncomingMessage, body: Buffer, response: ServerResponse): void {
  const headers: IncomingHttpHeaders = { ...request.headers };
  const upstream = httpRequest({ hostname: target.hostname, port: target.port, method: request.method, path: request.url, headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  upstream.on('error', (error) => {
    if (!response.headersSent) answerError(response, 'InternalFailure', `The local DynamoDB did not answer: ${error.message}`);
    else response.destroy(error);
  });
  upstream.end(body);
}

/** Starts the proxy on 127.0.0.1. */
export function startDynamoProxy(options: DynamoProxyOptions): Promise<DynamoProxy> {
  const target = new URL(options.target);
  const log = options.log ?? ((line: string) => console.error(line));
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const targetHeader = request.headers['x-amz-target'];
      const operation = typeof targetHeader === 'string' && targetHeader.startsWith(TARGET_PREFIX) ? targetHeader.slice(TARGET_PREFIX.length) : undefined;
      if (!operation) return forward(target, request, body, response);
      const accessKeyId = accessKeyIdOf(request.headers.authorization);
      const caller = accessKeyId ? options.caller(accessKeyId) : undefined;
      if (!caller) {
        log(`[iam] refused ${operation}: access key ${accessKeyId ?? '(none)'} is no function of the assembly`);
        return answerError(response, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
      }
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return forward(target, request, body, response); // DynamoDB Local answers the malformed body itself
      }
      const decision = authorizeDynamoCall(caller.statements, operation, input, options.context);
      if (decision.allowed) return forward(target, request, body, response);
      log(`[iam] ${caller.functionId}: AccessDeniedException on ${operation}: missing grant ${decision.missing}`);
      answerError(response, 'AccessDeniedException', accessDeniedMessage(caller.roleSessionArn, decision));
    })().catch((error: unknown) => {
      log(`[iam] proxy failure: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) answerError(response, 'InternalFailure', 'The local IAM proxy failed');
    });
  });
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolveStart({
        endpoint: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((resolveStop) => {
            server.closeAllConnections();
            server.close(() => resolveStop());
          }),
      });
    });
  });
}
