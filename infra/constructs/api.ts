import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  type MethodOptions,
} from 'aws-cdk-lib/aws-apigateway';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { GATEWAY_PROBLEM_CONTENT_TYPE, GATEWAY_STATIC_HEADERS, gatewayProblem, gatewayResponses } from '../../lib/http/gateway-responses';
import { authorizer as authorizerManifest, type Route } from '../../lib/routes';

export interface ApiProps {
  /** API Gateway stage name; also the path prefix of the default execute-api URL. */
  stageName: string;
  /** Origins answered by the CORS preflight. */
  allowedOrigins: string[];
  /** Steady-state and burst requests per second, for every method. */
  throttling: { rateLimit: number; burstLimit: number };
  /** The REQUEST authorizer's function. */
  authorizerFunction: IFunction;
  /** 0 (the default) disables the cache, so revoked sessions are refused on the next request. */
  authorizerCacheTtl?: Duration;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

/** Quoted the way API Gateway wants static header values. */
const literal = (value: string): string => `'${value}'`;

/**
 * The REST API: one method per manifest route, the REQUEST authorizer on the protected
 * ones, CORS preflight for the configured origins, problem+json gateway responses, JSON
 * access logs and default throttling.
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  readonly authorizer: RequestAuthorizer;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });

    this.restApi = new RestApi(this, 'RestApi', {
      description: `Back-office API (${props.stageName})`,
      endpointTypes: [EndpointType.REGIONAL],
      // Access logging needs the account-level API Gateway CloudWatch role. It is one setting
      // per account and region, so the role is retained: deleting this stack must not break
      // logging for another stage that points at it.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: props.stageName,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: accessLogFormat(),
        throttlingRateLimit: props.throttling.rateLimit,
        throttlingBurstLimit: props.throttling.burstLimit,
      },
      defaultCorsPreflightOptions: {
        allowOrigins: props.allowedOrigins,
        allowCredentials: true,
        allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        allowHeaders: ['Content-Type'],
        maxAge: Duration.minutes(10),
      },
    });
    // RestApi adds an unnamed "Endpoint" output; the stack exports the URL under a clear name.
    this.restApi.node.tryRemoveChild('Endpoint');

    this.authorizer = new RequestAuthorizer(this, 'Authorizer', {
      handler: props.authorizerFunction,
      identitySources: [IdentitySource.header(authorizerManifest.identitySource)],
      resultsCacheTtl: props.authorizerCacheTtl ?? Duration.seconds(0),
    });

    this.addGatewayResponses();
  }

  /** Adds the route's method, behind the authorizer exactly when the route is protected. */
  addRoute(route: Pick<Route, 'method' | 'path' | 'auth'>, fn: IFunction): void {
    const options: MethodOptions =
      route.auth === 'protected'
        ? { authorizationType: AuthorizationType.CUSTOM, authorizer: this.authorizer }
        : { authorizationType: AuthorizationType.NONE };
    // Without test invoke, each method adds one Lambda permission instead of two.
    const integration = new LambdaIntegration(fn, { allowTestInvoke: false });
    this.restApi.root.resourceForPath(route.path).addMethod(route.method, integration, options);
  }

  private addGatewayResponses(): void {
    for (const { type } of gatewayResponses) {
      const { problem, headers } = gatewayProblem(type, '$context.requestId');
      this.restApi.addGatewayResponse(`Gateway${type}`, {
        type: ResponseType.of(type),
        statusCode: String(problem.status),
        responseHeaders: {
          'Content-Type': literal(GATEWAY_PROBLEM_CONTENT_TYPE),
          ...Object.fromEntries(Object.entries(GATEWAY_STATIC_HEADERS).map(([name, value]) => [name, literal(value)])),
          // A gateway response cannot check the origin against the allow-list, so it echoes
          // the caller's. The body is a generic message and a request id, and the functions'
          // own responses (which carry data) check the origin properly.
          'Access-Control-Allow-Origin': 'method.request.header.origin',
          'Access-Control-Allow-Credentials': literal('true'),
          Vary: literal('Origin'),
          ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, literal(value)])),
        },
        // Simple substitution, not VTL: $context.requestId is filled in by API Gateway.
        templates: { 'application/json': JSON.stringify(problem) },
      });
    }
  }
}

/** One JSON object per request. Never headers or bodies: cookies carry the tokens. */
function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: AccessLogField.contextRequestId(),
      requestTime: AccessLogField.contextRequestTime(),
      ip: AccessLogField.contextIdentitySourceIp(),
      userAgent: AccessLogField.contextIdentityUserAgent(),
      method: AccessLogField.contextHttpMethod(),
      resourcePath: AccessLogField.contextResourcePath(),
      path: AccessLogField.contextPath(),
      status: AccessLogField.contextStatus(),
      responseLength: AccessLogField.contextResponseLength(),
      responseLatency: AccessLogField.contextResponseLatency(),
      integrationLatency: AccessLogField.contextIntegrationLatency(),
      authorizerLatency: AccessLogField.contextAuthorizerLatency(),
      authorizerError: AccessLogField.contextAuthorizerError(),
      errorType: AccessLogField.contextErrorResponseType(),
      errorMessage: AccessLogField.contextErrorMessage(),
      tenantId: AccessLogField.contextAuthorizer('tenantId'),
      userId: AccessLogField.contextAuthorizer('userId'),
    }),
  );
}
