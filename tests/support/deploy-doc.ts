/**
 * The deployment document (src/server/README.md) as the tests read it: its fenced examples, the
 * instances it enables, and its nginx site run for real (Debian's nginx, without root's paths) in
 * front of whatever listens on the ports a test gives.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { projectRoot } from '../../src/server/config.ts';
import { freePort } from './ports.ts';

export const DEPLOY_DOC = readFileSync(join(projectRoot(), 'src/server/README.md'), 'utf8');
export const NGINX = '/usr/sbin/nginx';

/** The one fenced block of `language` in the deployment document. */
export function block(language: string): string {
  const blocks = [...DEPLOY_DOC.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);
  expect(blocks, `src/server/README.md's \`\`\`${language} blocks`).toHaveLength(1);
  return blocks[0]!;
}

/** The ports of the instances the document enables (`systemctl enable --now community@3001 community@3002`). */
export function enabledPorts(): number[] {
  const line = DEPLOY_DOC.match(/systemctl enable --now ((?:community@\d+ ?)+)/);
  expect(line, 'src/server/README.md names the instances it enables').not.toBeNull();
  return [...line![1]!.matchAll(/@(\d+)/g)].map((m) => Number(m[1]));
}

/** A minimal nginx.conf around the example's server block, every path nginx writes inside `dir` (it runs without root). */
export function writeNginxConf(dir: string, server: string): string {
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `    ${name}_temp_path ${join(dir, name)};`).join('\n');
  const file = join(dir, 'nginx.conf');
  // Run by root, nginx's workers would be nobody, who cannot open the folder.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  writeFileSync(file, `${user}pid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')};\nevents {}\nhttp {\n    access_log ${join(dir, 'access.log')};\n${temps}\n${server}\n}\n`);
  return file;
}

export interface RunningNginx {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** nginx on the example's site, listening on a free loopback port, the enabled instances' ports moved to `ports` (in order). */
export async function startNginx(server: string, ports: number[]): Promise<RunningNginx> {
  const dir = await mkdtemp(join(tmpdir(), 'nginx-example-'));
  const port = await freePort();
  let config = server.replace(/listen\s+80;/, `listen 127.0.0.1:${port};`);
  for (const [index, enabled] of enabledPorts().entries()) config = config.replaceAll(String(enabled), String(ports[index]!));
  const file = writeNginxConf(dir, config);
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running: RunningNginx = {
    port,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) break;
    if (await fetch(`${running.url}/healthz`).then(() => true, () => false)) return running;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
  await running.stop();
  throw new Error(`nginx did not start: ${errors}${log}`);
}
