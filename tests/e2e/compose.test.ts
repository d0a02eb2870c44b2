/**
 * Writing a post in Chromium at 1280 px and 375 px against the real app: 发动态 opens the
 * composer (a dialog on PC, a full page on mobile), two pictures are uploaded, a code snippet is
 * entered on /post (输入代码), a poll and a channel are chosen, and 发布 puts the post at the top
 * of /home and of its channel at once; a draft typed and reloaded comes back, pictures included.
 * Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp, useBrowser } from './support/fixtures.ts';
import { storedDraft } from './support/stored-draft.ts';

const layouts = [
  { name: 'PC', viewport: { width: 1280, height: 860 }, phone: '13900000201' },
  { name: 'mobile', viewport: { width: 375, height: 740 }, phone: '13900000202' },
];

const app = useApp();
let pictures: { name: string; mimeType: string; buffer: Buffer }[];

beforeAll(async () => {
  pictures = await Promise.all(
    ['#fa8919', '#3478f6'].map(async (background, i) => ({
      name: `photo-${i + 1}.png`,
      mimeType: 'image/png',
      buffer: await sharp({ create: { width: 640 + i * 160, height: 480, channels: 3, background } }).png().toBuffer(),
    })),
  );
});
/** Every text drawn inside the first element of `className`, the browser's own inside its form fields too (their user-agent shadow roots). */
async function drawnText(page: Page, className: string): Promise<string> {
  interface DomNode {
    nodeType: number;
    nodeValue: string;
    attributes?: string[];
    children?: DomNode[];
    shadowRoots?: DomNode[];
  }
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const hasClass = (node: DomNode) => {
      const at = node.attributes?.indexOf('class') ?? -1;
      return at >= 0 && node.attributes![at + 1]!.split(/\s+/).includes(className);
    };
    const find = (node: DomNode): DomNode | undefined => {
      if (hasClass(node)) return node;
      for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) {
        const found = find(child);
        if (found) return found;
      }
      return undefined;
    };
    const text = (node: DomNode): string =>
      node.nodeType === 3 ? node.nodeValue : [...(node.shadowRoots ?? []), ...(node.children ?? [])].map(text).join('');
    const element = find(root);
    if (!element) throw new Error(`no .${className} in the page`);
    return text(element);
  } finally {
    await cdp.detach();
  }
}

async function openComposer(page: Page, mobile: boolean) {
  if (mobile) await page.getByRole('button', { name: '发动态' }).last().click();
  else await page.getByRole('banner').getByRole('button', { name: '发动态' }).click();
  const composer = page.getByRole('dialog', { name: '发动态' });
  await composer.getByRole('textbox', { name: '动态内容' }).waitFor();
  return composer;
}

describe.each(layouts)('writing a post at $name', ({ name, viewport, phone }) => {
  const { page } = useBrowser(app, { viewport, logInAs: phone });
  const mobile = viewport.width < 860;

  it('publishes a post with two pictures, a code snippet and a poll, which leads /home and its channel', async () => {
    const text = `第一次在社区发动态（${name} ${Date.now()}）`;
    let composer = await openComposer(page, mobile);
    if (mobile) {
      // A full page: the layer covers the screen (but the gutter headless Chromium's classic
      // scrollbars keep: scrollbar-gutter is stable) and the composer fills it.
      const widths = await composer.evaluate((layer) => ({
        left: layer.getBoundingClientRect().left,
        layer: layer.getBoundingClientRect().width,
        inside: layer.clientWidth,
        composer: layer.querySelector('.composer')!.getBoundingClientRect().width,
      }));
      expect(widths.left).toBe(0);
      expect(widths.layer).toBeGreaterThanOrEqual(viewport.width - 15);
      expect(widths.composer).toBe(widths.inside);
    }
    await composer.getByRole('textbox', { name: '动态内容' }).fill(text);
    await composer.getByLabel('选择图片').setInputFiles(pictures);
    await expect.poll(() => composer.locator('.composer-image--uploaded').count()).toBe(2);

    await composer.getByRole('button', { name: '添加代码' }).click();
    await page.waitForURL(/\/post$/);
    await page.getByRole('combobox', { name: '语言' }).selectOption('python');
    await page.getByLabel('标题').fill('快速排序');
    await page.getByRole('textbox', { name: '代码' }).click();
    await page.keyboard.type('def quick_sort(xs):\nreturn xs');
    await page.getByRole('button', { name: '完成' }).click();
    composer = page.getByRole('dialog', { name: '发动态' });
    await composer.getByRole('region', { name: '代码片段' }).getByText('快速排序').waitFor();

    await composer.getByRole('button', { name: '添加投票' }).click();
    await composer.getByLabel('投票标题').fill('你用哪种语言刷题？');
    await composer.getByLabel('选项 1').fill('Python');
    await composer.getByLabel('选项 2').fill('Java');
    // 截止时间 reads in Chinese (no mm/dd/yyyy, --:-- of a native field) and sits over its own field, under the 多选 row.
    const deadline = composer.getByLabel('截止时间', { exact: true });
    await deadline.selectOption({ index: 2 });
    await composer.getByLabel('截止时间（时刻）').selectOption('18:00');
    expect(await drawnText(composer.page(), 'composer-vote')).not.toMatch(/[a-z]{2}\/|--:--/);
    const label = (await composer.locator('label', { hasText: /^截止时间$/ }).boundingBox())!;
    const field = (await deadline.boundingBox())!;
    const multiple = (await composer.locator('label', { hasText: '多选' }).boundingBox())!;
    expect(label.y + label.height).toBeLessThanOrEqual(field.y);
    expect(label.x < field.x + field.width && field.x < label.x + label.width).toBe(true);
    expect(label.y).toBeGreaterThanOrEqual(multiple.y + multiple.height);

    const publish = composer.getByRole('button', { name: '发布' });
    expect(await publish.isDisabled()).toBe(true); // no channel yet
    const channel = composer.getByRole('region', { name: /^选择频道/ }).getByRole('button').first();
    const channelName = (await channel.textContent())!;
    await channel.click();
    await expect.poll(() => publish.isDisabled()).toBe(false);
    await publish.click();
    await page.getByText('发布成功').waitFor();
    await composer.waitFor({ state: 'detached' });

    const first = page.locator('main article').first();
    await expect.poll(() => first.textContent()).toContain(text);
    const shown = first.getByRole('button', { name: /^查看大图/ }).locator('img');
    expect(await shown.count()).toBe(2);
    // Served by /img from the upload: both pictures load.
    await expect
      .poll(() => shown.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)))
      .toEqual([640, 800]);
    await expect.poll(() => first.textContent()).toContain('你用哪种语言刷题？');
    await first.getByRole('link', { name: channelName }).click();
    await page.waitForURL(/\/channel\/list\/\d+$/);
    await expect.poll(() => page.locator('main article').first().textContent()).toContain(text);
  });

  it('keeps a draft, its pictures included, across a reload', async () => {
    const text = `写到一半的草稿 ${Date.now()}`;
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    const composer = await openComposer(page, mobile);
    await composer.getByRole('textbox', { name: '动态内容' }).fill(text);
    await composer.getByLabel('选择图片').setInputFiles(pictures.slice(0, 1));
    await expect.poll(() => composer.locator('.composer-image').count()).toBe(1);
    // The picture is stored as it is added (a reload within that write loses it: drafts.ts): its
    // blob, or, once its upload is done (it may be before a busy machine looks), its url.
    await expect.poll(() => storedDraft(page).then((draft) => (draft?.blobs[0] ?? 0) > 0 || Boolean(draft?.urls[0]))).toBe(true);
    // The last keystroke and the reload come within the 300 ms before the draft's next write.
    await composer.getByRole('textbox', { name: '动态内容' }).press('End');
    await page.keyboard.type('！');
    await page.reload();
    const back = page.getByRole('dialog', { name: '发动态' });
    await expect.poll(() => back.getByRole('textbox', { name: '动态内容' }).inputValue()).toBe(`${text}！`);
    await expect.poll(() => back.locator('.composer-image img').count()).toBe(1);
    await back.getByRole('button', { name: '关闭' }).click();
    await back.waitFor({ state: 'detached' });
  });

  it('/code is the editor of the draft\'s snippet (CodeMirror), shown in the composer after 完成', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await page.goto(`${app.url}/code`);
    await page.locator('.cm-editor').waitFor();
    await page.getByRole('combobox', { name: '语言' }).selectOption('go');
    await page.getByLabel('标题').fill('你好，Go');
    await page.getByRole('textbox', { name: '代码' }).click();
    await page.keyboard.type('package main');
    // /code opened on its own: 完成 says where the snippet went and shows it there, in the composer.
    // The toast lasts a moment from the click: it is looked for from the click on.
    const told = page.getByText('代码已放进动态草稿').waitFor();
    await page.getByRole('button', { name: '完成' }).click();
    await page.waitForURL((url) => url.pathname === '/home');
    await told;
    const composer = page.getByRole('dialog', { name: '发动态' });
    await composer.getByRole('region', { name: '代码片段' }).getByText('你好，Go').waitFor();
    await composer.getByRole('button', { name: '关闭' }).click();
    await composer.waitFor({ state: 'detached' });
  });
});

describe('the composer on PC', () => {
  const { page } = useBrowser(app, { viewport: { width: 1280, height: 800 }, logInAs: '13900000203' });

  it('keeps a long draft under its title bar, within the card’s rounded corners, as it scrolls', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    const composer = await openComposer(page, false);
    await composer.getByRole('textbox', { name: '动态内容' }).fill(Array.from({ length: 30 }, (_, i) => `第 ${i + 1} 行`).join('\n'));
    await composer.getByRole('button', { name: '添加投票' }).click();
    for (let i = 0; i < 6; i += 1) await composer.getByRole('button', { name: '+ 添加选项' }).click();
    const card = composer.locator('.composer');
    const before = (await card.boundingBox())!;
    await composer.locator('.composer-vote__drop').scrollIntoViewIfNeeded();
    const shown = await composer.evaluate((layer) => {
      const box = layer.querySelector('.composer')!.getBoundingClientRect();
      const bar = layer.querySelector('.composer__bar')!.getBoundingClientRect();
      const body = layer.querySelector('.composer__body')!;
      const inBody = (x: number, y: number) => body.contains(document.elementFromPoint(x, y));
      return {
        scrolled: body.scrollTop > 0,
        barAtTop: Math.round(bar.top) === Math.round(box.top),
        // Just inside the rounded top corner, and just above the bar's lower edge: never the draft.
        draftInCorner: inBody(box.left + 2, box.top + 2) || inBody(box.right - 3, box.top + 2),
        draftOverBar: inBody(box.left + 60, bar.bottom - 2),
        radius: getComputedStyle(layer.querySelector('.composer')!).borderTopLeftRadius,
      };
    });
    expect(shown).toEqual({ scrolled: true, barAtTop: true, draftInCorner: false, draftOverBar: false, radius: expect.not.stringMatching(/^0px$/) });
    // The card itself stays where it opened.
    expect(Math.round((await card.boundingBox())!.y)).toBe(Math.round(before.y));
    await composer.getByRole('button', { name: '关闭' }).click();
    await composer.waitFor({ state: 'detached' });
  });});
