/**
 * Prepared statements (src/server/db/prepared.ts) take whole numbers, arrays of them, null and
 * lowercase hex digests (a ticket's sha256), on PGlite (where values are written into EXECUTE as
 * literals) and on PostgreSQL (bound) alike; any other text is refused before anything is sent,
 * so nothing that could hold a quote is ever spliced into SQL.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hexDigest, preparedStatement, queryPrepared } from '../../src/server/db/prepared.ts';
import { hashToken } from '../../src/server/services/sessions.ts';
import { testAppFor, testDatabases } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

const ECHO = preparedStatement('prepared_test_echo', ['text', 'int', 'int[]'], 'select $1::text as digest, $2::int as n, $3::int[] as ns');

describe.each(testDatabases)('prepared statements on $name', ({ open }) => {
  const app = testAppFor(open);

  it('take a hex digest as a text value, prepared and inside a transaction alike', async () => {
    const digest = hashToken('a ticket');
    const expected = { digest, n: 7, ns: [1, 2] };
    expect(await queryPrepared(app.database.db, ECHO, [hexDigest(digest), 7, [1, 2]])).toEqual([expected]);
    expect(await queryPrepared(app.database.db, ECHO, [hexDigest(digest), 7, [1, 2]])).toEqual([expected]);
    const inTransaction = await app.database.db.transaction((tx) => queryPrepared(tx, ECHO, [hexDigest(digest), 7, [1, 2]]));
    expect(inTransaction).toEqual([expected]);
  });

  it('refuse any other text before sending anything, and leave the database as it was', async () => {
    const hostile = "x'); drop table posts; --";
    expect(() => hexDigest(hostile)).toThrow('not a lowercase hex digest');
    for (const value of [hostile, 'ABCDEF', '', "a'"]) {
      // Cast past hexDigest, as a careless caller could.
      await expect(queryPrepared(app.database.db, ECHO, [value as ReturnType<typeof hexDigest>, 1, []])).rejects.toThrow(
        'not a lowercase hex digest',
      );
    }
    const [posts] = await queryRows<{ n: number }>(app.database.db, sql`select count(*)::int as n from posts`);
    expect(posts!.n).toBeGreaterThan(0);
  });
});
