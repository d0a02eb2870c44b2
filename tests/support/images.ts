/**
 * Pictures made with sharp and uploads sent as the client sends them (src/client/lib/upload.ts),
 * for the API tests of upload/image, /img and post/add.
 */
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { OTHER_PATHS, TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import type { Envelope } from '../../src/shared/envelope.ts';
import type { UploadedImage } from '../../src/shared/schemas.ts';
import type { TestApp } from './api.ts';

// ---- pictures, made with sharp ----

/** Pseudo-random pixels (xorshift, the same every run): they do not compress, so the file size follows the picture size. */
function noise(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  let state = 2463534242;
  for (let i = 0; i < pixels.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = state & 0xff;
  }
  return pixels;
}
export const picture = (width: number, height: number) => sharp(noise(width, height), { raw: { width, height, channels: 3 } });

export const makePng = (width = 30, height = 20) => picture(width, height).png().toBuffer();
export const makeJpeg = (width = 30, height = 20) => picture(width, height).jpeg().toBuffer();
export const makeWebp = (width = 30, height = 20) => picture(width, height).webp().toBuffer();
/** An animated GIF of `frames` frames. */
export function makeGif(width = 30, height = 20, frames = 3): Promise<Buffer> {
  const strip = Buffer.alloc(width * height * frames * 4);
  for (let i = 0; i < strip.length; i += 4) {
    const frame = Math.floor(i / 4 / (width * height));
    strip.set([frame * 70, 120, 200 - frame * 50, 255], i);
  }
  return sharp(strip, { raw: { width, height: height * frames, channels: 4, pageHeight: height } })
    .gif({ loop: 0, delay: 100 })
    .toBuffer();
}

// ---- multipart ----

interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

/** A multipart/form-data body as a browser's FormData sends it. */
export function multipart(parts: Part[], boundary = `----formdata-${Math.random().toString(16).slice(2)}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Sends a picture as src/client/lib/upload.ts does: field `file`, the file's name and type, accept JSON. */
export async function upload(
  t: TestApp,
  ticket: string | undefined,
  data: Buffer | string,
  { filename = 'photo.png', type = 'image/png' }: { filename?: string; type?: string } = {},
): Promise<{ response: LightMyRequestResponse; body: Envelope<UploadedImage> }> {
  const { payload, headers } = multipart([{ name: 'file', filename, type, data }]);
  return send(t, ticket, payload, headers);
}

export async function send(t: TestApp, ticket: string | undefined, payload: Buffer | string, headers: Record<string, string>) {
  const response = await t.app.inject({
    method: 'POST',
    url: OTHER_PATHS.uploadImage,
    headers: { accept: 'application/json', ...headers },
    cookies: ticket ? { [TICKET_COOKIE]: ticket } : {},
    payload,
  });
  return { response, body: response.json() as Envelope<UploadedImage> };
}

