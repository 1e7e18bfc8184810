import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { stackTemplates, type StackTemplate } from '../../infra/bundle-sizes';
import { areaStackId, type ManifestRoute, sharedPaths } from '../../infra/constructs/route-area';
import { routeArea, routeList } from '../../lib/routes';
import { synthWithoutBundling, type ValidationReport, violationsOf } from './synth';

/**
 * The split into stacks (infra/constructs/route-area.ts): every template far from
 * CloudFormation's 500 resources today and with twice the routes, the stage deployed again
 * when the routes change, and cfn-guard reading the area stacks as well as the parent.
 */

/** Today's limit per template, and the one with every route doubled. */
const TODAY_MAX_RESOURCES = 300;
const DOUBLED_MAX_RESOURCES = 450;

interface Synthesized {
  templates: StackTemplate[];
  /** The parent's raw template: its nested stacks and its deployment. */
  parent: { Resources: Record<string, { Type: string; DependsOn?: string | string[] }> };
  report: ValidationReport;
  error?: Error;
}

function synthesized(routes?: readonly ManifestRoute[], extend?: Parameters<typeof synthWithoutBundling>[1]): Synthesized {
  let templates: StackTemplate[] = [];
  let parent: Synthesized['parent'] = { Resources: {} };
  const { report, error } = synthWithoutBundling({ stage: 'dev' }, extend, {
    ...(routes ? { routes } : {}),
    keep: (outdir) => {
      templates = stackTemplates(outdir);
      parent = JSON.parse(readFileSync(path.join(outdir, 'Backoffice-dev.template.json'), 'utf8')) as Synthesized['parent'];
    },
  });
  return { templates, parent, report, ...(error ? { error } : {}) };
}

/** Every route again under `/copy`, as a synthetic area's worth of growth in each area. */
const doubled: ManifestRoute[] = routeList().flatMap((route) => [route, { ...route, id: `${route.id}Copy` as const, path: `/copy${route.path}` }]);
/** The manifest less its last route, as a release that removes one would deploy. */
const lessOne: ManifestRoute[] = routeList().slice(0, -1);

let today: Synthesized;
let twice: Synthesized;
let smaller: Synthesized;
let withNestedFinding: Synthesized;

beforeAll(() => {
  today = synthesized();
  twice = synthesized(doubled);
  smaller = synthesized(lessOne);
  withNestedFinding = synthesized(undefined, (stack) => {
    new LogGroup(stack.areas[0] as NonNullable<(typeof stack.areas)[number]>, 'UnacknowledgedLogs');
  });
}, 240_000);

const deploymentOf = (synth: Synthesized): [string, { Type: string; DependsOn?: string | string[] }] => {
  const deployments = Object.entries(synth.parent.Resources).filter(([, resource]) => resource.Type === 'AWS::ApiGateway::Deployment');
  expect(deployments).toHaveLength(1);
  return deployments[0] as [string, { Type: string; DependsOn?: string | string[] }];
};
const nestedStacksOf = (synth: Synthesized): string[] =>
  Object.entries(synth.parent.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::CloudFormation::Stack')
    .map(([id]) => id);

describe('stacks by area', () => {
  it('puts each area of the manifest in a nested stack of its own, and keeps every template at most 300 resources', () => {
    expect(today.error).toBeUndefined();
    const areas = [...new Set(routeList().map(routeArea))];
    expect(today.templates.map((template) => template.stack)).toEqual([
      'Backoffice-dev',
      ...areas.map((area) => expect.stringMatching(new RegExp(`^Backoffice-dev/${areaStackId(area)}NestedStack`))),
    ]);
    for (const template of today.templates) expect(Object.keys(template.resources).length, template.stack).toBeLessThanOrEqual(TODAY_MAX_RESOURCES);
  });

  it('keeps every template under 450 resources with every route doubled', () => {
    expect(twice.error).toBeUndefined();
    const counts = twice.templates.map((template) => [template.stack, Object.keys(template.resources).length] as const);
    // The doubled routes really landed: more resources in every area than today.
    for (const [stack, count] of counts.slice(1))
      expect(count, stack).toBeGreaterThan(Object.keys(today.templates.find((template) => template.stack === stack)?.resources ?? {}).length);
    for (const [stack, count] of counts) expect(count, stack).toBeLessThan(DOUBLED_MAX_RESOURCES);
  });

  it('creates a path two areas share in the parent, and every other in its area', () => {
    // /inventory holds the inventory area's routes and the categories area's.
    expect(sharedPaths(doubled, routeArea)).toEqual(['/copy', '/copy/inventory', '/inventory']);
    expect(sharedPaths(routeList(), routeArea)).toEqual(['/inventory']);
    expect(
      sharedPaths(
        [
          { path: '/inventory/products', handler: 'functions/catalog/a.ts' },
          { path: '/inventory/transfers/{id}', handler: 'functions/transfers/b.ts' },
        ],
        routeArea,
      ),
    ).toEqual(['/inventory']);
  });

  it('deploys the stage after every area stack, under a logical id that changes with the route list', () => {
    const [todayId, todayDeployment] = deploymentOf(today);
    expect([todayDeployment.DependsOn ?? []].flat()).toEqual(expect.arrayContaining(nestedStacksOf(today)));
    const [twiceId] = deploymentOf(twice);
    const [smallerId] = deploymentOf(smaller);
    expect(new Set([todayId, twiceId, smallerId]).size).toBe(3);
    // And the same routes give the same id: no redeployment without a change.
    expect(deploymentOf(synthesized())[0]).toBe(todayId);
  });
});

describe('cfn-guard over every template', () => {
  it('reports a finding in an area stack, which the plugin alone would never read', () => {
    expect(violationsOf(withNestedFinding.report, 'cdk-validator-cfnguard')).toEqual([
      expect.stringMatching(/^cloudwatch_log_group_encrypted_check \(\w+\) at Backoffice-dev\/TenantsRoutes\/UnacknowledgedLogs\/Resource$/),
    ]);
    // And the same plugin reports nothing on today's templates: every finding of the area stacks is acknowledged.
    expect(violationsOf(today.report, 'cdk-validator-cfnguard')).toEqual([]);
  });
});
