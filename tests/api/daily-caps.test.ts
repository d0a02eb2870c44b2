/**
 * Every write that stores text has a daily cap (DAILY_*_LIMIT), answered -2006 今日操作已达上限,
 * on PGlite and on PostgreSQL: comments and replies, notes (new and edited), nickname changes
 * (users.test.ts), besides posts, complaints and pictures. A refused write stores nothing, a
 * replay of an answered client_id is not counted again, and each user has a count of their own.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { BASE64_BODY_HEADER } from '../../src/shared/endpoints.ts';
import type { Comment, Note } from '../../src/shared/schemas.ts';
import { loadConfig } from '../../src/server/config.ts';
import { comments, notes } from '../../src/server/db/schema.ts';
import { codeOf, errorOf, newClientId, phoneSource, testAppFor, testDatabases, type TestApp } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

const CAPS = { DAILY_COMMENT_LIMIT: '3', DAILY_NOTE_LIMIT: '2', WRITE_LIMIT_PER_MINUTE: '1000' };
const DAILY_LIMIT = { code: -2006, msg: '今日操作已达上限' };

const saveNote = (t: TestApp, ticket: string, body: unknown) =>
  t.call<Note>(api.noteUpdate, undefined, {
    ticket,
    headers: { 'content-type': 'text/plain', [BASE64_BODY_HEADER]: 'base64' },
    rawBody: Buffer.from(JSON.stringify(body)).toString('base64'),
  });

it('reads the caps from the environment, with defaults', () => {
  expect(loadConfig({})).toMatchObject({ dailyCommentLimit: 200, dailyNoteLimit: 100, dailyNickChangeLimit: 5 });
  expect(loadConfig({ ...CAPS, DAILY_NICK_CHANGE_LIMIT: '1' })).toMatchObject({ dailyCommentLimit: 3, dailyNoteLimit: 2, dailyNickChangeLimit: 1 });
});

describe.each(testDatabases)('daily caps of text writes on $name', ({ name, open }) => {
  const app = testAppFor(open, CAPS);
  const freshPhone = phoneSource(name === 'PGlite' ? '1583403' : '1583404');

  it('caps comments and replies together; a refused one stores nothing; a replay is not counted', async () => {
    const me = await app.t.login(freshPhone());
    const comment = (content: string, extra: Record<string, unknown> = {}) =>
      app.t.call<Comment>(api.commentAdd, { post_id: 31, content, client_id: newClientId('cap'), ...extra }, { ticket: me.ticket });
    const first = (await comment('第一条')).data();
    const replayed = { post_id: 31, content: '第一条', client_id: 'cap-replay-' + me.uid };
    const second = (await app.t.call<Comment>(api.commentAdd, replayed, { ticket: me.ticket })).data();
    // The same write sent again answers the original and is not counted.
    expect((await app.t.call<Comment>(api.commentAdd, replayed, { ticket: me.ticket })).data()).toEqual(second);
    (await comment('一条回复', { reply_id: first.id })).data();
    const refused = await comment('第四条');
    expect(errorOf(refused.body)).toEqual(DAILY_LIMIT);
    expect(codeOf(await comment('又一条回复', { reply_id: first.id }))).toBe(-2006);
    const stored = await app.database.db.select({ content: comments.content }).from(comments).where(eq(comments.userId, me.uid));
    expect(stored.map((row) => row.content).sort()).toEqual(['第一条', '第一条', '一条回复'].sort());

    // Another user counts on their own.
    const other = await app.t.login(freshPhone());
    expect(codeOf(await app.t.call(api.commentAdd, { post_id: 31, content: '别人的', client_id: newClientId('cap') }, { ticket: other.ticket }))).toBeUndefined();
  });

  it('caps notes, new and edited alike; a refused save changes nothing', async () => {
    const me = await app.t.login(freshPhone());
    const note = (await saveNote(app.t, me.ticket, { content: '第一篇笔记' })).data();
    (await saveNote(app.t, me.ticket, { id: note.id, content: '改过的笔记' })).data();
    expect(errorOf((await saveNote(app.t, me.ticket, { content: '第二篇笔记' })).body)).toEqual(DAILY_LIMIT);
    expect(errorOf((await saveNote(app.t, me.ticket, { id: note.id, content: '再改一次' })).body)).toEqual(DAILY_LIMIT);
    const stored = await app.database.db.select({ content: notes.content }).from(notes).where(eq(notes.userId, me.uid));
    expect(stored).toEqual([{ content: '改过的笔记' }]);
  });

  it('starts a new count on the next day (China Standard Time)', async () => {
    const me = await app.t.login(freshPhone());
    for (let i = 0; i < 2; i++) (await saveNote(app.t, me.ticket, { content: `笔记${i}` })).data();
    expect(codeOf(await saveNote(app.t, me.ticket, { content: '今天的第三篇' }))).toBe(-2006);
    // Yesterday's key, as a day later would see it: the key names the day.
    await queryRows(app.database.db, sql`update rate_limits set key = replace(key, to_char(now() at time zone 'Asia/Shanghai', 'YYYY-MM-DD'), '2000-01-01') where key like ${`daily:note:${me.uid}:%`}`);
    expect(codeOf(await saveNote(app.t, me.ticket, { content: '新的一天' }))).toBeUndefined();
  });
});
