/**
 * Paths the server, the service worker, the manifest and the client agree on.
 *
 * Files, never a page of the app: anything under the build's folders (/assets/, /icons/,
 * /screenshots/) and any path whose last segment has an extension (/favicon-x.png,
 * /a/b/c.css). A missing one is a 404 from the server, and the service worker never answers
 * one with the app shell. The pattern reads a path with its query, as Workbox's
 * NavigationRoute tests it, so `/share-target?url=https://x.cn/a.html` is still a page.
 */
export const FILE_PATH_PATTERN = /^\/(?:assets|icons|screenshots)\/|^[^?#]*\/[^/?#]*\.[a-z0-9]+(?:[?#]|$)/i;

export function isFilePath(pathAndQuery: string): boolean {
  return FILE_PATH_PATTERN.test(pathAndQuery);
}

/**
 * The manifest's share_target: a share to the installed app POSTs `title`, `text`, `url` and its
 * pictures (`images`, multipart) to this address. The service worker (offline too) keeps the
 * pictures in IndexedDB (SHARED_FILES_DB) under a new id and sends the share on to
 * shareTargetLocation, the composer over /home, which puts the text and the pictures into the post
 * draft. Without the worker the server sends the text on alone; a GET share (an install from
 * before) goes on as its query says.
 */
export const SHARE_TARGET_PATH = '/share-target';

/** The fields of a share the composer takes. */
export const SHARE_FIELDS = ['title', 'text', 'url'] as const;

/** The multipart field of the shared pictures. */
export const SHARE_FILES_FIELD = 'images';

/** The query parameter naming the shared pictures the worker kept. */
export const SHARED_FILES_PARAM = 'shared_files';

/** Where the worker keeps shared pictures until the composer takes them (idb-keyval: database, store). */
export const SHARED_FILES_DB = { database: 'horde-shared-files', store: 'files' } as const; // horde: src/client/README.md ('horde')

/**
 * Where a share goes: /home with the composer open and the shared fields (as they came,
 * still encoded) in the query. `search` is the share's query, with or without its `?`.
 */
export function shareTargetLocation(search: string): string {
  const shared = search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => [...SHARE_FIELDS, SHARED_FILES_PARAM].some((field) => pair.startsWith(`${field}=`) && pair.length > field.length + 1));
  return ['/home?compose=1', ...shared].join('&');
}
