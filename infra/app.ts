import { App, Tags } from 'aws-cdk-lib';
import { BackofficeStack } from './stack';
import { resolveStage } from './stages';

/**
 * CDK entry point (`cdk synth -c stage=dev|prod`). The stack is environment-agnostic: no
 * account or region is pinned and nothing is looked up, so synthesis works offline.
 */
const app = new App();
const stage = resolveStage((key) => app.node.tryGetContext(key) as unknown);

const stack = new BackofficeStack(app, `Backoffice-${stage.name}`, {
  stage,
  description: `Multi-tenant back-office API (${stage.name})`,
});
Tags.of(stack).add('service', 'backoffice');
Tags.of(stack).add('stage', stage.name);

app.synth();
