import { App, type AppProps, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BackofficeStack } from './stack';
import { resolveStage, type StageConfig } from './stages';

/** Stack name of a stage: `Backoffice-dev`, `Backoffice-prod`. */
export const stackName = (stage: Pick<StageConfig, 'name'>): string => `Backoffice-${stage.name}`;

/**
 * The CDK app exactly as `cdk synth` builds it, also for the tests: the stage from context,
 * the stack, its tags and the AWS Solutions checks of cdk-nag. (cdk-nag 3 is a policy
 * validation plugin: findings are reported, and fail synthesis, after the templates are
 * written; acknowledgments sit next to the resources they are about, with their reason.)
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
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack, stage };
}
