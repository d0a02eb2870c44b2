import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { search } from '../src/server/services/search.ts';
import { queryPrepared, preparedStatement, boundText } from '../src/server/db/prepared.ts';
import { searchPageText } from '../src/server/services/posts.ts';
const database = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:55432/bench_after', migrationsFolder: loadConfig({}).migrationsFolder });
const raw = preparedStatement('tmp_raw_search', ['bigint', 'text'], `select p.id, p.user_id, p.content, p.is_good, p.like_count, p.comment_count, p.created_at from (${searchPageText(21)}) p`);
const q = process.argv[2] ?? '学习话题';
const N = 400;
for (let round = 0; round < 3; round++) {
  for (const [name, call] of [
    ['app', () => search(database.db, { q, type: 'post', index: 0, size: 20 }, null)],
    ['raw', async () => { const rows = await queryPrepared(database.db, raw, ['9007199254740991', boundText(q)]); return JSON.stringify({ code: 0, data: { list: rows } }); }],
  ] as const) {
    for (let i = 0; i < 30; i++) await call();
    const c0 = process.cpuUsage(); const t0 = performance.now();
    for (let i = 0; i < N; i++) await call();
    const c = process.cpuUsage(c0);
    console.log(q, name, 'node cpu µs/call', ((c.user + c.system) / N).toFixed(0), 'wall µs/call', (((performance.now() - t0) * 1000) / N).toFixed(0));
  }
}
await database.close();
