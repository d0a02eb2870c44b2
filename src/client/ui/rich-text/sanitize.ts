/**
 * The sanitizer every rendered text goes through (DOMPurify, an instance of its own so its hooks
 * touch nothing else). It keeps exactly what markdown.ts, KaTeX and highlightToHtml write:
 *
 * - elements: Markdown's blocks and inline marks, tables, images; KaTeX's spans, its SVG
 *   (`svg`, `path`, `line`) and MathML; nothing else (no script, style, iframe, object, embed,
 *   form, input, button, meta, link, base, template, foreignObject, animate, set, use...);
 * - attributes: an allowlist (no `on*`, no `id`/`name`, no `data-*`, no `xlink:href`, no
 *   `formaction`, no `srcset`); `style` only as KaTeX writes it (lengths, colours, no `url(`,
 *   no `expression`, no `@`, no escapes);
 * - URLs: `href` only on `<a>`, and only http(s) by isHttpUrl (src/shared/links.ts) or a
 *   same-origin path; `src` only on `<img>`, and only this server's uploads (`/img/{id}`): no
 *   `javascript:`, `data:`, `vbscript:`, `blob:` in any spelling (entities, case, control characters
 *   are decoded by the parser before the check);
 * - links off the provider's domain family get `target="_blank"` and
 *   `rel="noopener noreferrer nofollow ugc"` (a new window that cannot reach back, no referrer,
 *   marked as user content for search engines); links on the family open in place with
 *   `rel="nofollow ugc"`; same-origin paths (in-app links) get neither.
 */
import DOMPurify, { type Config } from 'dompurify';
import { DEFAULT_PROVIDER_DOMAINS } from '#shared/provider-domains.ts';
import { hostOf, isProviderUrl } from '#shared/provider-urls.ts';
import { clientConfig } from '../../platform/runtime-config.ts';
import { EXTERNAL_LINK_REL, PROVIDER_LINK_REL } from './link-rel.ts';
import { isSafeHref, isSafeImageSrc } from './safe-urls.ts';

const MARKDOWN_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'strong', 'em', 's',
  'code', 'pre', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div', 'span',
];
const SVG_TAGS = ['svg', 'path', 'line'];
const MATHML_TAGS = [
  'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub', 'msubsup',
  'mfrac', 'mroot', 'msqrt', 'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd', 'mstyle', 'mpadded',
  'mphantom', 'menclose',
];

const ATTRIBUTES = [
  // Markdown
  'href', 'title', 'src', 'alt', 'start', 'loading', 'class', 'style',
  // KaTeX HTML and SVG
  'aria-hidden', 'width', 'height', 'viewbox', 'preserveaspectratio', 'd', 'x1', 'x2', 'y1', 'y2', 'stroke-width',
  'xmlns',
  // KaTeX MathML
  'encoding', 'display', 'mathvariant', 'mathcolor', 'mathbackground', 'mathsize', 'stretchy', 'fence', 'separator',
  'lspace', 'rspace', 'accent', 'accentunder', 'largeop', 'movablelimits', 'symmetric', 'minsize', 'maxsize',
  'columnalign', 'columnlines', 'columnspacing', 'rowlines', 'rowspacing', 'displaystyle', 'scriptlevel',
  'linethickness', 'depth', 'voffset', 'notation', 'linebreak',
];

/**
 * What DOMPurify lets through as a URL-like attribute value: http(s), or a value that does not
 * start with a scheme at all (lengths, paths, `0 0 400 100`). DOMPurify's default also lets
 * mailto:, tel:, sms: and others through; here they go.
 */
const ALLOWED_URI = /^(?:https?:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** Inline styles as KaTeX writes them: `height:1.2em;vertical-align:-0.25em;color:#cc0000`. */
const SAFE_STYLE = /^(?:\s*[a-z-]+\s*:\s*[-+#a-z0-9.,%\s()]*;?)*\s*$/i;
const UNSAFE_STYLE = /url\s*\(|expression|image|@|\\|var\s*\(|attr\s*\(|env\s*\(|position|content|behaviou?r|-moz-binding/i;
/** Class names as markdown.ts, KaTeX and highlightToHtml write them (never chosen by a user). */
const SAFE_CLASS = /^[A-Za-z][A-Za-z0-9_-]*(?:\s+[A-Za-z][A-Za-z0-9_-]*)*$/;

export const SANITIZE_CONFIG = {
  ALLOWED_TAGS: [...MARKDOWN_TAGS, ...SVG_TAGS, ...MATHML_TAGS],
  ALLOWED_ATTR: ATTRIBUTES,
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  SAFE_FOR_XML: true,
  SANITIZE_DOM: true,
  SANITIZE_NAMED_PROPS: true,
  WHOLE_DOCUMENT: false,
  KEEP_CONTENT: true,
  // Belt and braces: never these, whatever a future allowlist says.
  FORBID_TAGS: ['script', 'style', 'iframe', 'frame', 'object', 'embed', 'form', 'input', 'button', 'textarea', 'select',
    'option', 'meta', 'link', 'base', 'template', 'foreignobject', 'animate', 'set', 'use', 'image', 'video', 'audio',
    'source', 'noscript', 'xmp', 'plaintext', 'noembed', 'noframes', 'mglyph', 'malignmark', 'annotation-xml'],
  FORBID_ATTR: ['id', 'name', 'srcset', 'formaction', 'action', 'xlink:href', 'background', 'ping', 'target', 'rel'],
} satisfies Config;

/** The provider's domain family: DEFAULT_PROVIDER_DOMAINS and the host of the configured learning site. */
function providerDomains(): string[] {
  const learningHost = hostOf(clientConfig.learningSiteUrl);
  return learningHost ? [...DEFAULT_PROVIDER_DOMAINS, learningHost] : [...DEFAULT_PROVIDER_DOMAINS];
}

/** Whether a link is a path of this app: a same-origin path or URL. */
export function isSameOriginHref(href: string, origin: string = window.location.origin): boolean {
  if (href.startsWith('/')) return true;
  try {
    return new URL(href).origin === origin;
  } catch {
    return false;
  }
}

/** Whether a link stays in this window: same origin (in-app) or the provider's domain family. */
export function isInternalHref(href: string, origin: string = window.location.origin): boolean {
  if (href.startsWith('/')) return true;
  try {
    if (new URL(href).origin === origin) return true;
  } catch {
    return false;
  }
  return isProviderUrl(href, providerDomains());
}

type Purifier = ReturnType<typeof DOMPurify>;

/** An instance of its own with the hooks, configured once: a call then skips reading the config again (its sets of tags and attributes). */
function makePurifier(config: Config): Purifier {
  const purify = DOMPurify(window);
  purify.setConfig(config);
  purify.addHook('uponSanitizeAttribute', (node, event) => {
    const name = event.attrName;
    const value = event.attrValue;
    const tag = node.nodeName.toLowerCase();
    if (name === 'href' && (tag !== 'a' || !isSafeHref(value))) event.keepAttr = false;
    else if (name === 'src' && (tag !== 'img' || !isSafeImageSrc(value))) event.keepAttr = false;
    else if (name === 'style' && (!SAFE_STYLE.test(value) || UNSAFE_STYLE.test(value))) event.keepAttr = false;
    else if (name === 'class' && !SAFE_CLASS.test(value)) event.keepAttr = false;
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName.toLowerCase() !== 'a') return;
    const href = node.getAttribute('href');
    if (!href || isSameOriginHref(href)) return;
    if (isInternalHref(href)) {
      node.setAttribute('rel', PROVIDER_LINK_REL);
      return;
    }
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', EXTERNAL_LINK_REL);
  });
  return purify;
}

const FRAGMENT_CONFIG = { ...SANITIZE_CONFIG, RETURN_DOM_FRAGMENT: true as const };
let purifiers: { toFragment: Purifier; toHtml: Purifier } | undefined;

/** Makes the sanitizers, once (RichText does it in a task of its own, before the first render). */
export function prepareSanitizers(): NonNullable<typeof purifiers> {
  purifiers ??= { toFragment: makePurifier(FRAGMENT_CONFIG), toHtml: makePurifier(SANITIZE_CONFIG) };
  return purifiers;
}

// Each call names the config its instance was set to; DOMPurify does not read it again.

/** The sanitized DOM of `html`, ready to cut (cut.ts) and serialize. */
export function sanitizeToFragment(html: string): DocumentFragment {
  return prepareSanitizers().toFragment.sanitize(html, FRAGMENT_CONFIG);
}

/** The sanitized HTML of `html`. */
export function sanitizeHtml(html: string): string {
  return prepareSanitizers().toHtml.sanitize(html, SANITIZE_CONFIG);
}
