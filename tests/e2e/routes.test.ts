/**
 * Every route of the app (src/client/app/router.tsx) in the built app against the real server: each
 * renders with its document title, / and unknown paths end at /home, and tracking parameters
 * travel.
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import { allFeedPosts, callApi } from './support/app.ts';
import { sharedApp, useApp, useBrowser, withBrowser } from './support/fixtures.ts';

const PROVIDER = '极客时间';

describe('routes', () => {
  const app = sharedApp();
  const { page } = useBrowser(app, { viewport: { width: 1280, height: 900 } });
  /** [path, title, text the page shows] */
  let cases: [string, string, string | RegExp][] = [];

  beforeAll(async () => {
    const posts = await allFeedPosts(app);
    const post = posts[0]!;
    const withCode = posts.find((p) => p.attach.some((a) => a.type === 'code'))!;
    const code = withCode.attach.find((a) => a.type === 'code')!;
    const channel = posts.find((p) => p.channels.length > 0)!.channels[0]!;
    const topics = await callApi(app, api.topicList, { size: 5 });
    const topic = topics.list[0]!;

    cases = [
      ['/home', PROVIDER, post.user.nick],
      ['/follow', PROVIDER, '登录后查看关注的动态'],
      [`/follow?channelId=${channel.channel_id}`, PROVIDER, channel.channel_name],
      ['/good', PROVIDER, '精华'],
      [`/usercenter/${post.user.uid}`, PROVIDER, post.user.nick],
      [`/usercenter/${post.user.ucode}`, PROVIDER, post.user.nick],
      ['/code', PROVIDER, '完成'],
      [`/code/${withCode.id}/${code.uuid}`, PROVIDER, '复制代码'],
      [`/channel/list/${channel.channel_id}`, PROVIDER, channel.channel_name],
      ['/complain', '投诉理由', '投诉理由'],
      ['/post', '输入代码', '输入代码'],
      ['/comment', '写评论', '写评论'],
      ['/statement', PROVIDER, '社区声明'],
      ['/invite', `${PROVIDER}邀请函`, `${PROVIDER}邀请函`],
      ['/invite/channelList', PROVIDER, '频道列表'],
      ['/booklist/2024', `${PROVIDER} x 微信读书`, '程序员的案头书'],
      [`/message/detail/${post.id}`, PROVIDER, post.content.slice(0, 12)],
      [`/message/detail/poster/${post.id}`, '动态详情', '动态详情'],
      ['/topic/list', '话题列表', topic.topic_name],
      [`/topic/comment/${topic.topic_id}`, '话题主页', topic.topic_name],
      ['/error', PROVIDER, '回到首页'],
    ];
  });

  it('covers every route of the app', () => {
    expect(cases).toHaveLength(21);
  });

  it('renders every route with its title', async () => {
    const failures: string[] = [];
    for (const [path, title, text] of cases) {
      await page.goto(`${app.url}${path}`);
      try {
        await page.waitForFunction((expected) => document.title === expected, title);
        await page.getByRole('main').getByText(text).first().waitFor();
        expect(await page.getByText('加载失败').count()).toBe(0);
        expect(new URL(page.url()).pathname).toBe(path.split('?')[0]);
      } catch (error) {
        failures.push(`${path}: title "${await page.title()}" (${String(error).split('\n')[0]})`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(['/', '/definitely/not/a/page', '/usercenter'])('%s ends at /home', async (path) => {
    await page.goto(`${app.url}${path}`);
    await page.waitForURL('**/home');
    expect(await page.title()).toBe(PROVIDER);
    await page.locator('main article').first().waitFor();
  });

  it('carries gk_/utm_/code parameters across navigations', async () => {
    await page.goto(`${app.url}/?utm_source=e2e&gk_from=test&plain=1`);
    await page.waitForURL('**/home?**');
    expect(new URL(page.url()).searchParams.get('utm_source')).toBe('e2e');
    await page.getByRole('navigation', { name: '社区导航' }).getByRole('link', { name: '精华' }).click();
    await page.waitForURL('**/good?**');
    const url = new URL(page.url());
    expect(url.searchParams.get('utm_source')).toBe('e2e');
    expect(url.searchParams.get('gk_from')).toBe('test');
    expect(url.searchParams.has('plain')).toBe(false);
    const history = await page.evaluate(() => sessionStorage.getItem('horde:visit-history'));
    expect(JSON.parse(history ?? '[]')).toEqual(expect.arrayContaining([expect.stringMatching(/^\/good\?/)]));
  });

  it('says a post that is gone is gone, with a way back and no 重试 that cannot help', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await page.goto(`${app.url}/message/detail/987654321`);
    await page.getByText('这条动态已被删除').waitFor();
    expect(await page.getByRole('button', { name: '重试' }).count()).toBe(0);
    expect(await page.getByText('加载失败').count()).toBe(0);
    await page.getByRole('button', { name: '返回' }).click();
    await page.waitForURL(/\/home$/);
  });

  it('gives a mobile page one h1, its own, under the top bar that shows the same title', async () => {
    await withBrowser(app, { viewport: { width: 375, height: 740 } }, async (mobile) => {
      await mobile.page.goto(`${app.url}/topic/list`);
      await mobile.page.getByText('话题列表').first().waitFor();
      await mobile.page.locator('main').getByRole('link').first().waitFor();
      expect(await mobile.page.getByRole('heading', { level: 1 }).count()).toBe(1);
    });
  });
});

describe('settings served with the page', () => {
  const other = useApp({ env: { PROVIDER_NAME: '学而社', APP_SCHEME: 'xueer://' } });

  it('a server started with another PROVIDER_NAME names the community by it, with no rebuild', async () => {
    await withBrowser(other, { viewport: { width: 1280, height: 900 } }, async (browser) => {
      await browser.page.goto(`${other.url}/invite`);
      await browser.page.waitForFunction(() => document.title === '学而社邀请函');
      await browser.page.getByRole('banner').getByRole('link', { name: '学而社社区首页' }).waitFor();
      await browser.page.goto(`${other.url}/home`);
      await browser.page.waitForFunction(() => document.title === '学而社');
      const manifest = (await (await fetch(`${other.url}/manifest.webmanifest`)).json()) as { name: string };
      expect(manifest.name).toBe('学而社社区');
    });
  });
});
