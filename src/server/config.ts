/**
 * Everything that differs between deployments, read once from the environment with defaults
 * that work on a laptop (DESIGN.md section 5). Nothing else reads process.env.
 *
 * One zod schema parses every variable: a bad value (PORT=abc, PORT=70000, SECURE_COOKIES=yes
 * please, LEARNING_SITE_URL=not-a-url) stops start-up with a message naming the variable; no
 * NaN or half-read setting ever reaches the app. An empty variable counts as unset.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_CLIENT_CONFIG, type ClientConfig } from '#shared/client-config.ts';
import { LOGIN_CODE_RESEND_S, UPLOAD_MAX_BYTES } from '#shared/constants.ts';
import { addressMatcher, isAddressRange } from './http/address-ranges.ts';

/** The folder holding package.json, found from this file whether it runs from src/ or dist/. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** Built client to serve; absent folder: API only. */
  clientDir: string;
  migrationsFolder: string;
  providerName: string;
  learningSiteUrl: string;
  appScheme: string;
  wechatAppId: string;
  wechatJsapiTicket: string;
  analyticsAppId: string;
  analyticsLogStore: string;
  analyticsCollectorUrl: string;
  wechatJsSdkUrl: string;
  aiAssistantUrl: string;
  /** Seed demo data into an empty database. */
  seedDemoData: boolean;
  /** Mark the ticket cookie Secure (behind HTTPS). */
  secureCookies: boolean;
  /**
   * Which peers' X-Forwarded-For is believed (Fastify's trustProxy): none (false), any (true),
   * the nearest N hops, or the peers within these addresses and ranges.
   */
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  /** Serve GET /metrics (Prometheus text format) to anyone (unless metricsAllow is set); off: 404 there, as on any path that is no call. */
  metrics: boolean;
  /** When set, the only addresses and ranges served GET /metrics, METRICS on or off (a Prometheus on the private network). */
  metricsAllow: string[];
  /** Seconds before the same phone may ask for another login code. */
  loginCodeResendSeconds: number;
  /** Login codes one client address may ask for per hour, whatever the phones (counted across processes); more: -2005. */
  loginCodesPerAddressPerHour: number;
  /** Writes (likes, comments, votes, deletes, complaints, follows) one user may make per minute; more: -2005. */
  writeLimitPerMinute: number;
  /** Complaints one user may file per day (China Standard Time); more: -2006. */
  dailyComplaintLimit: number;
  /** Distinct users whose open complaints hide a post or comment at once, pending a moderator's review. */
  autoHideComplaints: number;
  /** Posts one user may write per day (China Standard Time); more: -2006. */
  dailyPostLimit: number;
  /** Comments and replies one user may write per day (China Standard Time); more: -2006. */
  dailyCommentLimit: number;
  /** Notes one user may save (new or edited) per day (China Standard Time); more: -2006. */
  dailyNoteLimit: number;
  /** Nickname changes one user may make per day (China Standard Time); more: -2006. */
  dailyNickChangeLimit: number;
  /** Largest image upload/image takes, in bytes; larger: -1007. */
  uploadMaxBytes: number;
  /** Images one user may upload per minute; more: -2005. */
  uploadLimitPerMinute: number;
  /** Images one user may upload per day (China Standard Time); more: -2006. */
  dailyUploadLimit: number;
  /** API requests (/serv, /wxmisc) one client address may make per minute; more: -2005. */
  requestLimitPerAddress: number;
  /** API requests one logged-in user may make per minute, whatever the address; more: -2005. */
  requestLimitPerUser: number;
  /** Bytes of tracking events one client address may store per hour through /serv/collect; more: -2005. */
  collectBytesPerAddressPerHour: number;
  /** How long a client may take to send a request's headers; slower: 408 and the connection closes. */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request, body included; slower: 408 and the connection closes. */
  requestTimeoutMs: number;
  /** How long an idle kept-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Connections one client address may hold open at once (not counted behind TRUST_PROXY); more are answered 429 and closed. */
  maxConnectionsPerAddress: number;
  /** How long a page waits for its first screen's read (http/first-screen.ts); longer: the page goes without. */
  firstScreenReadWaitMs: number;
  /** How long the server's render of a first screen may take (app/first-screen.server.tsx); longer: none. */
  firstScreenRenderLimitMs: number;
  /**
   * After SIGTERM or SIGINT: how long /readyz answers 503 while requests are still served, so a
   * load balancer polling it stops sending any before the process stops listening.
   */
  shutdownDrainMs: number;
  /** How long a start keeps trying to reach a database that is away (PostgreSQL) before the process exits. */
  databaseRetrySeconds: number;
  /** PostgreSQL connections this process may hold; a share of them is kept for writes (db/client.ts). */
  databasePoolSize: number;
  /** Where login codes are POSTed (an SMS gateway's webhook); unset: they are written to the server log. */
  loginCodeWebhookUrl: string | undefined;
  /** Signs each webhook body (HMAC-SHA256, X-Signature-256); unset: unsigned. */
  loginCodeWebhookSecret: string | undefined;
  /** How long one webhook attempt may take before it counts as failed. */
  loginCodeWebhookTimeoutMs: number;
}

/**
 * General limits: Mastodon allows 300 requests per 5 minutes per user or address,
 * Discourse 200 per minute. A phone scrolling the feed makes a few calls a second at most; an
 * address may be a school's or an office's shared one, so it gets more than a user.
 */
export const DEFAULT_REQUEST_LIMIT_PER_ADDRESS = 1200;
export const DEFAULT_REQUEST_LIMIT_PER_USER = 600;
/** A client sends a few hundred events an hour of about 200 bytes each; 2 MiB is ample. */
export const DEFAULT_COLLECT_BYTES_PER_HOUR = 2 * 1024 * 1024;
/** Login codes per address per hour: a household's phones, not a school's or an office's behind one NAT (raise it there). */
export const DEFAULT_LOGIN_CODES_PER_ADDRESS_PER_HOUR = 20;

/**
 * Connection deadlines. Headers arrive in a packet or two, so 20 s is ample even on a poor phone
 * network; a whole request may carry a 10 MiB picture, which a slow uplink (1 Mbit/s) sends in
 * about 90 s. The keep-alive outlasts a load balancer's usual 60 s idle timeout, so the balancer
 * never reuses a connection the server is closing.
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 20_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** A browser holds up to six connections per host; an office or a school behind one address holds many browsers. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

/**
 * A first screen's budgets: longer than a healthy read (a few ms) and a render (a few ms) take,
 * short enough that a slow database costs a navigation little (the client then renders the page).
 */
export const DEFAULT_FIRST_SCREEN_READ_WAIT_MS = 400;
export const DEFAULT_FIRST_SCREEN_RENDER_LIMIT_MS = 200;

/**
 * Connections per process: at least two, so that one is kept for writes and one left to reads;
 * PostgreSQL's max_connections (100 by default) bounds what all processes together may hold.
 */
export const DEFAULT_DATABASE_POOL_SIZE = 10;
export const MIN_DATABASE_POOL_SIZE = 2;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** An unset or empty variable takes its default. */
const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);

function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .trim()
    .regex(/^\d+$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];
const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => TRUE.includes(value) || FALSE.includes(value), 'must be true or false (or 1/0, yes/no, on/off)')
  .transform((value) => TRUE.includes(value));

function isUrl(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * DATABASE_URL as pg reads it. A Unix socket's URL may name a user and no host
 * (`postgres://user:pass@/db?host=/var/run/postgresql`): pg takes it, WHATWG's URL parser does
 * not, so the empty host is filled in for the parse (the socket is in ?host=).
 */
export function parseDatabaseUrl(value: string): URL | undefined {
  for (const candidate of [value, value.replace('@/', '@localhost/')]) {
    try {
      return new URL(candidate);
    } catch {
      // the next form
    }
  }
  return undefined;
}

const httpUrl = z
  .string()
  .trim()
  .refine((value) => isUrl(value, ['http:', 'https:']), 'must be an http:// or https:// URL');

/** A base that links are built on (base + '/course/intro/1'): one form, without the trailing slash. */
const baseUrl = httpUrl.transform((value) => value.replace(/\/+$/, ''));

const text = z.string().trim().min(1, 'must not be blank');

export type TrustProxy = boolean | number | string[];

const TRUST_PROXY_MESSAGE =
  'must be true or false, a number of proxy hops (1 to 10), or comma-separated addresses and ranges (10.0.0.1, 10.0.0.0/8, ::1, loopback)';

/**
 * A hop count is what a deployment behind one nginx wants: true believes any X-Forwarded-For,
 * so a client could name its own address and slip past the limits per address.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): TrustProxy => {
    const lower = value.toLowerCase();
    if (['true', 'yes', 'on'].includes(lower)) return true;
    if (['false', 'no', 'off', '0'].includes(lower)) return false;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops >= 1 && hops <= 10) return hops;
    } else {
      const ranges = value.split(',').map((part) => part.trim());
      if (ranges.every(isAddressRange)) return ranges;
    }
    context.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
    return z.NEVER;
  });

/**
 * METRICS_ALLOW: the scrapers' addresses and ranges. The answer names requests by route, which a
 * stranger has no need of, so it goes to these peers only (as TRUST_PROXY lets the server see them).
 */
const addressList = z
  .string()
  .trim()
  .transform((value, context) => {
    const ranges = value.split(',').map((part) => part.trim());
    try {
      if (ranges.every(isAddressRange)) {
        addressMatcher(ranges);
        return ranges;
      }
    } catch {
      // An address node:net cannot hold: the same message.
    }
    context.addIssue({ code: 'custom', message: 'must be comma-separated addresses and ranges (10.0.0.1, 10.0.0.0/8, ::1, loopback)' });
    return z.NEVER;
  });

const envSchema = z.object({
  PORT: z.preprocess(unsetIfEmpty, wholeNumber(0, 65535).default(3000)),
  HOST: z.preprocess(unsetIfEmpty, text.default('0.0.0.0')),
  DATABASE_URL: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .trim()
      .refine(
        (value) => ['postgres:', 'postgresql:'].includes(parseDatabaseUrl(value)?.protocol ?? ''),
        'must be a postgres:// or postgresql:// URL',
      )
      .optional(),
  ),
  DATA_DIR: z.preprocess(unsetIfEmpty, text.default('data')),
  CLIENT_DIR: z.preprocess(unsetIfEmpty, text.default('dist/client')),
  SEED_DEMO_DATA: z.preprocess(unsetIfEmpty, flag.default(true)),
  PROVIDER_NAME: z.preprocess(unsetIfEmpty, text.max(60, 'must be at most 60 characters').default(DEFAULT_CLIENT_CONFIG.providerName)),
  LEARNING_SITE_URL: z.preprocess(unsetIfEmpty, baseUrl.default(DEFAULT_CLIENT_CONFIG.learningSiteUrl)),
  APP_SCHEME: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9+.-]*:\/\/$/i, 'must be a URL scheme followed by :// (like geektime://)')
      .default(DEFAULT_CLIENT_CONFIG.appScheme),
  ),
  WECHAT_APP_ID: z.preprocess(unsetIfEmpty, text.default(DEFAULT_CLIENT_CONFIG.wechatAppId)),
  WECHAT_JSAPI_TICKET: z.preprocess(unsetIfEmpty, text.default('demo-jsapi-ticket')),
  ANALYTICS_APP_ID: z.preprocess(unsetIfEmpty, text.default(DEFAULT_CLIENT_CONFIG.analyticsAppId)),
  ANALYTICS_LOG_STORE: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . or -')
      .default(DEFAULT_CLIENT_CONFIG.analyticsLogStore),
  ),
  ANALYTICS_COLLECTOR_URL: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .trim()
      .refine((value) => /^\/(?!\/)/.test(value) || isUrl(value, ['http:', 'https:']), 'must be a path of this server (/...) or an http(s) URL')
      .default(DEFAULT_CLIENT_CONFIG.analyticsCollectorUrl),
  ),
  WECHAT_JS_SDK_URL: z.preprocess(unsetIfEmpty, httpUrl.default(DEFAULT_CLIENT_CONFIG.wechatJsSdkUrl)),
  AI_ASSISTANT_URL: z.preprocess(unsetIfEmpty, httpUrl.default(DEFAULT_CLIENT_CONFIG.aiAssistantUrl)),
  SECURE_COOKIES: z.preprocess(unsetIfEmpty, flag.default(false)),
  TRUST_PROXY: z.preprocess(unsetIfEmpty, trustProxy.default(false)),
  METRICS: z.preprocess(unsetIfEmpty, flag.default(false)),
  METRICS_ALLOW: z.preprocess(unsetIfEmpty, addressList.default([])),
  LOG_LEVEL: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }))
      .default('info'),
  ),
  LOGIN_CODE_RESEND_SECONDS: z.preprocess(unsetIfEmpty, wholeNumber(0, 86_400).default(LOGIN_CODE_RESEND_S)),
  LOGIN_CODES_PER_ADDRESS_PER_HOUR: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(DEFAULT_LOGIN_CODES_PER_ADDRESS_PER_HOUR)),
  WRITE_LIMIT_PER_MINUTE: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(60)),
  DAILY_COMPLAINT_LIMIT: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(20)),
  AUTO_HIDE_COMPLAINTS: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(5)),
  DAILY_POST_LIMIT: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(50)),
  DAILY_COMMENT_LIMIT: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(200)),
  DAILY_NOTE_LIMIT: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(100)),
  DAILY_NICK_CHANGE_LIMIT: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(5)),
  UPLOAD_MAX_BYTES: z.preprocess(unsetIfEmpty, wholeNumber(1024, 100 * 1024 * 1024).default(UPLOAD_MAX_BYTES)),
  UPLOAD_LIMIT_PER_MINUTE: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(20)),
  DAILY_UPLOAD_LIMIT: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(200)),
  REQUEST_LIMIT_PER_ADDRESS: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000_000).default(DEFAULT_REQUEST_LIMIT_PER_ADDRESS)),
  REQUEST_LIMIT_PER_USER: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000_000).default(DEFAULT_REQUEST_LIMIT_PER_USER)),
  COLLECT_BYTES_PER_ADDRESS_PER_HOUR: z.preprocess(unsetIfEmpty, wholeNumber(1024, 1_000_000_000).default(DEFAULT_COLLECT_BYTES_PER_HOUR)),
  HEADERS_TIMEOUT_MS: z.preprocess(unsetIfEmpty, wholeNumber(100, 600_000).default(DEFAULT_HEADERS_TIMEOUT_MS)),
  REQUEST_TIMEOUT_MS: z.preprocess(unsetIfEmpty, wholeNumber(100, 3_600_000).default(DEFAULT_REQUEST_TIMEOUT_MS)),
  KEEP_ALIVE_TIMEOUT_MS: z.preprocess(unsetIfEmpty, wholeNumber(100, 600_000).default(DEFAULT_KEEP_ALIVE_TIMEOUT_MS)),
  MAX_CONNECTIONS_PER_ADDRESS: z.preprocess(unsetIfEmpty, wholeNumber(1, 1_000_000).default(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS)),
  FIRST_SCREEN_READ_WAIT_MS: z.preprocess(unsetIfEmpty, wholeNumber(1, 600_000).default(DEFAULT_FIRST_SCREEN_READ_WAIT_MS)),
  FIRST_SCREEN_RENDER_LIMIT_MS: z.preprocess(unsetIfEmpty, wholeNumber(1, 600_000).default(DEFAULT_FIRST_SCREEN_RENDER_LIMIT_MS)),
  SHUTDOWN_DRAIN_MS: z.preprocess(unsetIfEmpty, wholeNumber(0, 600_000).default(0)),
  // Long enough for a PostgreSQL started beside the server (a container, a restarted host) to come up.
  DATABASE_RETRY_SECONDS: z.preprocess(unsetIfEmpty, wholeNumber(0, 86_400).default(60)),
  DATABASE_POOL_SIZE: z.preprocess(unsetIfEmpty, wholeNumber(MIN_DATABASE_POOL_SIZE, 1000).default(DEFAULT_DATABASE_POOL_SIZE)),
  LOGIN_CODE_WEBHOOK_URL: z.preprocess(unsetIfEmpty, httpUrl.optional()),
  LOGIN_CODE_WEBHOOK_SECRET: z.preprocess(unsetIfEmpty, text.optional()),
  LOGIN_CODE_WEBHOOK_TIMEOUT_MS: z.preprocess(unsetIfEmpty, wholeNumber(100, 60_000).default(3_000)),
})
  // A secret without its webhook would leave codes in the log while the operator thinks them sent.
  .refine((e) => e.LOGIN_CODE_WEBHOOK_SECRET === undefined || e.LOGIN_CODE_WEBHOOK_URL !== undefined, {
    path: ['LOGIN_CODE_WEBHOOK_SECRET'],
    message: 'is set without LOGIN_CODE_WEBHOOK_URL',
  });

/** Values never echoed back in an error message (a webhook's URL may carry its token). */
const SECRET_VARIABLES = new Set(['DATABASE_URL', 'WECHAT_JSAPI_TICKET', 'LOGIN_CODE_WEBHOOK_URL', 'LOGIN_CODE_WEBHOOK_SECRET']);

/** A setting the server cannot start with; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '');
        const got = env[name];
        const shown = got === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(got)})`;
        return `${name} ${issue.message}${shown}`;
      }),
    );
  }
  const e = parsed.data;
  const root = projectRoot();
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: resolve(root, e.DATA_DIR),
    clientDir: resolve(root, e.CLIENT_DIR),
    migrationsFolder: join(root, 'src/server/db/migrations'),
    providerName: e.PROVIDER_NAME,
    learningSiteUrl: e.LEARNING_SITE_URL,
    appScheme: e.APP_SCHEME,
    wechatAppId: e.WECHAT_APP_ID,
    wechatJsapiTicket: e.WECHAT_JSAPI_TICKET,
    analyticsAppId: e.ANALYTICS_APP_ID,
    analyticsLogStore: e.ANALYTICS_LOG_STORE,
    analyticsCollectorUrl: e.ANALYTICS_COLLECTOR_URL,
    wechatJsSdkUrl: e.WECHAT_JS_SDK_URL,
    aiAssistantUrl: e.AI_ASSISTANT_URL,
    seedDemoData: e.SEED_DEMO_DATA,
    secureCookies: e.SECURE_COOKIES,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    metrics: e.METRICS,
    metricsAllow: e.METRICS_ALLOW,
    loginCodeResendSeconds: e.LOGIN_CODE_RESEND_SECONDS,
    loginCodesPerAddressPerHour: e.LOGIN_CODES_PER_ADDRESS_PER_HOUR,
    writeLimitPerMinute: e.WRITE_LIMIT_PER_MINUTE,
    dailyComplaintLimit: e.DAILY_COMPLAINT_LIMIT,
    autoHideComplaints: e.AUTO_HIDE_COMPLAINTS,
    dailyPostLimit: e.DAILY_POST_LIMIT,
    dailyCommentLimit: e.DAILY_COMMENT_LIMIT,
    dailyNoteLimit: e.DAILY_NOTE_LIMIT,
    dailyNickChangeLimit: e.DAILY_NICK_CHANGE_LIMIT,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadLimitPerMinute: e.UPLOAD_LIMIT_PER_MINUTE,
    dailyUploadLimit: e.DAILY_UPLOAD_LIMIT,
    requestLimitPerAddress: e.REQUEST_LIMIT_PER_ADDRESS,
    requestLimitPerUser: e.REQUEST_LIMIT_PER_USER,
    collectBytesPerAddressPerHour: e.COLLECT_BYTES_PER_ADDRESS_PER_HOUR,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    firstScreenReadWaitMs: e.FIRST_SCREEN_READ_WAIT_MS,
    firstScreenRenderLimitMs: e.FIRST_SCREEN_RENDER_LIMIT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    databaseRetrySeconds: e.DATABASE_RETRY_SECONDS,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    loginCodeWebhookUrl: e.LOGIN_CODE_WEBHOOK_URL,
    loginCodeWebhookSecret: e.LOGIN_CODE_WEBHOOK_SECRET,
    loginCodeWebhookTimeoutMs: e.LOGIN_CODE_WEBHOOK_TIMEOUT_MS,
  };
}

/** The part of the configuration the client needs at run time (served with the page). */
export function clientConfigOf(config: Config): ClientConfig {
  return {
    providerName: config.providerName,
    learningSiteUrl: config.learningSiteUrl,
    appScheme: config.appScheme,
    aiAssistantUrl: config.aiAssistantUrl,
    analyticsAppId: config.analyticsAppId,
    analyticsLogStore: config.analyticsLogStore,
    analyticsCollectorUrl: config.analyticsCollectorUrl,
    wechatAppId: config.wechatAppId,
    wechatJsSdkUrl: config.wechatJsSdkUrl,
  };
}
