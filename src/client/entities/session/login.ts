/**
 * Asking for a login: every 登录 button, -1001 and -2000 open the phone login popup through
 * here. The auth feature registers the popup with setLoginOpener.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoginUser } from '#shared/schemas.ts';
import { sessionKeys, sessionQueryOptions } from './queries.ts';

type LoginOpener = () => void;

let opener: LoginOpener = () => {};

export function setLoginOpener(next: LoginOpener): () => void {
  const before = opener;
  opener = next;
  return () => {
    opener = before;
  };
}

export function requestLogin(): void {
  opener();
}

let afterLogin: (() => void) | null = null;

/**
 * For actions that need a login: the login user when known, otherwise null after opening the login
 * popup. `then` (the action itself) runs once the user has logged in through that popup; closing it
 * without logging in forgets it. While who is logged in is not known yet (the app has just started
 * and its check is on its way), it returns null and waits for the answer: logged in, `then` runs;
 * logged out (or no answer), the popup opens. A logged-in reader's first tap was otherwise met by
 * the login popup.
 */
export function requireLogin(queryClient: QueryClient, then?: () => void): LoginUser | null {
  const user = queryClient.getQueryData<LoginUser | null>(sessionKeys.user);
  if (user) return user;
  if (user === undefined) {
    queryClient.ensureQueryData(sessionQueryOptions()).then(
      (known) => (known ? then?.() : askForLogin(then)),
      () => askForLogin(then),
    );
    return null;
  }
  askForLogin(then);
  return null;
}

function askForLogin(then: (() => void) | undefined): void {
  afterLogin = then ?? null;
  requestLogin();
}

/** The login succeeded: run the action that asked for it. */
export function runAfterLogin(): void {
  const next = afterLogin;
  afterLogin = null;
  next?.();
}

/** The popup closed without a login. */
export function forgetAfterLogin(): void {
  afterLogin = null;
}
