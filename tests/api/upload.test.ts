/**
 * upload/image and /img/{id}?w=, on PostgreSQL (behaviour: one engine): PNG, JPEG, WebP and GIF
 * (made with sharp here) are stored for their uploader and answered as {url, width, height}; a
 * JPEG turned by EXIF is stored upright without its EXIF (GPS included); anything that is not
 * one of the four by its bytes, too large, too many pixels, no file or no multipart at all answers
 * -1007 in the JSON envelope (HTTP 200, a Chinese message); uploads count per minute (-2005) and
 * per day (-2006). Variants: ?w= snaps to IMAGE_VARIANT_WIDTHS, is never wider than the
 * original, is made once and kept in image_variants, cached like the original; a bad w is -1004.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_VARIANT_WIDTHS } from '../../src/shared/constants.ts';
import { OTHER_PATHS, TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import type { Envelope } from '../../src/shared/envelope.ts';
import type { UploadedImage } from '../../src/shared/schemas.ts';
import { UPLOAD_MAX_PIXELS } from '../../src/server/services/uploads.ts';
import { snapVariantWidth } from '../../src/server/services/images.ts';
import { createTestApp, isChineseMessage, phoneSource, testAppFor, behaviourDatabases } from '../support/api.ts';
import { queryRows } from '../support/db.ts';
import { makeGif, makeJpeg, makePng, makeWebp, multipart, picture, send, upload } from '../support/images.ts';

const errorOf = (body: Envelope<unknown>) => (body.code === 0 ? undefined : body.error);

/** The answer is an envelope error of `code` with a Chinese message, sent as JSON with HTTP 200. */
function expectRefused(answer: { response: LightMyRequestResponse; body: Envelope<unknown> }, code: number, what: string) {
  expect(answer.response.statusCode, what).toBe(200);
  expect(answer.response.headers['content-type'], what).toMatch(/^application\/json/);
  expect(errorOf(answer.body)?.code, `${what}: ${JSON.stringify(answer.body)}`).toBe(code);
  expect(isChineseMessage(errorOf(answer.body)?.msg), errorOf(answer.body)?.msg).toBe(true);
}

const dataOf = (body: Envelope<UploadedImage>): UploadedImage => {
  if (body.code !== 0) throw new Error(`expected an upload, got ${JSON.stringify(body)}`);
  return body.data;
};

describe('snapVariantWidth', () => {
  it('snaps down to IMAGE_VARIANT_WIDTHS, below the smallest to the smallest', () => {
    expect(snapVariantWidth(1)).toBe(80);
    expect(snapVariantWidth(80)).toBe(80);
    expect(snapVariantWidth(300)).toBe(160);
    expect(snapVariantWidth(320)).toBe(320);
    expect(snapVariantWidth(1000)).toBe(960);
    expect(snapVariantWidth(999_999)).toBe(IMAGE_VARIANT_WIDTHS.at(-1));
  });
});

describe.each(behaviourDatabases)('upload/image and /img on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560009');

  const imageRows = (userId: number) =>
    queryRows<{ id: string; mime: string; width: number; height: number }>(
      app.database.db,
      sql`select id, mime, width, height from images where user_id = ${userId} order by created_at, id`,
    );
  const get = (url: string) => app.t.app.inject({ method: 'GET', url });

  it('stores PNG, JPEG, WebP and GIF for their uploader and serves them at the answered url, cached for good', async () => {
    const me = await app.t.login(freshPhone());
    const cases = [
      { make: makePng, format: 'png', mime: 'image/png', filename: 'a.png' },
      { make: makeJpeg, format: 'jpeg', mime: 'image/jpeg', filename: 'b.jpg' },
      { make: makeWebp, format: 'webp', mime: 'image/webp', filename: 'c.webp' },
      { make: () => makeGif(30, 20, 1), format: 'gif', mime: 'image/gif', filename: 'd.gif' },
    ];
    for (const { make, format, mime, filename } of cases) {
      const answer = await upload(app.t, me.ticket, await make(30, 20), { filename, type: mime });
      const data = dataOf(answer.body);
      expect(data, format).toEqual({ url: expect.stringMatching(/^\/img\/[0-9a-f]{32}$/), width: 30, height: 20 });
      const served = await get(data.url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(mime);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(served.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 30, 20]);
    }
    const rows = await imageRows(me.uid);
    expect(rows.map((row) => row.mime)).toEqual(cases.map((c) => c.mime));
  });

  it('ignores the name and type the client gives: the bytes decide', async () => {
    const me = await app.t.login(freshPhone());
    const answer = await upload(app.t, me.ticket, await makeJpeg(12, 10), { filename: 'x.png', type: 'image/png' });
    const served = await get(dataOf(answer.body).url);
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it('turns a JPEG by its EXIF orientation, answers the size after turning, and keeps no EXIF (GPS gone)', async () => {
    const me = await app.t.login(freshPhone());
    const original = await picture(60, 20)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Make: 'TestCam', Model: 'X1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '39/1 54/1 2700/100' } })
      .toBuffer();
    const before = await sharp(original).metadata();
    expect([before.width, before.height, before.orientation]).toEqual([60, 20, 6]);
    expect(before.exif?.includes('TestCam')).toBe(true);
    // The GPS IFD pointer (tag 0x8825), little-endian as libexif writes it.
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);

    const data = dataOf((await upload(app.t, me.ticket, original, { filename: 'IMG_0001.JPG', type: 'image/jpeg' })).body);
    expect([data.width, data.height]).toEqual([20, 60]);
    const stored = (await get(data.url)).rawPayload;
    const after = await sharp(stored).metadata();
    expect([after.width, after.height, after.orientation]).toEqual([20, 60, undefined]);
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(stored.includes('TestCam')).toBe(false);
    const [row] = (await imageRows(me.uid)).filter((r) => data.url.endsWith(r.id));
    expect([row?.width, row?.height]).toEqual([20, 60]);
  });

  it('keeps an animated GIF animated, answering the size of one frame', async () => {
    const me = await app.t.login(freshPhone());
    const data = dataOf((await upload(app.t, me.ticket, await makeGif(40, 30, 4), { filename: 'a.gif', type: 'image/gif' })).body);
    expect([data.width, data.height]).toEqual([40, 30]);
    const meta = await sharp((await get(data.url)).rawPayload, { animated: true }).metadata();
    expect([meta.format, meta.pages, meta.pageHeight]).toEqual(['gif', 4, 30]);
  });

  it('refuses what is not a PNG, JPEG, WebP or GIF by its bytes, whatever its name (-1007), storing nothing', async () => {
    const me = await app.t.login(freshPhone());
    const png = await makePng();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    const cases: [string, Buffer | string, string][] = [
      ['a text file named x.png', 'just some text, not a picture', 'x.png'],
      ['an SVG named .png', svg, 'x.png'],
      ['HTML named .png', '<!doctype html><html><body><script>alert(1)</script></body></html>', 'x.png'],
      ['a BMP', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), 'x.bmp'],
      ['a PNG signature with nothing after it', png.subarray(0, 8), 'x.png'],
      ['half a PNG', png.subarray(0, Math.floor(png.length / 2)), 'x.png'],
      ['a JPEG signature and noise', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]), 'x.jpg'],
      ['an empty file', '', 'x.png'],
    ];
    for (const [what, data, filename] of cases) expectRefused(await upload(app.t, me.ticket, data, { filename }), -1007, what);
    expect(await imageRows(me.uid)).toEqual([]);
  });

  it('refuses a decompression bomb (more pixels than UPLOAD_MAX_PIXELS) before decoding it', async () => {
    const me = await app.t.login(freshPhone());
    const side = Math.ceil(Math.sqrt(UPLOAD_MAX_PIXELS)) + 100;
    const bomb = await sharp({ create: { width: side, height: side, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const answer = await upload(app.t, me.ticket, bomb);
    expectRefused(answer, -1007, 'bomb');
    expect(errorOf(answer.body)?.msg).toContain('尺寸过大');
    expect(await imageRows(me.uid)).toEqual([]);
  });

  it('answers the envelope for no file, no multipart, a visitor: never an HTTP error or a 500', async () => {
    const me = await app.t.login(freshPhone());
    const noFile = multipart([{ name: 'note', data: 'hello' }]);
    expectRefused(await send(app.t, me.ticket, noFile.payload, noFile.headers), -1007, 'only a field');
    const empty = multipart([]);
    expectRefused(await send(app.t, me.ticket, empty.payload, empty.headers), -1007, 'an empty form');
    expectRefused(await send(app.t, me.ticket, '{"file":"x"}', { 'content-type': 'application/json' }), -1007, 'JSON');
    expectRefused(await send(app.t, me.ticket, 'file', { 'content-type': 'text/plain' }), -1007, 'text');
    expectRefused(await send(app.t, me.ticket, await makePng(), { 'content-type': 'image/png' }), -1007, 'a bare PNG body');
    expectRefused(await send(app.t, me.ticket, 'x', { 'content-type': 'multipart/form-data' }), -1007, 'multipart without a boundary');
    const cut = multipart([{ name: 'file', filename: 'a.png', type: 'image/png', data: await makePng() }]);
    expectRefused(
      await send(app.t, me.ticket, cut.payload.subarray(0, cut.payload.length - 40), cut.headers),
      -1007,
      'a form cut short',
    );
    expectRefused(await send(app.t, me.ticket, Buffer.alloc(0), { 'content-type': 'multipart/form-data; boundary=x' }), -1007, 'an empty body');
    expectRefused(await upload(app.t, undefined, await makePng()), -2000, 'a visitor');
    expect(await imageRows(me.uid)).toEqual([]);
  });

  it('refuses a file over UPLOAD_MAX_BYTES with -1007 in the JSON envelope, never a 413 page', async () => {
    const small = await createTestApp(app.database, { env: { UPLOAD_MAX_BYTES: '20000' } });
    try {
      const me = await small.login(freshPhone());
      const big = await makePng(100, 100);
      expect(big.length).toBeGreaterThan(20000);
      const answer = await upload(small, me.ticket, big);
      expectRefused(answer, -1007, 'too large');
      expect(errorOf(answer.body)?.msg).toContain('19.5KB');
      const fits = await makePng(60, 60);
      expect(fits.length).toBeLessThan(20000);
      expect(dataOf((await upload(small, me.ticket, fits)).body).width).toBe(60);
      // Larger than the JSON body limit too, sent as a bare body.
      expectRefused(await send(small, me.ticket, Buffer.alloc(2 * 1024 * 1024, 1), { 'content-type': 'application/json' }), -1007, 'a huge JSON body');
      expect((await imageRows(me.uid)).length).toBe(1);

      // Over a real socket, as a browser sends it: the answer arrives whole while 3 MB are still coming.
      const address = await small.app.listen({ port: 0, host: '127.0.0.1' });
      const form = new FormData();
      form.append('file', new Blob([Buffer.alloc(3 * 1024 * 1024, 0x89)], { type: 'image/png' }), 'huge.png');
      const response = await fetch(`${address}${OTHER_PATHS.uploadImage}`, {
        method: 'POST',
        body: form,
        headers: { accept: 'application/json', cookie: `${TICKET_COOKIE}=${me.ticket}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(errorOf((await response.json()) as Envelope<unknown>)?.code).toBe(-1007);
    } finally {
      await small.close();
    }
  });

  it('counts uploads per minute (-2005) and per day (-2006) in the database; a refused picture uses no daily upload', async () => {
    const perMinute = await createTestApp(app.database, { env: { UPLOAD_LIMIT_PER_MINUTE: '2' } });
    const daily = await createTestApp(app.database, { env: { DAILY_UPLOAD_LIMIT: '2' } });
    try {
      const png = await makePng(8, 8);
      const me = await perMinute.login(freshPhone());
      expect((await upload(perMinute, me.ticket, png)).body.code).toBe(0);
      expect((await upload(perMinute, me.ticket, png)).body.code).toBe(0);
      expectRefused(await upload(perMinute, me.ticket, png), -2005, 'third in a minute');
      await app.database.db.execute(
        sql`update rate_limits set window_start = window_start - interval '61 seconds' where key = ${`upload:user:${me.uid}`}`,
      );
      expect((await upload(perMinute, me.ticket, png)).body.code).toBe(0);

      const other = await daily.login(freshPhone());
      expectRefused(await upload(daily, other.ticket, 'not a picture'), -1007, 'not a picture');
      expect((await upload(daily, other.ticket, png)).body.code).toBe(0);
      expect((await upload(daily, other.ticket, png)).body.code).toBe(0);
      const third = await upload(daily, other.ticket, png);
      expectRefused(third, -2006, 'third today');
      expect(errorOf(third.body)?.msg).toBe('今日操作已达上限');
      expect((await imageRows(other.uid)).length).toBe(2);
    } finally {
      await perMinute.close();
      await daily.close();
    }
  });

  it('serves ?w= as a narrower copy, snapped, made once and kept in image_variants, never wider than the original', async () => {
    const me = await app.t.login(freshPhone());
    const data = dataOf((await upload(app.t, me.ticket, await makeJpeg(1000, 500), { filename: 'wide.jpg', type: 'image/jpeg' })).body);
    const id = data.url.split('/').pop()!;
    const original = await get(data.url);
    const variants = () =>
      queryRows<{ width: number; height: number; mime: string }>(
        app.database.db,
        sql`select width, height, mime from image_variants where image_id = ${id} order by width`,
      );

    const at320 = await get(`${data.url}?w=320`);
    expect(at320.statusCode).toBe(200);
    expect(at320.headers['content-type']).toBe('image/jpeg');
    expect(at320.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(at320.rawPayload.length).toBeLessThan(original.rawPayload.length);
    const meta = await sharp(at320.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 160]);
    expect(await variants()).toEqual([{ width: 320, height: 160, mime: 'image/jpeg' }]);

    // Snapped down (300 -> 160, 5 -> 80, 1000 -> 960); at or above the original: the original itself.
    expect((await sharp((await get(`${data.url}?w=300`)).rawPayload).metadata()).width).toBe(160);
    expect((await sharp((await get(`${data.url}?w=5`)).rawPayload).metadata()).width).toBe(80);
    expect((await sharp((await get(`${data.url}?w=1000`)).rawPayload).metadata()).width).toBe(960);
    const huge = await get(`${data.url}?w=1920`);
    expect(huge.rawPayload.equals(original.rawPayload)).toBe(true);
    expect((await variants()).map((v) => v.width)).toEqual([80, 160, 320, 960]);

    // Kept: the stored copy is what every later request (any process) gets.
    await app.database.db.execute(sql`update image_variants set bytes = ${Buffer.from('stored-copy')} where image_id = ${id} and width = 320`);
    const other = await createTestApp(app.database);
    try {
      const again = await other.app.inject({ method: 'GET', url: `${data.url}?w=480` });
      expect((await sharp(again.rawPayload).metadata()).width).toBe(480);
      expect((await other.app.inject({ method: 'GET', url: `${data.url}?w=400` })).rawPayload.toString()).toBe('stored-copy');
    } finally {
      await other.close();
    }
  });

  it('keeps one copy when two processes are asked for it at once, and keeps an animated GIF animated', async () => {
    const me = await app.t.login(freshPhone());
    const data = dataOf((await upload(app.t, me.ticket, await makeGif(400, 200, 3), { filename: 'a.gif', type: 'image/gif' })).body);
    const other = await createTestApp(app.database);
    let answers: LightMyRequestResponse[];
    try {
      answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? other.app : app.t.app).inject({ method: 'GET', url: `${data.url}?w=160` })),
      );
    } finally {
      await other.close();
    }
    for (const answer of answers) expect([answer.statusCode, answer.headers['content-type']]).toEqual([200, 'image/gif']);
    const meta = await sharp(answers[0]!.rawPayload, { animated: true }).metadata();
    expect([meta.width, meta.pageHeight, meta.pages]).toEqual([160, 80, 3]);
    const [row] = await queryRows<{ n: number }>(
      app.database.db,
      sql`select count(*)::int as n from image_variants where image_id = ${data.url.split('/').pop()!}`,
    );
    expect(row?.n).toBe(1);
  });

  it('answers the seed SVG as it is for any w, and an envelope for a bad w or an unknown image (never 500)', async () => {
    const [seeded] = await queryRows<{ id: string }>(app.database.db, sql`select id from images where mime = 'image/svg+xml' limit 1`);
    const svg = await get(`/img/${seeded!.id}?w=80`);
    expect([svg.statusCode, svg.headers['content-type']]).toEqual([200, 'image/svg+xml']);
    expect(svg.body).toContain('<svg');

    const me = await app.t.login(freshPhone());
    const { url } = dataOf((await upload(app.t, me.ticket, await makePng(200, 100))).body);
    for (const w of ['abc', '-1', '0', '1.5', '', '1e3', '9999999', '320&w=640', 'x'.repeat(5000)]) {
      const answer = await get(`${url}?w=${w}`);
      expect(answer.statusCode, w.slice(0, 20)).toBe(200);
      expect((answer.json() as Envelope<unknown>).code, w.slice(0, 20)).toBe(-1);
      const error = errorOf(answer.json() as Envelope<unknown>);
      expect(error?.code, w.slice(0, 20)).toBe(-1004);
      expect(isChineseMessage(error?.msg), error?.msg).toBe(true);
    }
    const missing = await get('/img/00000000000000000000000000000000?w=320');
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing.json() as Envelope<unknown>)?.code).toBe(-1005);
    // An id longer than the router takes (never a 414), an id that does not decode, an id beyond 64.
    const tooLong = await get(`/img/${'a'.repeat(200)}?w=320`);
    expect([tooLong.statusCode, errorOf(tooLong.json() as Envelope<unknown>)?.code]).toEqual([404, -1005]);
    const undecodable = await get('/img/%E0%A4%A?w=320');
    expect([undecodable.statusCode, errorOf(undecodable.json() as Envelope<unknown>)?.code]).toEqual([200, -1004]);
    const long = await get(`/img/${'a'.repeat(65)}`);
    expect([long.statusCode, errorOf(long.json() as Envelope<unknown>)?.code]).toEqual([200, -1004]);
  });
});
