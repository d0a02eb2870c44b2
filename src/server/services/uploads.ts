/**
 * upload/image: a picture a user sends becomes a stored image (the `images` table, so every API
 * process serves it at /img/{id}).
 *
 * - The type comes from the bytes, never from the file name or the part's Content-Type: PNG,
 *   JPEG, WebP or GIF (an SVG, HTML or anything else named .png is refused with -1007).
 * - Decompression bombs: the size in the header (every frame counted) must be within
 *   UPLOAD_MAX_PIXELS before anything is decoded, and sharp decodes with the same limit.
 * - Every picture is decoded and encoded again in its own format: EXIF (GPS, camera, ...), XMP,
 *   comments and colour profiles are gone (colours converted to sRGB), a JPEG or WebP turned by
 *   its EXIF orientation is stored upright, and width/height are those after turning. An
 *   animated GIF or WebP stays animated (all frames re-encoded; they carry no orientation).
 * - Uploads count per user per minute (-2005) before the work, and per day (-2006) in the
 *   transaction that stores the image, so a refused picture does not use up the day.
 */
import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { ErrorCode } from '#shared/errors.ts';
import type { UploadedImage } from '#shared/schemas.ts';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import type { Db } from '../db/client.ts';
import { images } from '../db/schema.ts';
import { BusinessError } from '../errors.ts';
import { hitDailyCap } from './limits/daily-caps.ts';
import { enforceRateLimit } from './limits/window-counters.ts';

/** Largest picture decoded, in pixels over all its frames (8660 x 5773, or 200 frames of 500 x 500). */
export const UPLOAD_MAX_PIXELS = 50_000_000;

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export const MIME_OF: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The format of a stored image by its mime type; null for what we never resize (the seed's SVG). */
export function formatOfMime(mime: string): ImageFormat | null {
  const entry = Object.entries(MIME_OF).find(([, value]) => value === mime);
  return entry ? (entry[0] as ImageFormat) : null;
}

const startsWith = (bytes: Buffer, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image format the bytes begin with (magic numbers), or null. */
export function sniffImageFormat(bytes: Buffer): ImageFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

/** 10485760 -> '10MB', 1536 -> '1.5KB'. */
export function formatBytes(bytes: number): string {
  const [unit, size] = bytes >= 1024 * 1024 ? ['MB', 1024 * 1024] : ['KB', 1024];
  return `${Number((bytes / size).toFixed(1))}${unit}`;
}

export const uploadError = (msg: string) => new BusinessError(ErrorCode.BadUpload, msg);
export const NOT_AN_IMAGE = '只能上传 JPG、PNG、GIF 或 WebP 格式的图片';
export const tooLarge = (maxBytes: number) => uploadError(`图片不能超过 ${formatBytes(maxBytes)}`);

export interface NormalizedImage {
  mime: string;
  width: number;
  height: number;
  bytes: Buffer;
}

/**
 * The picture as we store it: sniffed, checked against the pixel limit, turned upright, without
 * metadata, in its own format. Anything that is not one of the four formats, or does not decode,
 * is a -1007 with a message saying why.
 */
export async function normalizeImage(input: Buffer, maxPixels = UPLOAD_MAX_PIXELS): Promise<NormalizedImage> {
  if (input.length === 0) throw uploadError('图片文件为空');
  const format = sniffImageFormat(input);
  if (!format) throw uploadError(NOT_AN_IMAGE);
  let meta: Metadata;
  try {
    meta = await sharp(input).metadata();
  } catch {
    throw uploadError('图片已损坏，无法读取');
  }
  if (!meta.width || !meta.height) throw uploadError('图片已损坏，无法读取');
  const pages = meta.pages ?? 1;
  // metadata() reads the header only: the decoded size is known before anything is decoded.
  if (meta.width * meta.height * pages > maxPixels) {
    throw uploadError(`图片尺寸过大，请缩小后再上传（不超过 ${Math.floor(maxPixels / 1_000_000)} 百万像素）`);
  }
  const animated = pages > 1 && (format === 'gif' || format === 'webp');
  let pipeline = sharp(input, { animated, limitInputPixels: maxPixels, failOn: 'error' });
  // Frames of an animation carry no orientation of their own; a still picture is turned upright.
  if (!animated) pipeline = pipeline.autoOrient();
  switch (format) {
    case 'jpeg':
      pipeline = pipeline.jpeg({ quality: 85 });
      break;
    case 'png':
      pipeline = pipeline.png();
      break;
    case 'webp':
      pipeline = pipeline.webp({ quality: 85 });
      break;
    case 'gif':
      pipeline = pipeline.gif();
      break;
  }
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { mime: MIME_OF[format], width: info.width, height: info.pageHeight ?? info.height, bytes: data };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw uploadError(`图片尺寸过大，请缩小后再上传（不超过 ${Math.floor(maxPixels / 1_000_000)} 百万像素）`);
    }
    throw uploadError('图片已损坏，无法读取');
  }
}

/** Counts one upload of the user in the current minute; -2005 beyond `perMinute`. */
export async function hitUploadLimit(db: Db, userId: number, perMinute: number): Promise<void> {
  await enforceRateLimit(db, `upload:user:${userId}`, 60, perMinute);
}

/** A new image id: 128 random bits, URL-safe (hex, like the seed's). */
export function newImageId(): string {
  return randomBytes(16).toString('hex');
}

/** Stores the user's picture (counted against the daily cap in the same transaction) and answers where it lives. */
export async function saveUpload(db: Db, userId: number, image: NormalizedImage, dailyLimit: number): Promise<UploadedImage> {
  const id = newImageId();
  await db.transaction(async (tx) => {
    await hitDailyCap(tx, 'upload', userId, dailyLimit);
    await tx.insert(images).values({ id, userId, mime: image.mime, width: image.width, height: image.height, bytes: image.bytes });
  });
  return { url: `${OTHER_PATHS.images}/${id}`, width: image.width, height: image.height };
}
