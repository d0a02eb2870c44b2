/**
 * Paths that name a file, never a page of the app: anything under the build's folders
 * (/assets/, /icons/, /screenshots/) and any path whose last segment has an extension
 * (/favicon-x.png, /a/b/c.css). A missing one is a 404 from the server, and the service worker
 * never answers one with the app shell. The pattern reads a path with its query, as Workbox's
 * NavigationRoute tests it, so `/share-target?url=https://x.cn/a.html` is still a page.
 */
export const FILE_PATH_PATTERN = /^\/(?:assets|icons|screenshots)\/|^[^?#]*\/[^/?#]*\.[a-z0-9]+(?:[?#]|$)/i;

export function isFilePath(pathAndQuery: string): boolean {
  return FILE_PATH_PATTERN.test(pathAndQuery);
}
