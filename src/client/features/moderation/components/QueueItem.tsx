import { Link } from '@tanstack/react-router';
import { useId, useState, type ReactNode } from 'react';
import { SUSPENSION_DAYS } from '#shared/constants.ts';
import type { ModerationQueueItem, Post } from '#shared/schemas.ts';
import { useModerate, type ModerationDecision } from '../../../entities/moderation/actions.ts';
import { fullTime } from '../../../format/time.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { confirm } from '../../../ui/dialog/confirm.ts';
import { openPicker } from '../../../ui/picker/open-picker.ts';
import type { PickerItem } from '../../../ui/picker/picker-store.ts';
import { toast } from '../../../ui/toast/toast-store.ts';
import { actionText, targetName, untilText } from '../labels.ts';

/** One way to decide on a queue item: the picker's row, what the confirmation asks, and what is sent. */
interface Choice {
  item: PickerItem;
  question: string;
  done: string;
  decision: (reason: string) => ModerationDecision;
}

/** What a moderator may do about this item (never about their own content, never suspend a moderator: the server says so too). */
export function choicesFor(item: ModerationQueueItem): Choice[] {
  const choices: Choice[] = [];
  const name = targetName(item.target_type);
  const authorId = item.author.user.uid;
  if (item.target_type !== 'user' && !item.gone) {
    const target = { target_type: item.target_type, target_id: item.target_id };
    if (!item.hidden || item.auto_hidden) {
      choices.push({
        item: { key: 'hide', text: `隐藏${name}`, danger: true },
        question: `隐藏这条${name}？除作者外，所有人都将看不到它。`,
        done: `已隐藏${name}`,
        decision: (reason) => ({ action: 'hide', input: { ...target, reason } }),
      });
    }
    if (item.hidden) {
      choices.push({
        item: { key: 'restore', text: `恢复显示${name}` },
        question: `恢复显示这条${name}？之后的举报不会再自动隐藏它。`,
        done: `已恢复显示${name}`,
        decision: (reason) => ({ action: 'restore', input: { ...target, reason } }),
      });
    }
  }
  choices.push({
    item: { key: 'dismiss', text: '驳回举报' },
    question: '驳回这些举报？内容保持原样。',
    done: '已驳回举报',
    decision: (reason) => ({ action: 'dismiss', input: { target_type: item.target_type, target_id: item.target_id, reason } }),
  });
  if (!item.author.is_moderator) {
    for (const days of [...SUSPENSION_DAYS, 'forever' as const]) {
      const span = days === 'forever' ? '永久' : `${days} 天`;
      choices.push({
        item: { key: `suspend-${days}`, text: `禁言作者 ${span}`, danger: true },
        question: `禁言 ${item.author.user.nick} ${span}？期间 TA 只能浏览，不能发布、评论和点赞。`,
        done: `已禁言 ${span}`,
        decision: (reason) => ({ action: 'suspend', input: { user_id: authorId, days, reason } }),
      });
    }
    if (item.author.suspended) {
      choices.push({
        item: { key: 'lift', text: '解除禁言' },
        question: `解除 ${item.author.user.nick} 的禁言？`,
        done: '已解除禁言',
        decision: (reason) => ({ action: 'lift', input: { user_id: authorId, reason } }),
      });
    }
  }
  return choices;
}

/** A part of the author's history, folded under its title and count; nothing when it is empty. */
function History({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <details className="moderation-item__history">
      <summary>
        {title}（{count}）
      </summary>
      <ul>{children}</ul>
    </details>
  );
}

/**
 * One reported post, comment or user: what was reported (as users see it), who reported it and
 * why (no complainant named), the author's history, a reason field, and 处理: the actions in a
 * bottom picker, each confirmed before it is sent.
 */
export function QueueItem({ item, renderPost }: { item: ModerationQueueItem; renderPost: (post: Post) => ReactNode }) {
  const headingId = useId();
  const reasonId = useId();
  const [reason, setReason] = useState(item.reasons[0]?.text ?? '');
  const moderate = useModerate();

  const decide = async () => {
    const choices = choicesFor(item);
    const picked = await openPicker({ title: '处理举报', items: choices.map((choice) => ({ ...choice.item, disabled: moderate.isPending })) });
    const choice = choices.find((candidate) => candidate.item.key === picked?.key);
    if (!choice) return;
    const ok = await confirm({
      title: choice.item.text,
      content: `${choice.question}${reason.trim() ? `\n理由：${reason.trim()}` : ''}`,
      okText: '确定',
      danger: choice.item.danger === true,
    });
    if (!ok) return;
    await moderate.mutateAsync(choice.decision(reason.trim())).then(
      () => toast.success(choice.done),
      () => undefined,
    );
  };

  return (
    <article className="card moderation-item" aria-labelledby={headingId}>
      <header className="moderation-item__head">
        <h2 id={headingId} className="moderation-item__title">
          被举报的{targetName(item.target_type)}
        </h2>
        <span className="moderation-item__count">{item.complaint_count} 人举报</span>
        {item.auto_hidden ? <span className="moderation-badge moderation-badge--warning">已自动隐藏，待审核</span> : item.hidden ? <span className="moderation-badge">已隐藏</span> : null}
        {item.gone ? <span className="moderation-badge">作者已删除</span> : null}
      </header>

      <Complaints item={item} />

      {/* Groups, not landmarks: every item of the queue has them. */}
      <div className="moderation-item__target" role="group" aria-label="被举报的内容">
        {item.post ? renderPost(item.post) : null}
        {item.comment ? (
          <blockquote className="moderation-item__comment">
            <p>{item.comment.content}</p>
            <Link to="/message/detail/$id" params={{ id: String(item.comment.post_id) }}>
              查看所在动态
            </Link>
          </blockquote>
        ) : null}
        {item.hidden_reason ? <p className="moderation-item__hidden-reason">隐藏理由：{item.hidden_reason}</p> : null}
      </div>

      <ReportedAuthor author={item.author} />

      <div className="moderation-item__decide">
        <label htmlFor={reasonId} className="moderation-item__reason-label">
          处理理由
        </label>
        <input
          id={reasonId}
          className="moderation-item__reason"
          value={reason}
          maxLength={200}
          onChange={(event) => setReason(event.target.value)}
          placeholder="隐藏和禁言须填写理由"
        />
        <button type="button" className="button button--primary" onClick={() => void decide()} disabled={moderate.isPending}>
          处理
        </button>
      </div>
    </article>
  );
}

/** Why the item was reported: each reason with its count, and the complainants' own words (no complainant named). */
function Complaints({ item }: { item: ModerationQueueItem }) {
  return (
    <>
      <ul className="moderation-item__reasons" aria-label="举报理由">
        {item.reasons.map((entry) => (
          <li key={entry.reason} className="moderation-item__reason-chip">
            {entry.text} × {entry.count}
          </li>
        ))}
      </ul>
      {item.complaints.some((complaint) => complaint.content) ? (
        <ul className="moderation-item__words" aria-label="举报说明">
          {item.complaints
            .filter((complaint) => complaint.content)
            .map((complaint, i) => (
              <li key={i}>
                <q>{complaint.content}</q> <time dateTime={new Date(complaint.create_time).toISOString()}>{fullTime(complaint.create_time)}</time>
              </li>
            ))}
        </ul>
      ) : null}
    </>
  );
}

/** The reported content's author: whether moderator or suspended, and their history folded. */
function ReportedAuthor({ author }: { author: ModerationQueueItem['author'] }) {
  return (
    <div className="moderation-item__author" role="group" aria-label="作者">
      <Link to="/usercenter/$id" params={{ id: String(author.user.uid) }} className="moderation-item__who">
        <Avatar src={author.user.avatar} nick={author.user.nick} size={32} />
        <span>{author.user.nick}</span>
      </Link>
      {author.is_moderator ? <span className="moderation-badge">审核员</span> : null}
      {author.suspended ? <span className="moderation-badge moderation-badge--warning">禁言中{untilText(author.suspended_until)}</span> : null}
      <History title="最近的动态" count={author.recent_posts.length}>
        {author.recent_posts.map((post) => (
          <li key={post.id}>
            <Link to="/message/detail/$id" params={{ id: String(post.id) }}>
              {post.content || '（无文字）'}
            </Link>
            {post.hidden ? <span className="moderation-badge">已隐藏</span> : null}
          </li>
        ))}
      </History>
      <History title="此前的处理" count={author.actions.length}>
        {author.actions.map((entry) => (
          <li key={entry.id}>
            {actionText(entry)} · {fullTime(entry.create_time)}
            {entry.reason ? ` · ${entry.reason}` : ''}
          </li>
        ))}
      </History>
    </div>
  );
}
