/**
 * Web Push (the server's services/push.ts sends one per new notice): shown as a notification,
 * app open or closed, saying who did what; a tap opens its page in the app's open window (focused
 * and taken there), or in a new one.
 */
declare const self: ServiceWorkerGlobalScope;

/** What the server pushes (PushPayload of src/server/services/push.ts). */
interface PushedNotice {
  title: string;
  body: string;
  url: string;
  tag: string;
}

const ICON = '/icons/icon-192.png';
const NOTICES_PATH = '/notice';

function pushedNotice(data: PushMessageData | null): PushedNotice | undefined {
  try {
    const value = data?.json() as Partial<PushedNotice> | undefined;
    if (typeof value?.title !== 'string') return undefined;
    return { title: value.title, body: String(value.body ?? ''), url: String(value.url ?? NOTICES_PATH), tag: String(value.tag ?? '') };
  } catch {
    return undefined;
  }
}

/** A path of this app to open: another origin's address never (a push names our pages only). */
export function pathToOpen(url: unknown, origin: string): string {
  if (typeof url !== 'string') return NOTICES_PATH;
  try {
    const target = new URL(url, origin);
    if (target.origin === origin) return `${target.pathname}${target.search}${target.hash}`;
  } catch {
    // Not a URL: the notices page.
  }
  return NOTICES_PATH;
}

async function openInApp(path: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (!open) {
    await self.clients.openWindow(path);
    return;
  }
  const focused = await open.focus();
  await focused.navigate(new URL(path, self.location.origin).href);
}

export function setupPush(): void {
  self.addEventListener('push', (event) => {
    // A push must show something (userVisibleOnly): one that cannot be read says there is news.
    const notice = pushedNotice(event.data) ?? { title: '你有新的消息', body: '', url: NOTICES_PATH, tag: '' };
    event.waitUntil(
      self.registration.showNotification(notice.title, {
        body: notice.body,
        icon: ICON,
        data: { url: notice.url },
        ...(notice.tag ? { tag: notice.tag } : {}),
      }),
    );
  });
  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    event.waitUntil(openInApp(pathToOpen((event.notification.data as { url?: unknown } | null)?.url, self.location.origin)));
  });
}
