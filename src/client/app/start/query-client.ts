import type { QueryClient } from '@tanstack/react-query';
import { setWriteNotices } from '../../entities/outbox/index.ts';
import { installSession } from '../../features/auth/install.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { applyAppEvents } from '../apply-other-tabs.ts';
import type * as ErrorHandling from '../handle-api-error.ts';

/**
 * The app's one query client, with what hangs on it: failures turned into UI, other tabs' events,
 * the outbox's notices and the session.
 */
export function createAppQueryClient(): QueryClient {
  // What a failure shows (a toast, the login popup for -1001 and -2000, the 452 notice) is
  // decided in handle-api-error.ts, which loads with the first failure.
  let errorHandling: Promise<typeof ErrorHandling> | undefined;
  const queryClient = createQueryClient({
    onError: (error, meta) => {
      errorHandling ??= loadChunk(() => import('../handle-api-error.ts')).then((handling) => {
        handling.setApiErrorActions({ login: session.login, loggedInElsewhere: session.loggedInElsewhere });
        return handling;
      });
      errorHandling.then(
        (handling) => handling.handleApiError(error, meta),
        () => (errorHandling = undefined),
      );
    },
  });
  applyAppEvents(queryClient);
  setWriteNotices(() => loadChunk(() => import('../write-notices.ts')).then((texts) => texts.writeNotices));
  const session = installSession(queryClient);
  return queryClient;
}
