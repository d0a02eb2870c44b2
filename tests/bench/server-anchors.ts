/**
 * The benchmark's anchors (`npm run bench`), served beside the real calls by the bench's own
 * server (anchored-server.ts), never by the production one: figures of the real calls are read
 * beside what the same Fastify, process and database do with the least work, measured in the
 * same run.
 *
 * - constant: a fixed JSON answer (HTTP, routing, serialization: the ceiling of any call);
 * - raw keyset: one page of posts from one table by keyset, no schema, no joins, no viewer,
 *   sent as the rows come (the floor cost of reading a page from this database). It is a
 *   prepared statement through db/prepared.ts like the feed's own reads: an anchor parsed and
 *   planned on every call would be slower than it need be and flatter every ratio beside it.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../src/shared/envelope.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/shared/constants.ts';
import { buildApp, type AppOptions } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/client.ts';
import { preparedStatement, queryPrepared, type PreparedStatement } from '../../src/server/db/prepared.ts';

export const BENCH_ANCHOR_PATHS = {
  constant: '/bench/anchor/constant',
  rawKeyset: '/bench/anchor/raw-keyset',
} as const;

const CONSTANT = ok({ list: [{ id: 1, content: '常量' }], page: { more: false, next_index: 0 } });

/** The keyset bound of a first page: above every id. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

const wholeOr = (value: unknown, fallback: number, max: number) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? Math.min(value, max) : fallback;

/** One statement per page size (the limit a constant in the text, as db/prepared.ts asks). */
const rawKeysetStatements = new Map<number, PreparedStatement>();
function rawKeysetStatement(size: number): PreparedStatement {
  let statement = rawKeysetStatements.get(size);
  if (!statement) {
    statement = preparedStatement(
      `bench_raw_keyset_${size}`,
      ['bigint'],
      `select id, user_id, content, is_good, like_count, comment_count, created_at
       from posts where deleted_at is null and id < $1 order by id desc nulls last limit ${size + 1}`,
    );
    rawKeysetStatements.set(size, statement);
  }
  return statement;
}

async function registerBenchAnchors(app: FastifyInstance, db: Db): Promise<void> {
  const hidden = { schema: { hide: true } };
  app.post(BENCH_ANCHOR_PATHS.constant, hidden, async () => CONSTANT);
  app.post(BENCH_ANCHOR_PATHS.rawKeyset, hidden, async (request) => {
    const body = (request.body ?? {}) as { index?: unknown; size?: unknown };
    const index = wholeOr(body.index, NO_BOUND, NO_BOUND);
    const size = wholeOr(body.size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const rows = await queryPrepared<{ id: number | string }>(db, rawKeysetStatement(size), [index]);
    const more = rows.length > size;
    const list = more ? rows.slice(0, size) : rows;
    return ok({ list, page: { more, next_index: Number(list.at(-1)?.id ?? 0) } });
  });
}

/** The server's app as it builds it, with the anchors beside its calls. */
export async function buildAnchoredApp(options: AppOptions): Promise<FastifyInstance> {
  const app = await buildApp(options);
  await registerBenchAnchors(app, options.db);
  return app;
}
