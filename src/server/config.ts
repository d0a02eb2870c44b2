/**
 * Everything that differs between deployments, read once from the environment with defaults
 * that work on a laptop. Nothing else reads process.env.
 *
 * Each variable is declared once, in SETTINGS (its schema with its default, and its meaning);
 * Config's type follows from them. One zod schema parses every variable: a bad value (PORT=abc,
 * PORT=70000, SECURE_COOKIES=yes please, LEARNING_SITE_URL=not-a-url) stops start-up with a
 * message naming the variable; no NaN or half-read setting ever reaches the app. An empty
 * variable counts as unset.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_CLIENT_CONFIG, type ClientConfig } from '#shared/client-config.ts';
import { LOGIN_CODE_RESEND_S, UPLOAD_MAX_BYTES } from '#shared/constants.ts';
import { addressMatcher, isAddressRange } from './address-ranges.ts';

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

/** The release's version: package.json's, which ships with it. */
export function releaseVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * A folder the build copies beside the server and its tools (`dist/server/<name>`, so a release
 * runs without src/), or, from the sources (and a test's own bundle inside the project), its
 * place in the project.
 */
export function serverFilesFolder(name: string, sourcePath: string): string {
  const beside = join(dirname(fileURLToPath(import.meta.url)), name);
  return existsSync(beside) ? beside : join(projectRoot(), sourcePath);
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

/** A VAPID key in base64url (a P-256 public key of 65 bytes, or a private one of 32). */
const vapidKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{43}$|^[A-Za-z0-9_-]{87}$/, 'must be a VAPID key in base64url (npx web-push generate-vapid-keys makes a pair)');

/** PUSH_SERVICE_HOSTS: host names, comma-separated. */
const hostList = z
  .string()
  .trim()
  .transform((value) => value.split(',').map((host) => host.trim().toLowerCase()))
  .refine((hosts) => hosts.every((host) => /^[a-z0-9.-]+$/.test(host) && !host.startsWith('.')), 'must be comma-separated host names');

/**
 * One environment variable: how it is parsed (the schema carries its default; an empty value
 * counts as unset) and, in a phrase, what it sets.
 */
function setting<T extends z.ZodType>(meaning: string, schema: T) {
  return z.preprocess(unsetIfEmpty, schema).describe(meaning);
}

/**
 * Every variable the server reads, each once, in the order a bad value is reported. Config's
 * field is the name in camelCase (DATABASE_URL: databaseUrl); README's configuration table names
 * each with its default (tests/unit/config-readme.test.ts).
 */
export const SETTINGS = {
  PORT: setting('Port of the one server (PWA + API)', wholeNumber(0, 65535).default(3000)),
  HOST: setting('Address to listen on', text.default('0.0.0.0')),
  DATABASE_URL: setting(
    'PostgreSQL to use (postgres://...); unset: PGlite embedded in DATA_DIR',
    z
      .string()
      .trim()
      .refine(
        (value) => ['postgres:', 'postgresql:'].includes(parseDatabaseUrl(value)?.protocol ?? ''),
        'must be a postgres:// or postgresql:// URL',
      )
      .optional(),
  ),
  DATA_DIR: setting("PGlite's data folder, from the project root (one server process per folder)", text.default('data')),
  CLIENT_DIR: setting('Built client to serve, from the project root; absent folder: API only', text.default('dist/client')),
  SEED_DEMO_DATA: setting('Seed demo data into an empty database', flag.default(true)),
  PROVIDER_NAME: setting(
    "The provider's name: page titles, manifest, texts, API docs",
    text.max(60, 'must be at most 60 characters').default(DEFAULT_CLIENT_CONFIG.providerName),
  ),
  LEARNING_SITE_URL: setting('Base of links to courses, columns and articles', baseUrl.default(DEFAULT_CLIENT_CONFIG.learningSiteUrl)),
  APP_SCHEME: setting(
    'Scheme of native app links',
    z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9+.-]*:\/\/$/i, 'must be a URL scheme followed by :// (like geektime://)')
      .default(DEFAULT_CLIENT_CONFIG.appScheme),
  ),
  WECHAT_APP_ID: setting('WeChat JS-SDK app id', text.default(DEFAULT_CLIENT_CONFIG.wechatAppId)),
  WECHAT_JSAPI_TICKET: setting('WeChat jsapi ticket that signs share configs', text.default('demo-jsapi-ticket')),
  ANALYTICS_APP_ID: setting('Tracking app id', text.default(DEFAULT_CLIENT_CONFIG.analyticsAppId)),
  ANALYTICS_LOG_STORE: setting(
    'Log store named with each tracking batch',
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . or -')
      .default(DEFAULT_CLIENT_CONFIG.analyticsLogStore),
  ),
  ANALYTICS_COLLECTOR_URL: setting(
    'Where tracking batches go: a path of this server, or an http(s) URL',
    z
      .string()
      .trim()
      .refine((value) => /^\/(?!\/)/.test(value) || isUrl(value, ['http:', 'https:']), 'must be a path of this server (/...) or an http(s) URL')
      .default(DEFAULT_CLIENT_CONFIG.analyticsCollectorUrl),
  ),
  WECHAT_JS_SDK_URL: setting('The WeChat JS-SDK, loaded only inside WeChat', httpUrl.default(DEFAULT_CLIENT_CONFIG.wechatJsSdkUrl)),
  AI_ASSISTANT_URL: setting('Page the AI assistant widget opens', httpUrl.default(DEFAULT_CLIENT_CONFIG.aiAssistantUrl)),
  SECURE_COOKIES: setting('Mark the ticket cookie Secure and send HSTS (behind HTTPS)', flag.default(false)),
  TRUST_PROXY: setting(
    "Which peers' X-Forwarded-For is believed (Fastify's trustProxy): none (false), any (true), the nearest N hops, or the peers within these addresses and ranges",
    trustProxy.default(false),
  ),
  METRICS: setting(
    'Serve GET /metrics (Prometheus text format) to anyone (unless METRICS_ALLOW is set); off: 404 there, as on any path that is no call',
    flag.default(false),
  ),
  METRICS_ALLOW: setting(
    'When set, the only addresses and ranges served GET /metrics, METRICS on or off (a Prometheus on the private network)',
    addressList.default([]),
  ),
  LOG_LEVEL: setting(
    'Server log level',
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }))
      .default('info'),
  ),
  LOGIN_CODE_RESEND_SECONDS: setting('Seconds before the same phone may ask for another login code', wholeNumber(0, 86_400).default(LOGIN_CODE_RESEND_S)),
  LOGIN_CODES_PER_ADDRESS_PER_HOUR: setting(
    'Login codes one client address may ask for per hour, whatever the phones (counted across processes); more: -2005',
    wholeNumber(1, 1_000_000).default(DEFAULT_LOGIN_CODES_PER_ADDRESS_PER_HOUR),
  ),
  WRITE_LIMIT_PER_MINUTE: setting(
    'Writes (likes, comments, votes, deletes, complaints, follows) one user may make per minute; more: -2005',
    wholeNumber(1, 1_000_000).default(60),
  ),
  DAILY_COMPLAINT_LIMIT: setting('Complaints one user may file per day (China Standard Time); more: -2006', wholeNumber(1, 1_000_000).default(20)),
  AUTO_HIDE_COMPLAINTS: setting(
    "Distinct users whose open complaints hide a post or comment at once, pending a moderator's review",
    wholeNumber(1, 1_000_000).default(5),
  ),
  DAILY_POST_LIMIT: setting('Posts one user may write per day (China Standard Time); more: -2006', wholeNumber(1, 1_000_000).default(50)),
  DAILY_COMMENT_LIMIT: setting('Comments and replies one user may write per day (China Standard Time); more: -2006', wholeNumber(1, 1_000_000).default(200)),
  DAILY_NOTE_LIMIT: setting('Notes one user may save (new or edited) per day (China Standard Time); more: -2006', wholeNumber(1, 1_000_000).default(100)),
  DAILY_NICK_CHANGE_LIMIT: setting('Nickname changes one user may make per day (China Standard Time); more: -2006', wholeNumber(1, 1_000_000).default(5)),
  UPLOAD_MAX_BYTES: setting('Largest image upload/image takes, in bytes; larger: -1007', wholeNumber(1024, 100 * 1024 * 1024).default(UPLOAD_MAX_BYTES)),
  UPLOAD_LIMIT_PER_MINUTE: setting('Images one user may upload per minute; more: -2005', wholeNumber(1, 1_000_000).default(20)),
  DAILY_UPLOAD_LIMIT: setting('Images one user may upload per day (China Standard Time); more: -2006', wholeNumber(1, 1_000_000).default(200)),
  REQUEST_LIMIT_PER_ADDRESS: setting(
    'API requests (/serv, /wxmisc) one client address may make per minute; more: -2005',
    wholeNumber(1, 1_000_000_000).default(DEFAULT_REQUEST_LIMIT_PER_ADDRESS),
  ),
  REQUEST_LIMIT_PER_USER: setting(
    'API requests one logged-in user may make per minute, whatever the address; more: -2005',
    wholeNumber(1, 1_000_000_000).default(DEFAULT_REQUEST_LIMIT_PER_USER),
  ),
  COLLECT_BYTES_PER_ADDRESS_PER_HOUR: setting(
    'Bytes of tracking events one client address may store per hour through /serv/collect; more: -2005',
    wholeNumber(1024, 1_000_000_000).default(DEFAULT_COLLECT_BYTES_PER_HOUR),
  ),
  HEADERS_TIMEOUT_MS: setting(
    "How long a client may take to send a request's headers; slower: 408 and the connection closes",
    wholeNumber(100, 600_000).default(DEFAULT_HEADERS_TIMEOUT_MS),
  ),
  REQUEST_TIMEOUT_MS: setting(
    'How long a client may take to send a whole request, body included; slower: 408 and the connection closes',
    wholeNumber(100, 3_600_000).default(DEFAULT_REQUEST_TIMEOUT_MS),
  ),
  KEEP_ALIVE_TIMEOUT_MS: setting(
    'How long an idle kept-alive connection stays open between requests',
    wholeNumber(100, 600_000).default(DEFAULT_KEEP_ALIVE_TIMEOUT_MS),
  ),
  MAX_CONNECTIONS_PER_ADDRESS: setting(
    'Connections one client address may hold open at once (not counted behind TRUST_PROXY); more are answered 429 and closed',
    wholeNumber(1, 1_000_000).default(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
  ),
  LIVE_HEARTBEAT_MS: setting(
    'How often a quiet live stream (GET /serv/v1/live) sends a comment, so that no proxy closes it as idle',
    wholeNumber(100, 600_000).default(25_000),
  ),
  FIRST_SCREEN_READ_WAIT_MS: setting(
    "How long a page waits for its first screen's read (http/first-screen.ts); longer: the page goes without",
    wholeNumber(1, 600_000).default(DEFAULT_FIRST_SCREEN_READ_WAIT_MS),
  ),
  FIRST_SCREEN_RENDER_LIMIT_MS: setting(
    "How long the server's render of a first screen may take (app/first-screen.server.tsx); longer: none",
    wholeNumber(1, 600_000).default(DEFAULT_FIRST_SCREEN_RENDER_LIMIT_MS),
  ),
  SHUTDOWN_DRAIN_MS: setting(
    'After SIGTERM or SIGINT: how long /readyz answers 503 while requests are still served, so a load balancer polling it stops sending any first',
    wholeNumber(0, 600_000).default(0),
  ),
  // Long enough for a PostgreSQL started beside the server (a container, a restarted host) to come up.
  DATABASE_RETRY_SECONDS: setting(
    'How long a start keeps trying to reach a database that is away (PostgreSQL) before the process exits',
    wholeNumber(0, 86_400).default(60),
  ),
  DATABASE_POOL_SIZE: setting(
    'PostgreSQL connections this process may hold; a share of them is kept for writes (db/client.ts)',
    wholeNumber(MIN_DATABASE_POOL_SIZE, 1000).default(DEFAULT_DATABASE_POOL_SIZE),
  ),
  LOGIN_CODE_WEBHOOK_URL: setting("Where login codes are POSTed (an SMS gateway's webhook); unset: they are written to the server log", httpUrl.optional()),
  LOGIN_CODE_WEBHOOK_SECRET: setting('Signs each webhook body (HMAC-SHA256, X-Signature-256); unset: unsigned', text.optional()),
  LOGIN_CODE_WEBHOOK_TIMEOUT_MS: setting('How long one webhook attempt may take before it counts as failed', wholeNumber(100, 60_000).default(3_000)),
  VAPID_PUBLIC_KEY: setting('Web Push key pair (base64url, with VAPID_PRIVATE_KEY); unset: made at the first start and kept in the database', vapidKey.optional()),
  VAPID_PRIVATE_KEY: setting('The private half of VAPID_PUBLIC_KEY', vapidKey.optional()),
  VAPID_SUBJECT: setting(
    'Who the push services may contact about this server (mailto: or https: URL)',
    z
      .string()
      .trim()
      .refine((value) => /^mailto:[^@\s]+@[^@\s]+$/.test(value) || isUrl(value, ['https:']), 'must be a mailto: address or an https URL')
      .default('mailto:community@localhost'),
  ),
  PUSH_SERVICE_HOSTS: setting(
    "The push services a subscription may name (hosts, each with its subdomains): the server sends to no other address",
    hostList.default(['fcm.googleapis.com', 'push.services.mozilla.com', 'push.apple.com', 'notify.windows.com']),
  ),
};

const envSchema = z
  .object(SETTINGS)
  // A secret without its webhook would leave codes in the log while the operator thinks them sent.
  .refine((e) => e.LOGIN_CODE_WEBHOOK_SECRET === undefined || e.LOGIN_CODE_WEBHOOK_URL !== undefined, {
    path: ['LOGIN_CODE_WEBHOOK_SECRET'],
    message: 'is set without LOGIN_CODE_WEBHOOK_URL',
  })
  // Half a key pair signs nothing a push service accepts.
  .refine((e) => (e.VAPID_PUBLIC_KEY === undefined) === (e.VAPID_PRIVATE_KEY === undefined), {
    path: ['VAPID_PUBLIC_KEY'],
    message: 'and VAPID_PRIVATE_KEY are set together or not at all',
  });

type Env = z.output<typeof envSchema>;
type SettingName = keyof typeof SETTINGS;

/** DATABASE_URL as databaseUrl, WECHAT_JS_SDK_URL as wechatJsSdkUrl. */
type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}` ? `${Lowercase<Head>}${Capitalize<CamelCase<Tail>>}` : Lowercase<Name>;
const camelCase = (name: string) => name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Each setting under its camelCase name, as parsed. */
type Settings = { [Name in SettingName as CamelCase<Name>]: Env[Name] };

/** The settings, DATA_DIR and CLIENT_DIR resolved from the project root, and what follows from them. */
export interface Config extends Settings {
  /** Where the migrations are: beside the built server, or in the project's sources. */
  migrationsFolder: string;
}

/** Values never echoed back in an error message (a webhook's URL may carry its token). */
const SECRET_VARIABLES = new Set(['DATABASE_URL', 'WECHAT_JSAPI_TICKET', 'LOGIN_CODE_WEBHOOK_URL', 'LOGIN_CODE_WEBHOOK_SECRET', 'VAPID_PRIVATE_KEY']);

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
  const settings = Object.fromEntries(Object.keys(SETTINGS).map((name) => [camelCase(name), parsed.data[name as SettingName]])) as Settings;
  const root = projectRoot();
  return {
    ...settings,
    dataDir: resolve(root, settings.dataDir),
    clientDir: resolve(root, settings.clientDir),
    migrationsFolder: serverFilesFolder('migrations', 'src/server/db/migrations'),
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
