import { Fragment } from 'react';
import { DEFAULT_CUT_LENGTH } from '#shared/constants.ts';
import { cutText, splitLinks, textLength } from '#shared/format.ts';
import { useExpandedPostsStore } from '../expanded-posts-store.ts';

/** More lines than this also count as long, however short the text. */
const MAX_COLLAPSED_LINES = 6;

export function isLongText(text: string, cutLength = DEFAULT_CUT_LENGTH): boolean {
  return textLength(text) > cutLength || text.split('\n').length > MAX_COLLAPSED_LINES;
}

/** The collapsed form: cut by length (SPEC.md: default 150) and by line count. */
export function collapseText(text: string, cutLength = DEFAULT_CUT_LENGTH): string {
  const lines = text.split('\n');
  const fewLines = lines.length > MAX_COLLAPSED_LINES ? `${lines.slice(0, MAX_COLLAPSED_LINES).join('\n')}...` : text;
  const cut = cutText(fewLines, cutLength);
  return cut;
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
            rel="noopener noreferrer"
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

/**
 * Post text, line height 1.7. Long text is cut with a 展开 button (收起 folds it again; the
 * choice is kept for the session); `full` shows everything (the detail page).
 */
export function PostContent({ postId, text, full = false }: { postId: number; text: string; full?: boolean }) {
  const expanded = useExpandedPostsStore((s) => s.expanded[postId] === true);
  const toggle = useExpandedPostsStore((s) => s.toggle);
  const long = !full && isLongText(text);
  const shown = long && !expanded ? collapseText(text) : text;
  if (!text.trim()) return null;
  return (
    <div className="post-content">
      <p className="post-content__text">
        <LinkedText text={shown} />
      </p>
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
}
