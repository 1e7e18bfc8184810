import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Annotations, AssetHashType, Aws, DockerImage, Duration, FileSystem, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  type PriceClass,
  ResponseHeadersPolicy,
  type BehaviorOptions,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct, type IConstruct } from 'constructs';
import { acknowledgeFunctionOutsideVpc, acknowledgeLogGroupFindings } from '../acknowledgments';
import { fromRoot, repoRoot } from '../paths';
import { consoleCsp, CONSOLE_PERMISSIONS_POLICY } from '../../console/headers';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/http/request';

/** The path prefix the console is served under (Vite `base: '/console/'`); the API keeps every other path. */
export const CONSOLE_PATH = '/console';
/** The bucket's key prefix for the built console: the browser path without its leading slash. */
const CONSOLE_KEY_PREFIX = 'console/';

/** The console workspace, built by its own `build` script (`vite build`). */
export const CONSOLE_DIR = fromRoot('console');

/**
 * What the console's build reads besides console/ itself, so that a change there gives a new
 * asset hash (and a build): the lockfile (the Vite, React and plugin versions) and the typed
 * client, when present.
 */
const CONSOLE_BUILD_INPUTS = ['package-lock.json', 'clients/typescript'];

/** Left out of the source hash: installed packages and the outputs of a build run by hand. */
const CONSOLE_SOURCE_EXCLUDES = ['node_modules', 'dist', '.vite', 'coverage', '*.log'];

/** Cache-Control of the hashed files under assets/: their name changes with their content. */
export const ASSETS_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Cache-Control of the files outside assets/ (index.html): revalidated on every load, so a deploy shows at once. */
export const SHELL_CACHE_CONTROL = 'no-cache';

// The headers npm start sends too (console/headers.ts): one policy wherever the console is served.

/**
 * The viewer-request CloudFront Function of the console's page behaviours (`/console`,
 * `/console/*`): the console's routes are client-side, so every path under /console that is
 * not a built file under /console/assets/ gets the one page, /console/index.html, which
 * then routes in the browser (`/console/suppliers`, `/console/reset-password?token=…`). The
 * query string is left alone (it is not part of `uri`). Plain ES5: it is evaluated as is by
 * the test (test/infra/stack.test.ts) and by CloudFront's JavaScript runtime 2.0.
 *
 * Only /console/assets/ passes through: a file the console puts at its root (Vite's
 * `public/` folder, a favicon) would get index.html instead, so the console keeps its static
 * files under assets/ (imported from the code, they land there with a hash).
 */
export const SPA_REWRITE_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  if (request.uri.indexOf('${CONSOLE_PATH}/assets/') !== 0) {
    request.uri = '${CONSOLE_PATH}/index.html';
  }
  return request;
}`;

/**
 * The API behaviour's viewer-request function: the viewer's address in VIEWER_ADDRESS_HEADER,
 * replacing any such header the viewer sent. Behind the distribution API Gateway's sourceIp is
 * an edge server's; the functions read this header instead, on requests that also carry the
 * origin secret (lib/http/request.ts \`clientIp\`).
 */
export const VIEWER_ADDRESS_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

/** Where the distribution sends everything that is not the console: the REST API. */
export interface ApiOrigin {
  /** The API's host: `<restApiId>.execute-api.<region>.<urlSuffix>`, or its custom domain. */
  domainName: string;
  /** `/<stage>` on the execute-api host; none on a custom domain (mapped at its root). */
  originPath?: string;
}

/**
 * The execute-api host of a REST API and its stage, built from the API's id alone: the
 * RestApi resource does not depend on the methods, the functions or the stage, whereas its
 * `url` and `deploymentStage` do (the stage waits for the deployment, which waits for every
 * method, whose functions get the distribution's domain in their environment: a cycle).
 */
export function executeApiOrigin(restApiId: string, stageName: string): ApiOrigin {
  return { domainName: `${restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`, originPath: `/${stageName}` };
}

export interface ConsoleSiteProps {
  api: ApiOrigin;
  /** Edge locations: PRICE_CLASS_100 is North America and Europe only; ALL includes South America. */
  priceClass: PriceClass;
  /** The bucket, and the deployment function's log group, on stack deletion. */
  removalPolicy: RemovalPolicy;
  /** Of the deployment function's log group. */
  logRetention: RetentionDays;
  /** The console workspace (tests point it elsewhere); CONSOLE_DIR by default. */
  consoleDir?: string;
  /** Origins the console PUTs files to besides its own (the imports bucket), allowed by its CSP's connect-src. */
  uploadOrigins?: readonly string[];
}

/**
 * The browser console on the API's own origin: one CloudFront distribution whose default
 * behaviour forwards every request to the REST API unchanged (no caching, every header but
 * Host, every cookie and query string), and whose /console paths are the built console,
 * from a private bucket through Origin Access Control, with strict security headers.
 *
 * One origin for both means the session cookies (`SameSite=Strict`, `HttpOnly`, path `/auth`
 * and `/`) are first-party to the console, no CORS request is cross-origin, and the console
 * calls the API by path (`/auth/login`). The layout and cache policies are recorded in
 * docs/decisions.md ("The console on the API's origin").
 *
 * The console is built at synthesis (`npm run build` in console/, Vite with its output sent
 * to CDK's asset folder), once per source hash: a synth into the same cdk.out, or a second
 * stack in the same process, reuses it.
 */
export class ConsoleSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  readonly spaRewrite: CloudFrontFunction;
  readonly viewerAddress: CloudFrontFunction;
  /**
   * Generated at the first deploy; CloudFront sends it to the API on every request
   * (EDGE_SECRET_HEADER) and the functions get it as EDGE_SECRET, so that the viewer's address
   * the distribution reports is believed only on requests that came through it.
   */
  readonly edgeSecret: Secret;
  /** `https://<distribution domain>`: the console's, and the API's, browser origin. */
  readonly origin: string;
  /** `https://<distribution domain>/console`: the console's base URL (APP_URL). */
  readonly appUrl: string;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    const consoleDir = props.consoleDir ?? CONSOLE_DIR;

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: props.removalPolicy,
      // A DESTROY stage's bucket holds only a build: empty it so the stack deletes cleanly.
      autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY,
      // A deployment that fails mid-upload leaves no parts behind for long.
      lifecycleRules: [{ id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });

    this.responseHeadersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'The console: CSP, HSTS and the other security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: consoleCsp(props.uploadOrigins), override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        // The console's own URLs carry one-time tokens (reset-password?token=…, register?token=…).
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: CONSOLE_PERMISSIONS_POLICY, override: true },
          { header: 'Cross-Origin-Opener-Policy', value: 'same-origin', override: true },
        ],
      },
    });

    this.spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      comment: 'Console deep links: every path under /console but /console/assets/ gets /console/index.html',
      code: FunctionCode.fromInline(SPA_REWRITE_FUNCTION_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });

    const bucketOrigin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const consolePages: BehaviorOptions = {
      origin: bucketOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      // index.html is about a kilobyte: fetched from the bucket on every navigation, a deploy
      // is live at once with no invalidation. The query string (a token) stays at the edge.
      cachePolicy: CachePolicy.CACHING_DISABLED,
      responseHeadersPolicy: this.responseHeadersPolicy,
      functionAssociations: [{ function: this.spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
    };

    this.edgeSecret = new Secret(this, 'EdgeSecret', {
      description: 'What CloudFront sends the API to prove a request came through the distribution (generated)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.edgeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'It only tells the functions which requests came through the distribution (for the viewer address of per-address limits and the audit trail). Rotation means a new value in the secret and a deploy, which updates the distribution and the functions together; a rotation Lambda could not change both at once.',
    });
    this.viewerAddress = new CloudFrontFunction(this, 'ViewerAddress', {
      comment: "API requests: the viewer's address in a header of its own, replacing any the viewer sent",
      code: FunctionCode.fromInline(VIEWER_ADDRESS_FUNCTION_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Back-office API and console, one origin',
      priceClass: props.priceClass,
      httpVersion: HttpVersion.HTTP2_AND_3,
      // The API answers at the root; no default root object, no distribution-wide error
      // responses (they would also replace the API's own 403 and 404 problem documents).
      defaultBehavior: {
        origin: new HttpOrigin(props.api.domainName, {
          ...(props.api.originPath ? { originPath: props.api.originPath } : {}),
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
          // A dynamic reference: CloudFormation reads the secret at deploy, the template holds none.
          // CloudFront replaces a header of this name that a viewer sends.
          customHeaders: { [EDGE_SECRET_HEADER]: this.edgeSecret.secretValue.unsafeUnwrap() },
        }),
        functionAssociations: [{ function: this.viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        // Cookies, query strings and headers reach the API; Host does not: API Gateway
        // routes on its own host name. No response headers policy: the functions set theirs.
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
      additionalBehaviors: {
        // First: CloudFront takes the first pattern that matches.
        [`${CONSOLE_PATH}/assets/*`]: {
          origin: bucketOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: this.responseHeadersPolicy,
        },
        [CONSOLE_PATH]: consolePages,
        [`${CONSOLE_PATH}/*`]: consolePages,
      },
    });

    this.origin = `https://${this.distribution.distributionDomainName}`;
    this.appUrl = `${this.origin}${CONSOLE_PATH}`;

    if (existsSync(path.join(consoleDir, 'package.json'))) {
      this.deploy(consoleDir, props);
    } else {
      Annotations.of(this).addWarningV2(
        'backoffice:consoleNotBuilt',
        `${path.relative(repoRoot, consoleDir) || consoleDir}/package.json not found: the console bucket and distribution are created empty, and ${CONSOLE_PATH}/ answers 403 until a deploy from a checkout with the console.`,
      );
    }

    this.acknowledgeFindings();
  }

  /**
   * Builds the console and uploads it under `console/`, in two steps from one build: the
   * hashed assets first, with a year's immutable Cache-Control and never pruned (a browser
   * that still runs the previous index.html can load its chunks), then the other files
   * (index.html) with no-cache, pruning the ones a build no longer has.
   */
  private deploy(consoleDir: string, props: ConsoleSiteProps): void {
    const build = new Asset(this, 'Build', {
      path: consoleDir,
      exclude: CONSOLE_SOURCE_EXCLUDES,
      // The source's hash, so a synth whose cdk.out already holds this build skips it.
      assetHash: consoleSourceHash(consoleDir),
      assetHashType: AssetHashType.CUSTOM,
      bundling: {
        // Never used: local bundling succeeds or throws, so no container is started.
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
        local: { tryBundle: (outputDir) => buildConsole(consoleDir, outputDir) },
      },
    });
    const source = Source.bucket(build.bucket, build.s3ObjectKey);
    const logGroup = new LogGroup(this, 'DeploymentLogs', { retention: props.logRetention, removalPolicy: props.removalPolicy });
    acknowledgeLogGroupFindings(logGroup);
    const common = { sources: [source], destinationBucket: this.bucket, destinationKeyPrefix: CONSOLE_KEY_PREFIX, logGroup, memoryLimit: 256 };

    const assets = new BucketDeployment(this, 'DeployAssets', {
      ...common,
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [CacheControl.fromString(ASSETS_CACHE_CONTROL)],
    });
    const shell = new BucketDeployment(this, 'DeployShell', {
      ...common,
      // Excluded files are neither uploaded nor pruned: the assets above stay.
      exclude: ['assets/*'],
      prune: true,
      cacheControl: [CacheControl.fromString(SHELL_CACHE_CONTROL)],
    });
    shell.node.addDependency(assets);

    // Both deployments share one singleton function (and role), created at the stack's root.
    const handler = assets.handlerRole.node.scope;
    if (handler) this.acknowledgeDeploymentFunction(handler);
  }

  /** The BucketDeployment's own Lambda function and role, which CDK writes, with the reasons they stay as they are. */
  private acknowledgeDeploymentFunction(handler: IConstruct): void {
    acknowledgeFunctionOutsideVpc(handler);
    Validations.of(handler).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        "CDK's BucketDeployment function: aws-cdk-lib picks its Python runtime and the AWS CLI layer it runs; it changes with aws-cdk-lib upgrades, not here.",
    });
    Validations.of(handler).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: "CDK's BucketDeployment function writes its logs with the basic execution policy; it runs only during a deployment, on the console's build.",
    });
    // Granular findings: one per wildcard action and resource of the grants below.
    const bucketArn = `<${Stack.of(this).resolve(Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket)) as string}.Arn>`;
    const wildcards = [
      'Action::s3:GetObject*',
      'Action::s3:GetBucket*',
      'Action::s3:List*',
      'Action::s3:Abort*',
      'Action::s3:DeleteObject*',
      'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
      `Resource::${bucketArn}/*`,
    ];
    for (const wildcard of wildcards) {
      Validations.of(handler).acknowledge({
        id: `AwsSolutions-IAM5[${wildcard}]`,
        reason:
          "CDK's BucketDeployment grants: read the build's zip in the CDK assets bucket (s3:GetObject*, s3:GetBucket*, s3:List*) and write, list and delete the console bucket's objects (s3:DeleteObject*, s3:Abort*, bucket/*). Its sync needs every key under the prefix; the role is this deployment's alone and runs only during a deployment.",
      });
    }
  }

  /** Findings about the bucket and the distribution that stay, each with its reason. */
  private acknowledgeFindings(): void {
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The bucket holds only the public build of the console, read by CloudFront alone (Origin Access Control); it is written only by the deployment. Server access logs would record nothing but CloudFront fetching the built files.',
    });
    for (const [id, reason] of Object.entries(BUCKET_GUARD_REASONS)) Validations.of(this.bucket).acknowledge({ id: `cdk-validator-cfnguard::${id}`, reason });
    // autoDeleteObjects (DESTROY stages): CDK's provider that empties the bucket on stack deletion, at the stack's root.
    const autoDelete = Stack.of(this).node.tryFindChild('Custom::S3AutoDeleteObjectsCustomResourceProvider');
    if (autoDelete) acknowledgeFunctionOutsideVpc(autoDelete);
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'No geographic restriction: the console and the API are used wherever the tenants work; access is decided by the session, not the country.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason:
        "No WAF web ACL by default (from $5/month plus per rule and request), as for the API's stage: the API is throttled, abusive routes are rate limited in the table and sign-ins count failures. A web ACL can be attached to the distribution later without changing this stack.",
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR3',
      reason:
        "No CloudFront access logs: every API request is already in the API's JSON access log (with its request id and the caller), and the console's files are the public build. Standard logs would add a bucket that holds IP addresses (personal data under the LGPD) twice.",
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        "The distribution uses CloudFront's default certificate (*.cloudfront.net), whose viewer security policy CloudFront fixes at TLSv1; a minimum of TLS 1.2 needs a custom domain and an ACM certificate in us-east-1. HTTP is redirected to HTTPS, HSTS is sent, and browsers negotiate TLS 1.2 or 1.3.",
    });
    for (const [id, reason] of Object.entries(DISTRIBUTION_GUARD_REASONS))
      Validations.of(this.distribution).acknowledge({ id: `cdk-validator-cfnguard::${id}`, reason });
  }
}

/** Control Tower findings on the console bucket that stay, by rule. */
const BUCKET_GUARD_REASONS: Record<string, string> = {
  s3_bucket_default_encryption_kms_check:
    'The bucket holds the public build of the console (the files every visitor downloads), encrypted at rest with S3-managed keys. A KMS key would cost $1/month plus requests and need a key policy for CloudFront, to protect nothing secret.',
  s3_bucket_versioning_enabled_check:
    'The contents are a build, reproducible from the repository at any commit and replaced by each deploy; old hashed assets are kept (never pruned) for browsers still on the previous page. Versions would only accumulate copies of index.html.',
  s3_bucket_logging_enabled_check:
    'Read by CloudFront alone, written by the deployment alone: server access logs would record only CloudFront fetching the public build (see AwsSolutions-S1).',
  s3_event_notifications_enabled_check: 'Nothing reacts to an upload: the bucket changes only during a deployment, which CloudFormation records.',
  s3_bucket_object_lock_enabled_check:
    'Each deploy overwrites index.html and prunes files the build no longer has; Object Lock would forbid exactly that, for a build that can be rebuilt from the repository.',
};
/** Control Tower findings on the distribution that stay, by rule. */
const DISTRIBUTION_GUARD_REASONS: Record<string, string> = {
  cloudfront_default_root_object_configured_check:
    'The root path belongs to the API (the default behaviour forwards every path but /console to it); the console is at /console/, whose pages are rewritten to /console/index.html by the viewer-request function. A default root object would answer / with an object of the bucket the default behaviour does not use.',
  cloudfront_origin_failover_enabled_check:
    "There is no second origin to fail over to: the API is one regional REST API and the console one bucket in the same region. An origin group would also allow GET, HEAD and OPTIONS only, not the API's writes.",
  cloudfront_access_logs_enabled_check:
    "Every API request is already in the API's JSON access log; the console's files are the public build. Standard logs would add a bucket of IP addresses (personal data under the LGPD) for nothing new (see AwsSolutions-CFR3).",
  cloudfront_custom_ssl_certificate_check:
    "The distribution is served at its own *.cloudfront.net name with CloudFront's certificate, so no domain or us-east-1 certificate is needed to deploy a stage. A custom domain on the distribution would need an ACM certificate in us-east-1 and an alias (docs/deploy.md).",
  cloudfront_sni_enabled_check:
    "CloudFront's default certificate is served to every client (SNI applies to a custom certificate, which this distribution does not have; see cloudfront_custom_ssl_certificate_check).",
  cloudfront_security_policy_check:
    'With the default certificate CloudFront fixes the viewer security policy (TLSv1); a TLS 1.2 minimum needs a custom certificate. HTTP is redirected to HTTPS, HSTS is sent, current browsers negotiate TLS 1.2 or 1.3, and the connection to the API is TLS 1.2 only (see AwsSolutions-CFR4).',
};

/** A hash of what the build reads: console/ (without CONSOLE_SOURCE_EXCLUDES) and the CONSOLE_BUILD_INPUTS that exist. */
export function consoleSourceHash(consoleDir: string): string {
  const hash = createHash('sha256').update(FileSystem.fingerprint(consoleDir, { exclude: CONSOLE_SOURCE_EXCLUDES }));
  for (const input of CONSOLE_BUILD_INPUTS.map((name) => fromRoot(name)).filter((name) => existsSync(name))) {
    hash.update(FileSystem.fingerprint(input, { exclude: ['node_modules'] }));
  }
  return hash.digest('hex');
}

/**
 * CDK's local bundling of the console: its `build` script (`vite build`) with the output
 * sent to the asset folder CDK gives. Quiet when it works (cdk synth prints only what needs
 * action); its whole output when it fails. Throws rather than returning false, which would
 * make CDK try Docker.
 */
export function buildConsole(consoleDir: string, outputDir: string): true {
  const run = spawnSync('npm', ['run', 'build', '--', '--outDir', outputDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: consoleDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (run.error || run.status !== 0) {
    throw new Error(`The console build failed (npm run build in ${consoleDir}, exit ${run.status ?? run.error?.message}):\n${run.stdout}${run.stderr}`);
  }
  checkBuild(outputDir);
  return true;
}

/** The build is served under /console/: its page must exist and refer to its files there (Vite `base: '/console/'`). */
export function checkBuild(outputDir: string): void {
  const indexFile = path.join(outputDir, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`The console build wrote no index.html into ${outputDir}`);
  const html = readFileSync(indexFile, 'utf8');
  const rootPaths = [...html.matchAll(/\b(?:src|href)="(\/[^"]*)"/g)].map((match) => match[1] as string);
  const outside = rootPaths.filter((reference) => !reference.startsWith(`${CONSOLE_PATH}/`));
  if (outside.length > 0) {
    throw new Error(`The console's index.html refers to ${outside.join(', ')}, outside ${CONSOLE_PATH}/: build it with Vite's base '${CONSOLE_PATH}/'`);
  }
}
