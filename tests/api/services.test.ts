import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { BASE64_BODY_HEADER } from '../../src/shared/endpoints.ts';
import type { Note, Paged } from '../../src/shared/schemas.ts';
import { trackingEvents, users } from '../../src/server/db/schema.ts';
import { signShareUrl } from '../../src/server/services/wechat.ts';
import { errorOf, openTestApp, type TestApp } from '../support/api.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(() => t?.close());

describe('WeChat share signature', () => {
  it("matches WeChat's published example", () => {
    const signed = signShareUrl({
      appId: 'wx',
      jsapiTicket: 'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg',
      nonce: 'Wm3WZYTPz0wzccnW',
      now: 1414587457_000,
      url: 'http://mp.weixin.qq.com?params=value#fragment',
    });
    expect(signed.signature).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed');
    expect(signed.timestamp).toBe(1414587457);
  });

  it('answers code 0 with appId, timestamp, nonceStr and signature, and -1004 for a bad url', async () => {
    const result = await t.call(api.wxShareSign, { url: 'https://example.com/home?a=1', mpid: 'mp1' });
    expect(result.data()).toEqual({
      appId: expect.any(String),
      timestamp: expect.any(Number),
      nonceStr: expect.any(String),
      signature: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(errorOf((await t.call(api.wxShareSign, { url: 'not a url' })).body)?.code).toBe(-1004);
  });
});

describe('tracking collector', () => {
  it('stores a batch of events with the logged-in uid', async () => {
    const { ticket, uid } = await t.login('13800000000');
    const result = await t.call(
      api.collect,
      {
        app_id: 'community-feed',
        events: [
          { event: 'personal_home_page_view', properties: { page_name: '个人主页', report_source: 'H5' } },
          { event: 'click_resource_position', properties: { position_type: 'sidebar', position_num: 2 } },
        ],
      },
      { ticket },
    );
    expect(result.data()).toEqual({ accepted: 2 });
    const stored = await t.database.db.select().from(trackingEvents).where(eq(trackingEvents.uid, uid));
    expect(stored.map((row) => row.event).sort()).toEqual(['click_resource_position', 'personal_home_page_view']);
  });

  it('takes the batch navigator.sendBeacon sends as the page goes (JSON in text/plain), with its log store', async () => {
    const result = await t.call(api.collect, undefined, {
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      rawBody: JSON.stringify({
        app_id: 'community-feed',
        log_store: 'community-feed-test',
        events: [{ event: 'personal_home_click_button', properties: { button_name: '关注', is_login: false }, time: Date.now() }],
      }),
    });
    expect(result.data()).toEqual({ accepted: 1 });
    const [stored] = await t.database.db.select().from(trackingEvents).where(eq(trackingEvents.event, 'personal_home_click_button'));
    expect(stored?.uid).toBeNull();
    expect(stored?.properties).toEqual({
      button_name: '关注',
      is_login: false,
      app_id: 'community-feed',
      log_store: 'community-feed-test',
    });
    // Text that is not JSON is a bad request with a message, never a 500.
    const broken = await t.call(api.collect, undefined, { headers: { 'content-type': 'text/plain' }, rawBody: '{"app_id":' });
    expect(broken.status).toBe(200);
    expect(errorOf(broken.body)).toEqual({ code: -1004, msg: '请求体不是有效的 JSON' });
    expect(errorOf((await t.call(api.collect, { app_id: 'x', log_store: 'a b', events: [{ event: 'x' }] })).body)?.code).toBe(-1004);
  });

  it('rejects a malformed batch and stores nothing', async () => {
    const before = (await t.database.db.select().from(trackingEvents)).length;
    const result = await t.call(api.collect, { app_id: 'x', events: [{ event: 'Bad Name!' }] });
    expect(errorOf(result.body)?.code).toBe(-1004);
    expect((await t.database.db.select().from(trackingEvents)).length).toBe(before);
  });
});

describe('note update with a base64 body', () => {
  const send = (body: unknown, ticket?: string, raw?: string) =>
    t.call<Note>(api.noteUpdate, undefined, {
      ticket,
      headers: { 'content-type': 'text/plain', [BASE64_BODY_HEADER]: 'base64' },
      rawBody: raw ?? Buffer.from(JSON.stringify(body)).toString('base64'),
    });

  it('needs login', async () => {
    expect(errorOf((await send({ content: '笔记' })).body)?.code).toBe(-2000);
  });

  it('creates and updates the user’s own note, which the note list shows', async () => {
    const { ticket } = await t.login('13800000000');
    const created = (await send({ content: '第一条笔记：keyset 分页' }, ticket)).data();
    const updated = (await send({ id: created.id, content: '改过的笔记' }, ticket)).data();
    expect(updated).toMatchObject({ id: created.id, content: '改过的笔记' });
    const [me] = await t.database.db.select().from(users).where(eq(users.cellphone, '13800000000'));
    const list = (await t.call<Paged<Note>>(api.noteList, { visit_ucode: me!.ucode, size: 1 })).data();
    expect(list.list[0]).toMatchObject({ id: created.id, content: '改过的笔记' });
    expect(list.page.more).toBe(true);
  });

  it("refuses another user's note and a body that is not base64 JSON", async () => {
    const owner = await t.login('13800000001');
    const note = (await send({ content: '别人的笔记' }, owner.ticket)).data();
    const other = await t.login('13800000002');
    expect(errorOf((await send({ id: note.id, content: '改' }, other.ticket)).body)?.code).toBe(-1005);
    expect(errorOf((await send(undefined, other.ticket, '%%%not-base64')).body)).toEqual({
      code: -1004,
      msg: '请求体不是有效的 base64 JSON',
    });
  });
});
