import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';

/**
 * The console is served at /console/ on the API's own origin (`npm start`, and CloudFront on
 * AWS), so its requests carry the SameSite=Strict session cookies. `npm run console:dev` runs
 * Vite on 127.0.0.1:5173 with hot reload and proxies every API path to the local API
 * (`npm start`, port 3000 unless API_URL says otherwise): the page and the API then still
 * share one origin, the dev server's.
 */
const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:3000';
const API_PATHS = [
  '/auth',
  '/tenants',
  '/users',
  '/companies',
  '/suppliers',
  '/purchase-orders',
  '/purchasing',
  '/inventory',
  '/audit-events',
  '/api-keys',
  '/events',
  '/webhook-endpoints',
  '/webhook-deliveries',
  '/imports',
  '/local-files',
  '/exports',
  '/openapi.json',
];

const config = {
  base: '/console/',
  plugins: [react()],
  resolve: {
    alias: { '@backoffice/client': fileURLToPath(new URL('../clients/typescript/src/index.ts', import.meta.url)) },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    // The local API checks Origin on writes: the proxy sends the dev server's, which it allows.
    proxy: Object.fromEntries(API_PATHS.map((path) => [path, { target: apiUrl, changeOrigin: false }])),
  },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // One file per page: the first page loads only what it draws (the budget in bench/console.ts).
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
} satisfies UserConfig;

export default defineConfig(({ command }) => {
  // A build is a production build whatever NODE_ENV the caller has: vitest sets `test`, which
  // would ship React's development build (from npm start in a test, or cdk synth in the infra tests).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});
