/**
 * globalSetup of the e2e project: a data folder with the demo (seeded as of demoNow: the same
 * posts at any hour) and the built server's first start on it, made once, on a folder every later
 * server gets a copy of (startApp), as its own first start would have left it. A server on a seeded folder only opens it. Then one server
 * on a copy for the files that only read (fixtures.ts, sharedApp), stopped at the end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { assertBuilt, seedDemo, SHARED_APP_ENV, startApp, type RunningApp } from './app.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'feed-e2e-template-'));
  const dataDir = join(dir, 'data');
  try {
    await seedDemo(dataDir);
    const first = await startApp({ env: { DATA_DIR: dataDir }, dataTemplate: null });
    await first.stop();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  project.provide('e2eDataTemplate', dataDir);
  let shared: RunningApp;
  try {
    shared = await startApp({ env: SHARED_APP_ENV, dataTemplate: dataDir });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  project.provide('e2eSharedApp', { url: shared.url, port: shared.port, dataDir: shared.dataDir });
  return async () => {
    await shared.stop();
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
