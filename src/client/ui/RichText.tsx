/**
 * A post's or comment's text, rendered rich (Markdown, links, math, highlighted code: see
 * rich-text/renderer.ts) and sanitized. A whole text with nothing of Markdown in it is written
 * as the renderer would write it, without it (rich-text/inert.ts). The renderer is a chunk of
 * its own, loaded the first time a RichText needs it (never on a first visit to /home, whose
 * cards show plain text); until it has loaded, and for good when it cannot load (offline with
 * nothing cached), the text shows as written, with its links, in the same box, so nothing jumps
 * and it always reads.
 * Text rendered before shows rich at once (a kept-alive page that comes back keeps its height).
 *
 * Links to this app (same origin) navigate inside it; links on the provider's domain family
 * open in place (rel="nofollow ugc"); any other link opens in a new window with
 * rel="noopener noreferrer nofollow ugc" (rich-text/sanitize.ts).
 */
import { useRouter } from '@tanstack/react-router';
import { useEffect, useMemo, useReducer, type MouseEvent } from 'react';
import { cutText } from '#shared/text-length.ts';
import { loadChunk } from '../lib/chunk.ts';
import { inTurn } from '../lib/in-turn.ts';
import { yieldToBrowser } from '../lib/yield-to-browser.ts';
import type { CutLimits } from './rich-text/cut.ts';
import { renderInertText } from './rich-text/inert.ts';
import { PlainText } from './rich-text/PlainText.tsx';
import type * as Renderer from './rich-text/renderer.ts';
import './rich-text/rich-text.css';

export type { CutLimits } from './rich-text/cut.ts';

let renderer: typeof Renderer | undefined;
let loading: Promise<typeof Renderer> | undefined;

/**
 * The renderer's chunks, once, set up step by step; a failed load is tried again by the next
 * RichText shown. The sanitizer (DOMPurify) comes first, in a chunk of its own: a chunk's code
 * runs in one task, and the two libraries' code (DOMPurify's, markdown-it's) together is one long
 * task on a phone's slower CPU; apart, each is a shorter one.
 */
export function loadRichTextRenderer(): Promise<typeof Renderer> {
  loading ??= loadChunk(() => import('./rich-text/sanitize.ts'))
    .then(() => loadChunk(() => import('./rich-text/renderer.ts')))
    .then(async (module) => {
      for (const step of module.setUpSteps) {
        await yieldToBrowser();
        step();
      }
      return (renderer = module);
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/** The plain stand-in of a cut text: cut by length and lines on the text as written. */
function plainCut(text: string, cut: CutLimits): string {
  const lines = text.split('\n');
  const fewLines = lines.length > cut.lines ? `${lines.slice(0, cut.lines).join('\n')}...` : text;
  return cutText(fewLines, cut.length);
}

export interface RichTextProps {
  text: string;
  /** Cut the rendered text at this length and line count (with `...`); absent: all of it. */
  cut?: CutLimits | undefined;
  /** Classes of the box (both the plain and the rendered form). */
  className?: string | undefined;
}

export function RichText({ text, cut, className }: RichTextProps) {
  const router = useRouter({ warn: false }) as ReturnType<typeof useRouter> | undefined;
  const [, rendered] = useReducer((n: number) => n + 1, 0);
  const cutLength = cut?.length;
  const cutLines = cut?.lines;
  const limits = cutLength === undefined ? undefined : { length: cutLength, lines: cutLines ?? Number.POSITIVE_INFINITY };
  // A text Markdown has nothing to do with (most are) is written at once, on the server too.
  const inert = useMemo(() => (cutLength === undefined ? renderInertText(text) : undefined), [text, cutLength]);
  const shown = inert === undefined ? renderer?.renderedBefore(text, limits) : { html: inert };
  const waiting = shown === undefined;

  useEffect(() => {
    if (!waiting) return;
    let live = true;
    const within = cutLength === undefined ? undefined : { length: cutLength, lines: cutLines ?? Number.POSITIVE_INFINITY };
    loadRichTextRenderer()
      .then((module) => inTurn(() => module.renderRichText(text, within)))
      .then(
        () => live && rendered(),
        () => undefined, // The renderer did not load: the text stays as written.
      );
    return () => {
      live = false;
    };
  }, [text, cutLength, cutLines, waiting]);

  if (!text.trim()) return null;
  const box = `rich-text${className ? ` ${className}` : ''}`;
  if (!shown) {
    return (
      <div className={`${box} rich-text--plain`}>
        <PlainText text={limits ? plainCut(text, limits) : text} />
      </div>
    );
  }

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as Element).closest('a[href]');
    if (!(link instanceof HTMLAnchorElement)) return;
    // The link's click, not the card's (a feed card opens the post on a click).
    event.stopPropagation();
    if (!router || link.target || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(link.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    void router.navigate({ href: `${url.pathname}${url.search}${url.hash}` });
  };

  return (
    // The box only hears clicks on the links inside (which are keyboard-reachable themselves).
    <div className={`${box} rich-text--rendered`} onClick={onClick} dangerouslySetInnerHTML={{ __html: shown.html }} />
  );
}

/** For React.lazy (the feed's PostContent). */
export default RichText;
