/**
 * A post's text as a feed card shows it before 展开: as the reader will see it, its Markdown
 * syntax removed (remove-markdown: `**加粗**` reads 加粗, `[文字](url)` reads 文字, a list's items
 * keep a bullet), and formulas as their source without their `$` (`$E=mc^2$` reads E=mc^2); the
 * rich form (Markdown rendered, math typeset) comes with 展开 and on the post's page.
 */
import removeMarkdown from 'remove-markdown';
import { DEFAULT_CUT_LENGTH } from '#shared/constants.ts';
import { cutText, isLongerThan } from '#shared/text-length.ts';

/** More lines than this also count as long, however short the text. */
const MAX_COLLAPSED_LINES = 6;

export function isLongText(text: string, cutLength = DEFAULT_CUT_LENGTH): boolean {
  return isLongerThan(text, cutLength) || text.split('\n').length > MAX_COLLAPSED_LINES;
}

/** The collapsed form: cut by length (SPEC.md: default 150) and by line count. */
export function collapseText(text: string, cutLength = DEFAULT_CUT_LENGTH): string {
  const lines = text.split('\n');
  const fewLines = lines.length > MAX_COLLAPSED_LINES ? `${lines.slice(0, MAX_COLLAPSED_LINES).join('\n')}...` : text;
  return cutText(fewLines, cutLength);
}

/**
 * A card shows at most 150 length units on 6 lines: a head this long of the text is read, so a
 * card's cost does not grow with the post (the library's expressions scan what they are given).
 */
const READ_AT_MOST = 2_000;

/**
 * What a user types as HTML shows as text in this app (the renderer's raw HTML is off), and so
 * must `1 <2 or 3> 4`: every `<` is out of the library's sight while it works (a character of
 * Unicode's private use area, which no Markdown rule reads), so nothing is taken for a tag.
 */
const LESS_THAN = /</g;
const HIDDEN_LESS_THAN = '\uE000';
const HIDDEN = /\uE000/g;

/** `$$tex$$` and `$tex$` by the renderer's rule: no space inside the dollars, no digit after the closing one. */
const MATH = /\$\$([^$]+?)\$\$|\$(?![\s\d$])([^$\n]*?[^\s$\\])\$(?!\d)/g;

/** The text without its Markdown syntax (of its first READ_AT_MOST characters). */
export function withoutMarkdown(text: string): string {
  const head = text.length > READ_AT_MOST ? text.slice(0, READ_AT_MOST) : text;
  return removeMarkdown(head.replace(LESS_THAN, HIDDEN_LESS_THAN), { listUnicodeChar: '•' })
    .replace(HIDDEN, '<')
    .replace(MATH, (_, block?: string, inline?: string) => block ?? inline ?? '');
}

export interface CardText {
  /** What the card shows: without Markdown syntax, and cut when the post is long. */
  readonly shown: string;
  /** Long (by length or lines): the card offers 展开, which shows the whole text rendered. */
  readonly long: boolean;
}

export function cardText(text: string): CardText {
  const long = isLongText(text);
  const plain = withoutMarkdown(text);
  return { shown: long ? collapseText(plain) : plain, long };
}
