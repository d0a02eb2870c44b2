/**
 * The Markdown dialect of posts and comments: markdown-it (CommonMark + tables and
 * strikethrough) with
 *
 * - raw HTML off: `<script>`, `<img onerror>`, `<a href>` typed by a user are text, never tags;
 * - links recognised by the http/https pattern of plain text (findLinks of src/shared/links.ts),
 *   not linkify-it: the same links as the plain text shows, never `www.x.cn` or an e-mail address;
 * - link targets limited to http(s) URLs and same-origin paths (`/message/detail/3`): no
 *   `javascript:`, `data:`, `vbscript:` or protocol-relative `//host` in any spelling;
 * - images only from this server's uploads (`/img/{id}`), anything else reads as its alt text;
 * - `$...$` inline and `$$...$$` block math as `math_inline` / `math_block` tokens, rendered by
 *   the `renderMath` the caller puts in env (KaTeX, loaded only when a text has math);
 * - fenced code rendered from the highlighted HTML the caller puts in env (highlightToHtml).
 *
 * Everything it writes is sanitized afterwards (sanitize.ts): this file keeps the HTML sane,
 * DOMPurify keeps it safe.
 */
import MarkdownIt, { type Env, type MarkdownIt as Markdown, type StateBlock, type StateInline, type Token } from 'markdown-it';
import { findLinks, type LinkMatch } from '#shared/links.ts';
import { isSafeHref, isSafeImageSrc } from './safe-urls.ts';

/** What the renderer needs besides the text: filled in by renderer.ts before rendering. */
export interface RichEnv extends Env {
  /** Renders one formula to HTML (KaTeX). Absent: the formula shows as its source. */
  renderMath?: (tex: string, displayMode: boolean) => string;
  /** Highlighted HTML of fenced code blocks, by token index (highlightToHtml's escaped HTML). */
  highlighted?: Map<number, string>;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || Number.isNaN(code);
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/**
 * `$tex$` (pandoc's rule: no space after the opening `$`, none before the closing one, and no
 * digit right after it, so "$5 and $10" stays text) and `$$tex$$` inside a line. A formula never
 * holds a backtick, so code spans keep their dollars.
 */
function mathInline(state: StateInline, silent: boolean): boolean {
  const { src, pos: start, posMax } = state;
  if (src.charCodeAt(start) !== 0x24) return false;
  const display = src.charCodeAt(start + 1) === 0x24;
  const open = display ? 2 : 1;
  if (start + open >= posMax) return false;
  if (!display && isSpace(src.charCodeAt(start + 1))) return false;
  const marker = display ? '$$' : '$';
  let end = start + open;
  for (;;) {
    end = src.indexOf(marker, end);
    if (end === -1 || end >= posMax) return false;
    let backslashes = 0;
    while (end - backslashes - 1 >= start + open && src.charCodeAt(end - backslashes - 1) === 0x5c) backslashes += 1;
    const escaped = backslashes % 2 === 1;
    const badClose = !display && (isSpace(src.charCodeAt(end - 1)) || isDigit(src.charCodeAt(end + 1)));
    if (!escaped && !badClose) break;
    end += 1;
  }
  const tex = src.slice(start + open, end);
  // A code span wins over math: "`$x`" and "$5 ... `$y$`" are no formulas.
  if (!tex.trim() || tex.includes('`')) return false;
  if (!silent) {
    const token = state.push(display ? 'math_inline_display' : 'math_inline', 'math', 0);
    token.content = tex;
    token.markup = marker;
  }
  state.pos = end + open;
  return true;
}

/** A block that starts with `$$` and ends with a line ending in `$$` (the same line or a later one). */
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  let pos = state.bMarks[startLine]! + state.tShift[startLine]!;
  let max = state.eMarks[startLine]!;
  // Indented four spaces: a code block, not math.
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  if (pos + 2 > max || state.src.slice(pos, pos + 2) !== '$$') return false;
  pos += 2;
  let first = state.src.slice(pos, max);
  let last = '';
  let line = startLine;
  let found = false;
  if (first.trim().endsWith('$$') && first.trim().length >= 2) {
    first = first.trim().slice(0, -2);
    found = true;
  }
  const body: string[] = [];
  while (!found) {
    line += 1;
    if (line >= endLine) break;
    pos = state.bMarks[line]! + state.tShift[line]!;
    max = state.eMarks[line]!;
    // Less indented than the block it sits in (a list item, a quote): the math ended unclosed.
    if (pos < max && state.sCount[line]! < state.blkIndent) break;
    const text = state.src.slice(pos, max);
    if (text.trim().endsWith('$$')) {
      last = text.trim().slice(0, -2);
      found = true;
    } else {
      body.push(state.src.slice(state.bMarks[line]! + Math.min(state.tShift[line]!, state.blkIndent), max));
    }
  }
  if (!found) return false;
  const tex = [first, ...body, last].filter((part, i, all) => part.trim() !== '' || (i > 0 && i < all.length - 1)).join('\n');
  if (!tex.trim()) return false;
  if (silent) return true;
  state.line = line + 1;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = tex;
  token.markup = '$$';
  token.map = [startLine, state.line];
  return true;
}

/** `https?` right before the `:` this rule starts at, not glued to a word ("xhttps://"). */
const SCHEME_BEFORE = /(?:^|[^A-Za-z0-9])(https?)$/i;

/**
 * Bare http(s) links, found by findLinks (src/shared/links.ts) where markdown-it would use
 * linkify-it. Runs at the `:` of the scheme like markdown-it's own linkify, so `*`, `_` and `$`
 * inside a URL are never read as emphasis or math.
 */
function specLinkify(state: StateInline, silent: boolean): boolean {
  if (state.linkLevel > 0) return false;
  const { src, pos, posMax } = state;
  if (pos + 3 > posMax || src.charCodeAt(pos) !== 0x3a || src.charCodeAt(pos + 1) !== 0x2f || src.charCodeAt(pos + 2) !== 0x2f) return false;
  const scheme = SCHEME_BEFORE.exec(state.pending)?.[1];
  if (!scheme) return false;
  const from = pos - scheme.length;
  let url = findLinks(src.slice(from, posMax))[0];
  if (!url || url.start !== 0) return false;
  // Emphasis markers right after a URL ("**https://x.cn**") close the emphasis.
  while (/[*_~]$/.test(url.url)) {
    const shorter: LinkMatch | undefined = findLinks(url.url.replace(/[*_~]+$/, ''))[0];
    if (!shorter || shorter.start !== 0) return false;
    url = shorter;
  }
  const href = state.md.normalizeLink(url.url);
  if (!state.md.validateLink(href)) return false;
  if (!silent) {
    state.pending = state.pending.slice(0, -scheme.length);
    const open = state.push('link_open', 'a', 1);
    open.attrs = [['href', href]];
    open.markup = 'linkify';
    open.info = 'auto';
    const text = state.push('text', '', 0);
    text.content = state.md.normalizeLinkText(url.url);
    const close = state.push('link_close', 'a', -1);
    close.markup = 'linkify';
    close.info = 'auto';
  }
  state.pos = from + url.url.length;
  return true;
}

function mathHtml(tex: string, display: boolean, env?: RichEnv): string {
  if (env?.renderMath) return env.renderMath(tex, display);
  const marker = display ? '$$' : '$';
  return `<code class="rich-math-source">${escapeHtml(`${marker}${tex}${marker}`)}</code>`;
}

export function createMarkdown(): Markdown {
  const md = new MarkdownIt({ html: false, linkify: false, breaks: true, typographer: false });
  md.validateLink = isSafeHref;

  md.inline.ruler.after('linkify', 'spec_linkify', specLinkify);
  md.inline.ruler.after('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', mathBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });

  const rules = md.renderer.rules;
  rules.math_inline = (tokens, idx, _options, env?: RichEnv) => mathHtml(tokens[idx]!.content, false, env);
  rules.math_inline_display = (tokens, idx, _options, env?: RichEnv) => mathHtml(tokens[idx]!.content, true, env);
  rules.math_block = (tokens, idx, _options, env?: RichEnv) =>
    `<div class="rich-math-block">${mathHtml(tokens[idx]!.content, true, env)}</div>\n`;

  rules.fence = (tokens, idx, _options, env?: RichEnv) => {
    const token = tokens[idx]!;
    const code = env?.highlighted?.get(idx) ?? escapeHtml(token.content.replace(/\n$/, ''));
    return `<pre class="rich-code"><code>${code}</code></pre>\n`;
  };

  rules.image = (tokens, idx, _options, env: RichEnv | undefined, self) => {
    const token = tokens[idx]!;
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], md.options, env);
    if (!isSafeImageSrc(src)) return escapeHtml(alt);
    const title = String(token.attrGet('title') ?? '');
    return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"${title ? ` title="${escapeHtml(title)}"` : ''} loading="lazy">`;
  };

  return md;
}

/** What a text needs before it can be rendered: KaTeX (any math) and the fences to highlight. */
export function scanTokens(tokens: Token[]): { math: boolean; fences: { index: number; code: string; language: string }[] } {
  let math = false;
  const fences: { index: number; code: string; language: string }[] = [];
  tokens.forEach((token, index) => {
    if (token.type === 'math_block') math = true;
    if (token.type === 'fence') {
      fences.push({ index, code: token.content.replace(/\n$/, ''), language: token.info.trim().split(/\s+/)[0] ?? '' });
    }
    if (token.children?.some((child) => child.type === 'math_inline' || child.type === 'math_inline_display')) math = true;
  });
  return { math, fences };
}
