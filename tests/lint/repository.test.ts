// `npm run lint` as a test: the whole repository through ESLint's Node API, with the same
// configuration. CI's lint step is this project (the layers' rule cases and this), so the
// repository is linted once per run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run lint', () => {
  it('reports no problem on the whole repository', async () => {
    const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, '.eslint.config.js') });
    const results = await eslint.lintFiles(['.']);
    const problems = results.reduce((sum, r) => sum + r.errorCount + r.warningCount, 0);
    const report = await (await eslint.loadFormatter('stylish')).format(results);
    expect(problems, report).toBe(0);
  }, 600_000);
});
