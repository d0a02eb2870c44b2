/**
 * Test databases.
 *
 * - openTestDatabase(): a seeded PGlite in memory, loaded from the template that
 *   api-global-setup.ts builds once per run (far quicker than initdb + migrate + seed per file).
 * - startPostgres(): a throwaway PostgreSQL 15 server (Debian's binaries) in a temp folder.
 * - openPostgresTestDatabase(): startPostgres + migrations + demo seed.
 * - migrationsUpTo(): a migrations folder as a previous main shipped it.
 * - counterMismatches(): every denormalised counter recounted (and every copy compared); all
 *   zeros when consistent.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type Database, type Db } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema.ts';
import { seedDemoData } from '../../src/server/seed/seed.ts';
import type { SqlRunner } from '../bench/bulk-load.ts';
import { freePort } from './ports.ts';

const run = promisify(execFile);

export const migrationsFolder = loadConfig().migrationsFolder;

/** A migrations folder holding only the migrations up to `tag` (as the previous main shipped them). */
export async function migrationsUpTo(tag: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((entry) => entry.tag === tag);
  if (upTo < 0) throw new Error(`no migration ${tag}`);
  const entries = journal.entries.slice(0, upTo + 1);
  await cp(migrationsFolder, dir, { recursive: true });
  await writeFile(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return dir;
}

// ---------------------------------------------------------------------------------------------
// PGlite

/** Builds the seeded template tarball (gzip): initdb + migrate + seed, too slow to repeat per file. */
export async function buildPgliteTemplate(): Promise<Blob> {
  const client = await PGlite.create();
  try {
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder });
    await seedDemoData(db as unknown as Db);
    return await client.dumpDataDir('gzip');
  } finally {
    await client.close();
  }
}

let localTemplate: Promise<Blob> | undefined;

async function templateBlob(): Promise<Blob> {
  let path: string | undefined;
  try {
    path = inject('pgliteTemplatePath');
  } catch {
    path = undefined; // not inside a vitest worker
  }
  if (path) return new Blob([await readFile(path)], { type: 'application/x-gzip' });
  // No global setup (another project, a script): build once per process.
  localTemplate ??= buildPgliteTemplate();
  return localTemplate;
}

/** A fresh, seeded PGlite database, in memory or written into `dataDir`. Close it in afterAll. */
export async function openTestDatabase(options: { dataDir?: string } = {}): Promise<Database> {
  return openDatabase({ loadDataDir: await templateBlob(), migrationsFolder, ...options });
}

/** The connection under drizzle (a PGlite session or a pg.Pool), for raw SQL such as the bulk loader's. */
export const sqlRunnerOf = (database: Database): SqlRunner => (database.db as unknown as { $client: SqlRunner }).$client;

// ---------------------------------------------------------------------------------------------
// PostgreSQL

const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/community_test (with `socketOnly`, the socket's URL: `socketUrl`) */
  url: string;
  port: number;
  /** The folder of the server's Unix socket (.s.PGSQL.PORT), a temp folder of its own. */
  socketDir: string;
  /** community_test through the Unix socket: postgres://postgres@/community_test?host=DIR&port=PORT */
  socketUrl: string;
  stop(): Promise<void>;
  /**
   * pg_ctl restart with its settings (`immediate`: every backend killed at once, as a crash;
   * `fast`: connections ended cleanly), resolving once the server takes connections again.
   */
  restart(mode: 'immediate' | 'fast'): Promise<void>;
}


function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const isRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the postgres user when we are root (PostgreSQL refuses root). */
async function pgRun(bin: string, args: string[]): Promise<void> {
  const file = join(PG_BIN, bin);
  try {
    if (isRoot) {
      const command = [file, ...args].map(shellQuote).join(' ');
      await run('su', ['postgres', '-s', '/bin/sh', '-c', command]);
    } else {
      await run(file, args);
    }
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${bin} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

function pgRunSync(bin: string, args: string[]): void {
  const file = join(PG_BIN, bin);
  const opts = { stdio: 'ignore' as const, timeout: 10_000 };
  if (isRoot) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', [file, ...args].map(shellQuote).join(' ')], opts);
  else execFileSync(file, args, opts);
}

const running = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test run that dies without stop(): do not leave servers behind.
  process.once('exit', () => {
    for (const dataDir of running) {
      try {
        pgRunSync('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
      } catch {
        // already gone
      }
    }
  });
}

/**
 * Starts a throwaway PostgreSQL 15 with an empty database `community_test`, listening on loopback
 * and on a Unix socket in its temp folder.
 * `settings` adds server settings (`shared_buffers=1GB`), as the benchmark does; `port`, a port
 * a server process was told to find it on (a free one otherwise); `socketOnly`, no TCP at all
 * (what connects must have come through the socket).
 */
export async function startPostgres(settings: string[] = [], options: { port?: number; socketOnly?: boolean } = {}): Promise<PostgresServer> {
  if (!existsSync(join(PG_BIN, 'pg_ctl'))) {
    throw new Error(`PostgreSQL 15 is not installed (${PG_BIN}); run: apt-get install -y postgresql`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'pgtest-'));
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    await chown(dir, uid, gid);
  }
  await chmod(dir, 0o700);
  const dataDir = join(dir, 'data');
  const sockDir = dir;
  const port = options.port ?? (await freePort());
  await pgRun('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const serverOptions = [
    `-c listen_addresses=${options.socketOnly ? "''" : '127.0.0.1'}`,
    `-p ${port}`,
    `-k ${sockDir}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
    ...settings.map((setting) => `-c ${setting}`),
  ].join(' ');
  await pgRun('pg_ctl', ['-D', dataDir, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  running.add(dataDir);
  installExitHook();

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      await pgRun('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    } finally {
      running.delete(dataDir);
      await rm(dir, { recursive: true, force: true });
    }
  };

  try {
    const admin = new pg.Client({ host: options.socketOnly ? sockDir : '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    try {
      await admin.query('create database community_test');
    } finally {
      await admin.end();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const restart = (mode: 'immediate' | 'fast') => pgRun('pg_ctl', ['-D', dataDir, '-m', mode, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'restart']);
  const socketUrl = `postgres://postgres@/community_test?host=${sockDir}&port=${port}`;
  return { url: options.socketOnly ? socketUrl : `postgres://postgres@127.0.0.1:${port}/community_test`, port, socketDir: sockDir, socketUrl, stop, restart };
}

/** The template database the api project's global setup migrates and seeds once per run. */
export const POSTGRES_TEMPLATE_DB = 'community_template';

/** Builds the seeded template database on a server (api-global-setup.ts, once per run). */
export async function buildPostgresTemplate(serverUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  try {
    await admin.query(`create database ${POSTGRES_TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: serverUrl.replace(/\/[^/]*$/, `/${POSTGRES_TEMPLATE_DB}`), migrationsFolder });
  try {
    await seedDemoData(database.db);
  } finally {
    await database.close();
  }
}

let clones = 0;

/** A fresh copy of the run's seeded template database (cheap next to a server, migrations and the seed). */
async function cloneTemplate(serverUrl: string): Promise<{ database: Database; url: string; stop(): Promise<void> }> {
  const name = `test_${process.pid}_${++clones}`;
  const adminUrl = serverUrl.replace(/\/[^/]*$/, '/postgres');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Two files may clone at once; PostgreSQL refuses a copy while another one reads the template.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${POSTGRES_TEMPLATE_DB}`);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 100));
      }
    }
  } finally {
    await admin.end();
  }
  const url = serverUrl.replace(/\/[^/]*$/, `/${name}`);
  const database = await openDatabase({ databaseUrl: url, migrationsFolder });
  return {
    database,
    url,
    stop: async () => {
      await database.close().catch(() => undefined);
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * A migrated and seeded PostgreSQL database; stop() closes it. Inside the api project it is a
 * copy of the template on the run's one server (api-global-setup.ts); elsewhere a server of its
 * own, migrated and seeded, which stop() ends.
 */
export async function openPostgresTestDatabase(): Promise<{ database: Database; url: string; stop(): Promise<void> }> {
  let shared: string | undefined;
  try {
    shared = inject('postgresServerUrl');
  } catch {
    shared = undefined; // not inside a vitest worker
  }
  if (shared) return cloneTemplate(shared);
  const server = await startPostgres();
  try {
    const database = await openDatabase({ databaseUrl: server.url, migrationsFolder });
    await seedDemoData(database.db);
    return {
      database,
      url: server.url,
      stop: async () => {
        await database.close().catch(() => undefined);
        await server.stop();
      },
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Checks

/** Rows of a raw query, on either driver. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Each denormalised counter recounted (deleted posts and comments not counted, nor hidden ones
 * where a moderator's hide takes them out: post, comment and reply counts): the number of rows
 * whose stored counter differs from the real count. All zeros when consistent.
 */
export const COUNTER_CHECKS: Record<string, SQL> = {
  'posts.like_count': sql`select count(*)::int as n from posts p
    where p.like_count <> (select count(*) from likes l where l.target_type = 'post' and l.target_id = p.id)`,
  'posts.comment_count': sql`select count(*)::int as n from posts p
    where p.comment_count <> (select count(*) from comments c where c.post_id = p.id and c.deleted_at is null and c.hidden_at is null)`,
  'comments.like_count': sql`select count(*)::int as n from comments c
    where c.like_count <> (select count(*) from likes l where l.target_type = 'comment' and l.target_id = c.id)`,
  'comments.reply_count': sql`select count(*)::int as n from comments c
    where c.reply_count <> (select count(*) from comments r where r.root_id = c.id and r.deleted_at is null and r.hidden_at is null)`,
  'users.follower_count': sql`select count(*)::int as n from users u
    where u.follower_count <> (select count(*) from user_follows f where f.followee_id = u.id)`,
  'users.following_count': sql`select count(*)::int as n from users u
    where u.following_count <> (select count(*) from user_follows f where f.follower_id = u.id)`,
  'users.post_count': sql`select count(*)::int as n from users u
    where u.post_count <> (select count(*) from posts p where p.user_id = u.id and p.deleted_at is null and p.hidden_at is null)`,
  'users.like_count': sql`select count(*)::int as n from users u
    where u.like_count <> (
      (select count(*) from likes l join posts p on l.target_type = 'post' and p.id = l.target_id
        where p.user_id = u.id and p.deleted_at is null)
      + (select count(*) from likes l join comments c on l.target_type = 'comment' and c.id = l.target_id
        where c.user_id = u.id and c.deleted_at is null))`,
  'channels.follower_count': sql`select count(*)::int as n from channels ch
    where ch.follower_count <> (select count(*) from channel_follows f where f.channel_id = ch.id)`,
  'channels.post_count': sql`select count(*)::int as n from channels ch
    where ch.post_count <> (select count(*) from post_channels pc join posts p on p.id = pc.post_id
      where pc.channel_id = ch.id and p.deleted_at is null and p.hidden_at is null)`,
  'topics.post_count': sql`select count(*)::int as n from topics t
    where t.post_count <> (select count(*) from post_topics pt join posts p on p.id = pt.post_id
      where pt.topic_id = t.id and p.deleted_at is null and p.hidden_at is null)`,
  'votes.total': sql`select count(*)::int as n from votes v
    where v.total <> (select count(distinct r.user_id) from vote_records r where r.vote_id = v.id)`,
  'vote_options.count': sql`select count(*)::int as n from vote_options o
    where o.count <> (select count(*) from vote_records r where r.option_id = o.id)`,
  'users.notice_unread': sql`select count(*)::int as n from users u
    where u.notice_unread <> (select count(*) from notices n where n.user_id = u.id and n.unread)`,
  'notices.actor_count': sql`select count(*)::int as n from notices n
    where n.actor_count <> (select count(*) from notice_actors a where a.notice_id = n.id)`,
  // What a post is made of, copied onto its row (schema.ts, posts) from the tables that hold it.
  'posts.channel_ids': sql`select count(*)::int as n from posts p
    where p.channel_ids <> array(select c.channel_id from post_channels c where c.post_id = p.id order by c.channel_id)`,
  'posts.topic_ids': sql`select count(*)::int as n from posts p
    where p.topic_ids <> array(select t.topic_id from post_topics t where t.post_id = p.id order by t.topic_id)`,
  // The card's attachments: the pictures in order, then the code with its first 8 lines (compared as jsonb: same values).
  'posts.attach': sql`select count(*)::int as n from posts p
    where p.attach::jsonb <> array_to_json(array(
      select jsonb_build_object('type', 'image', 'url', i.url, 'width', i.width, 'height', i.height)
        from post_images i where i.post_id = p.id order by i.sort, i.id)
      || array(select jsonb_build_object('type', 'code', 'uuid', c.uuid, 'language', c.language, 'title', c.title,
          'preview', array_to_string((string_to_array(c.code, E'\n'))[1:8], E'\n'))
        from code_snippets c where c.post_id = p.id order by c.sort, c.uuid))::jsonb`,
  'posts.has_vote': sql`select count(*)::int as n from posts p
    where p.has_vote <> exists (select 1 from votes v where v.post_id = p.id)`,
  // The poll's card, as a visitor reads it (compared as jsonb: same values), from its tables.
  'posts.vote_card': sql`select count(*)::int as n from posts p
    where p.vote_card::jsonb is distinct from (select jsonb_build_object('vote_id', v.id, 'title', v.title, 'multiple', v.multiple,
        'end_time', (extract(epoch from v.end_time) * 1000)::bigint, 'total', v.total, 'is_voted', false,
        'options', coalesce((select jsonb_agg(jsonb_build_object('option_id', o.id, 'text', o.text, 'count', o.count, 'is_voted', false)
          order by o.sort, o.id) from vote_options o where o.vote_id = v.id), '[]'))
      from votes v where v.post_id = p.id)`,
};

export async function counterMismatches(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, query] of Object.entries(COUNTER_CHECKS)) {
    const [row] = await queryRows<{ n: number }>(db, query);
    out[name] = Number(row?.n ?? -1);
  }
  return out;
}

/** One statement as the app's pool was sent it. */
export interface SentStatement {
  text: string;
  values: unknown[];
  /** Sent as a named (prepared) statement: from its sixth call on it may run a generic plan. */
  prepared: boolean;
}

/** From now on, every statement of the database's PostgreSQL pool is written down here as it goes (and then sent as ever). */
export function recordStatements(db: Db): SentStatement[] {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const sent: SentStatement[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (config: unknown, values?: unknown) => {
    if (typeof config === 'string') sent.push({ text: config, values: (values as unknown[]) ?? [], prepared: false });
    else if (config && typeof config === 'object' && 'text' in config) {
      const { text, values: bound, name } = config as { text: string; values?: unknown[]; name?: string };
      sent.push({ text, values: bound ?? (values as unknown[]) ?? [], prepared: name !== undefined });
    }
    return values === undefined ? query(config) : query(config, values);
  };
  return sent;
}
