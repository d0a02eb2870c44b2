// @vitest-environment node
/**
 * package.json's engines says which Node versions the project supports, honestly, and the README
 * says the same, once: Node 20.19 on (what the quick start and CI run), 22.13 on and 24 on. Every
 * package the server and the build ship with (package-lock.json's runtime packages for this
 * platform) supports the lowest release of 22 and 24 without exception; on 20 the few that declare
 * a later Node are named here, they run there (the whole suite proves it), and a new one is a
 * decision to make, not a surprise.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/config.ts';

const root = projectRoot();
const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean; os?: string[]; cpu?: string[] }>;
};

/** Packages that declare Node 22 or later and run on Node 20 (katex's commander is its command line's, never run). */
const DECLARE_LATER_THAN_20 = ['commander', 'content-disposition', 'cookie'];

const onThisPlatform = (allowed: string[] | undefined, value: string) => !allowed || allowed.some((name) => (name.startsWith('!') ? name.slice(1) !== value : name === value));

const declared = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && !entry.dev && onThisPlatform(entry.os, process.platform) && onThisPlatform(entry.cpu, process.arch))
  .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), range: Array.isArray(entry.engines) ? undefined : entry.engines?.node }))
  .filter((entry): entry is { name: string; range: string } => entry.range !== undefined && semver.validRange(entry.range) !== null);

/** The lowest release of each line engines names: "^20.19.0 || ^22.13.0 || >=24.0.0" gives 20.19.0, 22.13.0, 24.0.0. */
const lowestOfEachLine = own.engines.node.split('||').map((range) => semver.minVersion(range.trim())!.version);

const refusing = (version: string) => [...new Set(declared.filter((entry) => !semver.satisfies(version, entry.range)).map((entry) => entry.name))].sort();

describe('engines', () => {
  it('names Node 20.19, 22.13 and 24 on, as the README does, once', () => {
    expect(lowestOfEachLine).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const said = [...readme.matchAll(/^.*\bNode \d+\b.*$/gm)].map((m) => m[0]);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('Node 20 (20.19 or later), 22 (22.13 or later) or 24 and on, the supported lines (`engines`');
    // The deployment document leaves the versions to the README.
    expect(readFileSync(join(root, 'src/server/README.md'), 'utf8')).not.toMatch(/\bNode \d+/);
  });

  it.each(['22.13.0', '24.0.0'])('every package supports Node %s', (version) => {
    expect(refusing(version)).toEqual([]);
  });

  it('on Node 20.19 only the packages named here declare a later Node', () => {
    expect(refusing('20.19.0')).toEqual(DECLARE_LATER_THAN_20);
  });
});
