import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorCode } from '#shared/errors.ts';
import { makeWrite } from '../../entities/outbox/index.ts';
import { useReturnedWrite } from '../../entities/outbox/use-returned-write.ts';
import { isApiError } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { useDrafts, type PostDraft } from './drafts.ts';
import { draftOfReturned, postOf } from './post-write.ts';

interface Options {
  uid: number | undefined;
  draftKey: string;
  /** Whether the draft is empty: only then does a refused post come back into it. */
  blank: boolean;
  /** The post is sent or waits in the outbox; its draft is gone. */
  onPublished: () => void;
}

/**
 * 发布 and its outcome. Through the outbox: sent now, or kept (待发送 at the top of the feed)
 * until the network is back. `refusal` is the server's message for a post it refused, which
 * comes back into the (empty) draft, later too.
 */
export function usePublishPost({ uid, draftKey, blank, onPublished }: Options) {
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  useReturnedWrite('post', (item) => item.uid === uid, blank, (item) => {
    useDrafts.getState().edit(draftKey, () => draftOfReturned(item));
    setRefusal(item.error ?? null);
  });

  const publish = (ready: PostDraft) => {
    setSending(true);
    setRefusal(null);
    makeWrite(queryClient, 'post', postOf(ready), ready.publishParams.id)
      .then((outcome) => {
        if (outcome.status === 'refused') {
          // The same client_id with another text is refused (-1009): this text is a new post.
          if (isApiError(outcome.error) && outcome.error.code === ErrorCode.IdempotencyMismatch) {
            useDrafts.getState().edit(draftKey, (d) => ({ ...d, publishParams: { ...d.publishParams, id: newClientId() } }));
          }
          return;
        }
        useDrafts.getState().remove(draftKey);
        if (outcome.status === 'queued') toast.info('已加入待发送，联网后自动发布');
        else toast.success('发布成功');
        onPublished();
      })
      .finally(() => setSending(false));
  };

  return { sending, refusal, publish };
}
