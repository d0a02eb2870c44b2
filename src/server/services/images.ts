/** Images live in the database, so any API process serves any image; ids never change content. */
import { eq } from 'drizzle-orm';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../db/client.ts';
import { images } from '../db/schema.ts';
import { BusinessError } from '../errors.ts';

export async function getImage(db: Db, id: string): Promise<{ mime: string; bytes: Buffer }> {
  const [image] = await db.select({ mime: images.mime, bytes: images.bytes }).from(images).where(eq(images.id, id)).limit(1);
  if (!image) throw new BusinessError(ErrorCode.NotFound, '图片不存在', 404);
  return image;
}
