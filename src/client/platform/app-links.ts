/**
 * The targets the link helpers open: web paths of this app, pages of the provider's learning site,
 * and the native app's links (`${scheme}${name}?${query}`, e.g.
 * `geektime://hordePostDetail?postId=12&tab=1`).
 */

type Id = string | number;

export type AppTarget =
  | { name: 'classroom'; tab?: Id }
  | { name: 'hordeInfoCenter'; userId: Id }
  | { name: 'hordePostDetail'; postId: Id; tab?: Id }
  | { name: 'courseIntro'; id: Id }
  | { name: 'courseDetail'; id: Id; aid: Id }
  | { name: 'article'; id: Id }
  | { name: 'columnDetail'; id: Id }
  | { name: 'columnIntro'; id: Id }
  | { name: 'dailyCollection'; collectionId: Id }
  | { name: 'topicDetail'; topicId: Id; topicName?: string }
  | { name: 'noteDetail' | 'nativeNoteDetail'; id: Id; backlevel?: Id }
  | { name: 'login' }
  | { name: 'webview' | 'nativeWebView'; url: string };

export type AppTargetName = AppTarget['name'];

/** Targets that are pages of this web app. */
export type WebTarget = Extract<AppTarget, { name: 'hordeInfoCenter' | 'hordePostDetail' | 'topicDetail' }>;

/** Targets that are pages of the provider's learning site. */
export type LearningSiteTarget = Extract<
  AppTarget,
  { name: 'courseIntro' | 'courseDetail' | 'article' | 'columnIntro' | 'columnDetail' | 'dailyCollection' }
>;

const seg = (value: Id): string => encodeURIComponent(String(value));

/** Query string from defined parameters, in the given order; encodeURIComponent (spaces as %20). */
export function encodeQuery(params: Record<string, Id | undefined>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, Id] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

function withQuery(path: string, params: Record<string, Id | undefined>): string {
  const query = encodeQuery(params);
  return query ? `${path}?${query}` : path;
}

/**
 * The path of this web app that shows `target`: /usercenter/{userId},
 * /message/detail/{postId}?tab={tab} (no query without a tab), /topic/comment/{topicId}.
 * Null for targets that are not pages of this app.
 */
export function webPath(target: WebTarget): string;
export function webPath(target: AppTarget): string | null;
export function webPath(target: AppTarget): string | null {
  switch (target.name) {
    case 'hordeInfoCenter':
      return `/usercenter/${seg(target.userId)}`;
    case 'hordePostDetail':
      return withQuery(`/message/detail/${seg(target.postId)}`, { tab: target.tab });
    case 'topicDetail':
      return `/topic/comment/${seg(target.topicId)}`;
    default:
      return null;
  }
}

/**
 * The learning-site URL of `target` under `base` (e.g. `https://time.geekbang.org`):
 * course intro /course/intro/{id}; course detail /course/detail/{id}-{aid}; article
 * /column/article/{id}; column intro /column/intro/{id} (a column's detail has no page of its
 * own on the web, so it opens the intro too); daily lesson collection
 * /dailylesson/collection/{collectionId}. Null for other targets.
 */
export function learningSiteUrl(target: LearningSiteTarget, base: string): string;
export function learningSiteUrl(target: AppTarget, base: string): string | null;
export function learningSiteUrl(target: AppTarget, base: string): string | null {
  const root = base.replace(/\/+$/, '');
  switch (target.name) {
    case 'courseIntro':
      return `${root}/course/intro/${seg(target.id)}`;
    case 'courseDetail':
      return `${root}/course/detail/${seg(target.id)}-${seg(target.aid)}`;
    case 'article':
      return `${root}/column/article/${seg(target.id)}`;
    case 'columnIntro':
    case 'columnDetail':
      return `${root}/column/intro/${seg(target.id)}`;
    case 'dailyCollection':
      return `${root}/dailylesson/collection/${seg(target.collectionId)}`;
    default:
      return null;
  }
}

/** The app-link parameters of a target, in a stable order. */
function appLinkParams(target: AppTarget): Record<string, Id | undefined> {
  switch (target.name) {
    case 'classroom':
      return { tab: target.tab };
    case 'hordeInfoCenter':
      return { userId: target.userId };
    case 'hordePostDetail':
      return { postId: target.postId, tab: target.tab };
    case 'courseIntro':
    case 'article':
    case 'columnDetail':
    case 'columnIntro':
      return { id: target.id };
    case 'courseDetail':
      return { id: target.id, aid: target.aid };
    case 'dailyCollection':
      return { collectionId: target.collectionId };
    case 'topicDetail':
      return { topicId: target.topicId, topicName: target.topicName };
    case 'noteDetail':
    case 'nativeNoteDetail':
      return { id: target.id, backlevel: target.backlevel };
    case 'login':
      return {};
    case 'webview':
    case 'nativeWebView':
      return { url: target.url };
  }
}

/**
 * The native app link for `target`: `${scheme}${name}?${query}`, the query built from the
 * target's parameters with encodeURIComponent; parameters left undefined are omitted, and a
 * target without parameters (login) has no `?`. `scheme` is used as given (e.g. `geektime://`).
 */
export function appLink(target: AppTarget, scheme: string): string {
  return withQuery(`${scheme}${target.name}`, appLinkParams(target));
}

const ID = '([^/?#]+)';
type PathRule = [RegExp, (m: string[], query: URLSearchParams) => AppTarget];
const WEB_PATHS: PathRule[] = [
  [new RegExp(`^/usercenter/${ID}/?$`), (m) => ({ name: 'hordeInfoCenter', userId: m[1]! })],
  [
    new RegExp(`^/message/detail/${ID}/?$`),
    (m, query) => ({ name: 'hordePostDetail', postId: m[1]!, ...(query.get('tab') ? { tab: query.get('tab')! } : {}) }),
  ],
  [new RegExp(`^/topic/comment/${ID}/?$`), (m) => ({ name: 'topicDetail', topicId: m[1]! })],
];
const LEARNING_PATHS: PathRule[] = [
  [new RegExp(`^/course/intro/${ID}/?$`), (m) => ({ name: 'courseIntro', id: m[1]! })],
  [/^\/course\/detail\/([^/?#-]+)-([^/?#]+)\/?$/, (m) => ({ name: 'courseDetail', id: m[1]!, aid: m[2]! })],
  [new RegExp(`^/column/article/${ID}/?$`), (m) => ({ name: 'article', id: m[1]! })],
  [new RegExp(`^/column/intro/${ID}/?$`), (m) => ({ name: 'columnIntro', id: m[1]! })],
  [new RegExp(`^/dailylesson/collection/${ID}/?$`), (m) => ({ name: 'dailyCollection', collectionId: m[1]! })],
];

function decoded(match: RegExpExecArray): string[] | null {
  try {
    return match.map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/**
 * The target a URL shows, the inverse of webPath and learningSiteUrl: a page of this app
 * (same origin as `origin`) or of the learning site under `learningBase`. Null for anything else.
 */
export function targetOfUrl(url: URL, origin: string, learningBase: string): AppTarget | null {
  const table = url.origin === origin ? WEB_PATHS : learningBase && url.href.startsWith(`${learningBase.replace(/\/+$/, '')}/`) ? LEARNING_PATHS : [];
  const root = url.origin === origin ? '' : new URL(learningBase).pathname.replace(/\/+$/, '');
  const path = url.pathname.slice(root.length);
  for (const [pattern, build] of table) {
    const match = pattern.exec(path);
    const parts = match && decoded(match);
    if (parts) return build(parts, url.searchParams);
  }
  return null;
}
