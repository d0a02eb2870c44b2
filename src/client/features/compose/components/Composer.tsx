import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, type ClipboardEvent } from 'react';
import { POST_MAX_CHANNELS, POST_MAX_LENGTH } from '#shared/constants.ts';
import { endpoints } from '#shared/endpoints.ts';
import type { Post } from '#shared/schemas.ts';
import { textLength } from '#shared/format.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { emitAppEvent } from '../../../lib/app-events.ts';
import { isApiError, request } from '../../../lib/http.ts';
import { newClientId } from '../../../lib/ids.ts';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { IconClose } from '../../../ui/icons.tsx';
import { ModalDialog } from '../../../ui/overlay/ModalDialog.tsx';
import { toast } from '../../../ui/toast/toast-store.ts';
import { POST_DRAFT, startDrafts, useDraft, useDrafts, type PostDraft } from '../drafts.ts';
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
  if (attach.some((image) => image.status !== 'uploaded')) return '图片还在上传';
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

/** The body of post/add for a ready draft. */
export function postOf(draft: PostDraft) {
  const { id, content, channel_id, attach } = draft.publishParams;
  return {
    content: content.trim(),
    channel_id,
    attach: [
      ...attach.map((image) => ({ type: 'image' as const, url: image.url!, width: image.width!, height: image.height! })),
      ...(draft.codeContent.trim()
        ? [{ type: 'code' as const, language: draft.codeLanguage, title: draft.codeTitle.trim(), code: draft.codeContent }]
        : []),
    ],
    topic_tags: draft.topicTags || undefined,
    vote: draft.vote
      ? {
          title: draft.vote.title.trim(),
          multiple: draft.vote.multiple,
          options: draft.vote.options.map((o) => o.trim()),
          end_time: draft.vote.endsAt ? new Date(draft.vote.endsAt).getTime() : undefined,
        }
      : undefined,
    client_id: id,
  };
}

/**
 * 发动态 (issue 8): a dialog on PC, a full page on mobile. The text (动态内容) with its length as
 * SPEC counts it, pictures, a code snippet (entered on /post), a poll, channels and topics.
 * Everything is the draft, saved as it changes; 发布 is enabled once the post is valid, sends it
 * once (its client_id was born with the draft), and the post leads the feeds at once.
 */
export default function Composer({ onClose, onEditCode }: { onClose: () => void; onEditCode: () => void }) {
  const isMobile = useLayoutStore((s) => s.isMobile);
  const uid = useQuery(sessionQueryOptions()).data?.uid;
  const loaded = useDrafts((s) => s.loaded);
  const draft = useDraft(POST_DRAFT);
  const progress = useUploads(POST_DRAFT);
  const titleId = useId();
  const fieldId = useId();

  useEffect(() => startDrafts(), []);
  // A new draft (with its client_id) as soon as the stored ones are known.
  useEffect(() => {
    if (loaded && !draft) useDrafts.getState().edit(POST_DRAFT, (d) => d);
  }, [loaded, draft]);

  const publish = useMutation({
    mutationFn: (body: ReturnType<typeof postOf>) => request(endpoints.postAdd, body),
    onSuccess: (post: Post) => {
      useDrafts.getState().remove(POST_DRAFT);
      emitAppEvent('addPostSuccess', { post });
      toast.success('发布成功');
      onClose();
    },
    onError: (error) => {
      // The same client_id with another text is refused (-1009): this text is a new post.
      if (isApiError(error) && error.code === -1009) {
        useDrafts.getState().edit(POST_DRAFT, (d) => ({ ...d, publishParams: { ...d.publishParams, id: newClientId() } }));
      }
    },
  });

  const notReady = draft ? whyNotReady(draft) : '草稿加载中';
  const length = draft ? textLength(draft.publishParams.content) : 0;
  const setContent = (content: string) =>
    useDrafts.getState().edit(POST_DRAFT, (d) => ({ ...d, publishParams: { ...d.publishParams, content } }));
  const onPaste = (event: ClipboardEvent) => {
    const files = Array.from(event.clipboardData.files);
    if (files.some((file) => file.type.startsWith('image/'))) {
      event.preventDefault();
      addImages(POST_DRAFT, files);
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
            disabled={notReady !== null || publish.isPending}
            title={notReady ?? undefined}
            onClick={() => draft && !publish.isPending && publish.mutate(postOf(draft))}
          >
            {publish.isPending ? '发布中…' : '发布'}
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
            <ComposerImages draftKey={POST_DRAFT} images={draft.publishParams.attach} progress={progress} />
            <div className="composer__tools">
              <ComposerCode draft={draft} draftKey={POST_DRAFT} onEdit={onEditCode} />
              {draft.vote ? null : <ComposerVote draftKey={POST_DRAFT} vote={null} />}
            </div>
            {draft.vote ? <ComposerVote draftKey={POST_DRAFT} vote={draft.vote} /> : null}
            <ComposerTopics draftKey={POST_DRAFT} tags={draft.topicTags} />
            {uid !== undefined ? <ComposerChannels draftKey={POST_DRAFT} uid={uid} chosen={draft.publishParams.channel_id} /> : null}
            <p className="composer__status" role="status">
              {notReady ?? '可以发布了'}
            </p>
          </div>
        ) : null}
      </div>
    </ModalDialog>
  );
}
