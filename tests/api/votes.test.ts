/**
 * vote/submit, on PostgreSQL (behaviour: one engine): single or multiple choice as the
 * poll says, options of that poll only, once per user (-1008), closed polls (-1010), the poll
 * answered with counts and the user's choices, exact under concurrent votes, exactly once per
 * client_id.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Post, Vote } from '../../src/shared/schemas.ts';
import { posts, votes } from '../../src/server/db/schema.ts';
import { codeOf, errorOf, isChineseMessage, newClientId, phoneSource, testAppFor, behaviourDatabases } from '../support/api.ts';
import { counterMismatches, queryRows } from '../support/db.ts';
import { KEPT_LIKES_MAX } from '../../src/server/services/viewer-marks.ts';
import { postWithVote } from './fixtures.ts';

describe.each(behaviourDatabases)('votes on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560003');

  const allZero = async () => {
    const mismatches = await counterMismatches(app.database.db);
    expect(Object.entries(mismatches).filter(([, n]) => n !== 0)).toEqual([]);
  };
  const vote = (ticket: string | undefined, body: Record<string, unknown>) =>
    app.t.call<Vote>(api.voteSubmit, { client_id: newClientId('vote'), ...body }, { ticket });
  const pollOf = async (postId: number, ticket?: string) => (await app.t.call<Post>(api.postDetail, { post_id: postId }, { ticket })).data().vote!;
  const records = async (voteId: number) =>
    Number((await queryRows<{ n: number }>(app.database.db, sql`select count(*)::int as n from vote_records where vote_id = ${voteId}`))[0]!.n);

  it('votes on a single-choice poll: answers counts, total and the choice; a second vote is -1008 and counts nothing', async () => {
    const poll = await postWithVote(app.database.db, false, 0);
    const me = await app.t.login(freshPhone());
    const before = await pollOf(poll.postId);
    const answer = (await vote(me.ticket, { post_id: poll.postId, option_ids: [poll.options[1]!] })).data();
    expect(answer.is_voted).toBe(true);
    expect(answer.total).toBe(before.total + 1);
    expect(answer.options.map((o) => [o.option_id, o.count, o.is_voted])).toEqual(
      before.options.map((o) => [o.option_id, o.option_id === poll.options[1] ? o.count + 1 : o.count, o.option_id === poll.options[1]]),
    );
    expect(await pollOf(poll.postId, me.ticket)).toEqual(answer);

    const second = await vote(me.ticket, { post_id: poll.postId, option_ids: [poll.options[0]!] });
    expect(errorOf(second.body)).toEqual({ code: -1008, msg: '已经投过票了' });
    expect(await pollOf(poll.postId, me.ticket)).toEqual(answer);
    await allZero();
  });

  it('refuses two options on a single-choice poll and options of another poll (Chinese -1004)', async () => {
    const poll = await postWithVote(app.database.db, false, 1);
    const other = await postWithVote(app.database.db, true, 0);
    const me = await app.t.login(freshPhone());
    const n = await records(poll.voteId);
    for (const option_ids of [[poll.options[0]!, poll.options[1]!], [other.options[0]!], [poll.options[0]!, other.options[0]!], [2_000_000_000]]) {
      const answer = await vote(me.ticket, { post_id: poll.postId, option_ids });
      expect(codeOf(answer), JSON.stringify(option_ids)).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg)).toBe(true);
    }
    expect(await records(poll.voteId)).toBe(n);
    // The same option twice is one choice.
    expect((await vote(me.ticket, { post_id: poll.postId, option_ids: [poll.options[0]!, poll.options[0]!] })).data().total).toBeGreaterThan(0);
    expect(await records(poll.voteId)).toBe(n + 1);
    await allZero();
  });

  it('votes several options on a multiple-choice poll, ids as strings too', async () => {
    const poll = await postWithVote(app.database.db, true, 1);
    const me = await app.t.login(freshPhone());
    const before = await pollOf(poll.postId);
    const chosen = [poll.options[0]!, poll.options[2]!];
    const answer = (await vote(me.ticket, { post_id: String(poll.postId), option_ids: chosen.map(String) })).data();
    expect(answer.total).toBe(before.total + 1);
    expect(answer.options.filter((o) => o.is_voted).map((o) => o.option_id)).toEqual(chosen);
    expect(answer.options.reduce((sum, o) => sum + o.count, 0)).toBe(before.options.reduce((sum, o) => sum + o.count, 0) + 2);
    await allZero();
  });

  it("shows each reader the poll with their own choices marked alone, in the detail and the feeds", async () => {
    const poll = await postWithVote(app.database.db, true, 2);
    const me = await app.t.login(freshPhone());
    const other = await app.t.login(freshPhone());
    const chosen = [poll.options[2]!, poll.options[0]!];
    const answer = (await vote(me.ticket, { post_id: poll.postId, option_ids: chosen })).data();
    expect(await pollOf(poll.postId, me.ticket)).toEqual(answer);
    const unmarked = { ...answer, is_voted: false, options: answer.options.map((o) => ({ ...o, is_voted: false })) };
    expect(await pollOf(poll.postId)).toEqual(unmarked);
    expect(await pollOf(poll.postId, other.ticket)).toEqual(unmarked);
    const authorId = Number((await queryRows<{ user_id: number }>(app.database.db, sql`select user_id from posts where id = ${poll.postId}`))[0]!.user_id);
    const inFeed = async (ticket?: string) =>
      (await app.t.call<{ list: Post[] }>(api.userPosts, { visit_user_id: authorId, index: poll.postId + 1, size: 1 }, { ticket })).data().list[0]!.vote;
    expect(await inFeed(me.ticket)).toEqual(answer);
    expect(await inFeed()).toEqual(unmarked);
    await allZero();
  });

  it("keeps a poll's card right through any change to its tables, one statement at a time", async () => {
    const poll = await postWithVote(app.database.db, false, 3);
    const db = app.database.db;
    // Counts stay as the records say (counterMismatches holds them too): names, order and options change.
    const changes = [
      sql`update vote_options set text = ${'改过的"选项"'}, sort = 20 where id = ${poll.options[0]!}`,
      sql`update votes set title = '改过的投票', multiple = true where id = ${poll.voteId}`,
      sql`insert into vote_options (vote_id, text, sort) values (${poll.voteId}, '新选项', 9), (${poll.voteId}, '要删的选项', 10)`,
      sql`delete from vote_options where vote_id = ${poll.voteId} and text = '要删的选项'`,
    ];
    for (const change of changes) {
      await db.execute(change);
      await allZero();
    }
    expect((await pollOf(poll.postId)).options.map((o) => o.text).slice(-2)).toEqual(['新选项', '改过的"选项"']);
    await db.execute(sql`delete from votes where id = ${poll.voteId}`);
    await allZero();
    expect((await app.t.call<Post>(api.postDetail, { post_id: poll.postId })).data().vote).toBeNull();
  });

  it('marks exactly the options chosen, never one whose id starts alike nor a text that looks like a key', async () => {
    const poll = await postWithVote(app.database.db, false, 4);
    const [chosen, alike] = [7_000_005, 70_000_055];
    const lookalike = `{"option_id":${alike},"is_voted":false,","is_voted":false,"title":`;
    await app.database.db.execute(sql`insert into vote_options (id, vote_id, text, sort) values (${chosen}, ${poll.voteId}, ${lookalike}, 10), (${alike}, ${poll.voteId}, ${lookalike}, 11)`);
    const me = await app.t.login(freshPhone());
    const answer = (await vote(me.ticket, { post_id: poll.postId, option_ids: [chosen] })).data();
    const mine = await pollOf(poll.postId, me.ticket);
    expect(mine).toEqual(answer);
    expect([mine.is_voted, ...mine.options.slice(-2).map((o) => [o.option_id, o.is_voted, o.text])]).toEqual([
      true,
      [chosen, true, lookalike],
      [alike, false, lookalike],
    ]);
    expect((await pollOf(poll.postId)).options.filter((o) => o.is_voted)).toEqual([]);
    // A viewer with more marks than a process keeps (services/viewer-marks.ts): the page's statement reads their choices.
    await queryRows(app.database.db, sql`insert into likes (user_id, target_type, target_id) select ${me.uid}, 'post', -n from generate_series(1, ${KEPT_LIKES_MAX + 1}) n`);
    expect(await pollOf(poll.postId, me.ticket)).toEqual(mine);
    await allZero();
  });

  it('refuses a closed poll (-1010), a post without a poll or deleted (-1005), and visitors (-2000)', async () => {
    const poll = await postWithVote(app.database.db, false, 2);
    const me = await app.t.login(freshPhone());
    await app.database.db.update(votes).set({ endTime: new Date(Date.now() - 1000) }).where(eq(votes.id, poll.voteId));
    expect(errorOf((await vote(me.ticket, { post_id: poll.postId, option_ids: [poll.options[0]!] })).body)).toEqual({ code: -1010, msg: '投票已结束' });
    await app.database.db.update(votes).set({ endTime: new Date(Date.now() + 3600_000) }).where(eq(votes.id, poll.voteId));
    expect(codeOf(await vote(me.ticket, { post_id: poll.postId, option_ids: [poll.options[0]!] }))).toBeUndefined();

    const [plain] = await queryRows<{ id: number }>(
      app.database.db,
      sql`select id::int as id from posts p where deleted_at is null and not exists (select 1 from votes v where v.post_id = p.id) order by id limit 1`,
    );
    expect(codeOf(await vote(me.ticket, { post_id: plain!.id, option_ids: [poll.options[0]!] }))).toBe(-1005);
    const gone = await postWithVote(app.database.db, false, 3);
    await app.database.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, gone.postId));
    expect(codeOf(await vote(me.ticket, { post_id: gone.postId, option_ids: [gone.options[0]!] }))).toBe(-1005);
    await app.database.db.update(posts).set({ deletedAt: null }).where(eq(posts.id, gone.postId));
    expect(codeOf(await vote(undefined, { post_id: poll.postId, option_ids: [poll.options[0]!] }))).toBe(-2000);
    await allZero();
  });

  it('answers a replayed client_id with the original poll; another body is -1009; bad bodies are a Chinese -1004', async () => {
    const poll = await postWithVote(app.database.db, true, 2);
    const me = await app.t.login(freshPhone());
    const body = { post_id: poll.postId, option_ids: [poll.options[1]!], client_id: newClientId('vote-replay') };
    const first = (await app.t.call<Vote>(api.voteSubmit, body, { ticket: me.ticket })).data();
    // A replay is not a second vote: the original answer, not -1008.
    expect((await app.t.call<Vote>(api.voteSubmit, body, { ticket: me.ticket })).data()).toEqual(first);
    expect(codeOf(await app.t.call(api.voteSubmit, { ...body, option_ids: [poll.options[0]!] }, { ticket: me.ticket }))).toBe(-1009);
    const n = await records(poll.voteId);
    for (const bad of [{}, { post_id: poll.postId, option_ids: [], client_id: newClientId() }, { post_id: poll.postId, option_ids: 'all', client_id: newClientId() }, { post_id: poll.postId, option_ids: [-1], client_id: newClientId() }, { post_id: poll.postId, option_ids: [poll.options[0]!] }]) {
      const answer = await app.t.call(api.voteSubmit, bad, { ticket: me.ticket });
      expect(codeOf(answer), JSON.stringify(bad)).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg), errorOf(answer.body)?.msg).toBe(true);
    }
    expect(await records(poll.voteId)).toBe(n);
  });

  it('keeps counts exact under concurrent votes: many voters, and one voter sending different votes at once', async () => {
    const poll = await postWithVote(app.database.db, true, 0);
    const people: { ticket: string; uid: number }[] = [];
    for (let i = 0; i < 8; i++) people.push(await app.t.login(freshPhone()));
    const before = await pollOf(poll.postId);
    const answers = await Promise.all([
      ...people.map((who, i) => vote(who.ticket, { post_id: poll.postId, option_ids: poll.options.slice(i % 3, (i % 3) + 2) })),
      // The first voter again, four more times with other choices (new client_ids): all -1008.
      ...Array.from({ length: 4 }, (_, i) => vote(people[0]!.ticket, { post_id: poll.postId, option_ids: [poll.options[i % poll.options.length]!] })),
    ]);
    const codes = answers.map((answer) => codeOf(answer) ?? 0);
    expect(codes.filter((code) => code === 0)).toHaveLength(people.length);
    expect(codes.filter((code) => code !== 0).every((code) => code === -1008)).toBe(true);
    expect((await pollOf(poll.postId)).total).toBe(before.total + people.length);
    await allZero();
  });
});
