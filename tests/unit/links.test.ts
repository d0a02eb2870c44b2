// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { findLinks, isHttpUrl, splitLinks } from '#shared/links.ts';

describe('links', () => {
  it('recognises absolute http and https URLs only', () => {
    expect(isHttpUrl('https://time.geekbang.org/column/intro/100')).toBe(true);
    expect(isHttpUrl('http://localhost:3000/a?b=1#c')).toBe(true);
    expect(isHttpUrl('HTTPS://EXAMPLE.COM')).toBe(true);
    expect(isHttpUrl(' https://example.com ')).toBe(true);
    expect(isHttpUrl('ftp://example.com')).toBe(false);
    expect(isHttpUrl('javascript:alert(1)')).toBe(false);
    expect(isHttpUrl('https://')).toBe(false);
    expect(isHttpUrl('https://exa mple.com')).toBe(false);
    expect(isHttpUrl('example.com')).toBe(false);
  });

  it('finds links in free text, stopping at Chinese text and trailing punctuation', () => {
    const text = '看这里https://time.geekbang.org/column/article/1?x=1。还有 (http://a.cn/b), 以及 https://b.com/c.';
    expect(findLinks(text).map((link) => link.url)).toEqual([
      'https://time.geekbang.org/column/article/1?x=1',
      'http://a.cn/b',
      'https://b.com/c',
    ]);
    const first = findLinks(text)[0]!;
    expect(text.slice(first.start, first.end)).toBe(first.url);
  });

  it('keeps balanced brackets inside a URL', () => {
    expect(findLinks('see https://en.wikipedia.org/wiki/Foo_(bar) now').map((l) => l.url)).toEqual([
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    ]);
  });

  it('ignores a scheme glued to a word', () => {
    expect(findLinks('xhttps://evil.com')).toEqual([]);
  });

  it('splits text into plain and link parts', () => {
    expect(splitLinks('a https://x.cn b')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'link', text: 'https://x.cn', url: 'https://x.cn' },
      { type: 'text', text: ' b' },
    ]);
    expect(splitLinks('no links')).toEqual([{ type: 'text', text: 'no links' }]);
  });
});
