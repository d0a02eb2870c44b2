/**
 * The first screen of a first visit: a navigation to /home (or /) gets the feed's first page
 * inside the page itself, so the posts never wait for the JS and then for the feed call, one
 * after the other. The server reads it (src/server/http/first-screen.ts) with exactly the input
 * of the client's own first call (src/client/entities/post/queries.ts), and the client puts it in
 * its query cache before the first render (src/client/entities/post/first-feed-page.ts).
 */
import type { ClientConfig } from './client-config.ts';
import type { InputOf } from './endpoints.ts';
import type { Paged, Post } from './schemas.ts';

/** Posts per request of every feed (keyset pages). */
export const FEED_PAGE_SIZE = 10;

/** id of the <script type="application/json"> element that carries the answer (the envelope). */
export const FIRST_FEED_PAGE_ELEMENT_ID = 'first-feed-page';

/** The navigations whose page carries it: the pages that show /home's feed first. */
export const FIRST_FEED_PAGE_PATHS: readonly string[] = ['/', '/home'];

/** channel/posts's input for the first page of /home (tab 全部, from the start). */
export const FIRST_FEED_PAGE_INPUT = { tab: 'all', index: 0, size: FEED_PAGE_SIZE } as const satisfies InputOf<'channelPosts'>;

/** The script that starts the app after a server-rendered first screen is painted (public/). */
export const START_AFTER_FIRST_PAINT_PATH = '/start-after-first-paint.js';

/**
 * The server's render of the first screen (src/client/app/first-screen.server.tsx, built into
 * dist/ssr): the HTML inside #root of a navigation to `path`, from the same components as the
 * client, fed the first page the page carries and the configuration it is served with.
 */
export type FirstScreenRender = (input: {
  path: string;
  firstPage: Paged<Post>;
  config: ClientConfig;
  /** The navigation's user agent: which layout to render (the client picks it by the viewport's width). */
  userAgent: string;
}) => Promise<string>;

/** The server render's module, as the server loads it from the build. */
export interface FirstScreenModule {
  renderFirstScreen: FirstScreenRender;
}
