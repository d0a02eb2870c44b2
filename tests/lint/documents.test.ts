// A file that sends its reader to a document (a `*.md` name, in a comment, a message or prose)
// must send them to one the repository has: a newcomer has nothing else, and a rule kept in a
// document they cannot open is a rule they cannot follow. So every name of a document in the
// tracked files of src/, sw/, tests/, .ci/, the top-level configuration and README.md resolves to
// a tracked file: from the repository's root, from the naming file's folder, or, for a bare file
// name, anywhere (`README.md` names the top one, `search.md` tests/bench/results/search.md).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CHECKED_FOLDERS = ['src/', 'sw/', 'tests/', '.ci/'];
const CHECKED_FILES = ['vite.config.ts', '.eslint.config.js', 'tsconfig.json', 'package.json', 'index.html', 'README.md'];

/**
 * A document's name: a path ending in `.md`, its last part a word, as `README.md` or
 * `tests/bench/results/search.md`. Not inside a URL (after `:`, as `https://host/x.md`), and
 * not a property read (`state.md.normalizeLink(...)`). `${name}.md`, `<date>.md` and `*.md` name
 * a pattern, not a document, and are left alone.
 */
const DOCUMENT = /(?<![\w./:-])[\w./-]*\w\.md(?![\w$-]|\.[\w$(])/g;

/** Every `line: name` a text names, in order. */
function documentNames(text: string): string[] {
  return [...text.matchAll(DOCUMENT)].map((match) => `${text.slice(0, match.index).split('\n').length}: ${match[0]}`);
}

const tracked: string[] = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  .split('\0')
  .filter(Boolean);
const trackedSet = new Set(tracked);
const baseNames = new Set(tracked.map((file) => path.posix.basename(file)));

/** Whether `name`, named in `file`, is a tracked file. */
function resolves(name: string, file: string): boolean {
  const fromRoot = path.posix.normalize(name.replace(/^\/+/, ''));
  const fromFolder = path.posix.join(path.posix.dirname(file), name);
  return trackedSet.has(fromRoot) || trackedSet.has(fromFolder) || (!name.includes('/') && baseNames.has(name));
}

/** `file:line: name` for each document `file` names that the repository does not have. */
function missingDocuments(file: string, text: string): string[] {
  return documentNames(text)
    .map((hit) => hit.split(': ') as [string, string])
    .filter(([, name]) => !resolves(name, file))
    .map(([line, name]) => `${file}:${line}: ${name}`);
}

const checked = tracked.filter((file) => CHECKED_FOLDERS.some((folder) => file.startsWith(folder)) || CHECKED_FILES.includes(file));
const misses = checked.flatMap((file) => {
  const text = readFileSync(path.join(root, file), 'utf8');
  return text.includes('\0') ? [] : missingDocuments(file, text);
});

/** Names built here, so this file names no missing document itself. */
const md = (name: string) => `${name}.md`;

describe('documents named in the repository', () => {
  it.each([
    ['a citation in a comment', `// The rule (${md('GUIDE')} section 4).\n`, [`1: ${md('GUIDE')}`]],
    ['a path, at the end of a sentence', `/**\n * See ${md('docs/GUIDE')}.\n */\n`, [`2: ${md('docs/GUIDE')}`]],
    ['a Markdown link', `[the bench](${md('tests/bench/README')})\n`, [`1: ${md('tests/bench/README')}`]],
    ['a relative path', `(\`${md('results/search')}\`, commit abc)\n`, [`1: ${md('results/search')}`]],
    ['a property read', 'const href = state.md.normalizeLink(url);\n', []],
    ['a URL', `// https://example.com/${md('CHANGELOG')}\n`, []],
    ['patterns of names', 'const file = `${name}.md`; // <date>.md, *.md\n', []],
    ['longer endings', `// ${md('a')}x, ${md('a')}_b\n`, []],
  ])('finds %s', (_name, text, expected) => {
    expect(documentNames(text)).toEqual(expected);
  });

  it.each([
    ['resolves a name from the root', 'README.md', 'src/client/app/main.tsx', true],
    ["resolves a name from the naming file's folder", md('results/search'), 'tests/bench/README.md', true],
    ['resolves a bare file name anywhere', 'search.md', 'src/client/app/main.tsx', true],
    ['leaves a path with folders unresolved from elsewhere', md('results/search'), 'src/client/app/main.tsx', false],
    ['leaves a name the repository lacks unresolved', md('MISSING'), 'src/client/app/main.tsx', false],
  ])('%s', (_name, name, file, expected) => {
    expect(resolves(name, file)).toBe(expected);
  });

  it('finds every document named in the checked files in the repository', () => {
    expect(checked.length).toBeGreaterThan(100);
    // Each as file:line: name. State the rule where it is used, or write it down in a README
    // beside the code and name that.
    expect(misses).toEqual([]);
  });
});
