/**
 * Accessibility: axe-core (the engine inside Lighthouse's accessibility score) finds nothing
 * to report on any screen of the app: every route of src/client/app/router.tsx plus the layers that open
 * over them (the login popup, the composer, a modal list, the 发现 sheet, a user centre's tabs),
 * at 375 px and 1280 px, logged out and logged in; and the moderators' 内容审核 (its queue of a
 * reported post, comment and user, the 处理 picker, its confirmation, 处理记录) as the demo moderator. The real built app, server and database.
 *
 * Checked: WCAG 2.0/2.1/2.2 A and AA, axe's best practices and its experimental rules, in the
 * light palette (AXE_COLOR_SCHEME=dark: the dark one). One browser and one page for
 * the whole file; it prints a table of every cell, and a failure names each rule and its targets.
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type Axe from 'axe-core';
import { api } from '#shared/api.ts';
import { allFeedPosts, callApi } from './support/app.ts';
import { DEMO_MODERATOR_CELLPHONE } from '../../src/server/seed/seed.ts';
import { useApp, useBrowser } from './support/fixtures.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { logIn } from './support/session.ts';

const DEMO_PHONE = '13800000000';
/** Reports a post, a comment and a user for the moderators' page. */
const REPORTER_PHONE = '13900000631';
/** Where the app remembers that the AI widget was closed (app/layout/ai-widget-store.ts, which needs a browser to load). */
const AI_WIDGET_HIDDEN_KEY = 'horde:ai-widget-hidden';
const WIDTHS = [375, 1280] as const;
// 'experimental' adds the rules axe still refines, among them label-content-name-mismatch
// (WCAG 2.5.3: a control's name holds its visible words).
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice', 'experimental'];
/** The light palette by default; AXE_COLOR_SCHEME=dark checks the dark one (prefers-color-scheme). */
const COLOR_SCHEME = process.env.AXE_COLOR_SCHEME === 'dark' ? 'dark' : 'light';
/** AXE_REPORT=<file> writes every cell with its findings as JSON, for looking into a failure. */
const REPORT_FILE = process.env.AXE_REPORT;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

type Login = 'out' | 'in';
interface Scene {
  name: string;
  /** Opens the screen and waits until what it shows has arrived. */
  open(page: Page, width: number): Promise<void>;
  /** Only at this width, or only logged out / in (a popup that exists only there). */
  width?: number;
  login?: Login;
  /** Puts back what the scene changed, so the scenes after it see the app as a visitor would. */
  after?(page: Page): Promise<void>;
}
interface Violation {
  id: string;
  impact: string | null;
  targets: string[];
}

/**
 * Runs axe on the page as it is now. Its source is evaluated once per document through the
 * DevTools protocol: the page's Content-Security-Policy (rightly) refuses an inline script tag.
 */
async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof Axe }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      targets: v.nodes.map((n) => {
        // What it is up against (the element that covers a target, the text's background), named.
        const related = [...n.any, ...n.all, ...n.none].flatMap((check) => check.relatedNodes?.map((node) => node.target.join(' ')) ?? []);
        const summary = n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim().slice(0, 160)})` : '';
        return `${n.target.join(' ')}${summary}${related.length > 0 ? ` against ${[...new Set(related)].join(', ')}` : ''}`;
      }),
    }));
  }, AXE_TAGS);
}

describe('axe-core on every screen', () => {
  const app = useApp();
  const { page } = useBrowser(app, { viewport: { width: 1280, height: 900 } });
  let scenes: Scene[] = [];
  const cells: { scene: string; width: number; login: Login; violations: Violation[] }[] = [];

  beforeAll(async () => {
    // No transition caught half way (a colour mid-fade is no colour the page shows).
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: COLOR_SCHEME });
    await page.goto(`${app.url}/home`);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(COLOR_SCHEME === 'dark');

    const posts = await allFeedPosts(app);
    const withComments = posts.find((p) => p.comment_count > 0 && p.like_count > 0) ?? posts[0]!;
    const withCode = posts.find((p) => p.attach.some((a) => a.type === 'code'))!;
    const code = withCode.attach.find((a) => a.type === 'code')!;
    const channel = posts.find((p) => p.channels.length > 0)!.channels[0]!;
    const topic = (await callApi(app, api.topicList, { size: 5 })).list[0]!;
    const author = withComments.user;

    const main = () => page.getByRole('main');
    const go = async (path: string, text: string | RegExp) => {
      await page.goto(`${app.url}${path}`);
      await main().getByText(text).first().waitFor();
    };
    const articles = async (path: string) => {
      await page.goto(`${app.url}${path}`);
      await page.locator('main article').first().waitFor();
    };

    scenes = [
      { name: '/home', open: () => articles('/home') },
      {
        name: '/follow',
        open: async (_page, _width) => {
          await page.goto(`${app.url}/follow`);
          await main().locator('article, .state').first().waitFor();
        },
      },
      { name: '/follow?channelId', open: () => go(`/follow?channelId=${channel.channel_id}`, channel.channel_name) },
      { name: '/good', open: () => articles('/good') },
      { name: '/channel/list/{id}', open: () => articles(`/channel/list/${channel.channel_id}`) },
      { name: '/invite/channelList', open: () => go('/invite/channelList', '频道列表') },
      { name: '/topic/list', open: () => go('/topic/list', topic.topic_name) },
      { name: '/topic/comment/{id}', open: () => articles(`/topic/comment/${topic.topic_id}`) },
      {
        name: '/message/detail/{id}',
        open: async () => {
          await go(`/message/detail/${withComments.id}`, withComments.content.slice(0, 12));
          await main().getByRole('region', { name: '赞过的人' }).waitFor();
          await main().locator('.comment').first().waitFor();
        },
      },
      {
        name: 'likers modal',
        open: async () => {
          await go(`/message/detail/${withComments.id}`, withComments.content.slice(0, 12));
          await main().getByRole('button', { name: '查看全部' }).click();
          await page.locator('dialog[open] .likers-dialog__user').first().waitFor();
        },
      },
      { name: '/message/detail/poster/{id}', open: () => go(`/message/detail/poster/${withComments.id}`, '动态详情') },
      { name: '/code/{postid}/{uuid}', open: () => go(`/code/${withCode.id}/${code.uuid}`, '复制代码') },
      { name: '/code', open: () => go('/code', '完成') },
      { name: '/post', open: () => go('/post', '输入代码') },
      { name: '/comment', open: () => go(`/comment?post_id=${withComments.id}`, '写评论') },
      { name: '/complain', open: () => go(`/complain?type=post&id=${withComments.id}`, '投诉理由') },
      { name: '/usercenter/{id}', open: () => articles(`/usercenter/${author.uid}`) },
      {
        name: '/usercenter/{id} 频道',
        open: async () => {
          await articles(`/usercenter/${author.uid}`);
          await main().getByRole('tab', { name: '频道' }).click();
          await main().getByRole('tabpanel').locator('a, .state').first().waitFor();
        },
      },
      {
        name: '/usercenter/{id} 笔记',
        open: async () => {
          await articles(`/usercenter/${author.uid}`);
          await main().getByRole('tab', { name: '笔记' }).click();
          await main().getByRole('tabpanel').locator('article, .state, li').first().waitFor();
        },
      },
      {
        name: '/search (results)',
        open: async () => {
          await page.goto(`${app.url}/search?q=${encodeURIComponent(topic.topic_name.slice(0, 2))}`);
          await main().locator('article, .state').first().waitFor();
        },
      },
      {
        name: '/notice',
        open: async () => {
          await page.goto(`${app.url}/notice`);
          await main().locator('.notice, .state').first().waitFor();
        },
      },
      {
        name: '/usercenter/{me} 消息设置',
        login: 'in',
        open: async () => {
          await articles('/home');
          await page.getByRole('button', { name: /^账号菜单/ }).click();
          await page.getByRole('button', { name: '我的主页' }).click();
          await main().getByRole('tab', { name: '消息设置' }).click();
          await main().getByRole('switch', { name: /收到评论/ }).waitFor();
        },
      },
      { name: '/statement', open: () => go('/statement', '社区声明') },
      { name: '/invite', open: () => go('/invite', '邀请函') },
      { name: '/booklist/{code}', open: () => go('/booklist/2024', '程序员的案头书') },
      { name: '/error', open: () => go('/error', '回到首页') },
      {
        // The popup as a mistake leaves it: the server's refusal in its error line, the field marked invalid.
        name: 'login dialog, an error',
        login: 'out',
        open: async () => {
          await articles('/home');
          await page.getByRole('banner').getByRole('button', { name: '登录' }).click();
          const dialog = page.getByRole('dialog', { name: '手机号登录' });
          await dialog.getByPlaceholder('请输入手机号').fill('123');
          await dialog.getByRole('button', { name: '获取验证码' }).click();
          await dialog.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
        },
      },
      {
        name: 'post menu (picker)',
        open: async () => {
          await articles('/home');
          await page.locator('main article').first().getByRole('button', { name: '更多' }).click();
          await page.locator('dialog[open] .picker__item').first().waitFor();
        },
      },
      {
        name: 'composer',
        login: 'in',
        open: async () => {
          await page.goto(`${app.url}/home?compose=1`);
          await page.getByRole('button', { name: '发布' }).waitFor();
        },
      },
      {
        name: '发现 sheet',
        width: 375,
        open: async () => {
          await articles('/home');
          await page.getByRole('navigation', { name: '动态分类' }).getByRole('button', { name: '发现' }).click();
          await page.getByRole('dialog', { name: '发现' }).getByRole('link', { name: '全部' }).first().waitFor();
        },
      },
      {
        // Once the floating widget is closed, the header has the AI entry instead.
        name: 'header AI entry',
        width: 1280,
        open: async () => {
          await page.evaluate((key) => localStorage.setItem(key, '1'), AI_WIDGET_HIDDEN_KEY);
          await articles('/home');
          await page.getByRole('banner').getByRole('button', { name: /^AI助手/ }).waitFor();
        },
        after: () => page.evaluate((key) => localStorage.removeItem(key), AI_WIDGET_HIDDEN_KEY),
      },
    ];
  });

  async function checkEveryScene(login: Login): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 860 ? 740 : 900 });
      for (const scene of scenes) {
        if ((scene.width && scene.width !== width) || (scene.login && scene.login !== login)) continue;
        try {
          await scene.open(page, width);
        } catch (error) {
          throw new Error(`${scene.name} at ${width} px, logged ${login}, did not open: ${String(error).split('\n')[0]}`);
        }
        cells.push({ scene: scene.name, width, login, violations: await axeViolations(page) });
        await scene.after?.(page);
      }
    }
  }

  /** Every cell of this login with something found: screen, width, then each rule with its targets. */
  const faults = (login: Login) =>
    cells
      .filter((c) => c.login === login && c.violations.length > 0)
      .map((c) => ({
        screen: `${c.scene} at ${c.width} px, logged ${login}`,
        rules: c.violations.map((v) => `${v.id} (${v.impact}): ${v.targets.join(' | ')}`),
      }));

  it('reports nothing logged out', async () => {
    await checkEveryScene('out');
    expect(faults('out')).toEqual([]);
  });

  it('reports nothing logged in', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/home`);
    await logIn(app, page, DEMO_PHONE);
    await checkEveryScene('in');
    expect(faults('in')).toEqual([]);
  });

  it('reports nothing on the moderators\' page', async () => {
    const reporter = await logInByApi(app, REPORTER_PHONE);
    const [post, other] = (await allFeedPosts(app)).filter((p) => p.user.uid !== 2 && p.comment_count > 0);
    const comment = (await callApi(app, api.commentList, { post_id: other!.id, size: 1 })).list[0]!;
    for (const [target_type, target_id] of [['post', post!.id], ['comment', comment.id], ['user', post!.user.uid]] as const)
      await callAs(app, reporter, api.complainAdd.path, { target_type, target_id, reason: 'spam', content: '一直在发广告', client_id: `axe-${target_type}-${target_id}` });
    await page.context().clearCookies();
    await page.goto(`${app.url}/home`);
    await logIn(app, page, DEMO_MODERATOR_CELLPHONE);
    const queue = page.getByRole('region', { name: '待处理的举报' });
    // A reported post's item holds the post's own card, an article too.
    const reports = queue.getByRole('article', { name: /^被举报的/ });
    scenes = [
      {
        name: '/moderation 待处理',
        open: async () => {
          await page.goto(`${app.url}/moderation`);
          await reports.filter({ hasText: '被举报的用户' }).waitFor();
        },
      },
      {
        // Each width dismisses the first report (the post, then the comment), so 处理记录 has rows.
        name: '处理 picker and its confirmation',
        open: async () => {
          await reports.first().getByRole('button', { name: '处理' }).click();
          await page.getByRole('dialog', { name: '处理举报' }).getByRole('button', { name: '驳回举报' }).click();
          await page.getByRole('alertdialog', { name: '驳回举报' }).waitFor();
        },
        after: async () => {
          const count = await reports.count();
          await page.getByRole('alertdialog', { name: '驳回举报' }).getByRole('button', { name: '确定' }).click();
          await expect.poll(() => reports.count(), { timeout: 30_000 }).toBe(count - 1);
        },
      },
      {
        name: '/moderation 处理记录',
        open: async () => {
          await page.getByRole('tab', { name: '处理记录' }).click();
          await page.locator('.moderation-log__row').first().waitFor();
        },
      },
    ];
    await checkEveryScene('in');
    expect(faults('in')).toEqual([]);
  });

  afterAll(() => {
    // The table: one row per screen, one column per width and login; each cell the number of nodes at fault.
    const columns = WIDTHS.flatMap((w) => (['out', 'in'] as const).map((l) => ({ w, l })));
    const count = (v: Violation[]) => v.reduce((sum, x) => sum + x.targets.length, 0);
    const rows = [...new Set(cells.map((c) => c.scene))].map((scene) => {
      const row: Record<string, string> = {};
      for (const { w, l } of columns) {
        const cell = cells.find((c) => c.scene === scene && c.width === w && c.login === l);
        row[`${w}px ${l}`] = cell ? String(count(cell.violations)) : '-';
      }
      return [scene, row] as const;
    });
    console.log(`axe-core violations (nodes) by screen, width and login:\n${[
      ['screen'.padEnd(30), ...columns.map(({ w, l }) => `${w}px ${l}`.padStart(11))].join(''),
      ...rows.map(([scene, row]) => [scene.padEnd(30), ...Object.values(row).map((v) => v.padStart(11))].join('')),
    ].join('\n')}`);
    const byRule = new Map<string, number>();
    for (const cell of cells) for (const v of cell.violations) byRule.set(v.id, (byRule.get(v.id) ?? 0) + v.targets.length);
    if (REPORT_FILE) writeFileSync(REPORT_FILE, JSON.stringify(cells, null, 1));
    console.log(`by rule: ${JSON.stringify(Object.fromEntries(byRule))}`);
  });
});
