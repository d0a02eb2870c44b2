/**
 * Vitest's settings and its test projects (unit, lint, api, e2e), the `test` of vite.config.ts:
 * each project extends the build's settings (its plugins and aliases) with its own files,
 * environment and timeouts.
 */
import { availableParallelism } from 'node:os';
import type { ViteUserConfig } from 'vitest/config';

export const testSettings: NonNullable<ViteUserConfig['test']> = {
  // Vitest's default on two cores is one file at a time; the api files (PGlite and PostgreSQL
  // in other processes) and the unit files gain from two.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  reporters: ['default', './tests/support/summary-reporter.ts'],
  // Timeouts are how long a test may wait before it is called stuck, not how fast it must be:
  // they hold on a machine many times slower than a quiet one (speed is the bench's business).
  projects: [
    {
      extends: true,
      test: {
        name: 'unit',
        include: ['tests/unit/**/*.test.{ts,tsx}'],
        // Files that need no DOM say `// @vitest-environment node` on their first line.
        environment: 'jsdom',
        setupFiles: ['tests/support/unit-setup.ts'],
        testTimeout: 120_000,
      },
    },
    {
      extends: true,
      test: {
        name: 'lint',
        include: ['tests/lint/**/*.test.ts'],
        environment: 'node',
        testTimeout: 120_000,
      },
    },
    {
      extends: true,
      test: {
        name: 'api',
        include: ['tests/api/**/*.test.ts'],
        environment: 'node',
        globalSetup: ['tests/support/api-global-setup.ts'],
        setupFiles: ['tests/support/api-setup.ts'],
        testTimeout: 120_000,
        hookTimeout: 300_000,
      },
    },
    {
      extends: true,
      test: {
        name: 'e2e',
        include: ['tests/e2e/**/*.test.ts'],
        environment: 'node',
        // The demo's data folder made once, and the server the files that only read share.
        globalSetup: ['tests/e2e/support/global-setup.ts'],
        setupFiles: ['tests/e2e/support/failure-setup.ts'],
        // Two files at a time, even on two cores: much of a file's time is spent waiting on its
        // browser and its server.
        maxWorkers: 2,
        testTimeout: 600_000,
        hookTimeout: 300_000,
        expect: { poll: { timeout: 60_000 } },
      },
    },
  ],
};
