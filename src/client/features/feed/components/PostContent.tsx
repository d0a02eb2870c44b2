import { Fragment, lazy, memo, Suspense, useState } from 'react';
import { DEFAULT_CUT_LENGTH } from '#shared/constants.ts';
import { cutText, isLongerThan } from '#shared/text-length.ts';
import { splitLinks } from '#shared/links.ts';
import { EXTERNAL_LINK_REL } from '../../../ui/rich-text/link-rel.ts';
import type * as RichTextModule from '../../../ui/RichText.tsx';
import { useExpandedPostsStore } from '../expanded-posts-store.ts';

/** More lines than this also count as long, however short the text. */
const MAX_COLLAPSED_LINES = 6;

export function isLongText(text: string, cutLength = DEFAULT_CUT_LENGTH): boolean {
  return isLongerThan(text, cutLength) || text.split('\n').length > MAX_COLLAPSED_LINES;
}

/** The collapsed form: cut by length (SPEC.md: default 150) and by line count. */
export function collapseText(text: string, cutLength = DEFAULT_CUT_LENGTH): string {
  const lines = text.split('\n');
  const fewLines = lines.length > MAX_COLLAPSED_LINES ? `${lines.slice(0, MAX_COLLAPSED_LINES).join('\n')}...` : text;
  const cut = cutText(fewLines, cutLength);
  return cut;
}

/** The collapsed form of a long text, null for a short one (shown whole). */
export function cutOrNull(text: string): string | null {
  return isLongText(text) ? collapseText(text) : null;
}

/** Text with http(s) links recognised (SPEC.md section 5); links open in a new window. */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {splitLinks(text).map((part, i) =>
        part.type === 'link' ? (
          <a
            key={i}
            href={part.url}
            target="_blank"
            rel={EXTERNAL_LINK_REL}
            className="post-content__link"
            onClick={(e) => e.stopPropagation()}
          >
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

const Plain = ({ text }: { text: string }) => (
  <div className="post-content__text">
    <LinkedText text={text} />
  </div>
);

/**
 * The rich form once its code is here: rendered as it is, without a Suspense boundary. Through
 * React.lazy, even code already loaded suspends a first render once, and a post's page hydrated
 * its text in a second pass after unwinding the first (a task of about 45 ms on a phone's CPU).
 */
let loadedRichText: typeof RichTextModule.default | undefined;
const loadRichText = () =>
  import('../../../ui/RichText.tsx').then((module) => {
    loadedRichText = module.default;
    return module;
  });

/**
 * The rich form (Markdown, math, code: ui/RichText.tsx) loads with the first expanded or full
 * text, never on a first visit to /home. Until it has loaded, and for the session when it
 * cannot (offline with nothing cached), the text shows as written.
 */
const LazyRichText = lazy(() => loadRichText().catch(() => ({ default: Plain })));

/**
 * Loads the rich form before a page's first render: a page whose code has it already (a post's)
 * then renders its text at once, on the server and in the client's hydration alike.
 */
export function preloadRichText(): Promise<void> {
  return loadRichText().then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Post text, line height 1.7. In a feed a long text is cut with a 展开 button, as written (plain
 * text with its links: the first screen needs no renderer); 展开 shows all of it rendered, and
 * 收起 folds it again (the choice is kept for the session). `full` (the detail page) shows all
 * of it rendered. A memo: a card that renders again with the same post (its times, once a page
 * the server rendered is hydrated) leaves its text alone.
 */
export const PostContent = memo(function PostContent({
  postId,
  text,
  full = false,
  cut = cutOrNull(text),
}: {
  postId: number;
  text: string;
  full?: boolean;
  /** The collapsed text, null when the text is short: a feed card passes the one it computed once for the post. */
  cut?: string | null;
}) {
  const expanded = useExpandedPostsStore((s) => s.expanded[postId] === true);
  const toggle = useExpandedPostsStore((s) => s.toggle);
  // Chosen once per card: switching paths later would build its text's elements again.
  const [LoadedRichText] = useState(() => loadedRichText);
  const long = !full && cut !== null;
  if (!text.trim()) return null;
  return (
    <div className="post-content">
      {!(full || expanded) ? (
        <Plain text={cut ?? text} />
      ) : LoadedRichText ? (
        <LoadedRichText text={text} className="post-content__text" />
      ) : (
        <Suspense fallback={<Plain text={text} />}>
          <LazyRichText text={text} className="post-content__text" />
        </Suspense>
      )}
      {long ? (
        <button
          type="button"
          className="post-content__toggle"
          aria-expanded={expanded}
          onClick={(e) => {
            e.stopPropagation();
            toggle(postId);
          }}
        >
          {expanded ? '收起' : '展开'}
        </button>
      ) : null}
    </div>
  );
});
