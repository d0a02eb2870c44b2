/**
 * What depends on where the page runs, started once from main.tsx. Each part's code loads only
 * where it is needed (SPEC.md sections 1, 2, 3 and 7): WeChat's JS-SDK in the WeChat browser,
 * the mini-program bridge in a mini-program web view, the native bridge in the app; the tracking
 * client with the first event (or now, when an earlier visit left events unsent).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoginUser } from '#shared/schemas.ts';
import { sessionKeys } from '../../entities/session/queries.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { currentEnvironment, type Environment } from '../../platform/environment.ts';
import { sendKeptEvents, setTrackingUser } from '../../platform/tracking.ts';
import type { AppRouter } from '../router.tsx';

export interface HostContext {
  queryClient: QueryClient;
  router: AppRouter;
  env: Environment;
}

const hosts = {
  app: () => import('./native-app.ts'),
  wechat: () => import('./wechat.ts'),
  'wechat-miniprogram': () => import('./miniprogram.ts'),
  browser: null,
};

export function startHostPlatform(queryClient: QueryClient, router: AppRouter): void {
  setTrackingUser(() => {
    const user = queryClient.getQueryData<LoginUser | null>(sessionKeys.user);
    return { is_login: !!user, uid: user?.uid ?? 0 };
  });
  sendKeptEvents();

  const env = currentEnvironment();
  const host = hosts[env.kind];
  if (host) {
    // html[data-host] says the host's bridge is in place (styles and tests may wait for it).
    loadChunk(host)
      .then((module) => module.startHost({ queryClient, router, env }))
      .then(
        () => (document.documentElement.dataset.host = env.kind),
        (error: unknown) => console.error(error),
      );
  }
}
