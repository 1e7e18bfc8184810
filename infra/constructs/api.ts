import { createHash } from 'node:crypto';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  DomainName,
  EndpointType,
  type CorsOptions,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import { Construct, type IConstruct } from 'constructs';
import type { CustomDomain } from '../stages';
import { GATEWAY_PROBLEM_CONTENT_TYPE, GATEWAY_STATIC_HEADERS, gatewayCorsOrigin, gatewayProblem, gatewayResponses } from '../../lib/http/gateway-responses';
import type { Route } from '../../lib/routes';
import { acknowledgeApiGatewayInvokePermissions, acknowledgeLogGroupFindings } from '../acknowledgments';

export interface ApiProps {
  /** API Gateway stage name; also the path prefix of the default execute-api URL. */
  stageName: string;
  /** Origins answered by the CORS preflight. */
  allowedOrigins: string[];
  /** Steady-state and burst requests per second, for every method. */
  throttling: { rateLimit: number; burstLimit: number };
  /** The REQUEST authorizer's function. */
  authorizerFunction: IFunction;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** Serve the API at the root of this domain instead of the execute-api URL. */
  customDomain?: CustomDomain;
}

/** Why no method uses a Cognito user pool authorizer (the area stacks acknowledge it on their methods too). */
export const COGNITO_AUTHORIZER_ACKNOWLEDGMENT = {
  id: 'AwsSolutions-COG4',
  reason:
    'Protected routes use a REQUEST authorizer on purpose: the access token travels in an HttpOnly cookie and every request must check the session and jti blacklist in DynamoDB, which a Cognito user pool authorizer cannot do. Public routes (sign-up, login, refresh, password reset) take no authorizer by contract.',
} as const;

/** Quoted the way API Gateway wants static header values. */
const literal = (value: string): string => `'${value}'`;

/**
 * The REST API: one method per manifest route, the REQUEST authorizer on the protected
 * ones, CORS preflight for the configured origins, problem+json gateway responses, JSON
 * access logs, ERROR-level execution logs, default throttling and an optional custom domain.
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  readonly authorizer: RequestAuthorizer;
  /** The CORS preflight of every resource, the area stacks' included. */
  readonly cors: CorsOptions;
  /** The custom domain, when configured. */
  readonly domainName?: DomainName;
  /** Base URL of the API: the custom domain's root, or the execute-api URL with the stage. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });

    this.cors = {
      allowOrigins: props.allowedOrigins,
      allowCredentials: true,
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Idempotency-Key', 'If-Match'],
      maxAge: Duration.minutes(10),
    };
    this.restApi = new RestApi(this, 'RestApi', {
      // The name is the ApiName dimension of the API's metrics; not an identifier, so the
      // stack name (one per stage) is safe and readable in the console.
      restApiName: Stack.of(this).stackName,
      description: `Back-office API (${props.stageName})`,
      endpointTypes: [EndpointType.REGIONAL],
      // Behind a custom domain the cookie paths have no stage prefix, so the execute-api URL
      // (which has one) would not get its refresh cookie back: one way in only.
      disableExecuteApiEndpoint: props.customDomain !== undefined,
      // Access logging needs the account-level API Gateway CloudWatch role. It is one setting
      // per account and region, so the role is retained: deleting this stack must not break
      // logging for another stage that points at it.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: props.stageName,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: accessLogFormat(),
        // Execution logs for failures only, and never the request or response data
        // (dataTrace would write the Cookie header, i.e. the tokens, to the log).
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        // X-Ray: each request's trace runs from the stage through the authorizer to the function.
        tracingEnabled: true,
        throttlingRateLimit: props.throttling.rateLimit,
        throttlingBurstLimit: props.throttling.burstLimit,
      },
      defaultCorsPreflightOptions: this.cors,
    });
    // RestApi adds an unnamed "Endpoint" output; the stack exports the URL under a clear name.
    this.restApi.node.tryRemoveChild('Endpoint');

    // API Gateway writes execution logs to a group of this fixed name pattern, creating it
    // without a retention if it does not exist. Created here first, with the stage's
    // retention, and before the stage so that no request can win the race.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${props.stageName}`,
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.restApi.deploymentStage.node.addDependency(executionLogs);

    this.authorizer = new RequestAuthorizer(this, 'Authorizer', {
      handler: props.authorizerFunction,
      // No identity source and no cache (lib/routes/index.ts, `authorizer`): a request may carry
      // either the cookie or an API key, and a revocation applies on the next request.
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    this.addGatewayResponses(props.allowedOrigins);

    if (props.customDomain) {
      this.domainName = this.addCustomDomain(props.customDomain);
      this.url = `https://${props.customDomain.domainName}/`;
    } else {
      this.url = this.restApi.url;
    }

    acknowledgeLogGroupFindings(accessLogs);
    acknowledgeLogGroupFindings(executionLogs);
    // The routes' permissions sit under the API; the authorizer's under its function.
    acknowledgeApiGatewayInvokePermissions(this.restApi);
    acknowledgeApiGatewayInvokePermissions(props.authorizerFunction);
    this.acknowledgeFindings();
  }

  /** The domain at the API's root (no base path), and its alias record when the zone is known. */
  private addCustomDomain(customDomain: CustomDomain): DomainName {
    const domain = new DomainName(this, 'DomainName', {
      domainName: customDomain.domainName,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', customDomain.certificateArn),
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    domain.addBasePathMapping(this.restApi, { stage: this.restApi.deploymentStage });
    if (customDomain.hostedZone) {
      new ARecord(this, 'AliasRecord', {
        zone: HostedZone.fromHostedZoneAttributes(this, 'HostedZone', {
          hostedZoneId: customDomain.hostedZone.id,
          zoneName: customDomain.hostedZone.name,
        }),
        recordName: customDomain.domainName,
        target: RecordTarget.fromAlias(new ApiGatewayDomain(domain)),
      });
    }
    return domain;
  }

  /** AwsSolutions findings on the API that are deliberate, each with its reason. */
  private acknowledgeFindings(): void {
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated in each function by the shared zod schemas, which answer with an RFC 9457 problem naming every invalid field (docs/api.md, "Errors") and enforce 413/415 in the required order; gateway request models would duplicate those schemas and answer with a generic body.',
    });
    Validations.of(this.restApi).acknowledge(COGNITO_AUTHORIZER_ACKNOWLEDGMENT);
    Validations.of(this.restApi.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason:
        'No WAF web ACL by default (from $5/month plus $1 per rule and per million requests): the stage is throttled, abusive routes are rate limited per IP or user in the table, and login counts failures. A web ACL can be associated later without changing this stack.',
    });
    const cloudWatchRole = this.restApi.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          "The account-level role API Gateway uses to write access and execution logs; AmazonAPIGatewayPushToCloudWatchLogs is AWS's documented policy for it, and the log group names are chosen by API Gateway.",
      });
    }
  }

  /**
   * The stage is deployed after every area's methods exist, and again whenever the route list
   * changes. The methods live in the area stacks, where the RestApi construct cannot see them:
   * without this its deployment would keep its logical id when a route is added, and
   * CloudFormation would not deploy the stage again (docs/deploy.md, "Stacks").
   */
  deployAfter(areas: readonly IConstruct[], routes: readonly Pick<Route, 'method' | 'path' | 'auth' | 'handler'>[]): void {
    const deployment = this.restApi.latestDeployment;
    if (!deployment) throw new Error('The REST API deploys its stage itself');
    deployment.addToLogicalId({ routes: routeListDigest(routes) });
    for (const area of areas) deployment.node.addDependency(area);
  }

  private addGatewayResponses(allowedOrigins: readonly string[]): void {
    for (const { type } of gatewayResponses) {
      const { problem, headers } = gatewayProblem(type, '$context.requestId');
      this.restApi.addGatewayResponse(`Gateway${type}`, {
        type: ResponseType.of(type),
        statusCode: String(problem.status),
        responseHeaders: {
          'Content-Type': literal(GATEWAY_PROBLEM_CONTENT_TYPE),
          ...Object.fromEntries(Object.entries(GATEWAY_STATIC_HEADERS).map(([name, value]) => [name, literal(value)])),
          // A gateway response cannot check the Origin against the list: it grants the
          // first allowed origin only (lib/http/gateway-responses.ts, gatewayCorsOrigin).
          'Access-Control-Allow-Origin': literal(gatewayCorsOrigin(allowedOrigins)),
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

/**
 * What the stage's deployment depends on in the route list: each route's method, path,
 * authorization and handler, hashed (a digest keeps the logical id short whatever the count).
 */
export function routeListDigest(routes: readonly Pick<Route, 'method' | 'path' | 'auth' | 'handler'>[]): string {
  const lines = routes.map((route) => `${route.method} ${route.path} ${route.auth} ${route.handler}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
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
