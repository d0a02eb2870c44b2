/**
 * Nicknames, on PGlite and on PostgreSQL: a new user's default says nothing of their phone number;
 * a user sets theirs (nick/update): 2 to 20 units as textLength counts (Chinese 2, emoji 4), no
 * control or invisible characters, unique whatever its case (two asking at once: one gets it), at
 * most DAILY_NICK_CHANGE_LIMIT changes a day; the new one shows at once in their profile and on
 * their posts. Every refusal is an envelope with a code and a Chinese message.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { LoginUser, Post, UserInfo } from '../../src/shared/schemas.ts';
import { codeOf, errorOf, isChineseMessage, newClientId, phoneSource, testAppFor, testDatabases, type TestApp } from '../support/api.ts';

const setNick = (t: TestApp, ticket: string | undefined, nick: unknown) => t.call<LoginUser>(api.nickUpdate, { nick }, { ticket });

describe.each(testDatabases)('nicknames on $name', ({ name, open }) => {
  const app = testAppFor(open, { DAILY_NICK_CHANGE_LIMIT: '3' });
  const freshPhone = phoneSource(name === 'PGlite' ? '1583408' : '1583409');

  it("gives a new user a default nickname with nothing of the phone number, each user's their own", async () => {
    const phones = [freshPhone(), freshPhone(), freshPhone()];
    const nicks: string[] = [];
    for (const phone of phones) {
      const me = await app.t.login(phone);
      const user = (await app.t.call<LoginUser>(api.auth, { t: 1 }, { ticket: me.ticket })).data();
      expect(user.nick).toMatch(/^极客[a-z0-9]{6}$/);
      expect(user.nick).not.toContain(phone.slice(-4));
      nicks.push(user.nick);
    }
    expect(new Set(nicks).size).toBe(3);
  });

  it('sets a nickname, shown at once in the profile and on the posts already written', async () => {
    const me = await app.t.login(freshPhone());
    const post = (await app.t.call<Post>(api.postAdd, { content: '改昵称之前写的', channel_id: [1], client_id: newClientId('nick') }, { ticket: me.ticket })).data();
    const answer = await setNick(app.t, me.ticket, `  新的昵称${name}  `);
    expect(answer.status).toBe(200);
    expect(answer.data()).toMatchObject({ uid: me.uid, nick: `新的昵称${name}` });
    expect((await app.t.call<UserInfo>(api.userInfo, { visit_user_id: me.uid })).data().nick).toBe(`新的昵称${name}`);
    expect((await app.t.call<Post>(api.postDetail, { post_id: post.id })).data().user.nick).toBe(`新的昵称${name}`);
  });

  it.each([
    ['one ASCII letter (1 unit)', 'a', '至少'],
    ['blank', '   ', '至少'],
    ['21 ASCII letters', 'a'.repeat(21), '最多'],
    ['11 Chinese characters (22 units)', '中'.repeat(11), '最多'],
    ['five emoji and a letter (21 units)', `${'😀'.repeat(5)}a`, '最多'],
    ['a thousand letters', 'a'.repeat(1000), '最多'],
    ['a line break', '第一行\n第二行', '控制字符'],
    ['a bell', '响铃\u0007', '控制字符'],
    ['a direction override', '\u202e昵称反转', '不可见'],
    ['a zero-width space', '看不\u200b见', '不可见'],
    ['a number', 12345, '文字'],
  ])('refuses %s with -1004 and a Chinese message', async (_name, nick, says) => {
    const me = await app.t.login(freshPhone());
    const before = (await app.t.call<LoginUser>(api.auth, { t: 1 }, { ticket: me.ticket })).data().nick;
    const answer = await setNick(app.t, me.ticket, nick);
    expect(answer.status).toBe(200);
    const error = errorOf(answer.body);
    expect(error?.code).toBe(-1004);
    expect(error?.msg).toContain(says);
    expect(isChineseMessage(error?.msg)).toBe(true);
    expect((await app.t.call<LoginUser>(api.auth, { t: 1 }, { ticket: me.ticket })).data().nick).toBe(before);
  });

  it.each([
    ['two ASCII letters', 'ab'],
    ['one Chinese character (2 units)', '中'],
    ['20 ASCII letters', 'a'.repeat(20)],
    ['ten Chinese characters', '中'.repeat(10)],
    ['five emoji (20 units)', '😀'.repeat(5)],
    ['an emoji family and a space', '我家 👨‍👩‍👧'],
  ])('takes %s', async (_name, nick) => {
    const me = await app.t.login(freshPhone());
    expect((await setNick(app.t, me.ticket, nick)).data().nick).toBe(nick);
  });

  it("refuses another user's nickname whatever its case, and takes one's own again without counting it", async () => {
    const first = await app.t.login(freshPhone());
    const second = await app.t.login(freshPhone());
    const taken = `Geek${name === 'PGlite' ? 'Lite' : 'Pg'}Nick`;
    await expect(setNick(app.t, first.ticket, taken).then((answer) => answer.data().nick)).resolves.toBe(taken);
    await expect(setNick(app.t, first.ticket, taken).then((answer) => answer.data().nick)).resolves.toBe(taken);
    for (const spelling of [taken, taken.toLowerCase(), taken.toUpperCase()]) {
      expect(errorOf((await setNick(app.t, second.ticket, spelling)).body)).toEqual({ code: -1004, msg: '该昵称已被使用，请换一个' });
    }
    // Setting one's own again changed nothing and counted nothing: two more changes are left.
    expect(codeOf(await setNick(app.t, first.ticket, `${taken}二`))).toBeUndefined();
    expect(codeOf(await setNick(app.t, first.ticket, `${taken}三`))).toBeUndefined();
  });

  it('gives a nickname asked for by two users at once to one of them', async () => {
    const users = await Promise.all([app.t.login(freshPhone()), app.t.login(freshPhone()), app.t.login(freshPhone())]);
    const wanted = `抢手昵称${name}`;
    const answers = await Promise.all(users.map((user) => setNick(app.t, user.ticket, wanted)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.filter((answer) => codeOf(answer) === undefined)).toHaveLength(1);
    expect(answers.filter((answer) => codeOf(answer) === -1004)).toHaveLength(2);
  });

  it('allows DAILY_NICK_CHANGE_LIMIT changes a day, then answers -2006', async () => {
    const me = await app.t.login(freshPhone());
    for (let i = 1; i <= 3; i++) expect(codeOf(await setNick(app.t, me.ticket, `每日改名${name}${i}`))).toBeUndefined();
    expect(errorOf((await setNick(app.t, me.ticket, `每日改名${name}4`)).body)).toEqual({ code: -2006, msg: '今日操作已达上限' });
    expect((await app.t.call<LoginUser>(api.auth, { t: 1 }, { ticket: me.ticket })).data().nick).toBe(`每日改名${name}3`);
  });

  it('asks a visitor to log in', async () => {
    expect(codeOf(await setNick(app.t, undefined, '访客昵称'))).toBe(-2000);
  });
});
