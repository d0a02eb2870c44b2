/**
 * The benchmark's anchors (`npm run bench`), registered only when BENCH_ANCHORS is on (never by
 * default): figures of the real calls are read beside what the same Fastify, process and
 * database do with the least work, measured in the same run.
 *
 * - constant: a fixed JSON answer (HTTP, routing, serialization: the ceiling of any call);
 * - raw keyset: one page of posts from one table by keyset, no schema, no joins, no viewer,
 *   sent as the rows come (the floor cost of reading a page from this database).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { ok } from '#shared/envelope.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';

export const BENCH_ANCHOR_PATHS = {
  constant: '/bench/anchor/constant',
  rawKeyset: '/bench/anchor/raw-keyset',
} as const;

const CONSTANT = ok({ list: [{ id: 1, content: '常量' }], page: { more: false, next_index: 0 } });

const wholeOr = (value: unknown, fallback: number, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, max) : fallback;

export async function registerBenchAnchors(app: FastifyInstance, db: Db): Promise<void> {
  const hidden = { schema: { hide: true } };
  app.post(BENCH_ANCHOR_PATHS.constant, hidden, async () => CONSTANT);
  app.post(BENCH_ANCHOR_PATHS.rawKeyset, hidden, async (request) => {
    const body = (request.body ?? {}) as { index?: unknown; size?: unknown };
    const index = wholeOr(body.index, 0, Number.MAX_SAFE_INTEGER);
    const size = wholeOr(body.size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const result = (await db.execute(sql`
      select id, user_id, content, is_good, like_count, comment_count, created_at
      from posts where deleted_at is null ${index ? sql`and id < ${index}` : sql``}
      order by id desc limit ${size + 1}`)) as unknown as { rows: { id: number }[] };
    const more = result.rows.length > size;
    const list = more ? result.rows.slice(0, size) : result.rows;
    return ok({ list, page: { more, next_index: Number(list.at(-1)?.id ?? 0) } });
  });
}
