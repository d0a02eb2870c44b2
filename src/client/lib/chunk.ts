/**
 * Loading code on demand: a chunk that fails to arrive, or has not arrived after 120 s, is a
 * ChunkLoadError with a message a user can act on.
 *
 * A failed dynamic import stays failed for the life of the page (the browser keeps the failure
 * in its module map), and after a deploy the old chunks are gone from the server: only a reload
 * recovers, so isChunkLoadError tells the error states to offer one. Vite reports every failed
 * import or preload of a route (`vite:preloadError`, whatever the browser's wording of it).
 */
import { CHUNK_LOAD_LIMIT_MS } from '#shared/constants.ts';

export const CHUNK_LOAD_MESSAGE = '页面加载失败，请检查网络后刷新页面';

export class ChunkLoadError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(CHUNK_LOAD_MESSAGE, options);
    this.name = 'ChunkLoadError';
  }
}

const failedLoads = new WeakSet<object>();
// Not in Node (tests import this module there).
if (typeof window !== 'undefined') window.addEventListener('vite:preloadError', (event) => failedLoads.add((event as Event & { payload: object }).payload));

/** The page's code could not be loaded: a reload, not a retry, brings it. */
export const isChunkLoadError = (error: unknown): boolean => error instanceof ChunkLoadError || failedLoads.has(error as object);

export function loadChunk<T>(load: () => Promise<T>, limitMs: number = CHUNK_LOAD_LIMIT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError()), limitMs);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError({ cause }));
      },
    );
  });
}
