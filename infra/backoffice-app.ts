import { createRequire } from 'node:module';
import path from 'node:path';
import { App, type AppProps, Tags, Validations } from 'aws-cdk-lib';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import { AwsSolutionsChecks } from 'cdk-nag';
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

/** Stack name of a stage: `Backoffice-dev`, `Backoffice-prod`. */
export const stackName = (stage: Pick<StageConfig, 'name'>): string => `Backoffice-${stage.name}`;

/**
 * The CDK app exactly as `cdk synth` builds it, also for the tests: the stage from context,
 * the stack, its tags, the AWS Solutions checks of cdk-nag and the Control Tower proactive
 * controls of cfn-guard. (Both are policy validation plugins: findings are reported, and fail
 * synthesis, after the templates are written; acknowledgments sit next to the resources they
 * are about, with their reason, or in infra/acknowledgments.ts when several share one.)
 */
export function createBackofficeApp(props: AppProps = {}): { app: App; stack: BackofficeStack; stage: StageConfig } {
  const app = new App(props);
  const stage = resolveStage((key) => app.node.tryGetContext(key) as unknown);
  const stack = new BackofficeStack(app, stackName(stage), {
    stage,
    description: `Multi-tenant back-office API (${stage.name})`,
  });
  Tags.of(stack).add('service', 'backoffice');
  Tags.of(stack).add('stage', stage.name);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }), new CfnGuardValidator({
      controlTowerRulesEnabled: false,
      rules: CONTROL_TOWER_RULE_FOLDERS.map((folder) => path.join(CONTROL_TOWER_RULES_DIR, folder)),
    }));
  return { app, stack, stage };
}
