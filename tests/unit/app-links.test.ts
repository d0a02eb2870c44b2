// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { appLink, encodeQuery, learningSiteUrl, webPath, type AppTarget } from '../../src/client/platform/app-links.ts';

const SCHEME = 'geektime://';
const BASE = 'https://time.geekbang.org';

describe('webPath', () => {
  it('builds the web paths of SPEC section 2', () => {
    expect(webPath({ name: 'hordeInfoCenter', userId: 42 })).toBe('/usercenter/42');
    expect(webPath({ name: 'hordePostDetail', postId: 7, tab: 1 })).toBe('/message/detail/7?tab=1');
    expect(webPath({ name: 'hordePostDetail', postId: '7' })).toBe('/message/detail/7');
    expect(webPath({ name: 'topicDetail', topicId: 3, topicName: 'Rust' })).toBe('/topic/comment/3');
  });

  it('encodes path segments', () => {
    expect(webPath({ name: 'hordeInfoCenter', userId: 'a/b c' })).toBe('/usercenter/a%2Fb%20c');
  });

  it('is null for targets that are not pages of this app', () => {
    const target: AppTarget = { name: 'article', id: 1 };
    expect(webPath(target)).toBeNull();
  });
});

describe('learningSiteUrl', () => {
  it('builds the learning-site URLs', () => {
    expect(learningSiteUrl({ name: 'courseIntro', id: 100 }, BASE)).toBe(`${BASE}/course/intro/100`);
    expect(learningSiteUrl({ name: 'courseDetail', id: 100, aid: 5 }, BASE)).toBe(`${BASE}/course/detail/100-5`);
    expect(learningSiteUrl({ name: 'article', id: 9 }, BASE)).toBe(`${BASE}/column/article/9`);
    expect(learningSiteUrl({ name: 'columnIntro', id: 8 }, BASE)).toBe(`${BASE}/column/intro/8`);
    expect(learningSiteUrl({ name: 'columnDetail', id: 8 }, BASE)).toBe(`${BASE}/column/intro/8`);
    expect(learningSiteUrl({ name: 'dailyCollection', collectionId: 6 }, BASE)).toBe(`${BASE}/dailylesson/collection/6`);
  });

  it('tolerates a trailing slash on the base and an empty base', () => {
    expect(learningSiteUrl({ name: 'article', id: 9 }, `${BASE}/`)).toBe(`${BASE}/column/article/9`);
    expect(learningSiteUrl({ name: 'article', id: 9 }, '')).toBe('/column/article/9');
  });

  it('is null for other targets', () => {
    const target: AppTarget = { name: 'login' };
    expect(learningSiteUrl(target, BASE)).toBeNull();
  });
});

describe('appLink', () => {
  it('builds ${scheme}${name}?${query} for every target', () => {
    const cases: Array<[AppTarget, string]> = [
      [{ name: 'classroom', tab: 2 }, 'classroom?tab=2'],
      [{ name: 'classroom' }, 'classroom'],
      [{ name: 'hordeInfoCenter', userId: 42 }, 'hordeInfoCenter?userId=42'],
      [{ name: 'hordePostDetail', postId: 7, tab: 1 }, 'hordePostDetail?postId=7&tab=1'],
      [{ name: 'hordePostDetail', postId: 7 }, 'hordePostDetail?postId=7'],
      [{ name: 'courseIntro', id: 1 }, 'courseIntro?id=1'],
      [{ name: 'courseDetail', id: 1, aid: 2 }, 'courseDetail?id=1&aid=2'],
      [{ name: 'article', id: 3 }, 'article?id=3'],
      [{ name: 'columnDetail', id: 4 }, 'columnDetail?id=4'],
      [{ name: 'columnIntro', id: 5 }, 'columnIntro?id=5'],
      [{ name: 'dailyCollection', collectionId: 6 }, 'dailyCollection?collectionId=6'],
      [{ name: 'topicDetail', topicId: 8, topicName: 'Go 语言' }, 'topicDetail?topicId=8&topicName=Go%20%E8%AF%AD%E8%A8%80'],
      [{ name: 'noteDetail', id: 9, backlevel: 1 }, 'noteDetail?id=9&backlevel=1'],
      [{ name: 'nativeNoteDetail', id: 9 }, 'nativeNoteDetail?id=9'],
      [{ name: 'login' }, 'login'],
      [
        { name: 'webview', url: 'https://time.geekbang.org/a?b=1&c=2#d' },
        'webview?url=https%3A%2F%2Ftime.geekbang.org%2Fa%3Fb%3D1%26c%3D2%23d',
      ],
      [{ name: 'nativeWebView', url: 'https://x.cn/' }, 'nativeWebView?url=https%3A%2F%2Fx.cn%2F'],
    ];
    for (const [target, expected] of cases) expect(appLink(target, SCHEME)).toBe(`${SCHEME}${expected}`);
  });

  it('round-trips parameters through URL parsing', () => {
    const url = 'https://time.geekbang.org/x?y=1&z=a b';
    const link = appLink({ name: 'webview', url }, SCHEME);
    expect(new URL(link).searchParams.get('url')).toBe(url);
  });
});

describe('encodeQuery', () => {
  it('skips undefined values and keeps the order', () => {
    expect(encodeQuery({ a: 1, b: undefined, c: 'x y' })).toBe('a=1&c=x%20y');
    expect(encodeQuery({})).toBe('');
  });
});
