import { Annotations, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { type Construct } from 'constructs';
import type { Config } from '../lib/config';
import { authorizer as authorizerManifest, routeList } from '../lib/routes';
import { Api } from './constructs/api';
import { Data } from './constructs/data';
import { bindTable, grantAttributeUpdates, grantRateLimitCounters, grantSendMail, ServiceFunction } from './constructs/functions';
import { SigningKey } from './constructs/signing-key';
import { PLACEHOLDER_JWT_PUBLIC_KEYS, type StageConfig } from './stages';

/** Values that are the same in every stage (contract section 3 and the README). */
const SERVICE_SETTINGS = {
  ACCESS_TOKEN_TTL_SECONDS: '900',
  REFRESH_TOKEN_TTL_SECONDS: '43200',
  REMEMBER_ME_TTL_SECONDS: '2592000',
  COOKIE_SAME_SITE: 'Strict',
  BCRYPT_COST: '10',
  BUSINESS_TIME_ZONE: 'America/Sao_Paulo',
  MAIL_TRANSPORT: 'ses',
} as const satisfies Partial<Record<keyof Config, string>>;

export interface BackofficeStackProps extends StackProps {
  stage: StageConfig;
}

/**
 * The whole service in one stack: the table, the signing key, one function per manifest
 * route (plus the authorizer) and the REST API that routes to them.
 *
 * Environment-agnostic (no account or region pinned, no lookups): it synthesizes offline and
 * deploys to whatever account and region the CLI credentials point at.
 */
export class BackofficeStack extends Stack {
  constructor(scope: Construct, id: string, props: BackofficeStackProps) {
    super(scope, id, props);
    const { stage } = props;

    const { table } = new Data(this, 'Data', {
      removalPolicy: stage.removalPolicy,
      deletionProtection: stage.deletionProtection,
    });
    const signingKey = new SigningKey(this, 'SigningKey', { removalPolicy: stage.removalPolicy });

    if (stage.jwtPublicKeys === PLACEHOLDER_JWT_PUBLIC_KEYS) {
      Annotations.of(this).addWarningV2(
        'backoffice:placeholderJwks',
        'JWT_PUBLIC_KEYS is the empty placeholder key set: every protected request will get 401. Pass -c jwtPublicKeys=\'{"keys":[...]}\' (see infra/constructs/signing-key.ts).',
      );
    }

    // Every function parses the whole configuration at cold start (lib/config.ts), the
    // authorizer included, so each one gets all of it. TABLE_NAME comes with bindTable.
    const environment = {
      ...SERVICE_SETTINGS,
      JWT_ISSUER: stage.jwtIssuer,
      JWT_AUDIENCE: stage.jwtAudience,
      JWT_PUBLIC_KEYS: stage.jwtPublicKeys,
      ALLOWED_ORIGINS: stage.allowedOrigins.join(','),
      // The default execute-api URL starts with the stage name; cookie paths must include it.
      PATH_PREFIX: `/${stage.name}`,
      APP_URL: stage.appUrl,
      MAIL_FROM: stage.mailFrom,
    } satisfies Partial<Record<keyof Config, string>>;

    const functionDefaults = {
      environment,
      logRetention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    };

    const authorizerFunction = new ServiceFunction(this, 'AuthorizerFunction', {
      ...functionDefaults,
      handler: authorizerManifest.handler,
      description: 'REQUEST authorizer of the protected routes',
    }).function;
    bindTable(authorizerFunction, table, authorizerManifest.table);
    grantAttributeUpdates(authorizerFunction, table, authorizerManifest.updatesAttributes);

    const api = new Api(this, 'Api', {
      stageName: stage.name,
      allowedOrigins: stage.allowedOrigins,
      throttling: stage.throttling,
      authorizerFunction,
      authorizerCacheTtl: stage.authorizerCacheTtl,
      logRetention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    });

    for (const route of routeList()) {
      const fn = new ServiceFunction(this, `${pascalCase(route.id)}Function`, {
        ...functionDefaults,
        handler: route.handler,
        description: `${route.method} ${route.path}: ${route.summary}`,
        cpu: route.cpu,
      }).function;
      bindTable(fn, table, route.table);
      if (route.rateLimit) grantRateLimitCounters(fn, table);
      if (route.sendsMail) grantSendMail(fn, stage.mailFrom);
      if (route.signsTokens) signingKey.bindSigner(fn);
      api.addRoute(route, fn);
    }

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the API (stage prefix included)', value: api.restApi.url });
    new CfnOutput(this, 'TableName', { description: 'The service table', value: table.tableName });
    new CfnOutput(this, 'SigningKeySecretArn', {
      description: 'Secret to put the private signing JWK into',
      value: signingKey.secret.secretArn,
    });
  }
}

/** `createTenant` -> `CreateTenant`, for readable construct ids and logical ids. */
function pascalCase(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}
