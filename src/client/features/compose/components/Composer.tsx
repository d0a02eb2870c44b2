import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type ClipboardEvent } from 'react';
import { POST_MAX_CHANNELS, POST_MAX_LENGTH } from '#shared/constants.ts';
import { ErrorCode } from '#shared/errors.ts';
import { textLength } from '#shared/text-length.ts';
import { makeWrite, outbox } from '../../../entities/outbox/index.ts';
import { isWriteOf, type WriteInput, type WriteOf } from '../../../entities/outbox/types.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { isApiError } from '../../../lib/http.ts';
import { newClientId } from '../../../lib/ids.ts';
import { isLost } from '../../../lib/picture.ts';
import { useOutbox } from '../../../lib/write-queue/store.ts';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { IconClose } from '../../../ui/icons.tsx';
import { ModalDialog } from '../../../ui/overlay/ModalDialog.tsx';
import { toast } from '../../../ui/toast/toast-store.ts';
import { adoptVisitorDraft, postDraftKey, startDrafts, useDraft, useDrafts, type PostDraft } from '../drafts.ts';
import { addImages, useUploads } from '../uploads.ts';
import { ComposerChannels, ComposerCode, ComposerImages, ComposerTopics, ComposerVote } from './ComposerParts.tsx';
import '../../../ui/dialog/dialog.css';
import './composer.css';

/** Why the draft cannot be published yet, or null. */
export function whyNotReady(draft: PostDraft): string | null {
  const { content, channel_id: channels, attach } = draft.publishParams;
  if (!content.trim()) return '写点什么吧';
  if (textLength(content) > POST_MAX_LENGTH) return `内容超出 ${textLength(content) - POST_MAX_LENGTH} 字符`;
  if (channels.length === 0) return '请选择频道';
  if (channels.length > POST_MAX_CHANNELS) return `最多选择 ${POST_MAX_CHANNELS} 个频道`;
  // A picture not uploaded (offline, or failed) goes up with the post, from its Blob.
  if (attach.some((image) => image.status === 'uploading')) return '图片还在上传';
  if (attach.some(isLost)) return '有图片已丢失，请移除后重新添加';
  const vote = draft.vote;
  if (vote) {
    if (!vote.title.trim()) return '请填写投票标题';
    const options = vote.options.map((o) => o.trim());
    if (options.filter(Boolean).length < 2 || options.some((o) => !o)) return '投票至少需要 2 个选项，且选项不能为空';
    if (new Set(options).size !== options.length) return '投票选项不能重复';
    if (vote.endsAt && new Date(vote.endsAt).getTime() <= Date.now()) return '截止时间需要晚于现在';
  }
  return null;
}

/** A ready draft as the outbox sends it: post/add's body and its pictures (uploaded or not). */
export function postOf(draft: PostDraft): WriteInput<'post'> {
  const { content, channel_id, attach } = draft.publishParams;
  const { codeContent, codeLanguage, codeTitle, topicTags, vote } = draft;
  return {
    body: {
      content: content.trim(),
      channel_id,
      attach: codeContent.trim() ? [{ type: 'code' as const, language: codeLanguage, title: codeTitle.trim(), code: codeContent }] : [],
      topic_tags: topicTags || undefined,
      vote: vote
        ? {
            title: vote.title.trim(),
            multiple: vote.multiple,
            options: vote.options.map((o) => o.trim()),
            end_time: vote.endsAt ? new Date(vote.endsAt).getTime() : undefined,
          }
        : undefined,
    },
    images: attach.map((picture) => (picture.url ? { ...picture, blob: undefined } : picture)),
  };
}

/** A moment as a datetime-local field writes it, in the reader's time. */
const localDateTime = (ms: number): string => {
  const at = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return at.toISOString().slice(0, 16);
};

/** A post the server refused, as a draft again: a new client_id (its text will change), its pictures as they were. */
export function draftOfReturned(item: WriteOf<'post'>): PostDraft {
  const { body, images } = item.data;
  const code = body.attach.find((attach) => attach.type === 'code');
  return {
    publishParams: {
      id: newClientId(),
      content: body.content,
      channel_id: (body.channel_id ?? []).map(Number),
      attach: images.map((image) => ({ ...image, status: image.url ? 'uploaded' : 'waiting' })),
    },
    codeContent: code?.code ?? '',
    codeLanguage: code?.language ?? 'javascript',
    codeTitle: code?.title ?? '',
    topicTags: body.topic_tags ?? '',
    vote: body.vote
      ? {
          title: body.vote.title,
          multiple: body.vote.multiple ?? false,
          options: body.vote.options,
          endsAt: body.vote.end_time ? localDateTime(body.vote.end_time) : '',
        }
      : null,
    editedAt: Date.now(),
  };
}

const isBlank = (draft: PostDraft): boolean =>
  !draft.publishParams.content.trim() && draft.publishParams.attach.length === 0 && !draft.codeContent.trim() && !draft.vote;

/**
 * 发动态: a dialog on PC, a full page on mobile. The text (动态内容) with its length as
 * SPEC counts it, pictures, a code snippet (entered on /post), a poll, channels and topics.
 * Everything is the draft, saved as it changes; 发布 is enabled once the post is valid, sends it
 * once (its client_id was born with the draft), and the post leads the feeds at once. Offline it
 * waits in the outbox, pictures included; if the server refuses it later, it comes
 * back here as the draft with the message.
 */
export default function Composer({ onClose, onEditCode }: { onClose: () => void; onEditCode: () => void }) {
  const queryClient = useQueryClient();
  const isMobile = useLayoutStore((s) => s.isMobile);
  const uid = useQuery(sessionQueryOptions()).data?.uid;
  const loaded = useDrafts((s) => s.loaded);
  const draftKey = postDraftKey(uid);
  const draft = useDraft(draftKey);
  const progress = useUploads(draftKey);
  const titleId = useId();
  const fieldId = useId();

  useEffect(() => startDrafts(), []);
  // The user's draft (a new one with its client_id, or a visitor's) as soon as the stored ones are known.
  useEffect(() => {
    if (loaded && !draft && uid !== undefined) adoptVisitorDraft(uid);
  }, [loaded, draft, uid]);

  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const returnedId = useOutbox((s) => s.items.find((item) => item.state === 'returned' && isWriteOf(item, 'post') && item.uid === uid)?.id);
  const blank = draft ? isBlank(draft) : false;

  // A queued post the server refused comes back here with the message, once the draft is empty.
  useEffect(() => {
    if (!returnedId || !blank) return;
    void outbox(queryClient)
      .then((writes) => writes.takeReturned((item) => item.id === returnedId))
      .then((item) => {
        if (!item || !isWriteOf(item, 'post')) return;
        useDrafts.getState().edit(draftKey, () => draftOfReturned(item));
        setRefusal(item.error ?? null);
      });
  }, [returnedId, blank, queryClient, draftKey]);

  // Through the outbox: sent now, or kept (待发送 at the top of the feed) until the network is back.
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
        onClose();
      })
      .finally(() => setSending(false));
  };

  const notReady = draft ? whyNotReady(draft) : '草稿加载中';
  const length = draft ? textLength(draft.publishParams.content) : 0;
  const setContent = (content: string) =>
    useDrafts.getState().edit(draftKey, (d) => ({ ...d, publishParams: { ...d.publishParams, content } }));
  const onPaste = (event: ClipboardEvent) => {
    const files = Array.from(event.clipboardData.files);
    if (files.some((file) => file.type.startsWith('image/'))) {
      event.preventDefault();
      addImages(draftKey, files);
    }
  };

  return (
    <ModalDialog className={`composer-layer${isMobile ? ' composer-layer--page' : ''}`} aria-labelledby={titleId} onDismiss={onClose}>
      <div className="composer">
        <header className="composer__bar">
          <button type="button" className="composer__close" aria-label="关闭" onClick={onClose}>
            <IconClose />
          </button>
          <h2 id={titleId} className="composer__title">
            发动态
          </h2>
          <button
            type="button"
            className="button button--primary button--small"
            disabled={notReady !== null || sending}
            title={notReady ?? undefined}
            onClick={() => draft && !sending && publish(draft)}
          >
            {sending ? '发布中…' : '发布'}
          </button>
        </header>
        {draft ? (
          <div className="composer__body">
            <label htmlFor={fieldId} className="visually-hidden">
              动态内容
            </label>
            <textarea
              id={fieldId}
              className="composer__text"
              placeholder="分享你的学习心得、问题或代码…"
              value={draft.publishParams.content}
              onChange={(e) => setContent(e.target.value)}
              onPaste={onPaste}
              autoFocus
            />
            <p className={`composer__count${length > POST_MAX_LENGTH ? ' composer__count--over' : ''}`} aria-live="polite">
              {length}/{POST_MAX_LENGTH}
            </p>
            <ComposerImages draftKey={draftKey} images={draft.publishParams.attach} progress={progress} />
            <div className="composer__tools">
              <ComposerCode draft={draft} draftKey={draftKey} onEdit={onEditCode} />
              {draft.vote ? null : <ComposerVote draftKey={draftKey} vote={null} />}
            </div>
            {draft.vote ? <ComposerVote draftKey={draftKey} vote={draft.vote} /> : null}
            <ComposerTopics draftKey={draftKey} tags={draft.topicTags} />
            {uid !== undefined ? <ComposerChannels draftKey={draftKey} uid={uid} chosen={draft.publishParams.channel_id} /> : null}
            {refusal ? (
              <p className="composer__error" role="alert">
                未发布：{refusal}
              </p>
            ) : null}
            <p className="composer__status" role="status">
              {notReady ?? '可以发布了'}
            </p>
          </div>
        ) : null}
      </div>
    </ModalDialog>
  );
}
