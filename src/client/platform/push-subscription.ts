/**
 * Web Push on this device: the browser's push subscription, made with the server's VAPID key and
 * handed to the server, which pushes the login user's new notices to it while this device's ticket
 * lives (the service worker shows them: sw/push.ts). Permission is asked only on the user's tap.
 */
import { endpoints } from '#shared/endpoints.ts';
import { request } from '../lib/http.ts';

/** Why push could not be turned on, in words for the user. */
export class PushUnavailable extends Error {}

export const PUSH_DENIED_MESSAGE = '通知权限已被拒绝，请在浏览器设置中允许本站通知';
export const PUSH_FAILED_MESSAGE = '推送通知开启失败，请稍后重试';

/** A browser whose push service never answers (none reachable, as in a headless one) would keep the switch busy for good. */
const SUBSCRIBE_LIMIT_MS = 15_000;

function answeredWithin<T>(promise: Promise<T>, limitMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the push service did not answer')), limitMs);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return pushSupported() ? navigator.serviceWorker.getRegistration() : undefined;
}

/** Whether this device is subscribed now (and still allowed to show notifications). */
export async function pushIsOn(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') return false;
  return (await (await registration())?.pushManager.getSubscription()) != null;
}

/** The server key a subscription was made with, in base64url as the server gives it. */
function serverKeyOf(subscription: PushSubscription): string | undefined {
  const key = subscription.options.applicationServerKey;
  if (!key) return undefined;
  return btoa(String.fromCharCode(...new Uint8Array(key)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Asks the permission (call it from the tap itself), subscribes and tells the server. */
export async function turnPushOn(): Promise<void> {
  if (!pushSupported()) throw new PushUnavailable(PUSH_FAILED_MESSAGE);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushUnavailable(PUSH_DENIED_MESSAGE);
  const worker = await navigator.serviceWorker.ready;
  const { public_key } = await request(endpoints.pushKey, {});
  let subscription = await worker.pushManager.getSubscription();
  // One made with another server key (the operator changed it) cannot be pushed to any more.
  if (subscription && serverKeyOf(subscription) !== public_key) {
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await answeredWithin(worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: public_key }), SUBSCRIBE_LIMIT_MS);
  } catch (error) {
    throw new PushUnavailable(PUSH_FAILED_MESSAGE, { cause: error });
  }
  const { endpoint, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new PushUnavailable(PUSH_FAILED_MESSAGE);
  await request(endpoints.pushSubscribe, { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
}

/** Stops pushes to this device: the server forgets the subscription, the browser drops it. */
export async function turnPushOff(): Promise<void> {
  const subscription = await (await registration())?.pushManager.getSubscription();
  if (!subscription) return;
  await request(endpoints.pushUnsubscribe, { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

/** At logout: the browser's subscription goes too (the server dropped it with the ticket). */
export async function forgetPushSubscription(): Promise<void> {
  await (await (await registration())?.pushManager.getSubscription())?.unsubscribe();
}
