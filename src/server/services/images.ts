/**
 * Images live in the database, so any API process serves any image; ids never change content.
 *
 * /img/{id}?w=N answers a copy at most N px wide: N snaps down to one of IMAGE_VARIANT_WIDTHS
 * (below the smallest: the smallest), so a client cannot make the server render every size. The
 * copy is made with sharp on the first request and stored in image_variants, so every process
 * serves it from then on. It is never wider than the original: a width at or above the
 * original's answers the original. SVG (the demo seed's pictures) scales by itself and is always
 * answered as it is; an animated GIF or WebP stays animated.
 */
import { and, eq } from 'drizzle-orm';
import sharp, { type OutputInfo } from 'sharp';
import { IMAGE_VARIANT_WIDTHS } from '#shared/constants.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../db/client.ts';
import { images, imageVariants } from '../db/schema.ts';
import { BusinessError } from '../errors.ts';
import { formatOfMime, UPLOAD_MAX_PIXELS } from './uploads.ts';

export interface StoredImage {
  mime: string;
  bytes: Buffer;
}

const imageNotFound = () => new BusinessError(ErrorCode.NotFound, '图片不存在', 404);

export async function getImage(db: Db, id: string): Promise<StoredImage> {
  const [image] = await db.select({ mime: images.mime, bytes: images.bytes }).from(images).where(eq(images.id, id)).limit(1);
  if (!image) throw imageNotFound();
  return image;
}

/** The variant width a requested width snaps to: the widest of IMAGE_VARIANT_WIDTHS not above it, at least the smallest. */
export function snapVariantWidth(requested: number): number {
  let width: number = IMAGE_VARIANT_WIDTHS[0];
  for (const candidate of IMAGE_VARIANT_WIDTHS) if (candidate <= requested) width = candidate;
  return width;
}

/**
 * What answers `?w=` for one app (one process): the image at most `requested` px wide (snapped),
 * made and stored on first request. Concurrent first requests in the process resize once; two
 * processes that both resize store one row (the key is image and width).
 */
export function imageVariantSource(db: Db): (id: string, requested: number) => Promise<StoredImage> {
  const making = new Map<string, Promise<StoredImage>>();
  return async (id, requested) => {
    const width = snapVariantWidth(requested);
    const [variant] = await db
      .select({ mime: imageVariants.mime, bytes: imageVariants.bytes })
      .from(imageVariants)
      .where(and(eq(imageVariants.imageId, id), eq(imageVariants.width, width)))
      .limit(1);
    if (variant) return variant;
    const key = `${id}:${width}`;
    let pending = making.get(key);
    if (!pending) {
      pending = makeVariant(db, id, width).finally(() => making.delete(key));
      making.set(key, pending);
    }
    return pending;
  };
}

async function makeVariant(db: Db, id: string, width: number): Promise<StoredImage> {
  const [image] = await db.select().from(images).where(eq(images.id, id)).limit(1);
  if (!image) throw imageNotFound();
  const format = formatOfMime(image.mime);
  if (!format || width >= image.width) return image;
  let resized: { data: Buffer; info: OutputInfo };
  try {
    const animated = format === 'gif' || format === 'webp';
    resized = await sharp(image.bytes, { animated, limitInputPixels: UPLOAD_MAX_PIXELS, failOn: 'error' })
      .resize({ width, withoutEnlargement: true })
      .toFormat(format, format === 'jpeg' || format === 'webp' ? { quality: 82 } : {})
      .toBuffer({ resolveWithObject: true });
  } catch {
    // A stored picture sharp cannot read is still a picture the browser may show: answer it as it is.
    return image;
  }
  const variant = { mime: image.mime, bytes: resized.data };
  await db
    .insert(imageVariants)
    .values({ imageId: id, width, height: resized.info.pageHeight ?? resized.info.height, mime: variant.mime, bytes: variant.bytes })
    .onConflictDoNothing();
  return variant;
}
