/**
 * The link targets and image sources a user's text may have, for the Markdown parser
 * (markdown.ts) and the sanitizer (sanitize.ts) alike. A module of its own: the sanitizer's chunk
 * loads, and its code runs, before the parser's (RichText.tsx).
 */
import { isHttpUrl } from '#shared/links.ts';

/** An http(s) URL by isHttpUrl (src/shared/links.ts), or a path on this origin (`/x`, never `//x` or `/\x`). */
export function isSafeHref(url: string): boolean {
  return isHttpUrl(url) || /^\/(?![/\\])[^\s\\]*$/.test(url);
}

/** Uploaded images of this server: `/img/{id}` with an optional simple query (`?w=300`). */
export function isSafeImageSrc(src: string): boolean {
  return /^\/img\/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9]+)?(?:\?[A-Za-z0-9=&_-]*)?$/.test(src);
}
