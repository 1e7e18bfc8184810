// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import packageJson from './package.json' with { type: 'json' };

/** What a lib/db file may import outside lib/db: lib/domain, the models, errors, config and the logger. */
const DB_OUTWARD = '^\\.\\./(?!(errors|config|log)$|domain/|[a-z-]+/model$)';
const DB_MESSAGE = "lib/db is the table's plumbing: it imports only lib/db, lib/domain, lib/<area>/model, errors, config and log.";

/** What a feature's data access may not import: a service, an engine, or a feature's other upper layers. */
const REPOSITORY_UPWARD = '(^|/)(service|[a-z-]+-service|engine|queue|routes)$|(^|/)http(/|$)';
const REPOSITORY_MESSAGE =
  'A repository (lib/<area>/repository.ts, *-repository.ts, items.ts, session-opening.ts) imports no service or engine: services call repositories, never the other way.';
/** Only a feature's data access (and lib/db) holds the DynamoDB client. */
const DB_CLIENT = {
  regex: '(^|/)db/client$',
  message: 'Only a repository (lib/<area>/repository.ts, *-repository.ts, items.ts) and lib/db use the DynamoDB client.',
};
/** A feature's data access: the files that may use lib/db's client. */
const REPOSITORIES = ['lib/*/repository.ts', 'lib/*/*-repository.ts', 'lib/*/items.ts', 'lib/auth/session-opening.ts'];

/** A package the bundles must not contain: every devDependency (tooling, tests, infra). */
const DEV_ONLY = {
  regex: `^(${Object.keys(packageJson.devDependencies)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|')})(/|$)`,
  message: 'Shipped code (functions/, lib/) imports no devDependency: move this to tools/, or make it a dependency.',
};

/** The no-restricted-imports rule with the devDependency pattern and `patterns`. */
const restricted = (/** @type {{ regex: string; message: string }[]} */ ...patterns) => ({
  'no-restricted-imports': ['error', { patterns: [DEV_ONLY, ...patterns] }],
});

export default tseslint.config(
  // The typed client's schema is generated (`npm run client`) and checked by tsc, not linted.
  {
    ignores: [
      'node_modules/',
      'console/dist/',
      'console/.dist-*/',
      'cdk.out/',
      '.data/',
      'coverage/',
      'bench/results/',
      'bench/.bundles/',
      'clients/typescript/src/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // What ships (functions/, lib/) imports no devDependency, and layers point one way:
  // functions → lib/<area> services → lib/<area> repositories → lib/db (the table's plumbing, keys) → lib/<area>/model.
  // A wrong-way import fails the lint. In flat config the last matching block's
  // rule wins, so each block below repeats the devDependency pattern and narrows the rest.
  { files: ['functions/**/*.ts', 'lib/http/**/*.ts', 'lib/routes/**/*.ts'], rules: restricted(DB_CLIENT) },
  {
    // Domain code knows neither HTTP nor the route manifest.
    files: ['lib/*/**/*.ts', 'lib/*.ts'],
    ignores: ['lib/http/**', 'lib/routes/**'],
    rules: restricted(
      { regex: '(^|/)http(/|$)', message: 'Domain code does not import lib/http: move the type it needs into its area.' },
      { regex: '(^|/)routes$', message: 'Domain code does not import the route manifest: take what it needs as a parameter.' },
      DB_CLIENT,
    ),
  },
  { files: REPOSITORIES, rules: restricted({ regex: REPOSITORY_UPWARD, message: REPOSITORY_MESSAGE }) },
  { files: ['lib/db/*.ts'], rules: restricted({ regex: DB_OUTWARD, message: DB_MESSAGE }) },
  {
    // A model is the bottom layer: zod and the shared value helpers only.
    files: ['lib/*/model.ts'],
    rules: restricted({ regex: '^\\.\\.?/(?!\\.\\./)(?!domain/)', message: 'A model imports only zod and lib/domain.' }),
  },
  {
    // A handler file states its route's docs in one `ROUTE_DOCS: describeRoute(handler, {...})`
    // statement, which the bundles drop (infra/bundling.ts): docs anywhere else would ship,
    // and a label on anything else would silently vanish from the bundles. IN_PROCESS marks the
    // other dropped statement: a background job's in-process fallback (lib/tenant-jobs/queue.ts).
    files: ['functions/**/*.ts', 'lib/**/*.ts'],
    rules: {
      'no-unused-labels': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "LabeledStatement[label.name!='ROUTE_DOCS'][label.name!='IN_PROCESS']",
          message: 'The only labels are ROUTE_DOCS, the route docs that the bundles drop, and IN_PROCESS (lib/tenant-jobs/queue.ts).',
        },
        {
          selector: "LabeledStatement[label.name='ROUTE_DOCS']:not([body.type='ExpressionStatement'][body.expression.callee.name='describeRoute'])",
          message: 'ROUTE_DOCS labels exactly one statement: describeRoute(handler, { ... }). The bundles drop it.',
        },
        {
          selector: "CallExpression[callee.name='describeRoute']:not(LabeledStatement[label.name='ROUTE_DOCS'] > ExpressionStatement > CallExpression)",
          message: 'Call describeRoute only as `ROUTE_DOCS: describeRoute(handler, { ... })`, so the bundles leave the docs out.',
        },
      ],
    },
  },
  {
    // Command-line programs talk to a person on the console.
    files: ['local/**', 'scripts/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // vitest's asymmetric matchers (expect.any, objectContaining) are typed `any`, and fake
    // handlers are async to match the real signatures.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
