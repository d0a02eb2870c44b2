/**
 * Whether a page can be kept and served by this worker for the next start of /home
 * (kept-first-screen.ts). Apart from the worker's routes so it can be tested without them.
 */
import { FIRST_READ_ATTRIBUTE } from '#shared/first-screen.ts';

/**
 * The build's scripts a page starts or preloads: the .js files of the site its <script> and
 * <link> tags name (src, href, data-app-entry). A post's text never makes a tag: React escapes
 * it, and the data element's JSON escapes `<`.
 */
export function scriptsOfPage(html: string): string[] {
  const scripts = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    for (const match of tag.matchAll(/\s(?:src|href|data-app-entry)="(\/[^"]+\.js)"/g)) scripts.add(match[1]!);
  }
  return [...scripts];
}

/**
 * The page, when it can be kept and served by this worker: /home's first feed page inside it,
 * and every script it names in this worker's precache. undefined otherwise.
 */
export async function keepablePage(response: Response, isPrecached: (path: string) => Promise<boolean>): Promise<string | undefined> {
  if (!response.ok || !response.headers.get('content-type')?.startsWith('text/html')) return undefined;
  const html = await response.text();
  if (!html.includes(`${FIRST_READ_ATTRIBUTE}="channelPosts"`)) return undefined;
  const scripts = scriptsOfPage(html);
  if (scripts.length === 0) return undefined;
  const precached = await Promise.all(scripts.map(isPrecached));
  return precached.every(Boolean) ? html : undefined;
}
