/**
 * The query client; its IndexedDB persistence is query-cache-persister.ts.
 *
 * Errors: the QueryCache/MutationCache onError hooks are the one place a failed request turns
 * into UI. They call `handlers.onError`, which the UI wires to toasts, the login popup and the
 * 452 dialog. A query or mutation with `meta: { silent: true }` is reported with silent: true.
 */
import { MutationCache, onlineManager, QueryCache, QueryClient, type MutationOptions } from '@tanstack/react-query';
import { isApiError } from './http.ts';

/** The meta every query and mutation may carry. */
export interface AppQueryMeta extends Record<string, unknown> {
  /** Failures are reported to onError with silent: true (no toast). */
  silent?: boolean;
  /** false: never persisted to IndexedDB (private or fast-changing data). */
  persist?: boolean;
  /** The uid whose own account this answers for: kept on the device only while they are logged in. */
  ownedBy?: number;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
    mutationMeta: AppQueryMeta;
  }
}

export interface ErrorMeta {
  kind: 'query' | 'mutation';
  silent: boolean;
}

export interface QueryClientHandlers {
  onError(error: unknown, meta: ErrorMeta): void;
}

export const QUERY_STALE_TIME_MS = 30_000;
export const QUERY_GC_TIME_MS = 24 * 60 * 60 * 1000;
/** How long what was persisted stays usable: no longer than the cache keeps a query unused. */
export const PERSIST_MAX_AGE_MS = QUERY_GC_TIME_MS;

/**
 * Offline: the browser says so, or the service worker saw the network fail (TanStack Query's
 * onlineManager follows the app's online store, which hears both: see followOnline).
 */
export const isOffline = (): boolean => !onlineManager.isOnline();

/**
 * Retry policy: never while offline (the page shows its offline state at once, and what is on
 * screen is fetched again when the network returns), never after a timeout (the attempt already
 * waited 10 s: the error state with 重试 comes then, not after 20 s), never for business errors
 * or a 452 (a retry would get the same answer), never for errors that are not ApiErrors (bugs,
 * aborts, schema mismatches), and up to two after a network or non-envelope HTTP failure.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return isApiError(error) && (error.kind === 'network' || error.kind === 'http') && failureCount < 2 && !isOffline();
}

function report(handlers: QueryClientHandlers, error: unknown, kind: ErrorMeta['kind'], meta: AppQueryMeta | undefined): void {
  try {
    handlers.onError(error, { kind, silent: meta?.silent === true });
  } catch (handlerError) {
    // A broken handler must not break the cache; surface it for developers only.
    console.error('query client onError handler failed', handlerError);
  }
}

export function createQueryClient(handlers: QueryClientHandlers): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => report(handlers, error, 'query', query.meta),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _onMutateResult, mutation) => report(handlers, error, 'mutation', mutation.meta),
    }),
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_TIME_MS,
        gcTime: QUERY_GC_TIME_MS,
        retry: shouldRetry,
        // Run the query function even when offline: the service worker may answer from its
        // cache. Never pause: offline, a query fails at once (shouldRetry) and its page shows
        // the offline state instead of a skeleton; the reconnect fetches it again.
        networkMode: 'always',
      },
      mutations: {
        // Writes are not retried blindly; the outbox replays them with the same client_id.
        retry: false,
      },
    },
  });
}

/** The app's word on the network: whether it is online now, and each change of it. */
export interface OnlineSource {
  isOnline(): boolean;
  /** Calls `onChange` with each new state (not the current one). Returns the unsubscribe. */
  subscribe(onChange: (online: boolean) => void): () => void;
}

/**
 * Online and offline, app-wide: TanStack Query's onlineManager follows
 * `source` (app/ wires the online store, which hears the browser's events and the service
 * worker's reports). When the network returns, every query is marked stale and those on screen
 * are fetched again: what they show may have come from the service worker's cache, or failed.
 * `onOffline` runs once each time the network is lost, never per failed request.
 */
export function followOnline(queryClient: QueryClient, source: OnlineSource, onOffline: () => void): void {
  onlineManager.setEventListener((setOnline) => {
    setOnline(source.isOnline());
    return source.subscribe((online) => {
      setOnline(online);
      if (online) void queryClient.invalidateQueries(undefined, { cancelRefetch: false });
      else onOffline();
    });
  });
}

/**
 * Runs a write outside a component (a menu action, a queued send) as a mutation of this
 * client, so its failure reaches the same error hook as every other write.
 */
export function runMutation<TData, TVariables>(
  queryClient: QueryClient,
  options: MutationOptions<TData, Error, TVariables>,
  variables: TVariables,
): Promise<TData> {
  return queryClient.getMutationCache().build(queryClient, options).execute(variables);
}
