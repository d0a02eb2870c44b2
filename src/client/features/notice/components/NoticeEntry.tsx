import { Link } from '@tanstack/react-router';
import { Svg, type IconProps } from '../../../ui/icons.tsx';
import { useUnreadNotices } from '../unread.ts';
import './notice-entry.css';

// Here rather than in ui/icons.tsx, which every first visit loads: only a login shows it.
const IconBell = (p: IconProps) => (
  <Svg {...p}>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </Svg>
);

/**
 * 消息 with the unread count, in the PC header and the phone's top bar; logged in only. Shown
 * before the count is known (it comes over the bell): the header does not move under a finger
 * reaching for 发动态 beside it when the count arrives.
 */
export default function NoticeEntry() {
  const count = useUnreadNotices() ?? 0;
  const label = count > 0 ? `消息，${count} 条未读` : '消息';
  return (
    <Link to="/notice" className="notice-entry" aria-label={label} activeProps={{ 'aria-current': 'page' }}>
      <IconBell size={22} />
      <span className="notice-entry__label">消息</span>
      {count > 0 ? (
        <span className="notice-entry__count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </Link>
  );
}
