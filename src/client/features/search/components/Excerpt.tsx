import { Fragment } from 'react';
import type { SearchExcerpt } from '#shared/schemas.ts';

/** The words around a match, each match in a <mark>; the server's text is only ever React text. */
export function Excerpt({ excerpt, className = 'search-excerpt' }: { excerpt: SearchExcerpt | undefined; className?: string }) {
  if (!excerpt || excerpt.length === 0) return null;
  return (
    <p className={className}>
      {excerpt.map((piece, i) => (piece.hit ? <mark key={i}>{piece.text}</mark> : <Fragment key={i}>{piece.text}</Fragment>))}
    </p>
  );
}
