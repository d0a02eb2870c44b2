/**
 * The one registry of code languages: the code editor (features/code), the snippet page
 * (/code/$postid/$uuid) and fenced code blocks in rendered Markdown all name, load and
 * highlight languages through here, so a snippet looks the same wherever it is shown.
 *
 * Nothing of CodeMirror or Lezer is imported statically: `loadLanguage` and `highlightToHtml`
 * load them with import() on first use, so no language package is in the first screen's JS.
 * Whoever renders the HTML of `highlightToHtml` (or an editor with `classHighlighter`) imports
 * `./code-highlight.css`, the colours of the `tok-*` classes (light and dark).
 */
import type { LanguageSupport } from '@codemirror/language';

/** Ids as the server stores them in a snippet's `language`. */
export type CodeLanguageId = 'javascript' | 'typescript' | 'python' | 'java' | 'go' | 'sql' | 'cpp' | 'rust' | 'shell' | 'yaml';

/** What an unknown or empty language resolves to: escaped text, no tokens. */
export const PLAIN_TEXT = 'text';
export type CodeLanguageChoice = CodeLanguageId | typeof PLAIN_TEXT;

export interface CodeLanguage {
  readonly id: CodeLanguageId;
  /** What a user reads (a <select>, a badge). */
  readonly label: string;
  /** Other names the same language goes by (fence info strings, other clients), lower case. */
  readonly aliases: readonly string[];
}

/** The languages a user can choose, in the order the editor lists them. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  { id: 'javascript', label: 'JavaScript', aliases: ['js', 'jsx', 'mjs', 'cjs', 'node', 'nodejs', 'ecmascript'] },
  { id: 'typescript', label: 'TypeScript', aliases: ['ts', 'tsx', 'mts', 'cts'] },
  { id: 'python', label: 'Python', aliases: ['py', 'python3', 'py3', 'python2'] },
  { id: 'java', label: 'Java', aliases: [] },
  { id: 'go', label: 'Go', aliases: ['golang'] },
  { id: 'sql', label: 'SQL', aliases: ['mysql', 'postgresql', 'postgres', 'pgsql', 'psql', 'sqlite', 'plsql', 'mssql', 'tsql'] },
  { id: 'cpp', label: 'C/C++', aliases: ['c', 'c++', 'cc', 'cxx', 'h', 'hpp', 'hh', 'hxx', 'objc', 'objective-c'] },
  { id: 'rust', label: 'Rust', aliases: ['rs'] },
  { id: 'shell', label: 'Shell', aliases: ['sh', 'bash', 'zsh', 'ksh', 'shellscript', 'shell-script', 'console', 'terminal'] },
  { id: 'yaml', label: 'YAML', aliases: ['yml'] },
];

/** The label of plain text (an unknown language) in Chinese. */
export const PLAIN_TEXT_LABEL = '纯文本';

const byName = new Map<string, CodeLanguageId>();
for (const language of CODE_LANGUAGES) {
  byName.set(language.id, language.id);
  for (const alias of language.aliases) byName.set(alias, language.id);
}

/**
 * The registry id of any name a language goes by ('JS', 'c++', 'golang', 'bash', ' Python ');
 * PLAIN_TEXT for anything unknown, empty or not a string.
 */
export function resolveLanguage(name: unknown): CodeLanguageChoice {
  if (typeof name !== 'string') return PLAIN_TEXT;
  return byName.get(name.trim().toLowerCase()) ?? PLAIN_TEXT;
}

/** 'JavaScript' for 'js', 'C/C++' for 'c', 纯文本 for anything unknown. */
export function languageLabel(name: unknown): string {
  const id = resolveLanguage(name);
  return CODE_LANGUAGES.find((language) => language.id === id)?.label ?? PLAIN_TEXT_LABEL;
}

async function loadSupport(id: CodeLanguageId): Promise<LanguageSupport> {
  switch (id) {
    case 'javascript':
      return (await import('@codemirror/lang-javascript')).javascript();
    case 'typescript':
      return (await import('@codemirror/lang-javascript')).javascript({ typescript: true });
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'java':
      return (await import('@codemirror/lang-java')).java();
    case 'go':
      return (await import('@codemirror/lang-go')).go();
    case 'sql':
      return (await import('@codemirror/lang-sql')).sql();
    case 'cpp':
      return (await import('@codemirror/lang-cpp')).cpp();
    case 'rust':
      return (await import('@codemirror/lang-rust')).rust();
    case 'shell': {
      const [{ LanguageSupport, StreamLanguage }, { shell }] = await Promise.all([
        import('@codemirror/language'),
        import('@codemirror/legacy-modes/mode/shell'),
      ]);
      return new LanguageSupport(StreamLanguage.define(shell));
    }
    case 'yaml': {
      const [{ LanguageSupport, StreamLanguage }, { yaml }] = await Promise.all([
        import('@codemirror/language'),
        import('@codemirror/legacy-modes/mode/yaml'),
      ]);
      return new LanguageSupport(StreamLanguage.define(yaml));
    }
  }
}

const loaded = new Map<CodeLanguageId, Promise<LanguageSupport>>();

/**
 * The CodeMirror LanguageSupport of a language (any name `resolveLanguage` knows), loaded on
 * first use and shared afterwards; null for plain text. A load that fails (a chunk that did not
 * arrive) rejects and is tried again on the next call.
 */
export function loadLanguage(name: unknown): Promise<LanguageSupport | null> {
  const id = resolveLanguage(name);
  if (id === PLAIN_TEXT) return Promise.resolve(null);
  let support = loaded.get(id);
  if (!support) {
    support = loadSupport(id);
    loaded.set(id, support);
    support.catch(() => loaded.delete(id));
  }
  return support;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c]!);
}

/** Classes of classHighlighter are `tok-name` words; anything else is dropped, never written. */
const tokenClasses = /^tok-[A-Za-z0-9]+(?: tok-[A-Za-z0-9]+)*$/;

function escapedLines(code: string): string[] {
  return code.split('\n').map(escapeHtml);
}

/**
 * The code as HTML, one string per line (split at "\n"; "\r\n" counts as "\n"): escaped text
 * with `<span class="tok-...">` around tokens, the classes the editor shows. A token spanning
 * lines is closed and reopened on each, so every line is balanced on its own (line numbers, one
 * element per line). Plain escaped text for unknown languages or when highlighting fails; never
 * rejects. Only span elements with a class attribute ever appear.
 */
export async function highlightToLines(code: string, language: unknown): Promise<string[]> {
  const text = String(code ?? '').replace(/\r\n?/g, '\n');
  try {
    const support = await loadLanguage(language);
    if (!support) return escapedLines(text);
    const { highlightCode, classHighlighter } = await import('@lezer/highlight');
    const tree = support.language.parser.parse(text);
    const lines: string[] = [];
    let line = '';
    highlightCode(
      text,
      tree,
      classHighlighter,
      (part, classes) => {
        const escaped = escapeHtml(part);
        line += classes && tokenClasses.test(classes) ? `<span class="${classes}">${escaped}</span>` : escaped;
      },
      () => {
        lines.push(line);
        line = '';
      },
    );
    lines.push(line);
    return lines;
  } catch {
    return escapedLines(text);
  }
}

/**
 * The code as safe HTML (see highlightToLines), lines joined with "\n": for a `<pre><code>`.
 * Never rejects; plain escaped text for unknown languages.
 */
export async function highlightToHtml(code: string, language: unknown): Promise<string> {
  return (await highlightToLines(code, language)).join('\n');
}
