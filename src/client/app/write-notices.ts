/**
 * How the app speaks of each kind of write in the outbox: what its list calls it, where a write
 * that came back is edited, and what is said when it goes or is refused after the screen that
 * made it has moved on (the screen says it itself while it waits: features/*).
 */
import type { WriteNotices } from '../entities/outbox/types.ts';

export const writeNotices: WriteNotices = {
  post: { label: () => '动态', editor: () => '?compose=1', sentLater: '待发送的动态已发布', refusedLater: '动态未发布' },
  postDelete: { label: () => '删除动态', refusedLater: '动态未删除' },
  postLike: { label: (like) => (like.on ? '点赞' : '取消点赞') },
  vote: { label: () => '投票' },
  comment: {
    label: (comment) => (comment.body.reply_id ? '回复' : '评论'),
    editor: (comment) => `/message/detail/${comment.body.post_id}`,
    sentLater: '待发送的评论已发出',
    refusedLater: '评论未发出',
  },
  commentDelete: { label: () => '删除评论', refusedLater: '评论未删除' },
  commentLike: { label: (like) => (like.on ? '点赞评论' : '取消点赞评论') },
  userFollow: { label: (follow) => (follow.on ? '关注' : '取消关注') },
  channelFollow: { label: (follow) => (follow.on ? '关注频道' : '取消关注频道') },
  complain: {
    label: () => '投诉',
    editor: (complaint) => `/complain?type=${complaint.body.target_type}&id=${complaint.body.target_id}`,
    sentLater: '待发送的投诉已提交',
    refusedLater: '投诉未提交',
    refusalShownByScreen: true,
  },
  noticeRead: { label: () => '消息已读' },
  noticeSetting: { label: (setting) => `${setting.on ? '开启' : '关闭'}消息提醒` },
};
