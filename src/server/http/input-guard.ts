/**
 * Text the database cannot hold never reaches it: PostgreSQL refuses a NUL character in text
 * and jsonb, and jsonb refuses a lone UTF-16 surrogate, each as an error that would surface as
 * an HTTP 500 halfway through a request (after a login code was spent, say). Every string and
 * every key of the body, the query and the path parameters is checked before validation runs,
 * so such a request is a -1004 that has done nothing.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';

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
