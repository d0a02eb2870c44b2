import { Fragment, lazy, memo, Suspense, use, useState } from 'react';
import { splitLinks } from '#shared/links.ts';
import { EXTERNAL_LINK_REL } from '../../../ui/rich-text/link-rel.ts';
import type * as RichTextModule from '../../../ui/RichText.tsx';
import { useRenderingFirstScreen } from '../../../lib/first-screen-render.ts';
import { cardText, markdownRemoverSettled, useMarkdownRemover, type CardText } from '../card-text.ts';
import { useExpandedPostsStore } from '../expanded-posts-store.ts';

/** Text with http(s) links recognised (src/shared/links.ts); links open in a new window. */
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
 * A card's text whose syntax still waits for remove-markdown in the first screen: both first
 * renders wait for that code before they start (first-screen.server.tsx, start/first-screen-data.ts),
 * so only a load that failed there comes here, and the text shows once the code is settled.
 */
function CardTextOnceRemoved({ text }: { text: string }) {
  use(markdownRemoverSettled());
  return <Plain text={cardText(text).shown} />;
}

/**
 * The rich form once its code is here: rendered as it is, without a Suspense boundary. Through
 * React.lazy, even code already loaded suspends a first render once, and a post's page hydrated
 * its text in a second pass after unwinding the first (a long task on a phone's CPU).
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
 * Post text, line height 1.7. In a feed the text shows without its Markdown syntax, a long one
 * cut with a 展开 button (card-text.ts: the first screen needs no renderer); 展开 shows all of it
 * rendered, and 收起 folds it again (the choice is kept for the session). `full` (the detail
 * page) shows all of it rendered. A memo: a card that renders again with the same post (its
 * times, once a page the server rendered is hydrated) leaves its text alone.
 */
export const PostContent = memo(function PostContent({
  postId,
  text,
  full = false,
  card,
}: {
  postId: number;
  text: string;
  full?: boolean;
  /** What a feed card shows: a card passes the one it worked out once for the post. */
  card?: CardText;
}) {
  const expanded = useExpandedPostsStore((s) => s.expanded[postId] === true);
  const toggle = useExpandedPostsStore((s) => s.toggle);
  // Chosen once per card: switching paths later would build its text's elements again.
  const [LoadedRichText] = useState(() => loadedRichText);
  const markdownRemoverLoaded = useMarkdownRemover();
  const renderingFirstScreen = useRenderingFirstScreen();
  // A card's text worked out before remove-markdown came is worked out again.
  const given = card?.waiting && markdownRemoverLoaded ? undefined : card;
  const shownInCard = full ? null : (given ?? cardText(text));
  const long = shownInCard?.long === true;
  if (!text.trim()) return null;
  return (
    <div className="post-content">
      {shownInCard && !expanded ? (
        shownInCard.waiting && renderingFirstScreen ? (
          <Suspense fallback={null}>
            <CardTextOnceRemoved text={text} />
          </Suspense>
        ) : (
          <Plain text={shownInCard.shown} />
        )
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
