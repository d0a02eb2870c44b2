/**
 * One process per PGlite folder. PGlite is PostgreSQL in one process with no lock of its own:
 * a second server on the same DATA_DIR would run on its own copy of the pages in memory and
 * overwrite the first one's acknowledged writes. So the folder carries a lock file naming the
 * process that has it open; another process is refused with a message saying what to do. A
 * lock left by a process that died (kill -9, a crash) is taken over: its process is gone.
 */
import { link, mkdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'server.lock';

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

/** Another process has the folder open. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another server process (pid ${owner.pid} on ${owner.host}, since ${owner.since}). ` +
        'Two processes on one PGlite folder would lose each other’s writes: stop the other process, give this one another ' +
        'DATA_DIR, or set DATABASE_URL to share a PostgreSQL database between processes.',
    );
    this.name = 'DataDirInUseError';
  }
}

function isAlive(owner: LockOwner): boolean {
  // A process on another machine (a shared network folder) cannot be checked: assume it runs.
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<{ text: string; owner: LockOwner | undefined } | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return { text, owner: typeof owner.pid === 'number' ? owner : undefined };
  } catch {
    return { text, owner: undefined }; // half-written by a process that died while writing it
  }
}

const isCode = (error: unknown, code: string) => (error as NodeJS.ErrnoException).code === code;

/**
 * Takes the folder's lock for this process, or throws DataDirInUseError. Returns the release,
 * which removes the lock if it is still this process's.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const mine: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const text = JSON.stringify(mine);
  // Written whole under a name of its own, then linked into place: link() fails if a lock
  // exists, so no process ever reads a half-written lock of a live one.
  const staged = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(staged, text);
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        await link(staged, path);
        return async () => {
          const current = await readOwner(path).catch(() => undefined);
          if (current?.text === text) await unlink(path).catch(() => undefined);
        };
      } catch (error) {
        if (!isCode(error, 'EEXIST')) throw error;
      }
      const found = await readOwner(path);
      if (!found) continue; // released a moment ago
      if (found.owner && isAlive(found.owner)) throw new DataDirInUseError(dataDir, found.owner);
      await takeOverStale(path, found.text);
    }
    throw new Error(`could not take the lock of ${dataDir}`);
  } finally {
    await unlink(staged).catch(() => undefined);
  }
}

/**
 * Removes a lock whose process is gone. Two processes starting at once may both find it: a
 * directory made next to it lets one of them remove it, and only if it is still the stale one
 * (the other may have taken the folder already).
 */
async function takeOverStale(path: string, staleText: string): Promise<void> {
  const guard = `${path}.takeover`;
  try {
    await mkdir(guard);
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The guard is held for a moment; one older than that was left by a process that died mid-takeover.
    const age = await stat(guard).then((info) => Date.now() - info.mtimeMs, () => 0);
    if (age > 5000) await rmdir(guard).catch(() => undefined);
    return;
  }
  try {
    const current = await readOwner(path);
    if (current?.text === staleText) await unlink(path);
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}
