import { createRequire } from 'node:module';
import path from 'node:path';
import { readdirSync } from 'node:fs';
import {
  App,
  type AppProps,
  type IPolicyValidationContextBeta1,
  type IPolicyValidationPluginBeta1,
  type PolicyValidationPluginReportBeta1,
  Tags,
  Validations,
} from 'aws-cdk-lib';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { ManifestRoute } from './constructs/route-area';
import { BackofficeStack } from './stack';
import { resolveStage, type StageConfig } from './stages';

/** Where @cdklabs/cdk-validator-cfnguard keeps the Control Tower proactive controls, one folder per service. */
export const CONTROL_TOWER_RULES_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cdklabs/cdk-validator-cfnguard/package.json')),
  'rules',
  'control-tower',
  'cfn-guard',
);

/**
 * The Control Tower rule folders for the resource types the stack creates. cfn-guard reads
 * and runs every rule file it is given against the whole template, so all 39 folders cost
 * about 10 s of CPU per synthesis against about 2 s for these, for no other finding: a rule only
 * looks at its own resource types. test/infra keeps the list complete: every resource type
 * of every configuration that some rule file names must have its folder here.
 */
export const CONTROL_TOWER_RULE_FOLDERS = ['apigateway', 'cloudfront', 'cloudwatch', 'dynamodb', 'identityandaccessmanagement', 'lambda', 's3', 'sqs'] as const;

/**
 * A validation plugin run over every template of the assembly: CDK hands a plugin the
 * top-level stacks' templates only, so cfn-guard alone would never read the area stacks
 * (nested stacks, `*.nested.template.json` beside their parent's).
 */
export class EveryTemplate implements IPolicyValidationPluginBeta1 {
  readonly name: string;
  readonly version?: string;
  readonly ruleIds?: string[];

  constructor(private readonly plugin: IPolicyValidationPluginBeta1) {
    this.name = plugin.name;
    if (plugin.version !== undefined) this.version = plugin.version;
    if (plugin.ruleIds !== undefined) this.ruleIds = plugin.ruleIds;
  }

  validate(context: IPolicyValidationContextBeta1): PolicyValidationPluginReportBeta1 {
    return this.plugin.validate({ appConstruct: context.appConstruct, templatePaths: withNestedTemplates(context.templatePaths) });
  }
}

/** The templates and every nested stack template in their folders. */
export function withNestedTemplates(templatePaths: readonly string[]): string[] {
  const folders = [...new Set(templatePaths.map((file) => path.dirname(file)))];
  const nested = folders.flatMap((folder) =>
    readdirSync(folder)
      .filter((file) => file.endsWith('.nested.template.json'))
      .map((file) => path.join(folder, file)),
  );
  return [...new Set([...templatePaths, ...nested.sort()])];
}

/** Stack name of a stage: `Backoffice-dev`, `Backoffice-prod`. */
export const stackName = (stage: Pick<StageConfig, 'name'>): string => `Backoffice-${stage.name}`;

/**
 * The CDK app exactly as `cdk synth` builds it, also for the tests: the stage from context,
 * the stack, its tags, the AWS Solutions checks of cdk-nag and the Control Tower proactive
 * controls of cfn-guard. (Both are policy validation plugins: findings are reported, and fail
 * synthesis, after the templates are written; acknowledgments sit next to the resources they
 * are about, with their reason, or in infra/acknowledgments.ts when several share one.)
 */
export function createBackofficeApp(
  props: AppProps = {},
  options: { routes?: readonly ManifestRoute[] } = {},
): { app: App; stack: BackofficeStack; stage: StageConfig } {
  const app = new App(props);
  const stage = resolveStage((key) => app.node.tryGetContext(key) as unknown);
  const stack = new BackofficeStack(app, stackName(stage), {
    stage,
    ...(options.routes ? { routes: options.routes } : {}),
    description: `Multi-tenant back-office API (${stage.name})`,
  });
  Tags.of(stack).add('service', 'backoffice');
  Tags.of(stack).add('stage', stage.name);
  Validations.of(app).addPlugins(
    new AwsSolutionsChecks(app, { verbose: true }),
    new EveryTemplate(
      new CfnGuardValidator({
        controlTowerRulesEnabled: false,
        rules: CONTROL_TOWER_RULE_FOLDERS.map((folder) => path.join(CONTROL_TOWER_RULES_DIR, folder)),
      }),
    ),
  );
  return { app, stack, stage };
}
