/**
 * A post's text as a feed card shows it before 展开: as the reader will see it, its Markdown
 * syntax removed (remove-markdown: `**加粗**` reads 加粗, `[文字](url)` reads 文字, a list's items
 * keep a bullet), and formulas as their source without their `$` (`$E=mc^2$` reads E=mc^2); the
 * rich form (Markdown rendered, math typeset) comes with 展开 and on the post's page.
 *
 * Most texts hold no syntax at all (rich-text/inert.ts), and remove-markdown leaves those as they
 * are: its code loads the first time a card's text has something to remove. Until then that card
 * shows its text as written and says it is waiting, and again once it is here (useMarkdownRemover).
 * The app's first render waits for it instead (cardsReady in post-parts.ts), as the
 * server's render did.
 */
import type RemoveMarkdown from 'remove-markdown';
import { useSyncExternalStore } from 'react';
import { DEFAULT_CUT_LENGTH } from '#shared/constants.ts';
import { cutText, isLongerThan } from '#shared/text-length.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { holdsNoMarkdown } from '../../ui/rich-text/holds-no-markdown.ts';

let removeMarkdown: typeof RemoveMarkdown | undefined;
let loading: Promise<void> | undefined;
const onLoaded = new Set<() => void>();

/** remove-markdown's code, once; a failed load is tried again by the next card that needs it. */
export function loadMarkdownRemover(): Promise<void> {
  loading ??= loadChunk(() => import('remove-markdown')).then(
    (module) => {
      removeMarkdown = module.default;
      for (const listener of onLoaded) listener();
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

let settled: Promise<void> | undefined;
/** For a render that must wait for the code (React's use): settles once it is here or could not come. */
export const markdownRemoverSettled = (): Promise<void> => (settled ??= loadMarkdownRemover().catch(() => undefined));

/**
 * Settles once each of these texts can show on its card without its syntax: at once when none
 * has any, else when remove-markdown's code is here (or could not come). A first render that
 * waits for it shows no card with its syntax for a moment.
 */
export function cardTextsReady(texts: readonly string[]): Promise<void> {
  return texts.some((text) => withoutMarkdown(text) === undefined) ? markdownRemoverSettled() : Promise.resolve();
}

const subscribe = (listener: () => void) => {
  onLoaded.add(listener);
  return () => onLoaded.delete(listener);
};
const isLoaded = () => removeMarkdown !== undefined;

/** Whether remove-markdown's code is here; the component renders again when it comes. */
export const useMarkdownRemover = (): boolean => useSyncExternalStore(subscribe, isLoaded, isLoaded);

/** More lines than this also count as long, however short the text. */
const MAX_COLLAPSED_LINES = 6;

export function isLongText(text: string, cutLength = DEFAULT_CUT_LENGTH): boolean {
  return isLongerThan(text, cutLength) || text.split('\n').length > MAX_COLLAPSED_LINES;
}

/** The collapsed form: cut by length (DEFAULT_CUT_LENGTH, 150, unless given) and by line count. */
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

/**
 * The text without its Markdown syntax (of its first READ_AT_MOST characters), or undefined while
 * it has syntax to remove and remove-markdown's code is not here.
 */
export function withoutMarkdown(text: string): string | undefined {
  const head = text.length > READ_AT_MOST ? text.slice(0, READ_AT_MOST) : text;
  if (holdsNoMarkdown(head)) return head;
  if (!removeMarkdown) return undefined;
  return removeMarkdown(head.replace(LESS_THAN, HIDDEN_LESS_THAN), { listUnicodeChar: '•' })
    .replace(HIDDEN, '<')
    .replace(MATH, (_, block?: string, inline?: string) => block ?? inline ?? '');
}

export interface CardText {
  /** What the card shows: without Markdown syntax, and cut when the post is long. */
  readonly shown: string;
  /** Long (by length or lines): the card offers 展开, which shows the whole text rendered. */
  readonly long: boolean;
  /** Shown as written until remove-markdown's code is here (its load has begun). */
  readonly waiting?: true;
}

export function cardText(text: string): CardText {
  const long = isLongText(text);
  const plain = withoutMarkdown(text);
  if (plain === undefined) {
    loadMarkdownRemover().catch(() => undefined);
    return { shown: long ? collapseText(text) : text, long, waiting: true };
  }
  return { shown: long ? collapseText(plain) : plain, long };
}
