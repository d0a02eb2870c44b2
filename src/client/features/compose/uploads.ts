/**
 * The draft's pictures on their way to the server while the user writes, one at a time, through
 * the one picture pipeline (lib/picture.ts): a picture waiting (newly added, or left half-sent by
 * a reload) is uploaded with its progress shown; a failure waits for 重试; an uploaded picture
 * keeps the server's url and drops its blob. Offline nothing is tried: the outbox uploads what is
 * left before the post, from the same Blob.
 */
import { useEffect, useState } from 'react';
import { errorText } from '../../lib/error-text.ts';
import { isApiError } from '../../lib/http.ts';
import { pictureOf, uploadPicture, type Picture } from '../../lib/picture.ts';
import { useOnlineStore } from '../../platform/online-store.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { useDraft, useDrafts } from './drafts.ts';

export const MAX_IMAGES = 9;

/** Adds pictures (from the picker or a paste) to draft `key`, up to 9; says when some did not fit. */
export function addImages(key: string, files: readonly File[]): void {
  const pictures = files.filter((file) => file.type.startsWith('image/'));
  if (pictures.length === 0) return;
  let refused = 0;
  useDrafts.getState().edit(key, (draft) => {
    const room = MAX_IMAGES - draft.publishParams.attach.length;
    refused = Math.max(0, pictures.length - room);
    const added = pictures.slice(0, Math.max(0, room)).map(pictureOf);
    return { ...draft, publishParams: { ...draft.publishParams, attach: [...draft.publishParams.attach, ...added] } };
  });
  if (refused > 0) toast.warning(`最多 ${MAX_IMAGES} 张图片`);
}

function editImage(key: string, localId: string, change: (image: Picture) => Picture): void {
  useDrafts.getState().edit(key, (draft) => ({
    ...draft,
    publishParams: {
      ...draft.publishParams,
      attach: draft.publishParams.attach.map((image) => (image.localId === localId ? change(image) : image)),
    },
  }));
}

export function removeImage(key: string, localId: string): void {
  useDrafts.getState().edit(key, (draft) => ({
    ...draft,
    publishParams: { ...draft.publishParams, attach: draft.publishParams.attach.filter((image) => image.localId !== localId) },
  }));
}

export function retryImage(key: string, localId: string): void {
  editImage(key, localId, (image) => ({ ...image, status: 'waiting' }));
}

/** Uploads the draft's waiting pictures while mounted and online; returns the progress (0-1) by localId. */
export function useUploads(key: string): Record<string, number> {
  const draft = useDraft(key);
  const online = useOnlineStore((s) => s.online);
  const [progress, setProgress] = useState<Record<string, number>>({});
  const next = online ? draft?.publishParams.attach.find((image) => image.status === 'waiting' || image.status === 'uploading') : undefined;

  useEffect(() => {
    if (!next?.blob) return;
    const controller = new AbortController();
    const { localId } = next;
    editImage(key, localId, (image) => ({ ...image, status: 'uploading' }));
    uploadPicture(next, (fraction) => setProgress((p) => ({ ...p, [localId]: fraction })), controller.signal).then(
      (uploaded) => editImage(key, localId, () => uploaded),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        editImage(key, localId, (image) => ({ ...image, status: 'failed' }));
        // Without a network the post takes it along (the outbox uploads it first): nothing to say.
        const noNetwork = isApiError(error) && (error.kind === 'network' || error.kind === 'timeout');
        if (!noNetwork) toast.error(errorText(error) || '图片上传失败，请重试');
      },
    );
    return () => controller.abort();
    // One upload per picture: the effect follows the picture, not the draft's other changes.
  }, [key, next?.localId, next?.blob]); // eslint-disable-line react-hooks/exhaustive-deps

  return progress;
}
