import { newClientId } from '../../lib/ids.ts';
import type { WriteInput, WriteOf } from '../../entities/outbox/types.ts';
import type { PostDraft } from './drafts.ts';

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
