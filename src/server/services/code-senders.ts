/**
 * Where login codes go, chosen by the configuration: the server log (the default, so that a
 * newcomer can log in; a warning at start says so), or an HTTP webhook that an SMS gateway sits
 * behind (LOGIN_CODE_WEBHOOK_URL). The webhook gets a POST of JSON {phone, code, expiresAt},
 * signed with HMAC-SHA256 over the body when LOGIN_CODE_WEBHOOK_SECRET is set
 * (X-Signature-256: sha256=<hex>, as GitHub signs its webhooks); each attempt has a timeout,
 * and a gateway that is down, busy or silent is tried a few times. Nothing of a message, the
 * code above all, is ever logged on that path.
 */
import { createHmac } from 'node:crypto';
import type { Config } from '../config.ts';
import { logCodeSender, type CodeSender } from './login.ts';

const SIGNATURE_HEADER = 'x-signature-256';
/** Attempts per code, and the pauses between them. */
export const WEBHOOK_ATTEMPTS = 3;
const PAUSES_MS = [250, 750];

/** The signature header's value for `body`. */
function signatureOf(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/** The sender the configuration names; the log one says at once that codes go to the log. */
export function configuredCodeSender(
  config: Pick<Config, 'loginCodeWebhookUrl' | 'loginCodeWebhookSecret' | 'loginCodeWebhookTimeoutMs'>,
  log: Log,
): CodeSender {
  if (!config.loginCodeWebhookUrl) {
    log.warn('login codes are written to this log: set LOGIN_CODE_WEBHOOK_URL to send them through an SMS gateway');
    return logCodeSender(log);
  }
  if (!config.loginCodeWebhookSecret) log.warn('login codes are sent unsigned: set LOGIN_CODE_WEBHOOK_SECRET so the gateway can tell them from forgeries');
  return webhookCodeSender({ url: config.loginCodeWebhookUrl, secret: config.loginCodeWebhookSecret, timeoutMs: config.loginCodeWebhookTimeoutMs, log });
}

type Attempt = { delivered: true } | { delivered: false; why: string; worthRetrying: boolean };

async function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Attempt> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    if (response.ok) return { delivered: true };
    // A gateway that refuses the message (4xx) refuses it again; one that is failing or busy may not.
    const worthRetrying = response.status >= 500 || response.status === 408 || response.status === 429;
    return { delivered: false, why: `HTTP ${response.status}`, worthRetrying };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return { delivered: false, why: `no answer within ${timeoutMs} ms`, worthRetrying: true };
    // fetch says only "fetch failed"; its cause says what failed (ECONNREFUSED, ENOTFOUND...).
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const code = cause instanceof Error ? (cause as NodeJS.ErrnoException).code : undefined;
    return { delivered: false, why: code ?? (cause instanceof Error ? cause.message : String(cause)), worthRetrying: true };
  }
}

export function webhookCodeSender({ url, secret, timeoutMs, log }: { url: string; secret: string | undefined; timeoutMs: number; log: Log }): CodeSender {
  return {
    async send(cellphone, code, expiresAt) {
      const body = JSON.stringify({ phone: cellphone, code, expiresAt: expiresAt.toISOString() });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (secret) headers[SIGNATURE_HEADER] = signatureOf(secret, body);
      for (let attempt = 1; ; attempt++) {
        const result = await post(url, headers, body, timeoutMs);
        if (result.delivered) return;
        // Why, never what: the message carries the code.
        log.warn(`login code webhook: attempt ${attempt} of ${WEBHOOK_ATTEMPTS} failed (${result.why})`);
        if (!result.worthRetrying || attempt === WEBHOOK_ATTEMPTS) throw new Error(`login code webhook failed: ${result.why}`);
        await new Promise((resolve) => setTimeout(resolve, PAUSES_MS[attempt - 1]));
      }
    },
  };
}
