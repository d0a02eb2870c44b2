/**
 * The language registry (src/client/lib/code-languages.ts): every language highlights a sample
 * into token spans, aliases resolve, hostile code comes out escaped, unknown languages are
 * escaped text, and the output never holds anything but span elements with tok-* classes.
 */
import { describe, expect, it } from 'vitest';
import {
  CODE_LANGUAGES,
  PLAIN_TEXT,
  escapeHtml,
  highlightToHtml,
  highlightToLines,
  languageLabel,
  loadLanguage,
  resolveLanguage,
  type CodeLanguageId,
} from '../../src/client/lib/code-languages.ts';

/** A sample per language and a token class it must produce. */
const SAMPLES: Record<CodeLanguageId, { code: string; token: string; word: string }> = {
  javascript: { code: 'const answer = 42; // the answer\nfunction f(a) { return "x" + a; }', token: 'tok-keyword', word: 'const' },
  typescript: { code: 'interface User { name: string }\nconst n: number = 1;', token: 'tok-typeName', word: 'number' },
  python: { code: 'def greet(name):\n    return f"hi {name}"  # say hi', token: 'tok-keyword', word: 'def' },
  java: { code: 'public class Main {\n  public static void main(String[] args) { int x = 1; }\n}', token: 'tok-keyword', word: 'class' },
  go: { code: 'package main\n\nfunc main() {\n\tfmt.Println("hi")\n}', token: 'tok-keyword', word: 'func' },
  sql: { code: "SELECT id, name FROM users WHERE id = 1 AND name = 'x';", token: 'tok-keyword', word: 'SELECT' },
  cpp: { code: '#include <vector>\nint main() { return 0; }', token: 'tok-typeName', word: 'int' },
  rust: { code: 'fn main() {\n    let v: Vec<i32> = Vec::new();\n}', token: 'tok-keyword', word: 'fn' },
  shell: { code: 'for f in *.txt; do\n  echo "$f" # each\ndone', token: 'tok-keyword', word: 'for' },
  yaml: { code: 'name: demo # a comment\ncount: 3', token: 'tok-comment', word: '# a comment' },
};

const HOSTILE = `</span><script>alert(1)</script><img src=x onerror="alert('x')"> a && b < c > d "q" 'r' &amp; &lt;`;

/** Parses HTML without running it and fails on anything but <span class="tok-...">. */
function parse(html: string): HTMLTemplateElement {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll('*')) {
    expect(element.tagName).toBe('SPAN');
    expect(element.getAttributeNames()).toEqual(['class']);
    expect(element.getAttribute('class')).toMatch(/^tok-\w+( tok-\w+)*$/);
  }
  return template;
}

describe('code languages', () => {
  it('lists the languages the issue names, with Chinese-friendly labels', () => {
    expect(CODE_LANGUAGES.map((l) => l.id)).toEqual(expect.arrayContaining(['javascript', 'typescript', 'python', 'java', 'go', 'sql', 'cpp', 'rust', 'shell']));
    expect(languageLabel('cpp')).toBe('C/C++');
    expect(languageLabel('nonsense')).toBe('纯文本');
  });

  it('resolves aliases, case and spaces; anything else is plain text', () => {
    expect(resolveLanguage('js')).toBe('javascript');
    expect(resolveLanguage('TS')).toBe('typescript');
    expect(resolveLanguage(' py ')).toBe('python');
    expect(resolveLanguage('c')).toBe('cpp');
    expect(resolveLanguage('c++')).toBe('cpp');
    expect(resolveLanguage('golang')).toBe('go');
    expect(resolveLanguage('sh')).toBe('shell');
    expect(resolveLanguage('bash')).toBe('shell');
    expect(resolveLanguage('yml')).toBe('yaml');
    expect(resolveLanguage('brainfuck')).toBe(PLAIN_TEXT);
    expect(resolveLanguage('')).toBe(PLAIN_TEXT);
    expect(resolveLanguage(undefined)).toBe(PLAIN_TEXT);
    expect(resolveLanguage('__proto__')).toBe(PLAIN_TEXT);
  });

  for (const { id } of CODE_LANGUAGES) {
    it(`highlights ${id} into token spans that read as the code`, async () => {
      const sample = SAMPLES[id];
      const html = await highlightToHtml(sample.code, id);
      const template = parse(html);
      expect(template.content.textContent).toBe(sample.code);
      const tokens = [...template.content.querySelectorAll(`span.${sample.token}`)].map((s) => s.textContent);
      expect(tokens).toContain(sample.word);
    });

    it(`escapes hostile code in ${id}`, async () => {
      const html = await highlightToHtml(HOSTILE, id);
      expect(html).not.toMatch(/<(?!\/?span[ >])/);
      const template = parse(html);
      expect(template.content.textContent).toBe(HOSTILE);
    });
  }

  it('loads a language support once, null for plain text', async () => {
    const first = await loadLanguage('python');
    expect(first?.language.name).toBe('python');
    expect(await loadLanguage('py')).toBe(first);
    expect(await loadLanguage('whatever')).toBeNull();
  });

  it('gives an unknown language escaped text with no spans', async () => {
    const html = await highlightToHtml(HOSTILE, 'klingon');
    expect(html).toBe(escapeHtml(HOSTILE));
    expect(html).not.toContain('<span');
    expect(parse(html).content.textContent).toBe(HOSTILE);
  });

  it('splits into lines that are balanced on their own, a block comment included', async () => {
    const code = 'a = 1;\r\n/* one\ntwo */\nb = "s";';
    const lines = await highlightToLines(code, 'javascript');
    expect(lines).toHaveLength(4);
    for (const line of lines) parse(line);
    expect(lines[1]).toBe('<span class="tok-comment">/* one</span>');
    expect(lines[2]).toBe('<span class="tok-comment">two */</span>');
    expect(lines.join('\n')).toBe(await highlightToHtml(code, 'js'));
  });
});
