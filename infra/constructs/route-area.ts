import { Duration, NestedStack, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AuthorizationType,
  AwsIntegration,
  type CorsOptions,
  type IResource,
  type IRestApi,
  type MethodOptions,
  Resource,
  RestApi,
  type RequestAuthorizer,
} from 'aws-cdk-lib/aws-apigateway';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { countsRequests, type Route, type RouteId } from '../../lib/routes';
import { COGNITO_AUTHORIZER_ACKNOWLEDGMENT } from './api';
import { grantCapabilities, type CapabilityDependencies } from './capabilities';
import { grantRateLimitCounters, grantSearchFolds, bindTable, InlinePolicyRole, ServiceFunction } from './functions';

/** A manifest route with its id (lib/routes/index.ts `routeList`), or a synthetic copy of one in a test. */
export type ManifestRoute = Route & { id: RouteId | `${RouteId}${string}` };

/** `createTenant` -> `CreateTenant`, for readable construct ids and logical ids. */
export function pascalCase(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

/** Construct id, and CloudFormation logical id, of a route's function: `LoginFunction`. */
export function routeFunctionId(routeId: string): string {
  return `${pascalCase(routeId)}Function`;
}

/** `api-keys` -> `ApiKeysRoutes`: the construct id, and the parent's logical id prefix, of an area's nested stack. */
export function areaStackId(area: string): string {
  return `${area.split('-').map(pascalCase).join('')}Routes`;
}

/**
 * The resource paths more than one area has routes under (with every ancestor of one): the
 * parent stack creates these, and each area creates the rest of its own tree below them. An
 * API Gateway resource exists once, so a path two areas share cannot belong to either.
 */
export function sharedPaths(routes: readonly Pick<Route, 'path' | 'handler'>[], areaOf: (route: Pick<Route, 'handler'>) => string): string[] {
  const areasByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    for (const prefix of pathPrefixes(route.path)) {
      const areas = areasByPath.get(prefix) ?? new Set<string>();
      areas.add(areaOf(route));
      areasByPath.set(prefix, areas);
    }
  }
  const shared = new Set<string>();
  for (const [path, areas] of areasByPath) {
    if (areas.size > 1) for (const prefix of pathPrefixes(path)) shared.add(prefix);
  }
  return [...shared].sort();
}

/** `/a/b/c` -> `/a`, `/a/b`, `/a/b/c`. */
export function pathPrefixes(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, index) => `/${parts.slice(0, index + 1).join('/')}`);
}

/** What the area's functions are bound to: everything lives in the parent stack, and reaches the area as its parameters. */
export interface RouteDependencies extends CapabilityDependencies {
  table: ITableV2;
  routeLogs: LogGroup;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

/** The parent's REST API, as an area sees it. */
export interface AreaApi {
  restApi: RestApi;
  authorizer: RequestAuthorizer;
  cors: CorsOptions;
  /** The shared resources (`sharedPaths`) the parent created, by path. */
  shared: ReadonlyMap<string, IResource>;
}

export interface RouteAreaProps extends RouteDependencies {
  area: string;
  routes: readonly ManifestRoute[];
  api: AreaApi;
}

/**
 * One area of the route manifest (the folder of its handlers under functions/) in a nested
 * stack of its own: each route's function and role, bound exactly as its manifest entry says;
 * the API Gateway resources under the area's paths with their CORS preflights; each route's
 * method, behind the parent's authorizer when protected; and the one role API Gateway invokes
 * the area's functions with. The parent keeps the REST API, its deployment and stage, and
 * everything the functions share (docs/deploy.md, "Stacks").
 */
export class RouteArea extends NestedStack {
  /** Each route's function, in manifest order. */
  readonly functions: { route: ManifestRoute; function: NodejsFunction }[] = [];

  constructor(scope: Construct, id: string, props: RouteAreaProps) {
    super(scope, id, { description: `Back-office routes: ${props.area}` });

    const restApi = RestApi.fromRestApiAttributes(this, 'Api', {
      restApiId: props.api.restApi.restApiId,
      rootResourceId: props.api.restApi.restApiRootResourceId,
    });
    const invoker = new InlinePolicyRole(this, 'RouteInvoker', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: `API Gateway invokes the ${props.area} route functions with this role, and nothing else`,
    });
    const resources = new Map<string, IResource>();
    const resourceFor = (path: string): IResource => this.resourceFor(restApi, props.api, resources, path);

    for (const route of props.routes) {
      const fn = bindRouteFunction(this, route, props);
      invoker.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
      addRouteMethod(resourceFor(route.path), route, fn, { invoker, authorizer: props.api.authorizer });
      this.functions.push({ route, function: fn });
    }
  }

  /** The resource of a path: the parent's when it is shared, else this area's (made once, with its preflight). */
  private resourceFor(restApi: IRestApi, api: AreaApi, made: Map<string, IResource>, path: string): IResource {
    if (path === '/' || api.shared.has(path)) return this.importShared(restApi, api, made, path);
    const existing = made.get(path);
    if (existing) return existing;
    const parts = path.split('/').filter(Boolean);
    const parentPath = parts.length > 1 ? `/${parts.slice(0, -1).join('/')}` : '/';
    const parent = parentPath === '/' ? this.importShared(restApi, api, made, '/') : this.resourceFor(restApi, api, made, parentPath);
    const resource = parent.addResource(parts[parts.length - 1] as string, { defaultCorsPreflightOptions: api.cors });
    made.set(path, resource);
    return resource;
  }

  /** The root, or a shared resource of the parent, imported into this stack by its id (a parameter). */
  private importShared(restApi: IRestApi, api: AreaApi, made: Map<string, IResource>, path: string): IResource {
    const existing = made.get(path);
    if (existing) return existing;
    const resourceId = path === '/' ? api.restApi.restApiRootResourceId : (api.shared.get(path) as IResource).resourceId;
    // The id keeps every character but the slashes (construct ids cannot hold them): two paths never share one.
    const imported = Resource.fromResourceAttributes(this, `Shared${path === '/' ? 'Root' : path.replaceAll('/', '_')}`, { resourceId, restApi, path });
    made.set(path, imported);
    return imported;
  }
}

/** A route's function, bound the least-privilege way to what its manifest entry declares. */
function bindRouteFunction(scope: Construct, route: ManifestRoute, deps: RouteDependencies): NodejsFunction {
  const fn = new ServiceFunction(scope, routeFunctionId(route.id), {
    logRetention: deps.logRetention,
    removalPolicy: deps.removalPolicy,
    logGroup: deps.routeLogs,
    environment: deps.environment,
    handler: route.handler,
    description: `${route.method} ${route.path}: ${route.summary}`,
    cpu: route.cpu,
    ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
  }).function;
  bindTable(fn, deps.table, route.table);
  if (countsRequests(route)) grantRateLimitCounters(fn, deps.table);
  if (route.searches) grantSearchFolds(fn, deps.table);
  grantCapabilities(fn, route, deps);
  return fn;
}

/**
 * The route's method: a Lambda proxy integration under the area's invoker role (no
 * per-function permission resource), behind the authorizer exactly when the route is protected.
 */
function addRouteMethod(
  resource: IResource,
  route: ManifestRoute,
  fn: NodejsFunction,
  with_: { invoker: InlinePolicyRole; authorizer: RequestAuthorizer },
): void {
  const options: MethodOptions =
    route.auth === 'protected' ? { authorizationType: AuthorizationType.CUSTOM, authorizer: with_.authorizer } : { authorizationType: AuthorizationType.NONE };
  const integration = new AwsIntegration({
    proxy: true,
    service: 'lambda',
    path: `2015-03-31/functions/${fn.functionArn}/invocations`,
    options: { credentialsRole: with_.invoker },
  });
  const method = resource.addMethod(route.method, integration, options);
  Validations.of(method).acknowledge(COGNITO_AUTHORIZER_ACKNOWLEDGMENT);
  if (route.auth === 'public') {
    Validations.of(method).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: `${route.method} ${route.path} is public by contract (section 3: sign-up, register, login, refresh, forgot and reset password); the function applies its own checks (rate limits, refresh-token verification, CSRF).`,
    });
  }
}
