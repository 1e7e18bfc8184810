// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What a lib/db file may import outside lib/db: lib/domain, the models, errors, config and the logger. */
const DB_OUTWARD = (/** @type {string} */ up) => `^${up.replace(/\./g, '\\.')}(?!(errors|config|log)$|domain/|[a-z-]+/model$)`;
const DB_MESSAGE = 'lib/db imports only lib/db, lib/domain, lib/<area>/model, errors, config and log: services call repositories, never the other way.';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', 'coverage/', 'bench/results/'] },
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
  // Layers point one way: functions → lib/<area> (services) → lib/db (repositories, keys)
  // → lib/<area>/model. A wrong-way import fails the lint (issue 13).
  {
    // Domain code knows neither HTTP nor the route manifest. (Blocks below narrow this for
    // lib/db and the models: in flat config the last matching block's rule wins.)
    files: ['lib/*/**/*.ts', 'lib/*.ts'],
    ignores: ['lib/http/**', 'lib/openapi/**', 'lib/routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)http(/|$)', message: 'Domain code does not import lib/http: move the type it needs into its area.' }, { regex: '(^|/)routes$', message: 'Domain code does not import the route manifest: take what it needs as a parameter.' }] },
      ],
    },
  },
  {
    files: ['lib/db/repositories/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: DB_OUTWARD('../../'), message: DB_MESSAGE }] }] },
  },
  {
    files: ['lib/db/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: DB_OUTWARD('../'), message: DB_MESSAGE }] }] },
  },
  {
    // A model is the bottom layer: zod and the shared value helpers only.
    files: ['lib/*/model.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\.?/(?!\\.\\./)(?!domain/)', message: 'A model imports only zod and lib/domain.' }] }] },
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
