/**
 * Logout (clears the user and the university flag). A user's data leaves with them: what they wrote
 * and did not send yet stays on this device under their account, for their next login here, or
 * goes, as they choose; nobody else sees it or sends it. A logout is final the moment it is chosen,
 * whether or not the server can hear it yet (lib/logout-pending.ts). Loaded when chosen.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoginUser } from '#shared/schemas.ts';
import { outbox } from '../../entities/outbox/index.ts';
import { sessionKeys } from '../../entities/session/queries.ts';
import { applyLogout } from '../../entities/session/session-cache.ts';
import { credentialHeaders } from '../../entities/session/credentials.ts';
import { settlePendingLogout } from '../../lib/http.ts';
import { markLogoutPending } from '../../lib/mark-logout-pending.ts';
import { currentEnvironment } from '../../platform/environment.ts';
import { forgetPushSubscription } from '../../platform/push-subscription.ts';
import { storedWriteCount } from '../../lib/write-queue/store.ts';
import { openPicker } from '../../ui/picker/open-picker.ts';

/** Logs out; with unsent writes, once the user said what becomes of them. Resolves false when they chose to stay. */
export async function logout(queryClient: QueryClient): Promise<boolean> {
  const uid = queryClient.getQueryData<LoginUser | null>(sessionKeys.user)?.uid;
  if (uid !== undefined && (await storedWriteCount()) !== 0) {
    const run = await outbox(queryClient);
    const unsent = (await run.unsentOf(uid)).length;
    if (unsent > 0) {
      const choice = await openPicker({
        title: `还有 ${unsent} 条内容未发送`,
        items: [
          { key: 'keep', text: '保留，下次登录后自动发送' },
          { key: 'discard', text: '丢弃并退出', danger: true },
        ],
        cancelText: '暂不退出',
      });
      if (!choice) return false;
      if (choice.key === 'discard') await run.discardWritesOf(uid);
    }
  }
  // Final here at once, offline too: the server ends the ticket at the first request it hears.
  markLogoutPending(credentialHeaders(currentEnvironment()));
  // Nothing of this user is pushed here any more (the server drops the subscription with the ticket).
  void forgetPushSubscription().catch(() => undefined);
  await applyLogout(queryClient);
  await settlePendingLogout().catch(() => undefined);
  return true;
}
