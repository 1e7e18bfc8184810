import { createBackofficeApp } from './backoffice-app';

/**
 * CDK entry point (`cdk synth -c stage=dev|prod`). The stack is environment-agnostic: no
 * account or region is pinned and nothing is looked up, so synthesis works offline. The
 * AWS Solutions checks (cdk-nag) run as a validation plugin: synthesis fails on any finding
 * that is not acknowledged with a reason.
 */
createBackofficeApp().app.synth();
