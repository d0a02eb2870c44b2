/** The words the moderators' pages use for targets, actions and suspensions. */
import type { ModerationLogEntry } from '#shared/schemas.ts';
import { fullTime } from '../../format/time.ts';

export const targetName = (type: 'post' | 'comment' | 'user'): string => (type === 'post' ? '动态' : type === 'comment' ? '评论' : '用户');

/** ` 至 2026-12-06 12:00`, or `（永久）` for a suspension without an end. */
export const untilText = (until: number | null): string => (until === null ? '（永久）' : ` 至 ${fullTime(until)}`);

/** One line of the audit log: who did what to whose post, comment or account (the automatic hide is the system's). */
export function actionText(entry: ModerationLogEntry): string {
  const who = entry.moderator ? entry.moderator.nick : '系统';
  const whose = `${entry.target_user.nick} 的${entry.target_type === 'user' ? '账号' : targetName(entry.target_type)}`;
  switch (entry.action) {
    case 'hide':
      return `${who} 隐藏了 ${whose}`;
    case 'auto_hide':
      return `${who} 自动隐藏了 ${whose}（多人举报）`;
    case 'restore':
      return `${who} 恢复显示了 ${whose}`;
    case 'dismiss':
      return `${who} 驳回了对 ${whose} 的举报`;
    case 'suspend':
      return `${who} 禁言了 ${entry.target_user.nick}${entry.forever ? '（永久）' : untilText(entry.until)}`;
    case 'lift':
      return `${who} 解除了 ${entry.target_user.nick} 的禁言`;
  }
}
