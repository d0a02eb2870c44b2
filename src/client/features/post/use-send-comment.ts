import { useState } from 'react';
import { useReturnedWrite } from '../../entities/outbox/use-returned-write.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { draftKey, useCommentDrafts } from './comment-drafts.ts';
import { useCommentWrites } from './mutations.ts';

interface Options {
  postId: number;
  /** The comment replied to, if any. */
  replyTo: { id: number; nick: string } | null;
  /** The draft's key (useCommentDraft). */
  draftKey: string;
  /** Whether the box is empty: only then does a refused comment come back into it. */
  empty: boolean;
  onSent?: () => void;
}

/**
 * 发送 of a comment box, through the outbox. The words move under the post (发送中, or 待发送
 * offline) and the box is free at once; they come back into it if the server refuses them, as a
 * new comment (a new client_id), and a queued one refused later comes back with the message
 * (`refusal`).
 */
export function useSendComment({ postId, replyTo, draftKey: key, empty, onSent }: Options) {
  const writes = useCommentWrites(postId);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { write, renew, clear } = useCommentDrafts.getState();

  useReturnedWrite(
    'comment',
    (item) => draftKey(item.data.body.post_id, item.data.body.reply_id, item.uid) === key,
    empty,
    (item) => {
      write(key, item.data.body.content);
      renew(key);
      setRefusal(item.error ?? null);
    },
  );

  const send = () => {
    const current = useCommentDrafts.getState().drafts[key];
    if (!current?.text.trim() || sending) return;
    setRefusal(null);
    const giveBack = () => {
      write(key, current.text);
      renew(key);
    };
    clear(key);
    setSending(true);
    void writes
      .add({ content: current.text.trim(), replyId: replyTo?.id, replyTo: replyTo?.nick, clientId: current.clientId })
      .then((outcome) => {
        if (outcome.status === 'refused') return giveBack();
        if (outcome.status === 'queued') toast.info('已加入待发送，联网后自动发出');
        else toast.success(replyTo ? '回复成功' : '评论成功');
        onSent?.();
      })
      .finally(() => setSending(false));
  };

  return { sending, refusal, send };
}
