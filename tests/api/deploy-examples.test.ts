/**
 * The deployment examples of src/server/README.md work as written: its nginx configuration passes `nginx -t`
 * (Debian's nginx; missing, the test fails: .ci/run installs it), its systemd unit passes
 * `systemd-analyze verify` where systemd is, and the two agree: the unit starts node itself on
 * the built server, restarts it, stops it with SIGTERM within time for the drain, binds loopback
 * and believes one proxy hop, and nginx sends both processes' ports the headers the server reads.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../../src/shared/constants.ts';
import { loadConfig, projectRoot } from '../../src/server/config.ts';

const README = readFileSync(join(projectRoot(), 'src/server/README.md'), 'utf8');
const NGINX = '/usr/sbin/nginx';

/** The one fenced block of `language` in the deployment document. */
function block(language: string): string {
  const blocks = [...README.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);
  expect(blocks, `README's \`\`\`${language} blocks`).toHaveLength(1);
  return blocks[0]!;
}

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

/** The ports of the instances README enables (`systemctl enable --now community@3001 community@3002`). */
function enabledPorts(): number[] {
  const line = README.match(/systemctl enable --now ((?:community@\d+ ?)+)/);
  expect(line, 'README names the instances it enables').not.toBeNull();
  return [...line![1]!.matchAll(/@(\d+)/g)].map((m) => Number(m[1]));
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-examples-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("README's nginx example", () => {
  const server = block('nginx');

  it('passes nginx -t inside a minimal nginx.conf', () => {
    expect(existsSync(NGINX), `${NGINX} is missing: apt-get install -y nginx-light (.ci/run does)`).toBe(true);
    const dir = tempDir();
    // Every path nginx writes inside the folder, so the check runs without root.
    const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `    ${name}_temp_path ${join(dir, name)};`).join('\n');
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')};\nevents {}\nhttp {\n    access_log ${join(dir, 'access.log')};\n${temps}\n${server}\n}\n`,
    );
    const run = spawnSync(NGINX, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    expect(run.stderr).toContain('test is successful');
    expect(run.status, run.stderr).toBe(0);
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

describe("README's systemd unit", () => {
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

  it('sets a valid configuration: PostgreSQL, the port of its instance, loopback and one proxy hop', () => {
    const env = unitEnvironment(unit);
    expect(env.PORT).toBe('%i');
    expect(env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
    // TRUST_PROXY=1 believes the nearest hop: only nginx may reach the server.
    expect(env.TRUST_PROXY).toBe('1');
    expect(env.HOST).toBe('127.0.0.1');
    for (const port of enabledPorts()) {
      const config = loadConfig({ ...env, PORT: String(port) });
      expect(config.port).toBe(port);
      expect(config.trustProxy).toBe(1);
      expect(config.databaseUrl).toBe(env.DATABASE_URL);
    }
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
