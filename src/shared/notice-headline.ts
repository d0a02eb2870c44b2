import type { Notice } from '#shared/schemas.ts';

/**
 * What happened, as a line: 极客小明 等 12 人赞了你的动态. A moderation notice names no one (its
 * text, in content_excerpt, says what the moderators decided): 社区通知.
 */
export function noticeHeadline(notice: Notice): { who: string; did: string } {
  if (notice.type === 'moderation') return { who: '社区通知', did: '' };
  const nick = notice.actors[0]?.nick ?? '有人';
  const who = notice.actor_count > 1 ? `${nick} 等 ${notice.actor_count} 人` : nick;
  const did =
    notice.type === 'comment' ? '评论了你的动态'
    : notice.type === 'reply' ? '回复了你的评论'
    : notice.type === 'follow' ? '关注了你'
    : notice.comment_id ? '赞了你的评论'
    : '赞了你的动态';
  return { who, did };
}
