/**
 * HTTP 452: the ticket was ended by a login on another device of the same kind. Log out here, tell
 * the server to drop the ticket with an image-style call (on the web and in older app versions),
 * and explain: the native alert inside the app, else the 下线通知 dialog whose 确定 opens login.
 * The other open tabs are told (markEndedElsewhere) and explain too: by then the server answers
 * them as nobody's, so they would otherwise go logged out without a word.
 */
import type { QueryClient } from '@tanstack/react-query';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import { currentEnvironment, sendsAppHeaders } from '../../platform/environment.ts';
import { confirm } from '../../ui/dialog/confirm.ts';
import { useLayerStore } from '../../ui/overlay/layer-store.ts';
import { credentialHeaders, nativeBridge } from '../../entities/session/credentials.ts';
import { markLogoutPending } from '../../lib/mark-logout-pending.ts';
import { useLoginDialogStore } from './login-store.ts';
import { applyLogout } from '../../entities/session/session-cache.ts';
import { markEndedElsewhere, readStoredLogin } from '../../entities/session/stored-login.ts';

export const LOGGED_IN_ELSEWHERE_TITLE = '下线通知';
export const LOGGED_IN_ELSEWHERE_TEXT =
  '您的账号已在另一台同类设备上登录。如果这不是您本人的操作，您的密码可能已经泄露，请立即修改密码。';

let handling = false;
const MAX_NOTICE_SHOWINGS = 5;

export function ticketDeleteUrl(ticket: string | undefined): string {
  const query = ticket ? `?ticket=${encodeURIComponent(ticket)}` : '';
  return `${OTHER_PATHS.ticketDelete}${query}`;
}

/**
 * An <img> request: no CORS, and it carries the cookie on the web. Settles when the server
 * answered (its reply also clears the cookie), so refetches after it are plainly logged out.
 */
function deleteTicket(url: string): Promise<void> {
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = image.onerror = () => resolve();
    setTimeout(resolve, 3000);
    image.src = url;
  });
}

/**
 * Several requests may get 452 at once; the user hears about it once in each tab. A tab told by
 * another (`toldByAnotherTab`) leaves the ticket's end to that one.
 */
export async function handleLoggedInElsewhere(queryClient: QueryClient, { toldByAnotherTab = false } = {}): Promise<void> {
  if (handling) return;
  handling = true;
  try {
    if (!toldByAnotherTab) markEndedElsewhere();
    // Newer app versions hold the ticket themselves (they send it as a header) and end it.
    const env = currentEnvironment();
    if (!toldByAnotherTab && !(env.kind === 'app' && sendsAppHeaders(env))) {
      // Ended here whether or not the call below is heard: the server drops it at the next request.
      markLogoutPending(credentialHeaders(env));
      await deleteTicket(ticketDeleteUrl(readStoredLogin()?.ticket || undefined));
    }
    await applyLogout(queryClient);
    const nativeAlert = nativeBridge()?.loginMutexAlert;
    if (nativeAlert) {
      nativeAlert();
      return;
    }
    // A toast (say 网络异常) replaces any dialog (one layer at a time); this notice matters more,
    // so it comes back until the user answers it. Esc or another dialog ends it.
    for (let shown = 0; shown < MAX_NOTICE_SHOWINGS; shown++) {
      const ok = await confirm({
        title: LOGGED_IN_ELSEWHERE_TITLE,
        content: LOGGED_IN_ELSEWHERE_TEXT,
        okText: '确定',
        cancelText: false,
      });
      if (ok) {
        useLoginDialogStore.getState().openLogin();
        return;
      }
      if (useLayerStore.getState().active?.kind !== 'message') return;
    }
  } finally {
    handling = false;
  }
}
