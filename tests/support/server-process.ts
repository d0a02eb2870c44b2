/**
 * Real API server processes for the tests that need more than inject(): several processes on
 * one database, a kill -9 in the middle of writes, a second process on a PGlite folder.
 *
 * The server is bundled once per test file with the build's own esbuild flags (so a start does
 * not transpile TypeScript each time), into dist/ so that the bundle
 * finds the project (and its migrations) as dist/server/main.js does. Each process listens on
 * a free loopback port, serves the API only, and keeps its log, where login codes appear.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api } from '../../src/shared/api.ts';
import { TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import { projectRoot } from '../../src/server/config.ts';
import { freePort } from './ports.ts';

const root = projectRoot();
let bundled: Promise<string> | undefined;
let bundleDir: string | undefined;

/** The server bundled for this test process (built on first use). */
export function serverBundle(): Promise<string> {
  bundled ??= (async () => {
    bundleDir = join(root, 'dist', 'test-servers', `${process.pid}-${Math.random().toString(36).slice(2)}`);
    await mkdir(bundleDir, { recursive: true });
    const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['build:server'];
    if (!script?.startsWith('esbuild ')) throw new Error(`unexpected build:server script: ${script}`);
    const outfile = join(bundleDir, 'main.js');
    const args = script
      .split(/\s+/)
      .slice(1)
      .map((arg) => (arg.startsWith('--outfile=') ? `--outfile=${outfile}` : arg));
    await promisify(execFile)(join(root, 'node_modules/.bin/esbuild'), [...args, '--log-level=warning'], { cwd: root });
    return outfile;
  })();
  return bundled;
}

/** Removes this test process's bundle (call in afterAll). */
export async function removeServerBundle(): Promise<void> {
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
  bundled = undefined;
  bundleDir = undefined;
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote (stdout and stderr). */
  output(): string;
  /** The last login code the process logged for a phone. */
  codeFor(cellphone: string): string | undefined;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** kill -9. */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

export interface StartOptions {
  env: Record<string, string>;
  /** Wait until it answers (default); false: return at once (a start that is meant to fail). */
  waitUntilReady?: boolean;
  /** Started as an operator does, by `npm run serve` on the build's dist/server/main.js (the child is npm). */
  throughNpm?: boolean;
  /** The port to listen on (a process started again where the one before it was); a free one by default. */
  port?: number;
}

export async function startServerProcess({ env, waitUntilReady = true, throughNpm = false, port: wanted }: StartOptions): Promise<ServerProcess> {
  const [command, args] = throughNpm ? ['npm', ['run', '--silent', 'serve']] : [process.execPath, ['--enable-source-maps', await serverBundle()]];
  const port = wanted ?? (await freePort());
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CLIENT_DIR: join(root, 'dist', 'no-client-for-tests'),
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    port,
    child,
    output: () => output,
    codeFor(cellphone) {
      const matches = [...output.matchAll(new RegExp(`login code for ${cellphone}: (\\d{6})`, 'g'))];
      return matches.at(-1)?.[1];
    },
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  if (!waitUntilReady) return server;
  let gone = false;
  void exited.then(() => (gone = true));
  for (let i = 0; i < 600; i++) {
    if (gone) throw new Error(`the server exited before answering:\n${output.slice(-2000)}`);
    const answered = await fetch(`${url}/serv/v1/complain/reasons`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.kill();
  throw new Error(`the server did not answer within 60 s:\n${output.slice(-2000)}`);
}

/** A JSON call of the contract over HTTP, as a client sends it. */
export async function callOver<T = unknown>(
  base: string,
  path: string,
  body: unknown,
  options: { ticket?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: { code: number; data?: T; error?: { code: number; msg: string } } }> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.ticket ? { cookie: `${TICKET_COOKIE}=${options.ticket}` } : {}), ...options.headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { code: number; data?: T; error?: { code: number; msg: string } } };
}

/** Logs a phone in as an app does (its Device-Id sent, so the answer carries the ticket), the code read from the server's log. */
export async function logInOver(server: ServerProcess, cellphone: string, deviceId: string): Promise<string> {
  await callOver(server.url, api.loginCode.path, { cellphone });
  for (let i = 0; i < 100 && !server.codeFor(cellphone); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const answer = await callOver<{ ticket: string }>(server.url, api.login.path, { cellphone, code: server.codeFor(cellphone), device_kind: 'pc' }, { headers: { 'device-id': deviceId } });
  if (!answer.body.data) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  return answer.body.data.ticket;
}
