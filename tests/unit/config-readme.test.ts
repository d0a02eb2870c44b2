// @vitest-environment node
/**
 * README's configuration table and the settings the code declares agree: every variable the
 * server declares (SETTINGS in src/server/config.ts) and every one vite.config.ts reads has a row
 * with its default, and no row names a variable nothing declares. Names and defaults only: the
 * table's meanings may say more than the code's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, SETTINGS } from '../../src/server/config.ts';

const root = projectRoot();

/** A default as the table writes it: unset, none (an empty list), or the value itself. */
function shown(value: unknown): string {
  if (value === undefined) return 'unset';
  if (Array.isArray(value) && value.length === 0) return 'none';
  return String(value);
}

/** The server's variables, each with the default its schema gives when the variable is unset. */
const serverDefaults = Object.entries(SETTINGS).map(([name, schema]) => [name, shown(schema.parse(undefined))] as const);

/**
 * What vite.config.ts reads (a dev setting, not the server's): `process.env.NAME ?? 'default'`
 * (a quoted 'process.env.NODE_ENV' is a name the build replaces, not a read).
 */
function buildDefaults(source: string): (readonly [string, string])[] {
  const reads = [...source.matchAll(/(?<!['"])process\.env\.(\w+)( \?\? '([^']*)')?/g)];
  for (const read of reads) expect(read[2], `vite.config.ts reads ${read[1]} with a default written as ?? '...'`).toBeDefined();
  return reads.map((read) => [read[1]!, read[3]!] as const);
}

/**
 * Each variable the `## Configuration` table of `readme` names, with its default: one row may
 * name several (`A` / `B` | `1` / `2`); a folder's default may be written ./folder.
 */
function tableRows(readme: string): [string, string][] {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration\n'));
  expect(section, 'README has a ## Configuration section').toBeDefined();
  const rows = section!
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').slice(1, 3));
  return rows.flatMap(([names = '', defaults = '']) => {
    const nameList = names.split(' / ').map((name) => name.trim().replace(/^`(.*)`$/, '$1'));
    const defaultList = defaults.split(' / ').map((value) => value.trim().replace(/^`(.*)`$/, '$1').replace(/^\.\//, ''));
    expect(defaultList, `one default for each of ${names.trim()}`).toHaveLength(nameList.length);
    return nameList.map((name, i): [string, string] => [name, defaultList[i]!]);
  });
}

describe("README's configuration table", () => {
  it('reads rows of one variable and of several, and the defaults of each', () => {
    const readme = [
      '## Configuration',
      '| Variable | Default | Meaning |',
      '|---|---|---|',
      '| `PORT` | `3000` | Port |',
      '| `DATA_DIR` | `./data` | Folder |',
      '| `LOG_LEVEL` / `METRICS_ALLOW` | `info` / none | Log level; scrapers (a | b) |',
      '| `DATABASE_URL` | unset | PostgreSQL |',
      '## Next',
      '| `OTHER` | `1` | not of this section |',
    ].join('\n');
    expect(tableRows(readme)).toEqual([
      ['PORT', '3000'],
      ['DATA_DIR', 'data'],
      ['LOG_LEVEL', 'info'],
      ['METRICS_ALLOW', 'none'],
      ['DATABASE_URL', 'unset'],
    ]);
    const viteConfig = "const a = process.env.API_URL ?? 'http://localhost:3000';\nconst d = { 'process.env.NODE_ENV': '1' };";
    expect(buildDefaults(viteConfig)).toEqual([['API_URL', 'http://localhost:3000']]);
  });

  it('names every declared variable once, with its default, and no other', () => {
    const declared = [...serverDefaults, ...buildDefaults(readFileSync(join(root, 'vite.config.ts'), 'utf8'))];
    const rows = tableRows(readFileSync(join(root, 'README.md'), 'utf8'));
    expect(new Set(declared.map(([name]) => name)).size, 'a variable declared twice').toBe(declared.length);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(declared));
    expect(rows.length, 'a variable in two rows').toBe(declared.length);
  });

  it('has every server variable say what it sets', () => {
    const silent = Object.entries(SETTINGS).filter(([, schema]) => !schema.description?.trim());
    expect(silent.map(([name]) => name)).toEqual([]);
  });
});
