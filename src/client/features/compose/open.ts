/**
 * Opening and closing the composer: `?compose=1` on the page under it, so Back closes it, a
 * reload keeps it open, and /post (输入代码) can return to it. Writing needs a login.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { requireLogin } from '../../entities/session/login.ts';

/** Whether the open composer's history entry is one this page pushed (then Back closes it). */
let pushedHere = false;

export function openComposer(router: AnyRouter, queryClient: QueryClient): void {
  const open = () => {
    pushedHere = true;
    void router.navigate({ to: '.', search: (prev) => ({ ...prev, compose: 1 as const }) });
  };
  if (requireLogin(queryClient, open)) open();
}

export function closeComposer(router: AnyRouter): void {
  if (pushedHere) {
    pushedHere = false;
    router.history.back();
    return;
  }
  void router.navigate({ to: '.', search: (prev) => ({ ...prev, compose: undefined }), replace: true });
}
