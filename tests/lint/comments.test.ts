// Comments say why the code is as it is; which issue asked for it is git log's business, and a
// number that once pointed at a tracker means nothing to the next reader. So no comment in
// src/, sw/ or tests/ names an issue. Comments are found by TypeScript's own parser (a `//` in
// a string, a template or JSX text is no comment) and, in CSS, outside strings.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DIRS = ['src', 'sw', 'tests'];
const EXTENSIONS = /\.(ts|tsx|js|css)$/;
/** The bench's reports are measurements kept as they were written; this file names its pattern. */
const EXCLUDED = (file: string) => file.startsWith('tests/bench/results/') || file === 'tests/lint/comments.test.ts';

/** "issue 9", "issues 7", "Issue #3", and across a comment's line break ("issue\n * 11"). */
const ISSUE = /\bissues?[\s*/]*#?\d+/gi;

interface Comment {
  start: number;
  end: number;
}

/** Every comment of a TypeScript or JavaScript file: the trivia before each token, JSX's {/* *\/} included. */
function scriptComments(file: string, text: string): Comment[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<number, Comment>();
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length === 0) {
      // JSX text is text: a `//` in it is shown, not a comment.
      if (node.kind === ts.SyntaxKind.JsxText) return;
      // Trailing: on the line the previous token ends; leading: on the lines after it.
      for (const range of [...(ts.getTrailingCommentRanges(text, node.pos) ?? []), ...(ts.getLeadingCommentRanges(text, node.pos) ?? [])]) {
        found.set(range.pos, { start: range.pos, end: range.end });
      }
      return;
    }
    children.forEach(visit);
  };
  visit(source);
  return [...found.values()].sort((a, b) => a.start - b.start);
}

/** Every /* *\/ comment of a stylesheet, outside its strings. */
function cssComments(text: string): Comment[] {
  const comments: Comment[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      for (i++; i < text.length && text[i] !== ch && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close === -1 ? text.length : close + 2;
      comments.push({ start: i, end });
      i = end - 1;
    }
  }
  return comments;
}

/** Runs of comments with only white space between them (a paragraph of `//` lines is one). */
function runs(text: string, comments: Comment[]): Comment[] {
  const joined: Comment[] = [];
  for (const comment of comments) {
    const last = joined.at(-1);
    if (last && /^\s*$/.test(text.slice(last.end, comment.start))) last.end = comment.end;
    else joined.push({ ...comment });
  }
  return joined;
}

/** `line: the comment's words` for each issue named in a comment of `text`. */
function issueReferences(file: string, text: string): string[] {
  // A run of comments is a piece of the text: where the text holds no match, no comment does.
  if (!new RegExp(ISSUE.source, 'i').test(text)) return [];
  const comments = file.endsWith('.css') ? cssComments(text) : scriptComments(file, text);
  const hits: string[] = [];
  for (const run of runs(text, comments)) {
    for (const match of text.slice(run.start, run.end).matchAll(ISSUE)) {
      const at = run.start + match.index;
      const line = text.slice(0, at).split('\n').length;
      hits.push(`${line}: ${match[0].replace(/[\s*/]+/g, ' ')}`);
    }
  }
  return hits;
}

function sourceFiles(): string[] {
  return DIRS.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .map((name) => path.posix.join(dir, name.split(path.sep).join('/')))
      .filter((file) => EXTENSIONS.test(file) && !EXCLUDED(file)),
  ).sort();
}

describe('issue references in comments', () => {
  it.each([
    ['a // comment', 'a.ts', 'const a = 1; // see issue 9\n', ['1: issue 9']],
    ['a JSDoc block, across its line break', 'a.ts', '/**\n * The outbox (issue\n * 11 item 3).\n */\nexport {};\n', ['2: issue 11']],
    ['a paragraph of // lines, across a break', 'a.ts', '// Added by the\n// issues\n// #12 and 13.\nexport {};\n', ['2: issues #12']],
    ['a JSX comment', 'a.tsx', 'export const A = () => (\n  <div>\n    {/* Issue #3 */}\n  </div>\n);\n', ['3: Issue #3']],
    ['a CSS comment', 'a.css', '.a {\n  color: red; /* issue 4 */\n}\n', ['2: issue 4']],
    ['strings, templates and regular expressions', 'a.ts', "const a = 'issue 9 // issue 9';\nconst b = `/* issue 9 */ ${a}`;\nconst c = /issue 9/;\nexport { a, b, c };\n", []],
    ['JSX text', 'a.tsx', 'export const A = () => <p>// issue 9 /* issue 9 */</p>;\n', []],
    ['a CSS string', 'a.css', '.a::before {\n  content: "/* issue 9 */";\n}\n', []],
    ['words that only look alike', 'a.ts', '// The issues of a zod error; tissue 5; an issue without a number.\nexport {};\n', []],
  ])('finds them in %s', (_name, file, text, expected) => {
    expect(issueReferences(file, text)).toEqual(expected);
  });

  it('names no issue in any comment of src/, sw/ or tests/', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((file) => issueReferences(file, readFileSync(path.join(root, file), 'utf8')).map((hit) => `${file}:${hit}`));
    // Each as file:line: say there why the code is as it is, and leave the issue to git log.
    expect(hits).toEqual([]);
  });
});
