import { useQuery } from '@tanstack/react-query';
import { useId, type ClipboardEvent } from 'react';
import { POST_MAX_CHANNELS, POST_MAX_LENGTH } from '#shared/constants.ts';
import { textLength } from '#shared/text-length.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { isLost } from '../../../lib/picture.ts';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { IconClose } from '../../../ui/icons-secondary.tsx';
import { ModalDialog } from '../../../ui/overlay/ModalDialog.tsx';
import { useDrafts, type PostDraft } from '../drafts.ts';
import { addImages, useUploads } from '../uploads.ts';
import { usePostDraft } from '../use-post-draft.ts';
import { usePublishPost } from '../use-publish-post.ts';
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
  const isMobile = useLayoutStore((s) => s.isMobile);
  const uid = useQuery(sessionQueryOptions()).data?.uid;
  const { draftKey, draft } = usePostDraft(uid);
  const progress = useUploads(draftKey);
  const titleId = useId();
  const fieldId = useId();
  const blank = draft ? isBlank(draft) : false;
  const { sending, refusal, publish } = usePublishPost({ uid, draftKey, blank, onPublished: onClose });

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
        <ComposerBar titleId={titleId} notReady={notReady} sending={sending} onClose={onClose} onPublish={() => draft && !sending && publish(draft)} />
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

/** The composer's bar: 关闭, its title 发动态 and 发布 (disabled, saying why, while the post is not ready). */
function ComposerBar(props: { titleId: string; notReady: string | null; sending: boolean; onClose: () => void; onPublish: () => void }) {
  const { titleId, notReady, sending, onClose, onPublish } = props;
  return (
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
        onClick={onPublish}
      >
        {sending ? '发布中…' : '发布'}
      </button>
    </header>
  );
}
