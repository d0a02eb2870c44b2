import { useQuery, useQueryClient } from '@tanstack/react-query';
import { noticeSettingsQueryOptions } from '../../../entities/notice/queries.ts';
import { NOTICE_KIND_NAMES, type NoticeKind } from '../../../entities/notice/writes.ts';
import { makeWrite } from '../../../entities/outbox/index.ts';
import { LoadingRegion, SkeletonLines } from '../../../ui/Skeleton.tsx';
import { ErrorState } from '../../../ui/states.tsx';
import { usePushSwitch } from '../use-push-switch.ts';
import './notices.css';

const KINDS: NoticeKind[] = ['comment', 'like', 'follow'];
const HINTS: Record<NoticeKind, string> = {
  comment: '有人评论你的动态或回复你的评论时提醒',
  like: '有人赞你的动态或评论时提醒',
  follow: '有人关注你时提醒',
};

/** 推送通知: this device is told of new notices, the app closed too (where the browser can). */
function PushSwitchRow() {
  const push = usePushSwitch();
  if (push.state === 'unsupported') return null;
  return (
    <li>
      <label className="notice-settings__row">
        <span className="notice-settings__text">
          <span className="notice-settings__name">推送通知</span>
          <span className="notice-settings__hint">在本设备上推送新消息，关闭 App 时也能收到</span>
        </span>
        <input
          type="checkbox"
          role="switch"
          className="switch"
          checked={push.state === 'on'}
          disabled={push.state === 'busy'}
          aria-busy={push.state === 'busy'}
          onChange={(event) => push.toggle(event.target.checked)}
        />
      </label>
    </li>
  );
}

/** On one's own centre: which kinds of notice one receives (a switch each, through the outbox), and push on this device. */
export function NoticeSettingsPanel({ uid }: { uid: number }) {
  const queryClient = useQueryClient();
  const settings = useQuery(noticeSettingsQueryOptions(uid));
  if (settings.isPending) {
    return (
      <LoadingRegion label="消息设置加载中">
        <SkeletonLines lines={3} />
      </LoadingRegion>
    );
  }
  if (settings.isError) return <ErrorState title="消息设置加载失败" error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <ul className="notice-settings" aria-label="消息提醒">
      {KINDS.map((kind) => (
        <li key={kind}>
          <label className="notice-settings__row">
            <span className="notice-settings__text">
              <span className="notice-settings__name">{NOTICE_KIND_NAMES[kind]}</span>
              <span className="notice-settings__hint">{HINTS[kind]}</span>
            </span>
            <input
              type="checkbox"
              role="switch"
              className="switch"
              checked={settings.data[kind]}
              onChange={(event) => void makeWrite(queryClient, 'noticeSetting', { kind, on: event.target.checked })}
            />
          </label>
        </li>
      ))}
      <PushSwitchRow />
    </ul>
  );
}
