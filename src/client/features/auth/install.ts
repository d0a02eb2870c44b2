/**
 * Wires the session into the app once at start-up: request credentials for the mini-program and the
 * native app, the login opener used by every 登录 button and by -1001/-2000, and the native app's
 * loginSuccess / logoutSuccess events, a logout made in another tab (explained, when a login
 * elsewhere caused it), and a logout the server has not heard yet (lib/logout-pending.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import { currentEnvironment } from '../../platform/environment.ts';
import { installCredentialHeaders } from '../../entities/session/credentials.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { setLoginOpener } from '../../entities/session/login.ts';
import { useLoginDialogStore } from './login-store.ts';
import { useOnlineStore } from '../../platform/online-store.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { sessionKeys } from '../../entities/session/queries.ts';
import { ENDED_ELSEWHERE_KEY, endedElsewhere, LOGIN_USER_KEY } from '../../entities/session/stored-login.ts';
import { settlePendingLogout } from '../../lib/http.ts';

export interface SessionActions {
  /** Opens the phone login popup. */
  login: () => void;
  /** Handles HTTP 452. */
  loggedInElsewhere: () => void;
}

export function installSession(queryClient: QueryClient): SessionActions {
  installCredentialHeaders(currentEnvironment());
  // A login needs the network (a code is sent, then checked): offline, the user hears so instead.
  const openLogin = () => {
    if (useOnlineStore.getState().online) useLoginDialogStore.getState().openLogin();
    else toast.info('当前网络不可用，请联网后登录');
  };
  setLoginOpener(openLogin);
  window.addEventListener('loginSuccess', () => void queryClient.invalidateQueries({ queryKey: sessionKeys.user }));
  const logOutHere = () =>
    loadChunk(() => import('../../entities/session/session-cache.ts')).then(
      (session) => session.applyLogout(queryClient),
      (error: unknown) => console.error(error),
    );
  window.addEventListener('logoutSuccess', () => void logOutHere());
  // A logout the server has not heard yet is the first thing it hears: at start, and when the network is back.
  const settle = () => void settlePendingLogout().catch(() => undefined);
  settle();
  useOnlineStore.subscribe((state, before) => {
    if (state.online && !before.online) settle();
  });
  // A 452 is rare: its handling loads when it happens.
  const explainLoggedInElsewhere = (toldByAnotherTab: boolean) =>
    void loadChunk(() => import('./logged-in-elsewhere.ts')).then(
      ({ handleLoggedInElsewhere }) => handleLoggedInElsewhere(queryClient, { toldByAnotherTab }),
      (error: unknown) => console.error(error),
    );
  // A logout in another tab: this one shows nobody logged in either, and sends nothing as them;
  // one a login elsewhere caused is explained here as well.
  window.addEventListener('storage', (event) => {
    if (event.key === ENDED_ELSEWHERE_KEY && event.newValue !== null) explainLoggedInElsewhere(true);
    else if (event.key === LOGIN_USER_KEY && event.newValue === null && !endedElsewhere() && queryClient.getQueryData(sessionKeys.user))
      void logOutHere();
  });
  return { login: openLogin, loggedInElsewhere: () => explainLoggedInElsewhere(false) };
}
