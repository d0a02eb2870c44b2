import { Fragment } from 'react';
import { splitLinks } from '#shared/links.ts';
import { EXTERNAL_LINK_REL } from './link-rel.ts';

/**
 * Text as written, with http(s) links recognised by the pattern of src/shared/links.ts: what a rich
 * text shows until the renderer has loaded, or for good when it cannot load (offline with nothing
 * cached). Links open in a new window; clicks on them are theirs, not the card's.
 */
export function PlainText({ text }: { text: string }) {
  return (
    <>
      {splitLinks(text).map((part, i) =>
        part.type === 'link' ? (
          <a key={i} href={part.url} target="_blank" rel={EXTERNAL_LINK_REL} onClick={(e) => e.stopPropagation()}>
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
