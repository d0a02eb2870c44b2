/**
 * The deployment examples of src/server/README.md work as written: its nginx configuration passes `nginx -t`
 * (Debian's nginx; missing, the test fails: .ci/run installs it), its systemd unit passes
 * `systemd-analyze verify` where systemd is, and the two agree: the unit starts node itself on
 * the built server, restarts it, stops it with SIGTERM within time for the drain, binds loopback
 * and believes one proxy hop, and nginx sends both processes' ports the headers the server reads.
 * nginx, run on the example in front of two stand-ins, keeps /metrics and /docs to the internal
 * addresses (which the server's METRICS_ALLOW names too). The secrets are in the unit's
 * EnvironmentFile, which the steps make with mode 0600 (run here with its folder moved), and the
 * steps create the user the unit runs as and the folder it runs in.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../../src/shared/constants.ts';
import { addressMatcher } from '../../src/server/address-ranges.ts';
import { loadConfig } from '../../src/server/config.ts';
import { block, DEPLOY_DOC, enabledPorts, NGINX, startNginx, writeNginxConf } from '../support/deploy-doc.ts';
import { freePort } from '../support/ports.ts';

/** A unit's `Key=value` lines, in order (keys repeat: Environment). */
function unitEntries(unit: string): [string, string][] {
  return unit
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && !line.startsWith(';') && !line.startsWith('['))
    .map((line) => {
      const at = line.indexOf('=');
      expect(at, line).toBeGreaterThan(0);
      return [line.slice(0, at), line.slice(at + 1)];
    });
}

/** The environment a unit's Environment= lines give (space-separated assignments, no quoting used). */
function unitEnvironment(unit: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of unitEntries(unit)) {
    if (key !== 'Environment') continue;
    for (const assignment of value.split(/\s+/)) {
      const at = assignment.indexOf('=');
      env[assignment.slice(0, at)] = assignment.slice(at + 1);
    }
  }
  return env;
}

/** systemd's time span in seconds: 30, 30s, 1min 30s, 2m. */
function seconds(span: string): number {
  let total = 0;
  for (const [, n, unit = 's'] of span.matchAll(/(\d+)\s*(ms|s|sec|min|m|h)?/g)) {
    total += Number(n) * ({ ms: 0.001, s: 1, sec: 1, min: 60, m: 60, h: 3600 } as Record<string, number>)[unit]!;
  }
  return total;
}

/** The deployment steps (the ```sh block that packs the release), comments dropped. */
function stepLines(): string[] {
  const blocks = [...DEPLOY_DOC.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).filter((text) => text.includes('tar -czf'));
  expect(blocks, 'the ```sh block of the steps').toHaveLength(1);
  return blocks[0]!.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
}

/** The EnvironmentFile of the unit. */
const ENVIRONMENT_FILE = () => unitEntries(block('ini')).find(([key]) => key === 'EnvironmentFile')?.[1] ?? '';

/** The steps' lines that make the EnvironmentFile (its folder, the file, what is written into it: here-documents whole). */
function environmentFileSteps(): string {
  const folder = dirname(ENVIRONMENT_FILE());
  const lines = stepLines();
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.includes(folder)) continue;
    kept.push(lines[i]!);
    const heredoc = lines[i]!.match(/<<-?'?(\w+)'?/);
    if (!heredoc) continue;
    while (i + 1 < lines.length && lines[i]!.trim() !== heredoc[1]) kept.push(lines[++i]!);
  }
  expect(kept.length, `the steps make ${ENVIRONMENT_FILE()}`).toBeGreaterThan(1);
  return kept.join('\n') + '\n';
}

/** The variables the steps write into the EnvironmentFile. */
function environmentFileContent(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of environmentFileSteps().split('\n')) {
    const assignment = line.match(/^([A-Z][A-Z0-9_]*)=(.*)$/);
    if (assignment) env[assignment[1]!] = assignment[2]!;
  }
  return env;
}

interface StandIn {
  port: number;
  /** Answer every request with this status from now on (200 by default). */
  status: number;
  close(): Promise<void>;
}

/** A server process's stand-in: answers every request with JSON naming itself (`index`), the path and the forwarded address. */
async function startStandIn(index: number): Promise<StandIn> {
  const port = await freePort();
  const standIn: StandIn = { port, status: 200, close: () => new Promise((resolve) => http.close(() => resolve())) };
  const http = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(standIn.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ standIn: index, url: request.url, method: request.method, forwardedFor: request.headers['x-forwarded-for'] }));
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return standIn;
}

/** A request through nginx from a given local address; the stand-in's JSON, or nginx's own page. */
function get(proxy: { port: number }, path: string, from: string, method = 'GET'): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: proxy.port, path, method, localAddress: from, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // nginx's own pages are HTML.
        }
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    request.on('error', reject);
    request.end(method === 'GET' ? undefined : '{}');
  });
}

/** nginx on the example in front of the stand-ins. */
const startNginxBefore = (server: string, standIns: StandIn[]) => startNginx(server, standIns.map((standIn) => standIn.port));

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-examples-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the deployment document's nginx site", () => {
  const server = block('nginx');

  it('passes nginx -t inside a minimal nginx.conf', () => {
    expect(existsSync(NGINX), `${NGINX} is missing: apt-get install -y nginx-light (.ci/run does)`).toBe(true);
    const dir = tempDir();
    const run = spawnSync(NGINX, ['-t', '-p', dir, '-c', writeNginxConf(dir, server)], { encoding: 'utf8' });
    expect(run.stderr).toContain('test is successful');
    expect(run.status, run.stderr).toBe(0);
  });

  it('keeps /metrics and /docs to loopback and the internal network, each process scraped by its port', async () => {
    const [one, two] = await Promise.all([startStandIn(0), startStandIn(1)]);
    const proxy = await startNginxBefore(server, [one!, two!]);
    try {
      // 127.0.0.1 is allowed; 127.0.0.2 (loopback too, but not in the list) stands for the internet.
      for (const path of ['/metrics', `/metrics/${two!.port}`, '/docs', '/docs/json', '/docs/static/index.html']) {
        expect((await get(proxy, path, '127.0.0.2')).status, `${path} from outside`).toBe(403);
        expect((await get(proxy, path, '127.0.0.1')).status, `${path} from inside`).toBe(200);
      }
      expect((await get(proxy, '/', '127.0.0.2')).status).toBe(200);
      expect((await get(proxy, '/serv/v1/feed', '127.0.0.2')).status).toBe(200);
      // /metrics/<port> is that process's own, asked for /metrics.
      for (const [index, { port }] of [one!, two!].entries()) {
        const answer = await get(proxy, `/metrics/${port}`, '127.0.0.1');
        expect(answer.body).toEqual(expect.objectContaining({ standIn: index, url: '/metrics' }));
      }
    } finally {
      await proxy.stop();
      await Promise.all([one!.close(), two!.close()]);
    }
  });

  it('sends what a stopping or failing process refuses to the other, writes too', async () => {
    // Every write carries a client_id and lands once: the example says so beside the retry.
    expect(server).toMatch(/client_id[\s\S]*exactly once[\s\S]*proxy_next_upstream\s+error\s+timeout\s+http_503\s+non_idempotent;/);
    const standIns = await Promise.all([startStandIn(0), startStandIn(1)]);
    const proxy = await startNginxBefore(server, standIns);
    try {
      // One process answers 503 (its database away): every GET and POST is answered by the other.
      standIns[0]!.status = 503;
      for (let i = 0; i < 6; i++) {
        for (const method of ['GET', 'POST']) {
          const answer = await get(proxy, '/serv/v1/likes/add', '127.0.0.2', method);
          expect([answer.status, answer.body], `${method} ${i}`).toEqual([200, expect.objectContaining({ standIn: 1, method })]);
        }
      }
      // Then it is gone (its port refuses): still answered, by the other.
      standIns[0]!.status = 200;
      await standIns[0]!.close();
      for (let i = 0; i < 6; i++) expect((await get(proxy, '/serv/v1/comment/add', '127.0.0.2', 'POST')).status, `POST ${i}`).toBe(200);
    } finally {
      await proxy.stop();
      await standIns[1]!.close();
    }
  });

  it('allows to /metrics what the unit lets the server serve it to', () => {
    const allowed = [...server.matchAll(/^\s*allow\s+([^;]+);/gm)].map((m) => m[1]!);
    expect(allowed.length).toBeGreaterThan(0);
    expect(server).toMatch(/^\s*deny\s+all;/m);
    const config = loadConfig({ ...environmentFileContent(), ...unitEnvironment(block('ini')), PORT: String(enabledPorts()[0]) });
    expect(config.metricsAllow.length).toBeGreaterThan(0);
    const serves = addressMatcher(config.metricsAllow);
    // The first address of each range nginx allows is one the server answers.
    for (const range of allowed) expect(serves(range.split('/')[0]!), range).toBe(true);
  });

  it('balances over the enabled processes on loopback and forwards what the server reads', () => {
    const upstream = server.match(/upstream\s+(\w+)\s*\{([^}]*)\}/);
    expect(upstream).not.toBeNull();
    const [, name, body] = upstream!;
    const servers = [...body!.matchAll(/server\s+([\d.]+):(\d+)/g)];
    expect(servers.map((m) => m[1])).toEqual(servers.map(() => '127.0.0.1'));
    const ports = servers.map((m) => Number(m[2]));
    expect(ports.length).toBeGreaterThanOrEqual(2);
    expect(ports).toEqual(enabledPorts());
    expect(server).toMatch(new RegExp(`proxy_pass\\s+http://${name};`));
    // The client's address for the limits, its scheme, and one request id from nginx's log to the server's.
    expect(server).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
    expect(server).toMatch(/proxy_set_header\s+X-Forwarded-Proto\s+\$scheme;/);
    expect(server).toMatch(/proxy_set_header\s+X-Request-Id\s+\$request_id;/);
    // nginx refuses bodies over 1 MiB by default: the largest picture must pass.
    const size = server.match(/client_max_body_size\s+(\d+)([km]?);/i);
    expect(size).not.toBeNull();
    const bytes = Number(size![1]) * ({ '': 1, k: 1024, m: 1024 * 1024 } as Record<string, number>)[size![2]!.toLowerCase()]!;
    expect(bytes).toBeGreaterThan(UPLOAD_MAX_BYTES);
  });
});

describe("the deployment document's systemd unit", () => {
  const unit = block('ini');
  const entries = unitEntries(unit);
  const value = (key: string) => entries.filter(([k]) => k === key).map(([, v]) => v);

  it('starts node itself on the built server (not npm), restarts it and gives the drain time to end', () => {
    const [execStart, ...more] = value('ExecStart');
    expect(more).toEqual([]);
    const argv = execStart!.split(/\s+/);
    expect(argv[0]).toMatch(/^\/\S*\/node$/);
    expect(argv.at(-1)).toBe('dist/server/main.js');
    expect(value('WorkingDirectory')).toHaveLength(1);
    expect(value('Restart')[0]).toMatch(/^(on-failure|always|on-abnormal)$/);
    // SIGTERM (systemd's default) starts the drain; the stop waits longer than it.
    expect(value('KillSignal').every((signal) => signal === 'SIGTERM')).toBe(true);
    const env = unitEnvironment(unit);
    const drainMs = Number(env.SHUTDOWN_DRAIN_MS ?? 0);
    expect(seconds(value('TimeoutStopSec')[0] ?? '90')).toBeGreaterThan(drainMs / 1000 + 5);
  });

  it('sets a valid configuration: PostgreSQL from its EnvironmentFile, the port of its instance, loopback and one proxy hop', () => {
    const env = unitEnvironment(unit);
    const secrets = environmentFileContent();
    expect(env.PORT).toBe('%i');
    expect(secrets.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
    // TRUST_PROXY=1 believes the nearest hop: only nginx may reach the server.
    expect(env.TRUST_PROXY).toBe('1');
    expect(env.HOST).toBe('127.0.0.1');
    for (const port of enabledPorts()) {
      const config = loadConfig({ ...secrets, ...env, PORT: String(port) });
      expect(config.port).toBe(port);
      expect(config.trustProxy).toBe(1);
      expect(config.databaseUrl).toBe(secrets.DATABASE_URL);
    }
  });

  it('keeps the secrets in a root-only EnvironmentFile, which the steps make with mode 0600', () => {
    const [file, ...more] = value('EnvironmentFile');
    expect(more).toEqual([]);
    // No leading "-": a missing file stops the start rather than running without the database.
    expect(file).toMatch(/^\/\S+$/);
    expect(file).toBe(ENVIRONMENT_FILE());
    const unitEnv = unitEnvironment(unit);
    for (const secret of ['DATABASE_URL', 'LOGIN_CODE_WEBHOOK_URL', 'LOGIN_CODE_WEBHOOK_SECRET', 'WECHAT_JSAPI_TICKET']) expect(unitEnv, secret).not.toHaveProperty(secret);
    // The steps' lines that make the file, run as written with its folder moved into a temporary one.
    const folder = dirname(file!);
    const dir = tempDir();
    const script = environmentFileSteps().replaceAll(folder, join(dir, 'etc'));
    execFileSync('sh', ['-euc', script]);
    const made = join(dir, 'etc', basename(file!));
    expect((statSync(made).mode & 0o777).toString(8)).toBe('600');
    expect(readFileSync(made, 'utf8')).toContain(`DATABASE_URL=${environmentFileContent().DATABASE_URL}`);
  });

  it("is run by the system user the steps create, in the folder they fill with the release", () => {
    const steps = stepLines();
    const [user] = value('User');
    expect(value('Group')).toEqual([user]);
    const useradd = steps.find((line) => line.startsWith('useradd '));
    expect(useradd, 'the steps create the user').toBeDefined();
    expect(useradd!.split(/\s+/)).toEqual(expect.arrayContaining(['--system', '--user-group', '--shell', '/usr/sbin/nologin']));
    expect(useradd!.split(/\s+/).at(-1)).toBe(user);
    const [workingDirectory] = value('WorkingDirectory');
    expect(steps).toContainEqual(expect.stringMatching(new RegExp(`^install -d .*${workingDirectory}$`)));
    expect(steps).toContainEqual(expect.stringMatching(new RegExp(`^tar -xzf \\S+ -C ${workingDirectory}( |$)`)));
  });

  it('passes systemd-analyze verify where systemd is', () => {
    const analyze = spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).stdout.trim();
    // Without systemd the checks above are what there is; with it, nothing may be said against the unit.
    if (!analyze) return;
    const dir = tempDir();
    // verify checks that ExecStart's program exists: this machine's node stands in for the unit's path.
    const node = value('ExecStart')[0]!.split(/\s+/)[0]!;
    writeFileSync(join(dir, 'community@.service'), unit.replace(`ExecStart=${node} `, `ExecStart=${process.execPath} `));
    for (const port of enabledPorts()) {
      // Warnings (an unknown key, a bad value) go to stderr with status 0.
      const run = spawnSync(analyze, ['verify', `./community@${port}.service`], { cwd: dir, encoding: 'utf8' });
      expect(run.stderr.trim(), `systemd-analyze verify community@${port}.service`).toBe('');
      expect(run.status).toBe(0);
    }
    expect(execFileSync(analyze, ['--version'], { encoding: 'utf8' })).toMatch(/^systemd \d+/);
  });
});
