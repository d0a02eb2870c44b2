/** The parts of the composer: pictures, the code snippet's card, the poll, channels and topics. */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { POST_MAX_CHANNELS, VOTE_MAX_OPTIONS } from '#shared/constants.ts';
import type { Channel } from '#shared/schemas.ts';
import { channelCategoriesQueryOptions, followedChannelsQueryOptions } from '../../../entities/channel/queries.ts';
import { topicListQueryOptions } from '../../../entities/topic/queries.ts';
import { pagedItems } from '../../../lib/paging.ts';
import { DateTimeSelect } from '../../../ui/datetime/DateTimeSelect.tsx';
import { IconClose, IconCode } from '../../../ui/icons-secondary.tsx';
import type { Picture } from '../../../lib/picture.ts';
import { useDrafts, type PostDraft, type VoteDraft } from '../drafts.ts';
import { addImages, MAX_IMAGES, removeImage, retryImage } from '../uploads.ts';

const edit = (key: string, change: (draft: PostDraft) => PostDraft) => useDrafts.getState().edit(key, change);

/** An object URL for a blob, revoked when it is no longer shown. */
function useBlobUrl(blob: Blob | undefined): string | undefined {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

function ImageTile({ draftKey, image, progress }: { draftKey: string; image: Picture; progress: number | undefined }) {
  const local = useBlobUrl(image.blob);
  const src = local ?? (image.url ? `${image.url}?w=320` : undefined);
  return (
    <li className={`composer-image composer-image--${image.status}`}>
      {src ? <img src={src} alt={image.name || '图片'} /> : <span className="composer-image__missing">图片</span>}
      {image.status === 'uploading' || image.status === 'waiting' ? (
        <progress className="composer-image__progress" max={1} value={progress ?? 0} aria-label={`${image.name || '图片'}上传进度`} />
      ) : null}
      {image.status === 'failed' ? (
        <button type="button" className="composer-image__retry" onClick={() => retryImage(draftKey, image.localId)}>
          重试
        </button>
      ) : null}
      <button type="button" className="composer-image__remove" aria-label={`移除${image.name || '图片'}`} onClick={() => removeImage(draftKey, image.localId)}>
        <IconClose size={14} />
      </button>
    </li>
  );
}

/** Pictures: pick (or paste into the text), upload with progress, preview, remove, retry; at most 9. */
export function ComposerImages({ draftKey, images, progress }: { draftKey: string; images: Picture[]; progress: Record<string, number> }) {
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <section className="composer-section" aria-label="图片">
      <ul className="composer-images">
        {images.map((image) => (
          <ImageTile key={image.localId} draftKey={draftKey} image={image} progress={progress[image.localId]} />
        ))}
        {images.length < MAX_IMAGES ? (
          <li>
            <button type="button" className="composer-images__add" onClick={() => inputRef.current?.click()}>
              + 图片
              <span className="visually-hidden">（最多 {MAX_IMAGES} 张）</span>
            </button>
          </li>
        ) : null}
      </ul>
      <input
        ref={inputRef}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif"
        multiple
        hidden
        aria-label="选择图片"
        onChange={(e) => {
          addImages(draftKey, Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
      />
    </section>
  );
}

/** The code snippet entered on /post, as a card to edit or remove. */
export function ComposerCode({ draft, draftKey, onEdit }: { draft: PostDraft; draftKey: string; onEdit: () => void }) {
  if (!draft.codeContent.trim()) {
    return (
      <button type="button" className="button button--ghost button--small" onClick={onEdit}>
        <IconCode size={16} /> 添加代码
      </button>
    );
  }
  const lines = draft.codeContent.split('\n');
  return (
    <section className="composer-code card" aria-label="代码片段">
      <header className="composer-code__head">
        <strong>{draft.codeTitle || '代码片段'}</strong>
        <span className="composer-code__meta">
          {draft.codeLanguage} · {lines.length} 行
        </span>
      </header>
      <pre className="composer-code__preview">{lines.slice(0, 4).join('\n')}</pre>
      <div className="composer-code__actions">
        <button type="button" className="button button--text button--small" onClick={onEdit}>
          编辑
        </button>
        <button type="button" className="button button--text button--small" onClick={() => edit(draftKey, (d) => ({ ...d, codeContent: '', codeTitle: '' }))}>
          移除
        </button>
      </div>
    </section>
  );
}

const emptyVote = (): VoteDraft => ({ title: '', multiple: false, options: ['', ''], endsAt: '' });

/** A poll: its question, 2 to 10 options, single or multiple choice, an optional end. */
export function ComposerVote({ draftKey, vote }: { draftKey: string; vote: VoteDraft | null }) {
  const id = useId();
  const setVote = (change: (vote: VoteDraft) => VoteDraft | null) => edit(draftKey, (d) => ({ ...d, vote: d.vote ? change(d.vote) : null }));
  if (!vote) {
    return (
      <button type="button" className="button button--ghost button--small" onClick={() => edit(draftKey, (d) => ({ ...d, vote: emptyVote() }))}>
        添加投票
      </button>
    );
  }
  return (
    <fieldset className="composer-vote card">
      <legend className="composer-vote__legend">投票</legend>
      <label className="composer-field">
        <span>投票标题</span>
        <input value={vote.title} maxLength={100} onChange={(e) => setVote((v) => ({ ...v, title: e.target.value }))} placeholder="想问大家什么？" />
      </label>
      {vote.options.map((option, index) => (
        <div key={index} className="composer-vote__option">
          <label className="composer-field">
            <span>选项 {index + 1}</span>
            <input
              value={option}
              maxLength={50}
              onChange={(e) => setVote((v) => ({ ...v, options: v.options.map((o, i) => (i === index ? e.target.value : o)) }))}
            />
          </label>
          {vote.options.length > 2 ? (
            <button
              type="button"
              className="composer-vote__remove"
              aria-label={`删除选项 ${index + 1}`}
              onClick={() => setVote((v) => ({ ...v, options: v.options.filter((_, i) => i !== index) }))}
            >
              <IconClose size={14} />
            </button>
          ) : null}
        </div>
      ))}
      <div className="composer-vote__row">
        {vote.options.length < VOTE_MAX_OPTIONS ? (
          <button type="button" className="button button--text button--small" onClick={() => setVote((v) => ({ ...v, options: [...v.options, ''] }))}>
            + 添加选项
          </button>
        ) : null}
        <label className="composer-check">
          <input type="checkbox" checked={vote.multiple} onChange={(e) => setVote((v) => ({ ...v, multiple: e.target.checked }))} />
          多选
        </label>
      </div>
      <DateTimeSelect id={`${id}-end`} label="截止时间" noneLabel="不设截止时间" value={vote.endsAt} onChange={(endsAt) => setVote((v) => ({ ...v, endsAt }))} />
      <button type="button" className="button button--text button--small composer-vote__drop" onClick={() => setVote(() => null)}>
        取消投票
      </button>
    </fieldset>
  );
}

/** Channels (1 to 3): the user's own first, then every channel. */
export function ComposerChannels({ draftKey, uid, chosen }: { draftKey: string; uid: number; chosen: number[] }) {
  const followed = useQuery(followedChannelsQueryOptions(uid));
  const categories = useQuery(channelCategoriesQueryOptions());
  const channels = useMemo(() => {
    const all: Channel[] = [...(followed.data ?? [])];
    for (const category of categories.data ?? []) {
      for (const channel of category.list) if (!all.some((c) => c.channel_id === channel.channel_id)) all.push(channel);
    }
    return all;
  }, [followed.data, categories.data]);
  const toggle = (id: number) =>
    edit(draftKey, (d) => {
      const list = d.publishParams.channel_id;
      const next = list.includes(id) ? list.filter((c) => c !== id) : list.length < POST_MAX_CHANNELS ? [...list, id] : list;
      return { ...d, publishParams: { ...d.publishParams, channel_id: next } };
    });
  return (
    <section className="composer-section" aria-labelledby={`channels-${draftKey}`}>
      <h3 id={`channels-${draftKey}`} className="composer-section__title">
        选择频道 <span className="composer-section__hint">（{chosen.length}/{POST_MAX_CHANNELS}）</span>
      </h3>
      <ul className="composer-chips">
        {channels.map((channel) => {
          const on = chosen.includes(channel.channel_id);
          return (
            <li key={channel.channel_id}>
              <button
                type="button"
                className={`chip composer-chip${on ? ' composer-chip--on' : ''}`}
                aria-pressed={on}
                disabled={!on && chosen.length >= POST_MAX_CHANNELS}
                onClick={() => toggle(channel.channel_id)}
              >
                {channel.channel_name}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** `#话题#` tags as chips, with suggestions from the topic list as the user types. */
export function ComposerTopics({ draftKey, tags }: { draftKey: string; tags: string }) {
  const [typed, setTyped] = useState('');
  const topics = useInfiniteQuery(topicListQueryOptions());
  const listId = useId();
  const chosen = tags.split('#').map((t) => t.trim()).filter(Boolean);
  const suggestions = typed.trim()
    ? pagedItems(topics.data?.pages)
        .map((topic) => topic.topic_name)
        .filter((name) => name.includes(typed.trim()) && !chosen.includes(name))
        .slice(0, 6)
    : [];
  const setTags = (names: string[]) => edit(draftKey, (d) => ({ ...d, topicTags: names.map((n) => `#${n}#`).join('') }));
  const add = (name: string) => {
    const clean = name.replace(/#/g, '').trim().slice(0, 20);
    if (clean && !chosen.includes(clean) && chosen.length < 5) setTags([...chosen, clean]);
    setTyped('');
  };
  return (
    <section className="composer-section" aria-label="话题">
      <ul className="composer-chips">
        {chosen.map((name) => (
          <li key={name}>
            <span className="chip chip--topic">
              #{name}#
              <button type="button" className="composer-chip__remove" aria-label={`移除话题 ${name}`} onClick={() => setTags(chosen.filter((n) => n !== name))}>
                <IconClose size={12} />
              </button>
            </span>
          </li>
        ))}
      </ul>
      {chosen.length < 5 ? (
        <div className="composer-topics">
          <label className="visually-hidden" htmlFor={`${listId}-input`}>
            添加话题
          </label>
          <input
            id={`${listId}-input`}
            className="composer-topics__input"
            placeholder="#添加话题#"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add(typed);
              }
            }}
          />
          {suggestions.length > 0 ? (
            <ul className="composer-topics__suggestions" aria-label="话题建议">
              {suggestions.map((name) => (
                <li key={name}>
                  <button type="button" className="composer-topics__suggestion" onClick={() => add(name)}>
                    #{name}#
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
