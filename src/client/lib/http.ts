/**
 * The http client: one typed call per contract endpoint. It knows envelopes and transport,
 * never the UI: failures become an ApiError, and the query client's error hooks, which app/
 * wires, decide what the user sees.
 */
import { endpoints, HTTP_LOGGED_IN_ELSEWHERE, type ClientEndpoint, type EndpointName, type InputOf, type OutputOf } from '#shared/endpoints.ts';
import { HTTP_TIMEOUT_MS } from '#shared/constants.ts';
import { isEnvelope } from '#shared/envelope.ts';
import { ErrorCode, NETWORK_ERROR_MESSAGE } from '#shared/errors.ts';
import { clearLogoutPending, pendingLogout } from './logout-pending.ts';

export type ApiErrorKind = 'business' | 'network' | 'timeout' | 'logged-in-elsewhere' | 'http';

/** The server's answer while it cannot serve for a moment (its database is away): try again. */
const HTTP_UNAVAILABLE = 503;

export class ApiError extends Error {
  readonly code: number;
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly path: string;

  constructor(init: { code: number; msg: string; kind: ApiErrorKind; status: number; path: string }) {
    super(init.msg);
    this.name = 'ApiError';
    this.code = init.code;
    this.kind = init.kind;
    this.status = init.status;
    this.path = init.path;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Extra headers for every request (the mini-program and native app send Ticket and Device-Id). */
type HeaderSource = () => Record<string, string>;
let headerSource: HeaderSource = () => ({});

export function setRequestHeaderSource(source: HeaderSource): void {
  headerSource = source;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number;
  /** Headers of this request beside (and over) every request's. */
  headers?: Record<string, string>;
  /** Sent even if the page goes meanwhile (a small body only: the browser refuses one over 64 KiB). */
  keepalive?: boolean;
}

export async function request<K extends EndpointName>(
  endpoint: ClientEndpoint<K>,
  input: InputOf<K>,
  options: RequestOptions = {},
): Promise<OutputOf<K>> {
  const { path } = endpoint;
  // Nothing goes with a ticket its user gave up here before the server has ended it.
  if (path !== endpoints.logout.path && pendingLogout()) await settlePendingLogout(path);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? HTTP_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers = { ...requestHeaders(), ...options.headers };
  let url = path;
  let body: string | undefined;
  if (endpoint.method === 'GET') {
    const query = new URLSearchParams(
      Object.entries((input ?? {}) as Record<string, unknown>)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [key, String(value)]),
    ).toString();
    if (query) url += `?${query}`;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input ?? {});
  }

  let response: Response;
  try {
    response = await fetch(url, { method: endpoint.method, headers, body, credentials: 'include', signal, keepalive: options.keepalive ?? false });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw networkError(path, timeout.aborted ? 'timeout' : 'network');
  }

  return answerOf<OutputOf<K>>(response.status, await response.json().catch(() => undefined), path);
}

let settling: Promise<void> | undefined;

/**
 * Ends the ticket of a logout the server has not heard yet (lib/logout-pending.ts), once for all
 * the requests waiting on it. Rejects as a request to `path` that got no answer would: offline,
 * nothing is sent after it.
 */
export function settlePendingLogout(path: string = endpoints.logout.path): Promise<void> {
  const headers = pendingLogout();
  if (!headers) return Promise.resolve();
  settling ??= fetch(endpoints.logout.path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    body: '{}',
    credentials: 'include',
    signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
  })
    .then((response) => {
      // An answer means the server heard: it ended the ticket, or there was none left to end. A
      // server unwell (its database away) may not have: the next request tries again.
      if (response.status >= 500) throw new Error(`logout answered ${response.status}`);
      clearLogoutPending();
    })
    .finally(() => (settling = undefined));
  return settling.catch((error: unknown) => {
    throw networkError(path, error instanceof DOMException && error.name === 'TimeoutError' ? 'timeout' : 'network');
  });
}

/** The ticket as headers, where a client sends it so (the mini-program, the native app); {} where the cookie carries it. */
export function ticketHeaders(): Record<string, string> {
  return headerSource();
}

/** The headers every request carries (credentials of the mini-program and the native app). */
export function requestHeaders(): Record<string, string> {
  return { accept: 'application/json', ...headerSource() };
}

/** A request that never got an answer. */
export function networkError(path: string, kind: 'network' | 'timeout' = 'network'): ApiError {
  return new ApiError({ code: ErrorCode.Network, msg: NETWORK_ERROR_MESSAGE, kind, status: 0, path });
}

/** The data of an answer, or the ApiError it stands for (452, not an envelope, a business error). */
export function answerOf<T>(status: number, payload: unknown, path: string): T {
  if (status === HTTP_LOGGED_IN_ELSEWHERE) {
    const code = isEnvelope(payload) && 'error' in payload ? payload.error.code : ErrorCode.Relogin;
    throw new ApiError({ code, msg: '', kind: 'logged-in-elsewhere', status, path });
  }
  if (!isEnvelope(payload)) {
    throw new ApiError({ code: ErrorCode.Network, msg: NETWORK_ERROR_MESSAGE, kind: 'http', status, path });
  }
  if (payload.code === 0) return (payload as { data: T }).data;
  const { code, msg } = 'error' in payload ? payload.error : { code: ErrorCode.Unknown, msg: '' };
  // 503: the server cannot serve it now (its database is away) and says so in the envelope; the
  // request was fine and is worth sending again, as a server that is unwell is.
  if (status === HTTP_UNAVAILABLE) throw new ApiError({ code, msg, kind: 'http', status, path });
  // The server's own words; where the catalogue has the code, what the user is shown comes from
  // it (the error hook and the forms, through error-messages.ts).
  throw new ApiError({ code, msg, kind: 'business', status, path });
}
