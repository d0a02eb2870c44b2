/**
 * Fuzzing every call of the route table and every path outside it, on
 * PGlite and on PostgreSQL, with fast-check: valid bodies mutated (wrong types, missing and
 * extra fields, `__proto__` and `constructor` keys, numbers out of range, strings with NUL,
 * lone surrogates, zero-width and right-to-left characters, 1 MB strings, deep nesting),
 * arbitrary JSON, invalid JSON, wrong content types, empty and 10 MB bodies, bad query
 * strings; visitors, users by cookie and by headers, ended, forged and mismatched tickets.
 *
 * Every answer: no HTTP 500; the envelope, its error message in Chinese without a stack trace
 * or SQL (the image-style ticket delete answers its GIF, /img its picture); a refused request
 * (and any read) changes no row of the database (a row-change counter in triggers, checked
 * after every case; rate-limit windows and login-code tries are bookkeeping a refusal moves).
 *
 * The seed is new each run and printed on failure; FUZZ_SEED=<seed> replays a run, FUZZ_RUNS
 * sets the cases per database (by default 4,000 on PGlite, which answers on the test's own
 * thread, and 6,000 on PostgreSQL: 10,000 per `npm test`); FUZZ_SURVEY=1 runs every case and
 * lists each kind of problem once.
 */
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { routes, OTHER_PATHS, TICKET_COOKIE, type EndpointName } from '../../src/shared/endpoints.ts';
import { isEnvelope } from '../../src/shared/envelope.ts';
import type { Database } from '../../src/server/db/client.ts';
import { lookupTicket } from '../../src/server/services/sessions.ts';
import { createTestApp, isChineseMessage, phoneSource, schemaProblem, type TestApp, type testDatabases } from './api.ts';
import { installChangeCounter } from './changes.ts';
import { makePng } from './images.ts';
import { samples, seededFixtures, type SampleFixtures } from './samples.ts';

/** FUZZ_SURVEY=1: run every case and list each kind of problem once, instead of stopping at the first. */
const SURVEY = process.env.FUZZ_SURVEY === '1';
const survey = new Map<string, string>();
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

/** Limits high enough that the fuzzer reaches the writes themselves (limits have tests of their own). */
const FUZZ_ENV = {
  WRITE_LIMIT_PER_MINUTE: '1000000',
  DAILY_POST_LIMIT: '1000000',
  DAILY_COMPLAINT_LIMIT: '1000000',
  DAILY_COMMENT_LIMIT: '1000000',
  DAILY_NOTE_LIMIT: '1000000',
  DAILY_NICK_CHANGE_LIMIT: '1000000',
  UPLOAD_LIMIT_PER_MINUTE: '1000000',
  DAILY_UPLOAD_LIMIT: '1000000',
  LOGIN_CODE_RESEND_SECONDS: '0',
  REQUEST_LIMIT_PER_ADDRESS: '1000000',
  REQUEST_LIMIT_PER_USER: '1000000',
  COLLECT_BYTES_PER_ADDRESS_PER_HOUR: '1000000000',
};

// ---- values ----

const MEGABYTE = 'a'.repeat(1024 * 1024);
const TEN_MEGABYTES = Buffer.alloc(10 * 1024 * 1024, 0x7b);
const DEEP_ARRAY = '['.repeat(100_000) + ']'.repeat(100_000);
const DEEP_OBJECT = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);

/** Characters that have broken servers: NUL, lone surrogates, zero-width and direction marks, markup, SQL, paths. */
const NASTY = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFFy',
  '\uDC00\uD800',
  '\u200B',
  '\u200D',
  '\uFEFF',
  '\u202E',
  '\u2028',
  '😀',
  '👨‍👩‍👧',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '"; drop table users; --',
  '%00',
  '%zz',
  '../../etc/passwd',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  '\\',
  '\n\r\t',
  ' ',
  '',
  'null',
  '1e309',
  '０１２',
  '١٢٣',
  '13800000000',
  '1',
  '5',
];

/** Strings of UTF-16 code units (lone surrogates included, which fast-check's own units avoid). */
const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 24 });

const strings = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...NASTY), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: codeUnits },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constant(MEGABYTE) },
);

const numbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1, 2, 5, 51, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 1e20, 1e308, -1e308, 5e-324, 0.5, -0),
);

const values: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: strings },
    { weight: 3, arbitrary: numbers },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(strings.filter((key) => key.length < 100), tie('value'), { maxKeys: 4 }) },
  ),
})).value;

// ---- bodies ----

type Mutation =
  | { op: 'tweak'; pick: number; inner: number; text: string; number: number }
  | { op: 'set'; pick: number; value: unknown }
  | { op: 'delete'; pick: number }
  | { op: 'add'; key: string; value: unknown }
  | { op: 'nest'; pick: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ op: fc.constant('tweak' as const), pick: fc.nat(), inner: fc.nat(), text: strings, number: numbers }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('set' as const), pick: fc.nat(), value: values }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('add' as const),
      key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'client_id', 'user_id', 'uid'), strings),
      value: values,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('nest' as const), pick: fc.nat() }) },
);

type Body =
  | { kind: 'sample'; mutations: Mutation[] }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string }
  | { kind: 'huge' };

const RAW_BODIES = [
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '1',
  'true',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '\uFEFF{}',
  '{"a":1,"a":2}',
  '{"post_id":1e999}',
  '{"post_id":-0}',
  'eyJjb250ZW50Ijoi56yU6K6wIn0=',
  DEEP_ARRAY,
  DEEP_OBJECT,
];

const bodies: fc.Arbitrary<Body> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('sample' as const), mutations: fc.array(mutation, { maxLength: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('json' as const), value: values }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('raw' as const), text: fc.oneof(fc.constantFrom(...RAW_BODIES), codeUnits) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'huge' as const }) },
);

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  '',
];
const contentTypes = fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) });

const AUTHS = ['none', 'cookie', 'headers', 'ended', 'forged', 'wrong-device', 'garbage'] as const;
type Auth = (typeof AUTHS)[number];

const OTHER_TARGETS = ['uploadImage', 'images', 'ticketDelete', 'badPath'] as const;
type Target = EndpointName | (typeof OTHER_TARGETS)[number];
const TARGETS = [...(Object.keys(routes) as EndpointName[]), ...OTHER_TARGETS];

interface FuzzCase {
  target: Target;
  auth: Auth;
  body: Body;
  contentType: string;
  /** For GET calls and /img: a raw query instead of one from the body. */
  rawQuery: string | null;
  upload: 'png' | 'bytes' | 'empty' | 'two' | 'field' | null;
  remote: string;
}

const RAW_QUERIES = ['%zz', 'a=%ud800', 'a=%00', 'ticket=%E0%A4%A', 'w=1e9', 'w=-1', 'w=0', `t=${'x'.repeat(20_000)}`, 'a[b]=1', '__proto__[x]=1', 'a=1&a=2', '%'];

/** encodeURIComponent that also takes lone surrogates, as the bytes a careless client sends (WTF-8). */
function encodeLoosely(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[^\uD800-\uDFFF]+|[\uD800-\uDBFF][\uDC00-\uDFFF]/g, (part) => {
    if (part.length === 1 && part.charCodeAt(0) >= 0xd800 && part.charCodeAt(0) <= 0xdfff) {
      const c = part.charCodeAt(0);
      return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(part);
  });
}

const cases: fc.Arbitrary<FuzzCase> = fc.record({
  target: fc.constantFrom(...TARGETS),
  auth: fc.constantFrom(...AUTHS),
  body: bodies,
  contentType: contentTypes,
  rawQuery: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...RAW_QUERIES), codeUnits.map(encodeLoosely)) }),
  upload: fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom('png' as const, 'bytes' as const, 'empty' as const, 'two' as const, 'field' as const) }),
  remote: fc.constantFrom('127.0.0.1', '10.9.0.1', '10.9.0.2', '::1'),
});

/**
 * A value of the same type with hostile content: a string becomes one of the strings, a number
 * one of the numbers; inside an array or an object, one element or field (one level down), so
 * that bodies get past their schemas and the values reach the services and the database.
 */
function tweak(value: unknown, inner: number, text: string, number: number, depth = 0): unknown {
  if (typeof value === 'string') return text;
  if (typeof value === 'number') return number;
  if (depth > 1 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return [text];
    const copy = [...value];
    copy[inner % copy.length] = tweak(copy[inner % copy.length], Math.floor(inner / 7), text, number, depth + 1);
    return copy;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return { [text.slice(0, 64)]: text };
  const key = keys[inner % keys.length]!;
  return { ...value, [key]: tweak((value as Record<string, unknown>)[key], Math.floor(inner / 7), text, number, depth + 1) };
}

function applyMutations(sample: Record<string, unknown>, mutations: Mutation[]): unknown {
  let body: Record<string, unknown> = { ...sample };
  for (const m of mutations) {
    const keys = Object.keys(body);
    const key = keys.length > 0 ? keys[('pick' in m ? m.pick : 0) % keys.length]! : 'x';
    if (m.op === 'tweak') body[key] = tweak(body[key], m.inner, m.text, m.number);
    else if (m.op === 'set') body[key] = m.value;
    else if (m.op === 'delete') delete body[key];
    else if (m.op === 'add') Object.defineProperty(body, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
    else body = { ...body, [key]: { [key]: body[key] } };
  }
  return body;
}

/** The calls after which the fuzzing user may have to log in again. */
const ENDS_TICKETS = new Set<Target>(['logout', 'ticketDelete']);

/** A stack trace, a file path or SQL in a message meant for users. */
const LEAK = /\bat \S+ \(|\.ts:\d+|\.js:\d+|node_modules|\bselect\b.+\bfrom\b|\binsert into\b|\bviolates\b|syntax error|relation "|duplicate key|\bECONN|TypeError|RangeError/i;

/** The fuzzing suite on one database (tests/api/fuzz-pglite.test.ts, fuzz-postgres.test.ts: two files, so they run side by side). */
export function describeFuzz({ name, open }: (typeof testDatabases)[number], defaultRuns: number): void {
  const RUNS_PER_DATABASE = Number(process.env.FUZZ_RUNS ?? defaultRuns);
  describe(`fuzzed requests on ${name}`, () => {
    let opened: { database: Database; stop(): Promise<void> };
    let t: TestApp;
    let changes: () => Promise<number>;
    let fixtures: Omit<SampleFixtures, 'loginPhone' | 'loginCode' | 'codePhone'>;
    const freshPhone = phoneSource(name === 'PGlite' ? '1570001' : '1570002');
    let user: { ticket: string; uid: number; deviceId: string };
    /** A user logged in as an app: the ticket taken as headers. */
    let app: { ticket: string; uid: number; deviceId: string };
    const appLogin = () => t.login(freshPhone(), 'mobile', { deviceId: 'fuzz-app-device-01' });
    let ended: string;
    const counts = { cases: 0, status: new Map<number, number>(), errors: new Map<number, number>() };

    beforeAll(async () => {
      opened = await open();
      t = await createTestApp(opened.database, { env: FUZZ_ENV });
      fixtures = await seededFixtures(opened.database.db);
      user = await t.login(freshPhone(), 'pc');
      app = await appLogin();
      const endedPhone = freshPhone();
      ended = (await t.login(endedPhone, 'mobile')).ticket;
      await t.login(endedPhone, 'mobile'); // ends `ended` by the login mutex: HTTP 452 from now on
      changes = await installChangeCounter(opened.database.db);
    });
    afterAll(async () => {
      console.log(
        `fuzz on ${name}: ${counts.cases} cases (seed ${SEED}); HTTP ${JSON.stringify(Object.fromEntries(counts.status))}; error codes ${JSON.stringify(
          Object.fromEntries([...counts.errors].sort((a, b) => b[1] - a[1])),
        )}`,
      );
      if (SURVEY) for (const [key, example] of survey) console.log(`PROBLEM ${name} ${key}\n    ${example}`);
      await t?.close();
      await opened?.database.close();
      await opened?.stop();
    });

    /** Builds the request of one case. */
    async function requestOf(c: FuzzCase): Promise<InjectOptions> {
      const headers: Record<string, string> = {};
      const cookies: Record<string, string> = {};
      if (c.auth === 'cookie') cookies[TICKET_COOKIE] = user.ticket;
      if (c.auth === 'headers') Object.assign(headers, { ticket: app.ticket, 'device-id': app.deviceId });
      if (c.auth === 'wrong-device') Object.assign(headers, { ticket: app.ticket, 'device-id': 'another-device-0001' });
      if (c.auth === 'ended') cookies[TICKET_COOKIE] = ended;
      if (c.auth === 'forged') cookies[TICKET_COOKIE] = 'A'.repeat(43);
      if (c.auth === 'garbage') Object.assign(headers, { ticket: '\u00ff'.repeat(3), 'device-id': '', cookie: `${TICKET_COOKIE}=%zz; a=%00` });
      const base = { headers, cookies, remoteAddress: c.remote };

      let sampleBody: unknown;
      if (c.target !== 'uploadImage' && c.target !== 'images' && c.target !== 'ticketDelete' && c.target !== 'badPath') {
        // Phones only for the calls that take one (a source holds 9,999).
        const phone = c.target === 'login' ? freshPhone() : '13800000000';
        let loginCode = '000000';
        if (c.target === 'login') {
          await t.call(api.loginCode, { cellphone: phone }, { remoteAddress: `10.8.${counts.cases % 250}.1` });
          loginCode = t.codes.get(phone) ?? loginCode;
        }
        sampleBody = (samples[c.target] as (f: SampleFixtures) => unknown)({ ...fixtures, loginPhone: phone, loginCode, codePhone: c.target === 'loginCode' ? freshPhone() : '13800000000' });
      }

      const jsonOf = (): string | Buffer => {
        if (c.body.kind === 'huge') return TEN_MEGABYTES;
        if (c.body.kind === 'raw') return c.body.text;
        const value = c.body.kind === 'json' ? c.body.value : applyMutations((sampleBody ?? {}) as Record<string, unknown>, c.body.mutations);
        return JSON.stringify(value) ?? '';
      };
      const queryOf = (): string => {
        if (c.rawQuery !== null) return `?${c.rawQuery}`;
        const value = c.body.kind === 'sample' ? applyMutations((sampleBody ?? {}) as Record<string, unknown>, c.body.mutations) : c.body.kind === 'json' ? c.body.value : {};
        if (!value || typeof value !== 'object') return '';
        const params = new URLSearchParams();
        for (const [key, v] of Object.entries(value)) params.append(key, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
        const query = params.toString();
        return query ? `?${query}` : '';
      };

      switch (c.target) {
        case 'images': {
          const id = c.body.kind === 'raw' ? encodeLoosely(c.body.text).slice(0, 300) : fixtures.avatarUrl.slice('/img/'.length);
          return { ...base, method: 'GET', url: `${OTHER_PATHS.images}/${id}${queryOf()}` };
        }
        case 'ticketDelete':
          return { ...base, method: 'GET', url: `${OTHER_PATHS.ticketDelete}${queryOf()}` };
        case 'badPath':
          return { ...base, method: c.body.kind === 'raw' ? 'PUT' : 'POST', url: `/serv/v1/${encodeLoosely(String(c.rawQuery ?? 'x'))}/%zz`, payload: jsonOf() };
        case 'uploadImage': {
          if (c.upload === null) return { ...base, method: 'POST', url: OTHER_PATHS.uploadImage, headers: { ...headers, 'content-type': c.contentType }, payload: jsonOf() };
          const boundary = 'fuzzboundary';
          const part = (name: string, bytes: Buffer, file = true) =>
            Buffer.concat([
              Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.png"\r\nContent-Type: image/png' : ''}\r\n\r\n`),
              bytes,
              Buffer.from('\r\n'),
            ]);
          const png = await pngOnce();
          const randomBytes = Buffer.from(typeof jsonOf() === 'string' ? (jsonOf() as string).slice(0, 5000) : 'x');
          const parts =
            c.upload === 'png'
              ? [part('file', png)]
              : c.upload === 'bytes'
                ? [part('file', randomBytes)]
                : c.upload === 'empty'
                  ? [part('file', Buffer.alloc(0))]
                  : c.upload === 'two'
                    ? [part('file', png), part('file', png)]
                    : [part('text', randomBytes, false)];
          const payload = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
          return { ...base, method: 'POST', url: OTHER_PATHS.uploadImage, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
        }
        default: {
          const route = routes[c.target];
          if (route.method === 'GET') return { ...base, method: 'GET', url: `${route.path}${queryOf()}` };
          return {
            ...base,
            method: 'POST',
            url: route.path,
            headers: c.contentType ? { ...headers, 'content-type': c.contentType } : headers,
            payload: jsonOf(),
          };
        }
      }
    }

    let png: Buffer | undefined;
    async function pngOnce(): Promise<Buffer> {
      png ??= await makePng(4, 3);
      return png;
    }

    /** What every answer must be; returns a description of what is wrong, or null. */
    function problemOf(c: FuzzCase, response: LightMyRequestResponse, changed: number): string | null {
      const status = response.statusCode;
      if (status >= 500) return `HTTP ${status}: ${response.body.slice(0, 300)}`;
      if (![200, 404, 452].includes(status)) return `HTTP ${status} is not an answer of ours`;
      const type = String(response.headers['content-type'] ?? '');
      if (c.target === 'ticketDelete') return type === 'image/gif' ? null : `ticket delete answered ${type}`;
      if (c.target === 'images' && status === 200 && type.startsWith('image/')) return null;
      let body: unknown;
      try {
        body = response.json();
      } catch {
        return `not JSON (${type}): ${response.body.slice(0, 200)}`;
      }
      if (!isEnvelope(body)) return `not the envelope: ${response.body.slice(0, 200)}`;
      counts.errors.set(body.code === 0 ? 0 : body.error.code, (counts.errors.get(body.code === 0 ? 0 : body.error.code) ?? 0) + 1);
      if (body.code !== 0) {
        if (!isChineseMessage(body.error.msg)) return `message not in Chinese: ${body.error.msg}`;
        if (LEAK.test(body.error.msg)) return `message leaks internals: ${body.error.msg}`;
        if (changed !== 0) return `refused (${body.error.code} ${body.error.msg}) but ${changed} rows changed`;
      } else if (c.target in routes && routes[c.target as EndpointName].kind === 'read' && changed !== 0) {
        return `a read changed ${changed} rows`;
      }
      if (body.code === 0 && c.target in api) {
        const problem = schemaProblem(api[c.target as EndpointName], body.data);
        if (problem) return `${problem}: ${response.body.slice(0, 200)}`;
      }
      return null;
    }

    it(`answers ${RUNS_PER_DATABASE} fuzzed requests with the envelope, never a 500, and refusals change nothing`, { timeout: 600_000 }, async () => {
      let seen = await changes();
      const property = fc.asyncProperty(cases, async (c) => {
        counts.cases++;
        const request = await requestOf(c);
        // What preparing the case changed (a login code for the login call) is not the case's.
        if (c.target === 'login') seen = await changes();
        const response = await t.app.inject(request);
        const now = await changes();
        const changed = now - seen;
        seen = now;
        counts.status.set(response.statusCode, (counts.status.get(response.statusCode) ?? 0) + 1);
        const problem = problemOf(c, response, changed);
        // A case may end the fuzzing user's ticket (logout, ticket delete): log in again.
        if (ENDS_TICKETS.has(c.target) && (await lookupTicket(opened.database.db, user.ticket)).state !== 'valid') {
          user = await t.login(freshPhone(), 'pc');
          seen = await changes();
        }
        if (ENDS_TICKETS.has(c.target) && (await lookupTicket(opened.database.db, app.ticket)).state !== 'valid') {
          app = await appLogin();
          seen = await changes();
        }
        if (problem && SURVEY) {
          const key = `${c.target} ${problem.slice(0, 120)}`;
          if (!survey.has(key)) survey.set(key, `${request.method} ${String(request.url).slice(0, 120)} (${c.auth}) ${JSON.stringify(c).slice(0, 300)}`);
          return;
        }
        if (problem) throw new Error(`${request.method} ${String(request.url).slice(0, 200)} (${c.auth}): ${problem}`);
      });
      try {
        await fc.assert(property, { numRuns: RUNS_PER_DATABASE, seed: SEED, endOnFailure: true });
      } catch (error) {
        const cause = (error as Error & { cause?: Error }).cause?.message ?? '';
        throw new Error(`fuzzing on ${name} failed with seed ${SEED} (replay: FUZZ_SEED=${SEED}):\n${cause}\n${(error as Error).message.slice(0, 3000)}`);
      }
      expect(counts.cases).toBeGreaterThanOrEqual(RUNS_PER_DATABASE);
    });
  });
}
