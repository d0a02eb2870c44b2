// The length rule of .eslint.config.js (max-lines-per-function), tested through ESLint's Node
// API: a function of src/ or sw/ fits in 80 lines, blank lines and comments not counted.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, '.eslint.config.js') });

/** A function of `lines` lines, its opening and closing ones included, and as many blank and comment lines. */
const functionOf = (lines: number) =>
  `export function long(): number {\n  let n = 0;\n${Array.from({ length: lines - 4 }, () => '  n += 1;\n\n  // counted by nobody\n').join('')}  return n;\n}\n`;

async function lengthErrors(from: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, from) });
  return result!.messages.filter((message) => message.ruleId === 'max-lines-per-function').map((message) => message.message);
}

describe('function length', () => {
  it.each(['src/client/ui/__lint_fixture__.ts', 'src/server/services/__lint_fixture__.ts', 'sw/__lint_fixture__.ts'])(
    'in %s, 80 lines pass and 81 fail, blank lines and comments aside',
    async (from) => {
      expect(await lengthErrors(from, functionOf(80))).toEqual([]);
      expect(await lengthErrors(from, functionOf(81))).toEqual([expect.stringMatching(/too many lines \(81\)\. Maximum allowed is 80/)]);
    },
  );

  it('leaves the tests alone', async () => {
    expect(await lengthErrors('tests/lint/__lint_fixture__.ts', functionOf(200))).toEqual([]);
  });
});
