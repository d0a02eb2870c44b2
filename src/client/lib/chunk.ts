/**
 * Loading code on demand (SPEC.md sections 8 and 9): a chunk that fails to arrive, or has not
 * arrived after 120 s, is a ChunkLoadError with a message a user can act on.
 */
import { CHUNK_LOAD_LIMIT_MS } from '#shared/constants.ts';

export const CHUNK_LOAD_MESSAGE = '页面加载失败，请检查网络后重试';

export class ChunkLoadError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(CHUNK_LOAD_MESSAGE, options);
    this.name = 'ChunkLoadError';
  }
}

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
