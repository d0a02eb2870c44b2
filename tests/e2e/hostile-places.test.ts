/**
 * Hostile content wherever users' words appear, in Chromium against the built
 * app and the real server: nicknames and a profile intro, a note, a comment, topic names and a
 * picture's file name, shown in the feed, on the detail page and its comments, the poster, the
 * user centre with its notes, the topic's home, the welcome toast and the composer. Each place
 * shows the payload as text; nothing runs (a flag any payload would set stays false, no dialog
 * opens) and the page's Content-Security-Policy reports no violation.
 *
 * Nicknames and intros have no call that writes them: the test stops the server, writes them into
 * its PGlite folder, and starts the server again on the same folder (never two processes on one
 * folder). Needs `npm run build` first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { BASE64_BODY_HEADER } from '../../src/shared/endpoints.ts';
import type { Envelope } from '../../src/shared/envelope.ts';
import type { Comment, Post } from '../../src/shared/schemas.ts';
import { callApi, startApp, type RunningApp } from './support/app.ts';
import { useBrowser } from './support/fixtures.ts';
import { callAs, expectUntouched, logInByApi, report, watchPage } from './support/hostile.ts';
import { logIn } from './support/session.ts';

const AUTHOR_PHONE = '13900000301';
const COMMENTER_PHONE = '13900000302';
/** A user made in the database with the hostile nickname, who logs in through the popup (one code a minute per phone). */
const WELCOMED_PHONE = '13900000303';
const MARKER = '到处都是恶意样本';

const NICK = '<img src=x onerror="window.__pwned=true">作者';
const INTRO = '<script>window.__pwned=true</script><a href="javascript:window.__pwned=true">简介</a>';
const COMMENTER_NICK = '"><svg onload="window.__pwned=true">评论者';
/** Nicknames are unique, so the user welcomed at login has one of their own. */
const WELCOMED_NICK = '<img src=x onerror="window.__pwned=true">新人';
const COMMENT = `<iframe srcdoc="<script>parent.__pwned=true</script>"></iframe>${MARKER}的评论`;
const NOTE = '<style>#root{display:none}</style><img src=x onerror=window.__pwned=true>笔记';
/** At most 20 characters, no spaces or separators: what a topic name may be. */
const TOPICS = ['<svg/onload=p()>', '"><b>粗体话题</b>'];
const FILE_NAME = '"><img src=x onerror=window.__pwned=true>.png';

let app: RunningApp;
let dataDir: string;
let post: Post;
let authorUid: number;

async function writeNote(cookie: string, content: string): Promise<void> {
  const response = await fetch(`${app.url}${api.noteUpdate.path}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', [BASE64_BODY_HEADER]: 'base64', cookie },
    body: Buffer.from(JSON.stringify({ content })).toString('base64'),
  });
  expect(((await response.json()) as Envelope<unknown>).code).toBe(0);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'feed-e2e-hostile-'));
  app = await startApp({ env: { DATA_DIR: dataDir } });
  const author = await logInByApi(app, AUTHOR_PHONE);
  const commenter = await logInByApi(app, COMMENTER_PHONE);
  const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
  post = await callAs<Post>(app, author, api.postAdd.path, {
    content: `${MARKER}：作者、评论、话题、笔记`,
    channel_id: [channelId],
    attach: [],
    topic_tags: TOPICS.join(' '),
    client_id: `hostile-places-${Date.now()}`,
  });
  authorUid = post.user.uid;
  const comment = await callAs<Comment>(app, commenter, api.commentAdd.path, {
    post_id: post.id,
    content: COMMENT,
    client_id: `hostile-comment-${Date.now()}`,
  });
  await writeNote(author, NOTE);
  await app.stop();

  const database = await PGlite.create({ dataDir });
  try {
    await database.query('update users set nick = $1, intro = $2 where id = $3', [NICK, INTRO, authorUid]);
    await database.query('update users set nick = $1 where id = $2', [COMMENTER_NICK, comment.user.uid]);
    await database.query("insert into users (ucode, nick, avatar, cellphone) values ('hostile-welcome', $1, '', $2)", [WELCOMED_NICK, WELCOMED_PHONE]);
  } finally {
    await database.close();
  }
  app = await startApp({ env: { DATA_DIR: dataDir } });
});

afterAll(async () => {
  await app?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('hostile words of users', () => {
  const browser = useBrowser(() => app, { viewport: { width: 1280, height: 900 } });
  const { page } = browser;

  beforeAll(async () => {
    await watchPage(page);
  });
  afterAll(() => {
    expect(browser.dialogs).toEqual([]);
  });

  /** The page shows each text as written, and nothing ran. */
  async function expectShownAsText(where: string, texts: string[]) {
    for (const text of texts) await expect.poll(() => page.locator('body').innerText(), { message: `${where}: ${text}` }).toContain(text);
    expectUntouched(await report(page, 'body *'), where);
  }

  it('in the feed: the author and the topics', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article', { hasText: MARKER }).waitFor();
    await expectShownAsText('/home', [NICK, ...TOPICS]);
  });

  it('on the detail page: the author, the topics, the commenter and the comment', async () => {
    await page.goto(`${app.url}/message/detail/${post.id}`);
    await page.getByText(`${MARKER}的评论`).waitFor();
    await expectShownAsText('detail', [NICK, ...TOPICS, COMMENTER_NICK, COMMENT]);
  });

  it('on the poster', async () => {
    await page.goto(`${app.url}/message/detail/poster/${post.id}`);
    await expectShownAsText('poster', [NICK]);
  });

  it("in the author's user centre and notes", async () => {
    await page.goto(`${app.url}/usercenter/${authorUid}`);
    await expectShownAsText('user centre', [NICK, '简介']);
    await page.getByRole('tab', { name: '笔记' }).click();
    await expectShownAsText('notes', [NOTE]);
  });

  it("on a topic's home", async () => {
    const topic = post.topics.find((t) => t.topic_name === TOPICS[0])!;
    await page.goto(`${app.url}/topic/comment/${topic.topic_id}`);
    await expectShownAsText('topic home', [TOPICS[0]!]);
  });

  it('in the welcome toast, and in the composer as a picture name', async () => {
    await page.goto(`${app.url}/home`);
    // Watched from before the login: the toast lasts seconds, which the login's own waits can outlast on a loaded machine.
    const welcome = page.locator('.toast', { hasText: '欢迎回来' }).innerText({ timeout: 120_000 });
    await logIn(app, page, WELCOMED_PHONE);
    expect(await welcome).toContain(`欢迎回来，${WELCOMED_NICK}`);
    expectUntouched(await report(page, 'body *'), 'toast');

    await page.getByRole('banner').getByRole('button', { name: '发动态' }).click();
    const composer = page.getByRole('dialog', { name: '发动态' });
    await composer.getByLabel('选择图片').setInputFiles([{ name: FILE_NAME, mimeType: 'image/png', buffer: PNG_1PX }]);
    await composer.getByRole('button', { name: `移除${FILE_NAME}` }).waitFor();
    expect(await composer.locator('.composer-image img').getAttribute('alt')).toBe(FILE_NAME);
    expectUntouched(await report(page, 'body *'), 'composer');
    await composer.getByRole('button', { name: `移除${FILE_NAME}` }).click();
  });
});

/** A 1 x 1 transparent PNG. */
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
