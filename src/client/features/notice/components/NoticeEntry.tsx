import { Link } from '@tanstack/react-router';
import { IconBell } from '../../../ui/icons.tsx';
import { useUnreadNotices } from '../unread.ts';
import './notice-entry.css';

/** 消息 with the unread count, in the PC header and the phone's top bar; logged in only. */
export default function NoticeEntry() {
  const count = useUnreadNotices();
  if (count === undefined) return null;
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
