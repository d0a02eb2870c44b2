/**
 * A picture of a post, from the moment it is chosen to the moment the post carries its url: one
 * type and one upload for the composer (which uploads while the user writes, with progress) and
 * the outbox (which uploads what was not, before the post, from the same Blob).
 */
import type { ImageAttach } from '#shared/schemas.ts';
import { newClientId } from './ids.ts';
import { uploadImage } from './upload.ts';

export interface Picture {
  /** Stable while the post is written and queued. */
  localId: string;
  name: string;
  /** The picture itself, until it is uploaded (stored as is: IndexedDB keeps Blobs). */
  blob?: Blob | undefined;
  /** Once uploaded: what the server answered. */
  url?: string | undefined;
  width?: number | undefined;
  height?: number | undefined;
  /** waiting: to be uploaded (the composer's next, or the outbox's before the post). */
  status: 'waiting' | 'uploading' | 'uploaded' | 'failed';
}

export function pictureOf(file: File): Picture {
  return { localId: newClientId(), name: file.name, blob: file, status: 'waiting' };
}

/** Neither uploaded nor still here (a crash within its first write): it must be added again. */
export const isLost = (picture: Picture): boolean => !picture.url && !picture.blob;

/** Uploads a picture that is not yet; resolves with it uploaded (its Blob let go). */
export async function uploadPicture(picture: Picture, onProgress: (fraction: number) => void = () => undefined, signal?: AbortSignal): Promise<Picture> {
  if (picture.url || !picture.blob) return picture;
  const { url, width, height } = await uploadImage(picture.blob, onProgress, signal);
  return { ...picture, url, width, height, blob: undefined, status: 'uploaded' };
}

/** The uploaded pictures as a post's attachments, in their order. */
export function attachmentsOf(pictures: readonly Picture[]): ImageAttach[] {
  return pictures.flatMap(({ url, width, height }) => (url && width && height ? [{ type: 'image' as const, url, width, height }] : []));
}
