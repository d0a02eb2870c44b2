/**
 * What each route declares about itself (route staticData), read in one place by the app
 * shell: the document title, the mobile heading, the PC sidebar and the mobile feed tabs; and by
 * the error page, what it says of something gone.
 */
import type { FeedTab } from '../entities/post/queries.ts';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** document.title; default: the provider's name. */
    title?: string;
    /** The visible heading of the page (mobile top bar); absent on feed pages. */
    heading?: string;
    /** PC: show the sidebar. */
    sidebar?: boolean;
    /** Mobile: the feed tab this page is. */
    feedTab?: FeedTab;
    /** What the page says when what it shows does not exist (-1005: deleted, or never was). */
    gone?: string;
  }
}

/** The document title for the deepest route that names one. */
export function documentTitle(matches: readonly { staticData?: { title?: string } | undefined }[]): string {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const title = matches[i]?.staticData?.title;
    if (title) return title;
  }
  return PROVIDER_NAME;
}

/** Paths whose page is kept alive: scroll position restored on every return (not only on Back). */
export function isKeptAlive(pathname: string): boolean {
  return pathname === '/home' || /^\/message\/detail\/[^/]+\/?$/.test(pathname);
}
