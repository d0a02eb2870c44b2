/**
 * The first screen of a first visit: a navigation to a page whose first screen shows what the
 * API reads (/home's feed, a post, a user's profile and first posts) gets those answers inside
 * the page itself, so the screen never waits for the JS and then for its calls, one after the
 * other. The server reads them (src/server/http/first-screen.ts) with exactly the input of the
 * client's own first calls, and the client puts them in its query cache before the first render
 * (src/client/app/first-read.ts).
 */
import type { ClientConfig } from './client-config.ts';
import type { InputOf, OutputOf } from './endpoints.ts';
import { visitUserOf, type VisitUser } from './visit.ts';

/** Posts per request of every feed (keyset pages). */
export const FEED_PAGE_SIZE = 10;

/** The attribute (its value the endpoint) of each <script type="application/json"> that carries a read's answer (the envelope). */
export const FIRST_READ_ATTRIBUTE = 'data-first-read';

/**
 * On a read's element in a page the service worker kept (sw/kept-first-screen.ts): when it kept
 * it (ms since 1970, by this device's clock), so the client knows how old what it carries is.
 */
export const KEPT_AT_ATTRIBUTE = 'data-kept-at';

/** The class of the element the server renders a first screen into, for each layout; layout.css shows it only where the viewport's width picks it. */
export const FIRST_SCREEN_CLASS = { mobile: 'first-screen first-screen--mobile', pc: 'first-screen first-screen--pc' } as const;

/** Its class once the client has hydrated it (src/client/app/first-screen-hydration.ts): shown in either layout. */
export const FIRST_SCREEN_HYDRATED_CLASS = 'first-screen';

/**
 * On the element the server renders a first screen into: the instant it read times by (ms since
 * 1970, by the server's clock: the start of the minute it rendered in). The client hydrates it reading times by that instant, so its first render
 * writes the same "3分钟前" (src/client/format/time.ts, useReadingClock).
 */
export const RENDERED_AT_ATTRIBUTE = 'data-rendered-at';

/** The navigations that show /home's feed first. */
export const FIRST_FEED_PAGE_PATHS: readonly string[] = ['/', '/home'];

/** channel/posts's input for the first page of /home (tab 全部, from the start). */
export const FIRST_FEED_PAGE_INPUT = { tab: 'all', index: 0, size: FEED_PAGE_SIZE } as const satisfies InputOf<'channelPosts'>;

/** Posts per request of a user's 动态. */
export const USER_POSTS_PAGE_SIZE = 10;

/** Comments per request of a post's comments. */
export const COMMENT_PAGE_SIZE = 20;

/** A read a page's first screen shows, with the input the client's first call sends. */
export type FirstRead =
  | { endpoint: 'channelPosts'; input: typeof FIRST_FEED_PAGE_INPUT }
  | { endpoint: 'postDetail'; input: { post_id: number } }
  | { endpoint: 'commentList'; input: { post_id: number; index: 0; size: typeof COMMENT_PAGE_SIZE } }
  | { endpoint: 'userInfo'; input: { data_mode: 1 } & VisitUser }
  | { endpoint: 'userPosts'; input: VisitUser & { index: 0; size: typeof USER_POSTS_PAGE_SIZE } };

/** The pages whose first screen comes with the page. */
export type FirstScreenPage = 'home' | 'post' | 'userCenter';

/**
 * A page's first screen: the reads it shows, the page's own first (without it there is nothing
 * to render; a user centre's posts, below its profile, and a post's comments, below it, come second).
 */
export interface FirstScreenPlan {
  page: FirstScreenPage;
  reads: readonly [FirstRead, ...FirstRead[]];
}

/**
 * The client module of each page (its lazy route), whose stylesheets (found in the build's
 * manifest) come inline with the server's render of it: the screen is styled before its code
 * arrives. /home's are the entry's, inline in every page.
 */
export const FIRST_SCREEN_PAGE_MODULE: Record<FirstScreenPage, string | undefined> = {
  home: undefined,
  post: 'src/client/routes/message.lazy.tsx',
  userCenter: 'src/client/routes/user.lazy.tsx',
};

/** A read with its answer's data. */
export type FirstReadAnswer = { [K in FirstRead['endpoint']]: Extract<FirstRead, { endpoint: K }> & { data: OutputOf<K> } }[FirstRead['endpoint']];

const POST_DETAIL_PATH = /^\/message\/detail\/(\d{1,15})$/;
const USER_CENTER_PATH = /^\/usercenter\/([^/]+)$/;

/**
 * The first screen of the page at `pathname`, or undefined (a page without one, a link the
 * client refuses: an id that is not a positive integer).
 */
export function firstScreenOf(pathname: string): FirstScreenPlan | undefined {
  if (FIRST_FEED_PAGE_PATHS.includes(pathname)) return { page: 'home', reads: [{ endpoint: 'channelPosts', input: FIRST_FEED_PAGE_INPUT }] };
  const post = POST_DETAIL_PATH.exec(pathname);
  if (post) {
    const postId = Number(post[1]);
    if (!Number.isSafeInteger(postId) || postId <= 0) return undefined;
    return {
      page: 'post',
      reads: [
        { endpoint: 'postDetail', input: { post_id: postId } },
        // Laid out with the post before the first paint: arriving later, a page of comments with
        // their replies is one long layout on a phone, just after the page has shown.
        { endpoint: 'commentList', input: { post_id: postId, index: 0, size: COMMENT_PAGE_SIZE } },
      ],
    };
  }
  const user = USER_CENTER_PATH.exec(pathname);
  if (user) {
    let id: string;
    try {
      id = decodeURIComponent(user[1]!);
    } catch {
      return undefined;
    }
    if (!id.trim()) return undefined;
    const visit = visitUserOf(id);
    return {
      page: 'userCenter',
      reads: [
        { endpoint: 'userInfo', input: { data_mode: 1, ...visit } },
        { endpoint: 'userPosts', input: { ...visit, index: 0, size: USER_POSTS_PAGE_SIZE } },
      ],
    };
  }
  return undefined;
}

/** The script that starts the app after a server-rendered first screen is painted (public/). */
export const START_AFTER_FIRST_PAINT_PATH = '/start-after-first-paint.js';

/**
 * The server's render of the first screen (src/client/app/first-screen.server.tsx, built into
 * dist/ssr): the HTML inside #root of a navigation to `path`, from the same components as the
 * client, fed the reads the page carries and the configuration it is served with.
 */
export type FirstScreenRender = (input: {
  /** The address the client will render (pathname and search). */
  path: string;
  page: FirstScreenPage;
  /** The reads the page carries, its own first. */
  reads: readonly [FirstReadAnswer, ...FirstReadAnswer[]];
  config: ClientConfig;
  /** The navigation's user agent: which layout to render (the client picks it by the viewport's width). */
  userAgent: string;
  /** How long the render may take; a render still going then gives ''. */
  limitMs: number;
}) => Promise<string>;

/** The server render's module, as the server loads it from the build. */
export interface FirstScreenModule {
  renderFirstScreen: FirstScreenRender;
}
