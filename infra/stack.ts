import { Annotations, CfnOutput, Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { type Construct } from 'constructs';
import type { Config } from '../lib/config';
import type { IResource } from 'aws-cdk-lib/aws-apigateway';
import { authorizer as authorizerManifest, type RouteId, routeArea, routeList, uses } from '../lib/routes';
import { settingsEnvironment } from '../lib/settings';
import { Api } from './constructs/api';
import { CONSOLE_PATH, ConsoleSite, executeApiOrigin } from './constructs/console-site';
import { Data } from './constructs/data';
import { Exports } from './constructs/exports';
import { Imports } from './constructs/imports';
import { TenantJobs } from './constructs/tenant-jobs';
import { bindTable, grantAttributeUpdates, grantPartitionAttributeUpdates, ServiceFunction } from './constructs/functions';
import { areaStackId, type ManifestRoute, RouteArea, sharedPaths } from './constructs/route-area';
import { Jobs } from './constructs/jobs';
import { Webhooks } from './constructs/webhooks';
import { Mail } from './constructs/mail';
import { Observability, type ObservedFunction } from './constructs/observability';
import { CursorKey } from './constructs/cursor-key';
import { SigningKey } from './constructs/signing-key';
import { acknowledgeLogGroupFindings } from './acknowledgments';
import { PLACEHOLDER_JWT_PUBLIC_KEYS, type StageConfig } from './stages';

/**
 * Routes whose function verifies a token itself, besides the authorizer (refresh checks the
 * refresh token; the route is public): `uses: ['verification-keys']` in the manifest. Only
 * these and the authorizer get JWT_PUBLIC_KEYS.
 */
export const TOKEN_VERIFYING_ROUTES: ReadonlySet<RouteId> = new Set(
  routeList()
    .filter((route) => uses(route, 'verification-keys'))
    .map((route) => route.id),
);

export interface BackofficeStackProps extends StackProps {
  stage: StageConfig;
  /** The routes to deploy: the manifest's (a test passes a larger one, to measure the headroom). */
  routes?: readonly ManifestRoute[];
}

export { pascalCase, routeFunctionId } from './constructs/route-area';

/** Logical id of the authorizer's function. */
export const AUTHORIZER_FUNCTION_ID = 'AuthorizerFunction';

/** Where browsers reach the service: the console's distribution (infra/constructs/console-site.ts). */
export interface BrowserEntry {
  /** `https://<distribution domain>`: the console's origin, and the API's for the browser. */
  origin: string;
  /** `https://<distribution domain>/console`: the console's base URL. */
  appUrl: string;
  /** What the distribution sends the API to prove a request came through it (EDGE_SECRET). */
  edgeSecret: string;
}

/**
 * Origins allowed to call the API with credentials: the console's first (a gateway response
 * can grant one origin only, the first), then the stage's others (context `allowedOrigins`).
 */
export function allowedOrigins(stage: Pick<StageConfig, 'allowedOrigins'>, browser: BrowserEntry): string[] {
  return [browser.origin, ...stage.allowedOrigins];
}

/**
 * What every function parses at cold start (lib/config.ts): the service settings
 * (lib/settings.ts) and the stage's own values. TABLE_NAME comes with bindTable,
 * JWT_SIGNING_KEY_SECRET_ID with the signing key, and JWT_PUBLIC_KEYS only where tokens are
 * verified.
 */
export function functionEnvironment(stage: StageConfig, browser: BrowserEntry) {
  return {
    ...settingsEnvironment,
    MAIL_TRANSPORT: 'ses',
    JWT_ISSUER: stage.jwtIssuer,
    JWT_AUDIENCE: stage.jwtAudience,
    ALLOWED_ORIGINS: allowedOrigins(stage, browser).join(','),
    // Cookie paths: browsers reach the API at the root of the distribution (or of the custom
    // domain), never under the execute-api URL's stage prefix.
    PATH_PREFIX: '',
    // E-mail links: new URL('reset-password?token=…', APP_URL + '/').
    APP_URL: stage.appUrl ?? browser.appUrl,
    MAIL_FROM: stage.mailFrom,
    // The viewer's address is believed only with it (lib/http/request.ts clientIp).
    EDGE_SECRET: browser.edgeSecret,
    // Deployed stages take `bo_live_` API keys only (lib/api-keys/format).
    API_KEY_ENVIRONMENT: 'live',
    // Webhook targets on loopback are a laptop's (npm start) only: never on a deployed stage.
    WEBHOOK_ALLOW_LOOPBACK: 'false',
  } satisfies Partial<Record<keyof Config, string>>;
}

/**
 * The whole service in one stack: the table, the signing key, one function per manifest
 * route plus the authorizer, the REST API that routes to them, the console's distribution in
 * front of it, the scheduled jobs, the webhook delivery, the mail identity's grant and the alarms.
 *
 * Environment-agnostic (no account or region pinned, no lookups): it synthesizes offline and
 * deploys to whatever account and region the CLI credentials point at.
 */
export class BackofficeStack extends Stack {
  /** The nested stack of each area of the manifest, in manifest order. */
  readonly areas: RouteArea[];

  constructor(scope: Construct, id: string, props: BackofficeStackProps) {
    // Written without indentation: CloudFormation takes a template of 1 MB at most, and with the
    // exports the indented one passed 80% of it (816 KB); the resources are the same.
    super(scope, id, { suppressTemplateIndentation: true, ...props });
    const { stage } = props;

    const { table } = new Data(this, 'Data', {
      removalPolicy: stage.removalPolicy,
      deletionProtection: stage.deletionProtection,
    });
    const signingKey = new SigningKey(this, 'SigningKey', { removalPolicy: stage.removalPolicy });
    const cursorKey = new CursorKey(this, 'CursorKey', { removalPolicy: stage.removalPolicy });
    const mail = new Mail(this, 'Mail', { mailFrom: stage.mailFrom, identity: stage.mailIdentity });

    if (stage.jwtPublicKeys === PLACEHOLDER_JWT_PUBLIC_KEYS) {
      Annotations.of(this).addWarningV2(
        'backoffice:placeholderJwks',
        'JWT_PUBLIC_KEYS is the empty placeholder key set: every protected request will get 401. Pass -c jwtPublicKeys=\'{"keys":[...]}\' (see docs/deploy.md).',
      );
    }

    // The console's distribution forwards to the REST API, whose functions need the
    // distribution's domain (ALLOWED_ORIGINS, APP_URL): built after the API, it is read lazily
    // here. No CloudFormation cycle: the distribution refers to the RestApi resource alone
    // (executeApiOrigin), never to its stage or methods.
    const built: { site?: ConsoleSite } = {};
    const consoleSite = (): ConsoleSite => {
      if (!built.site) throw new Error('The console site is read before it is built');
      return built.site;
    };
    const browser: BrowserEntry = {
      origin: Lazy.string({ produce: () => consoleSite().origin }),
      appUrl: Lazy.string({ produce: () => consoleSite().appUrl }),
      edgeSecret: Lazy.string({ produce: () => consoleSite().edgeSecret.secretValue.unsafeUnwrap() }),
    };
    const environment = functionEnvironment(stage, browser);
    const verifierEnvironment = { ...environment, JWT_PUBLIC_KEYS: stage.jwtPublicKeys } satisfies Partial<Record<keyof Config, string>>;

    const functionDefaults = {
      logRetention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    };

    const authorizer = new ServiceFunction(this, AUTHORIZER_FUNCTION_ID, {
      ...functionDefaults,
      environment: verifierEnvironment,
      handler: authorizerManifest.handler,
      description: 'REQUEST authorizer of the protected routes',
    });
    bindTable(authorizer.function, table, authorizerManifest.table);
    grantAttributeUpdates(authorizer.function, table, authorizerManifest.updatesAttributes);
    grantPartitionAttributeUpdates(authorizer.function, table, authorizerManifest.keyUses);

    const api = new Api(this, 'Api', {
      stageName: stage.name,
      allowedOrigins: allowedOrigins(stage, browser),
      throttling: stage.throttling,
      authorizerFunction: authorizer.function,
      logRetention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
      ...(stage.customDomain ? { customDomain: stage.customDomain } : {}),
    });

    // Before the console: its CSP lets the browser PUT import files to the bucket.
    const imports = new Imports(this, 'Imports', { table, environment, allowedOrigins: allowedOrigins(stage, browser), ...functionDefaults });
    // A closed tenant's deletion and a tenant's export: the queue, its worker and its alarm.
    const tenantJobs = new TenantJobs(this, 'TenantJobs', { table, bucket: imports.bucket, environment, ...functionDefaults });

    // Exports write their files to the imports bucket, under exports/ (its notice to the import queue is filtered to imports/).
    const exportJobs = new Exports(this, 'Exports', { table, bucket: imports.bucket, environment, ...functionDefaults });

    const site = new ConsoleSite(this, 'Console', {
      // Behind a custom domain the execute-api endpoint is off: the distribution uses the domain, mapped at its root.
      api: stage.customDomain ? { domainName: stage.customDomain.domainName } : executeApiOrigin(api.restApi.restApiId, stage.name),
      priceClass: stage.priceClass,
      removalPolicy: stage.removalPolicy,
      logRetention: stage.logRetention,
      uploadOrigins: [imports.uploadOrigin],
    });
    built.site = site;

    // One log group for every route function: each writes its own streams in it, and the
    // authorizer and the jobs keep theirs (docs/decisions.md, "Least privilege per function").
    const routeLogs = new LogGroup(this, 'RouteLogs', { retention: stage.logRetention, removalPolicy: stage.removalPolicy });
    acknowledgeLogGroupFindings(routeLogs);

    // Each area of the manifest in a nested stack of its own (docs/deploy.md, "Stacks"); the
    // resources two areas share are the parent's.
    const routes = props.routes ?? routeList();
    const shared = new Map<string, IResource>(sharedPaths(routes, routeArea).map((path) => [path, api.restApi.root.resourceForPath(path)]));
    const dependencies = {
      table,
      routeLogs,
      environment,
      jwtPublicKeys: stage.jwtPublicKeys,
      mail,
      signingKey,
      cursorKey,
      imports,
      exportJobs,
      tenantJobs,
      ...functionDefaults,
    };
    const observed: ObservedFunction[] = [];
    this.areas = [];
    for (const area of [...new Set(routes.map(routeArea))]) {
      const stack = new RouteArea(this, areaStackId(area), {
        ...dependencies,
        area,
        routes: routes.filter((route) => routeArea(route) === area),
        api: { restApi: api.restApi, authorizer: api.authorizer, cors: api.cors, shared },
      });
      this.areas.push(stack);
      for (const { route, function: fn } of stack.functions) observed.push({ name: `${route.method} ${route.path}`, function: fn });
    }
    api.deployAfter(this.areas, routes);

    const jobs = new Jobs(this, 'Jobs', { table, environment, enabledJobs: stage.enabledJobs, ...functionDefaults });
    for (const [jobId, service] of Object.entries(jobs.functions)) {
      observed.push({ name: `job ${jobId}`, function: service.function });
    }
    tenantJobs.bindStarter(jobs.functions.tenantDeletion.function);
    // An import of opening stock closes its counts as the close route does: a large one ends on the tenant jobs' queue.
    tenantJobs.bindStarter(imports.worker.function);

    const webhooks = new Webhooks(this, 'Webhooks', { table, environment, mail, ...functionDefaults });
    observed.push({ name: 'webhook delivery', function: webhooks.function.function });
    observed.push({ name: 'import worker', function: imports.worker.function });
    observed.push({ name: 'export worker', function: exportJobs.worker.function });
    observed.push({ name: 'tenant job worker', function: tenantJobs.worker.function });

    const observability = new Observability(this, 'Observability', {
      functions: observed,
      authorizer: { function: authorizer.function, logGroup: authorizer.logGroup },
      apiStage: api.restApi.deploymentStage,
      table,
      deadLetterQueue: jobs.deadLetterQueue,
      webhooks: { queue: webhooks.queue, deadLetterQueue: webhooks.deadLetterQueue, failingEndpoints: webhooks.failingEndpoints },
      imports: { deadLetterQueue: imports.deadLetterQueue },
      createAlarmTopic: stage.createAlarmTopic,
      ...(stage.alarmTopicArn ? { alarmTopicArn: stage.alarmTopicArn } : {}),
      ...(stage.alarmEmail ? { alarmEmail: stage.alarmEmail } : {}),
    });

    exportJobs.notify(observability.alarmTopic);
    tenantJobs.notify(observability.alarmTopic);

    new CfnOutput(this, 'ConsoleUrl', { description: 'The console: open this in a browser', value: `${site.origin}${CONSOLE_PATH}/` });
    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API, where its cookie paths hold: the distribution, or the custom domain',
      value: stage.customDomain ? api.url : `${site.origin}/`,
    });
    if (api.domainName && !stage.customDomain?.hostedZone) {
      new CfnOutput(this, 'ApiDomainTarget', {
        description: `Point a CNAME (or alias) for ${stage.customDomain?.domainName} at this name`,
        value: api.domainName.domainNameAliasDomainName,
      });
    }
    new CfnOutput(this, 'TableName', { description: 'The service table (npm run create-admin -- --table ...)', value: table.tableName });
    new CfnOutput(this, 'SigningKeySecretArn', {
      description: 'Secret to put the private signing JWK into',
      value: signingKey.secret.secretArn,
    });
    new CfnOutput(this, 'CursorKeySecretArn', {
      description: 'Secret that seals page cursors (generated; put a new random value to rotate it)',
      value: cursorKey.secret.secretArn,
    });
    new CfnOutput(this, 'JobsDeadLetterQueueUrl', {
      description: 'Failed scheduled-job runs land here',
      value: jobs.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'WebhooksDeadLetterQueueUrl', {
      description: 'Webhook messages the delivery could not handle after its retries land here (redrive them to the delivery queue once fixed)',
      value: webhooks.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'TenantJobsDeadLetterQueueUrl', {
      description:
        "Steps of tenant deletions and exports the worker could not do after its retries land here (redrive them to the tenant jobs' queue once fixed)",
      value: tenantJobs.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'ImportsDeadLetterQueueUrl', {
      description: 'Import steps the worker could not do after its retries land here (redrive them to the import queue once fixed)',
      value: imports.deadLetterQueue.queueUrl,
    });
    if (observability.createdAlarmTopic) {
      new CfnOutput(this, 'AlarmTopicArn', {
        description: 'Subscribe here to receive the alarms',
        value: observability.createdAlarmTopic.topicArn,
      });
    }
  }
}
