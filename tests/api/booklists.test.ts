/**
 * Joint book lists, on PGlite and on PostgreSQL: POST /serv/v1/booklist/detail {code} answers
 * the list the code names (title, intro, cover with its size, books in order, each with its
 * author, cover, one-line reason and link), to anyone; the demo seeds two lists and the
 * sidebar's 读书会书单 leads to one of them; an unknown code answers -1005; a bad body answers
 * -1004 with a Chinese message.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Booklist } from '../../src/shared/schemas.ts';
import { errorOf, isChineseMessage, testAppFor, testDatabases } from '../support/api.ts';

describe.each(testDatabases)('joint book lists on $name', ({ open }) => {
  const app = testAppFor(open);
  const detail = (body: unknown) => app.t.call<Booklist>(api.booklistDetail, body);

  it('answers the list a code names: its cover with its size, and each book with its author, cover, reason and link', async () => {
    const list = (await detail({ code: '2024' })).data();
    expect(list.code).toBe('2024');
    expect(list.title).toContain('书单');
    expect(list.intro.length).toBeGreaterThan(10);
    expect(list.cover).toEqual({ url: expect.stringMatching(/^\/img\/\w+$/), width: 1200, height: 400 });
    expect(list.books.length).toBeGreaterThanOrEqual(5);
    for (const book of list.books) {
      expect(book.title, 'title').toBeTruthy();
      expect(book.author, `${book.title}: author`).toBeTruthy();
      expect(book.reason, `${book.title}: reason`).toBeTruthy();
      expect(book.reason.includes('\n'), `${book.title}: one line`).toBe(false);
      expect(book.cover).toEqual({ url: expect.stringMatching(/^\/img\/\w+$/), width: 300, height: 400 });
      expect(book.link.title, `${book.title}: what the link says`).toBeTruthy();
      if (book.link.type === 'reading') expect(book.link.url).toMatch(/^https:\/\/weread\.qq\.com\//);
      else expect(book.link.id).toBeGreaterThan(0);
    }
    // The learning site's courses and columns, and the reading app's pages, all among them.
    expect(new Set(list.books.map((book) => book.link.type))).toEqual(new Set(['course', 'column', 'reading']));
    expect(list.books[0]!.title).toBe('深入理解计算机系统（原书第3版）');
    // The covers are served, as pictures.
    for (const url of [list.cover.url, list.books[0]!.cover.url]) {
      const picture = await app.t.app.inject({ method: 'GET', url });
      expect([picture.statusCode, picture.headers['content-type']]).toEqual([200, 'image/svg+xml']);
    }
  });

  it('seeds two lists, and the sidebar’s 读书会书单 leads to one of them', async () => {
    const sidebar = (await app.t.call<{ info: { list: { title: string; redirect_param: string }[] } }>(api.exploreList, { page: 'horde', block_name: 'sidebar' })).data();
    const item = sidebar.info.list.find((entry) => entry.title === '读书会书单');
    expect(item?.redirect_param).toMatch(/^\/booklist\/[\w-]+$/);
    const fromSidebar = (await detail({ code: item!.redirect_param.split('/').pop() })).data();
    const other = (await detail({ code: '2025' })).data();
    expect(other.title).not.toBe(fromSidebar.title);
    expect(other.books.map((book) => book.id)).not.toEqual(fromSidebar.books.map((book) => book.id));
  });

  it('needs no login, and answers the same list to a logged-in reader', async () => {
    const anonymous = (await detail({ code: '2025' })).data();
    const { ticket } = await app.t.login('13800000000');
    expect((await app.t.call<Booklist>(api.booklistDetail, { code: '2025' }, { ticket })).data()).toEqual(anonymous);
  });

  it.each(['BOOK2024', 'nothing-here', '2023'])('answers -1005 for the unknown code %s', async (code) => {
    const answer = await detail({ code });
    expect(answer.status).toBe(200);
    expect(errorOf(answer.body)).toEqual({ code: -1005, msg: '书单不存在或已被删除' });
  });

  it.each([
    ['no code', {}],
    ['a number', { code: 2024 }],
    ['null', { code: null }],
    ['an empty code', { code: '' }],
    ['a blank code', { code: '   ' }],
    ['a code of 65 characters', { code: 'a'.repeat(65) }],
    ['a path', { code: '../2024' }],
    ['a list', { code: ['2024'] }],
  ])('answers -1004 with a Chinese message for %s', async (_label, body) => {
    const answer = await detail(body);
    expect(answer.status).toBe(200);
    const error = errorOf(answer.body);
    expect(error?.code).toBe(-1004);
    expect(isChineseMessage(error?.msg), error?.msg).toBe(true);
  });

  it('takes a code with spaces around it as the code', async () => {
    expect((await detail({ code: ' 2024 ' })).data().code).toBe('2024');
  });
});
