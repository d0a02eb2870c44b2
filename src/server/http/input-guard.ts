/**
 * Text the database cannot hold never reaches it: PostgreSQL refuses a NUL character in text
 * and jsonb, and jsonb refuses a lone UTF-16 surrogate, each as an error that would surface as
 * an HTTP 500 halfway through a request (after a login code was spent, say). Every string and
 * every key of the body, the query and the path parameters is checked before validation runs,
 * so such a request is a -1004 that has done nothing.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';

/**
 * How deep a JSON body may nest. The contract's deepest body is four levels (a tracking batch:
 * object, events, event, properties); the rest is margin for whatever a client adds.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `text` opens more than `limit` arrays and objects inside each other, brackets in
 * strings not counted. One pass and no tree: a body nested 400,000 deep costs what its bytes
 * cost, where parsing it and walking the result cost the thread far more. Bytes of UTF-8 or
 * characters alike: the brackets, quote and backslash are ASCII, which no multi-byte character contains.
 */
export function jsonNestsDeeperThan(text: Uint8Array | string, limit: number): boolean {
  const bytes = typeof text === 'string' ? undefined : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = bytes ? bytes[i]! : (text as string).charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

const tooDeep = () => badRequest(`请求体嵌套过深（最多 ${MAX_JSON_DEPTH} 层）`);

/** JSON text (or its UTF-8) of a body made a value, nesting checked first; a bad one is a -1004. */
export function parseJsonBody(text: string | Buffer, invalidMessage = '请求体不是有效的 JSON'): unknown {
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) throw tooDeep();
  try {
    return JSON.parse(text.toString());
  } catch {
    throw badRequest(invalidMessage);
  }
}

/** A NUL, or a surrogate without its other half. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The path (`content`, `events.0.properties`) of the first string or key in `value` that the
 * database cannot store, or null. Walks with a stack of its own: a body nested 100,000 deep
 * must not overflow the call stack.
 */
export function findUnstorableText(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isStorableText(key)) return childPath;
        stack.push({ value: child, path: childPath });
      }
    }
  }
  return null;
}

export function installInputGuard(app: FastifyInstance): void {
  // JSON bodies have their nesting counted on their bytes, before they are even decoded (a refused
  // one costs no more); the rest is Fastify's own parser (a __proto__ or constructor key refused).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as Buffer, MAX_JSON_DEPTH)) return done(tooDeep(), undefined);
    return parseJson(request, body.toString('utf8'), done);
  });
  // Text bodies are JSON where a route takes one (a tracking beacon, a base64 note): counted alike.
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) => {
    if (jsonNestsDeeperThan(body as Buffer, MAX_JSON_DEPTH)) return done(tooDeep(), undefined);
    return done(null, body.toString('utf8'));
  });
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = findUnstorableText(part);
      if (path !== null) {
        const where = path ? `${path.replace(/[^\p{L}\p{N}_.]/gu, '?').slice(0, 60)} ` : '';
        throw badRequest(`请求参数错误：${where}含有无法保存的字符（NUL 或不成对的代理字符）`);
      }
    }
  });
}
