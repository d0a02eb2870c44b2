/**
 * The one place that turns failed requests into UI (lib/http.ts knows none).
 *
 * Errors are looked up in a catalogue keyed by kind, HTTP status or business code (most
 * specific first), never by an instanceof chain. Each entry names an action; the actions
 * for the login flow and the "logged in elsewhere" notice are hook points that the auth
 * work replaces through `setApiErrorActions` (until then they show the catalogue message).
 */
import { endpoints } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import { errorText } from '../lib/error-text.ts';
import type { ApiError } from '../lib/http.ts';
import { toast } from '../ui/toast/toast-store.ts';

export type ApiErrorActionName = 'ignore' | 'toast' | 'login' | 'loggedInElsewhere';

/** What the query client tells us about the failure. */
export interface ApiErrorContext {
  /** Which kind of operation failed (query, mutation, ...); informational. */
  kind?: string;
  /** The caller shows the error itself (an inline error state): no toast. */
  silent?: boolean;
}

/**
 * The catalogue. Keys: `kind:<ApiError kind>`, `status:<http status>`, `code:<business code>`.
 * Lookup order: kind, status, code; anything not listed is a toast with the message.
 */
export const apiErrorCatalogue: Readonly<Record<string, ApiErrorActionName>> = {
  // Timeout errors are silently ignored.
  'kind:timeout': 'ignore',
  // A request the page itself cancelled (navigation, unmount).
  'kind:abort': 'ignore',
  // HTTP 452: the ticket was ended by a login on another device of the same kind.
  'kind:logged-in-elsewhere': 'loggedInElsewhere',
  'status:452': 'loggedInElsewhere',
  // -1001 opens the login popup and clears the error; -2000 starts the login flow.
  [`code:${ErrorCode.SessionInvalid}`]: 'login',
  [`code:${ErrorCode.NotLoggedIn}`]: 'login',
};

/** Paths exempt from the login flow: the user auth call, whose "not logged in" is an answer, not a failure. */
export const loginExemptPaths: ReadonlySet<string> = new Set([endpoints.auth.path]);

/** The shape we need from an error; ApiError has it, and so do plain objects in tests. */
type ErrorLike = Pick<ApiError, 'code' | 'kind' | 'status' | 'path' | 'message'>;

function asErrorLike(error: unknown): ErrorLike | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as Partial<ErrorLike> & { name?: unknown };
  if (e.name === 'AbortError') {
    return { code: 0, kind: 'abort' as ApiError['kind'], status: 0, path: '', message: '' };
  }
  if (typeof e.code === 'number' && typeof e.kind === 'string') {
    return {
      code: e.code,
      kind: e.kind,
      status: typeof e.status === 'number' ? e.status : 0,
      path: typeof e.path === 'string' ? e.path : '',
      message: typeof e.message === 'string' ? e.message : '',
    };
  }
  return null;
}

export function resolveApiErrorAction(error: unknown): ApiErrorActionName {
  const e = asErrorLike(error);
  if (!e) return 'toast';
  const action =
    apiErrorCatalogue[`kind:${e.kind}`] ?? apiErrorCatalogue[`status:${e.status}`] ?? apiErrorCatalogue[`code:${e.code}`];
  if (action === 'login' && loginExemptPaths.has(e.path)) return 'ignore';
  return action ?? 'toast';
}

/** The message a toast shows: the catalogue's for known codes, the server's otherwise. */
export function apiErrorMessage(error: unknown): string {
  return errorText(asErrorLike(error) ?? error);
}

type ActionImpl = (error: unknown) => void;

const defaultActions: Record<ApiErrorActionName, ActionImpl> = {
  ignore: () => {},
  toast: (error) => {
    toast.error(apiErrorMessage(error));
  },
  // Hook point for the auth work: open the login popup.
  login: (error) => {
    toast.error(apiErrorMessage(error));
  },
  // Hook point for the auth work: log out, then the 下线通知 dialog (or the native alert).
  loggedInElsewhere: () => {
    toast.error('账号已在其他设备登录');
  },
};

let actions: Record<ApiErrorActionName, ActionImpl> = { ...defaultActions };

/** Replaces some actions (the auth work wires `login` and `loggedInElsewhere` here). */
export function setApiErrorActions(overrides: Partial<Record<ApiErrorActionName, ActionImpl>>): () => void {
  const before = actions;
  actions = { ...actions, ...overrides };
  return () => {
    actions = before;
  };
}

/**
 * The hook point the query client calls for every failed query and mutation.
 * Silent failures are shown inline by the caller (except the login flow, which always runs).
 */
export function handleApiError(error: unknown, context: ApiErrorContext = {}): ApiErrorActionName {
  const action = resolveApiErrorAction(error);
  // A failed read is shown where it was to appear (every screen has its error state with a
  // retry); a toast on top would say it twice. Toasts are for actions (mutations).
  const shownInline = context.silent || context.kind === 'query';
  if (shownInline && action === 'toast') return 'ignore';
  actions[action](error);
  return action;
}
