/**
 * A note saved with a client_id is saved exactly once, on PostgreSQL (behaviour: one engine):
 * a retried save, five at once, or a retry after the answer was lost make one note and answer
 * the original; the same client_id with another text is -1009; saves count against the write
 * limit like every write.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { BASE64_BODY_HEADER } from '../../src/shared/endpoints.ts';
import type { Note } from '../../src/shared/schemas.ts';
import { notes } from '../../src/server/db/schema.ts';
import { codeOf, createTestApp, newClientId, phoneSource, testAppFor, behaviourDatabases, type TestApp } from '../support/api.ts';

const save = (t: TestApp, ticket: string, body: unknown) =>
  t.call<Note>(api.noteUpdate, undefined, {
    ticket,
    headers: { 'content-type': 'text/plain', [BASE64_BODY_HEADER]: 'base64' },
    rawBody: Buffer.from(JSON.stringify(body)).toString('base64'),
  });

describe.each(behaviourDatabases)('note/update exactly once on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1570006');

  it('makes one note of a save sent again, or five times at once, and answers the original', async () => {
    const me = await app.t.login(freshPhone());
    const body = { content: '只保存一次的笔记', client_id: newClientId('note') };
    const first = (await save(app.t, me.ticket, body)).data();
    const again = (await save(app.t, me.ticket, body)).data();
    expect(again).toEqual(first);
    const concurrent = { content: '并发保存的笔记', client_id: newClientId('note') };
    const answers = await Promise.all(Array.from({ length: 5 }, () => save(app.t, me.ticket, concurrent)));
    const ids = new Set(answers.map((answer) => answer.data().id));
    expect(ids.size).toBe(1);
    const rows = await app.database.db.select().from(notes).where(eq(notes.userId, me.uid));
    expect(rows.map((row) => row.content).sort()).toEqual(['只保存一次的笔记', '并发保存的笔记'].sort());
    // An update of the note with a key of its own is once too.
    const edit = { id: first.id, content: '改过一次', client_id: newClientId('note') };
    expect((await save(app.t, me.ticket, edit)).data().content).toBe('改过一次');
    expect((await save(app.t, me.ticket, edit)).data().content).toBe('改过一次');
  });

  it('answers -1009 for the same client_id with another text', async () => {
    const me = await app.t.login(freshPhone());
    const clientId = newClientId('note');
    await save(app.t, me.ticket, { content: '原文', client_id: clientId });
    expect(codeOf(await save(app.t, me.ticket, { content: '另一段文字', client_id: clientId }))).toBe(-1009);
  });

  it('counts saves against the write limit', async () => {
    const limited = await createTestApp(app.database, { env: { WRITE_LIMIT_PER_MINUTE: '2' } });
    try {
      const me = await limited.login(freshPhone());
      expect(codeOf(await save(limited, me.ticket, { content: '一' }))).toBeUndefined();
      expect(codeOf(await save(limited, me.ticket, { content: '二' }))).toBeUndefined();
      expect(codeOf(await save(limited, me.ticket, { content: '三' }))).toBe(-2005);
    } finally {
      await limited.close();
    }
  });
});
