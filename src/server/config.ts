/**
 * Everything that differs between deployments, read once from the environment with defaults
 * that work on a laptop (DESIGN.md section 5). Nothing else reads process.env.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOGIN_CODE_RESEND_S } from '#shared/constants.ts';

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
  aiAssistantUrl: string;
  /** Seed demo data into an empty database. */
  seedDemoData: boolean;
  /** Mark the ticket cookie Secure (behind HTTPS). */
  secureCookies: boolean;
  trustProxy: boolean;
  logLevel: string;
  /** Seconds before the same phone may ask for another login code. */
  loginCodeResendSeconds: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const root = projectRoot();
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(root, env.DATA_DIR ?? 'data'),
    clientDir: resolve(root, env.CLIENT_DIR ?? 'dist/client'),
    migrationsFolder: join(root, 'src/server/db/migrations'),
    providerName: env.PROVIDER_NAME ?? '极客时间',
    learningSiteUrl: env.LEARNING_SITE_URL ?? 'https://time.geekbang.org',
    appScheme: env.APP_SCHEME ?? 'geektime://',
    wechatAppId: env.WECHAT_APP_ID ?? 'wx0000000000000000',
    wechatJsapiTicket: env.WECHAT_JSAPI_TICKET ?? 'demo-jsapi-ticket',
    analyticsAppId: env.ANALYTICS_APP_ID ?? 'community-feed',
    aiAssistantUrl: env.AI_ASSISTANT_URL ?? 'https://time.geekbang.org/ai',
    seedDemoData: (env.SEED_DEMO_DATA ?? 'true') !== 'false',
    secureCookies: env.SECURE_COOKIES === 'true',
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL ?? 'info',
    loginCodeResendSeconds: Number(env.LOGIN_CODE_RESEND_SECONDS ?? LOGIN_CODE_RESEND_S),
  };
}
