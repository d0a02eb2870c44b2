/**
 * Web Push: a logged-in device subscribes (its browser's PushSubscription), and each new notice of
 * its user is pushed to it while its ticket lives, encrypted for it (RFC 8291) and signed with the
 * server's VAPID key. Logout takes the device's subscriptions with its ticket (sessions.ts endTicket).
 *
 * The sender hears the notices' live events (services/live.ts), which every process hears, so any
 * process may push a notice made on another; the subscription's `last_seq` is claimed in one
 * statement first, so that one process sends it. A burst of notices is one push of the newest.
 * Sending happens after the write's commit, on its own: it never delays the write.
 */
import type { Agent } from 'node:https';
import { and, eq, sql } from 'drizzle-orm';
import webpush from 'web-push';
import { ErrorCode } from '#shared/errors.ts';
import { noticeHeadline } from '#shared/notice-headline.ts';
import type { Db } from '../db/client.ts';
import { preparedStatement, queryPrepared } from '../db/prepared.ts';
import { pushKeys, pushSubscriptions, tickets } from '../db/schema.ts';
import { BusinessError } from '../errors.ts';
import type { LiveEvent } from './live.ts';
import { listNotices } from './notices.ts';

/** Pushes on their way at once in one process; the rest wait for one of them. */
const SENDS_AT_ONCE = 8;
/**
 * Whether user $1 has a device subscribed: asked of every notice any process hears, nearly always
 * no, so prepared (planned once per connection, not for each like or comment).
 */
const anySubscription = preparedStatement('push_any_subscription', ['int'], 'select 1 as found from push_subscriptions where user_id = $1 limit 1');

/** How long a push service may keep a notice for a device that is offline. */
const PUSH_TTL_SECONDS = 24 * 3600;

export interface PushSettings {
  vapidPublicKey?: string | undefined;
  vapidPrivateKey?: string | undefined;
  vapidSubject: string;
  pushServiceHosts: string[];
}

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** What the service worker shows (sw/push.ts): the notice's line, its text, and where a tap goes. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  /** One notification per notice: a later push of the same group replaces it. */
  tag: string;
}

interface Logger {
  warn(object: object, message: string): void;
}

/** Whether the server may send to this address: https, at one of the configured push services. */
export function isPushServiceEndpoint(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  return url.protocol === 'https:' && hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

/** Subscribes a device of the login user; the same browser's subscription, once another user's, becomes theirs. */
export async function subscribePush(db: Db, viewer: { userId: number; ticketId: number }, input: PushSubscriptionInput, hosts: readonly string[]) {
  if (!isPushServiceEndpoint(input.endpoint, hosts)) throw new BusinessError(ErrorCode.BadRequest, '不支持该浏览器的推送服务');
  // From the newest notice on: what came before was not asked for.
  const newest = sql`(select coalesce(max(seq), 0) from notices where user_id = ${viewer.userId})`;
  await db
    .insert(pushSubscriptions)
    .values({ userId: viewer.userId, ticketId: viewer.ticketId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, lastSeq: newest })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      // The row as it would have been inserted (the newest notice read once).
      set: {
        userId: sql`excluded.user_id`,
        ticketId: sql`excluded.ticket_id`,
        p256dh: sql`excluded.p256dh`,
        auth: sql`excluded.auth`,
        lastSeq: sql`excluded.last_seq`,
      },
    });
  return { subscribed: true };
}

export async function unsubscribePush(db: Db, userId: number, endpoint: string) {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)));
  return { subscribed: false };
}

export class PushSender {
  private keys: Promise<{ publicKey: string; privateKey: string }> | null = null;
  private readonly waiting = new Set<number>();
  private sending = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly settings: PushSettings,
    private readonly log: Logger,
    /** The HTTPS agent of the sends (a test's, trusting its own push service). */
    private readonly agent?: Agent,
  ) {}

  /** The key pair: the configured one, or the one kept in the database (made by the first process to need it). */
  private vapidKeys(): Promise<{ publicKey: string; privateKey: string }> {
    const { vapidPublicKey, vapidPrivateKey } = this.settings;
    if (vapidPublicKey && vapidPrivateKey) return Promise.resolve({ publicKey: vapidPublicKey, privateKey: vapidPrivateKey });
    this.keys ??= (async () => {
      const made = webpush.generateVAPIDKeys();
      await this.db.insert(pushKeys).values({ id: 1, publicKey: made.publicKey, privateKey: made.privateKey }).onConflictDoNothing();
      const [kept] = await this.db.select().from(pushKeys).where(eq(pushKeys.id, 1));
      return { publicKey: kept!.publicKey, privateKey: kept!.privateKey };
    })();
    this.keys.catch(() => (this.keys = null));
    return this.keys;
  }

  async publicKey(): Promise<{ public_key: string }> {
    return { public_key: (await this.vapidKeys()).publicKey };
  }

  /** A live event: a user's notices changed, so their newest may be one to push. */
  heard(event: LiveEvent): void {
    if (event.kind !== 'notice') return;
    this.waiting.add(event.user_id);
    this.next();
  }

  private next(): void {
    while (this.sending < SENDS_AT_ONCE && this.waiting.size > 0) {
      const userId = this.waiting.values().next().value!;
      this.waiting.delete(userId);
      this.sending++;
      this.pushNewest(userId)
        .catch((error: unknown) => this.log.warn({ err: error, userId }, 'push failed'))
        .finally(() => {
          this.sending--;
          this.next();
          if (this.sending === 0 && this.waiting.size === 0) for (const done of this.idle.splice(0)) done();
        });
    }
  }

  /** The process stops: what waits is not sent. */
  stop(): void {
    this.waiting.clear();
  }

  /** Resolves once nothing is waiting or on its way (a test's, and a stop's). */
  settled(): Promise<void> {
    if (this.sending === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise((done) => this.idle.push(done));
  }

  /** Pushes the user's newest notice, when unread, to each live device of theirs it has not reached. */
  async pushNewest(userId: number): Promise<void> {
    const [any] = await queryPrepared(this.db, anySubscription, [userId]);
    if (!any) return;
    const { list, page } = await listNotices(this.db, { userId }, { type: 'all', index: 0, size: 1 });
    const notice = list[0];
    if (!notice?.unread) return;
    const seq = page.next_index;
    const claimed = await this.db
      .update(pushSubscriptions)
      .set({ lastSeq: seq })
      .where(
        and(
          eq(pushSubscriptions.userId, userId),
          sql`${pushSubscriptions.lastSeq} < ${seq}`,
          sql`exists (select from ${tickets} t where t.id = ${pushSubscriptions.ticketId} and t.ended_at is null and t.expires_at > now())`,
        ),
      )
      .returning({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth });
    if (claimed.length === 0) return;
    const { who, did } = noticeHeadline(notice);
    const payload: PushPayload = {
      title: `${who}${did ? ` ${did}` : ''}`,
      body: notice.content_excerpt || notice.target_excerpt,
      url: notice.route || '/notice',
      tag: `notice-${notice.id}`,
    };
    const keys = await this.vapidKeys();
    await Promise.all(claimed.map((subscription) => this.send(subscription, payload, keys)));
  }

  private async send(
    subscription: { id: number; endpoint: string; p256dh: string; auth: string },
    payload: PushPayload,
    keys: { publicKey: string; privateKey: string },
  ): Promise<void> {
    // The address was checked when it was stored; checked again, as the allowed hosts may have changed since.
    if (!isPushServiceEndpoint(subscription.endpoint, this.settings.pushServiceHosts)) return;
    try {
      await webpush.sendNotification({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, JSON.stringify(payload), {
        vapidDetails: { subject: this.settings.vapidSubject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        timeout: 10_000,
        ...(this.agent ? { agent: this.agent } : {}),
      });
    } catch (error) {
      // Gone for good (unsubscribed, expired): the push service says so with 404 or 410.
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) await this.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
      else throw error;
    }
  }
}
