// @vitest-environment node
/**
 * src/server/README.md's table of the login's device kinds and the login's schema agree: the same
 * values, and the one marked as the default is the schema's default.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { projectRoot } from '../../src/server/config.ts';

const doc = readFileSync(join(projectRoot(), 'src/server/README.md'), 'utf8');

/** The first cells of the table headed `device_kind`. */
function documentedKinds(): string[] {
  const table = doc.match(/^\| `device_kind` \|.*\n\|[-| ]+\|\n((?:\|.*\n)+)/m);
  expect(table, 'src/server/README.md has a table headed `device_kind`').not.toBeNull();
  return table![1]!.trim().split('\n').map((row) => row.split('|')[1]!.trim());
}

describe("the login's device kinds", () => {
  const schema = api.login.input.shape.device_kind;

  it('are documented, every one and no other', () => {
    const kinds = documentedKinds().map((cell) => cell.match(/^`(\w+)`/)?.[1]);
    expect([...kinds].sort()).toEqual([...schema.unwrap().options].sort());
  });

  it('mark the default the schema gives', () => {
    const marked = documentedKinds().filter((cell) => cell.includes('(the default)'));
    expect(marked).toEqual([`\`${schema.parse(undefined)}\` (the default)`]);
  });
});
