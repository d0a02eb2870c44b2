import { formatCount } from '#shared/count.ts';
import type { UserInfo } from '#shared/schemas.ts';
import { Link } from '@tanstack/react-router';
import { FollowUserButton } from './FollowUserButton.tsx';
import { NickEditor } from './NickEditor.tsx';
import { track } from '../../../platform/tracking.ts';
import { ZoomableAvatar } from './ZoomableAvatar.tsx';
import './profile.css';

/** The top of a user centre: avatar, nick (one's own with 修改昵称), intro and counts. */
export function UserProfile({ user }: { user: UserInfo }) {
  const stats = [
    { label: '动态', value: user.post_count },
    { label: '关注', value: user.following_count },
    { label: '粉丝', value: user.follower_count },
    { label: '获赞', value: user.like_count },
  ];
  return (
    <section className="profile card" aria-labelledby="profile-nick">
      <div className="profile__main">
        <ZoomableAvatar src={user.avatar} nick={user.nick} size={64} />
        <div className="profile__text">
          <h1 id="profile-nick" className="profile__nick">
            {user.nick}
          </h1>
          {user.is_self ? <NickEditor nick={user.nick} /> : null}
          <p className="profile__intro">{user.intro || '这个人很懒，还没有写简介。'}</p>
        </div>
        {user.is_self ? null : (
          <div className="profile__actions">
            <FollowUserButton
              uid={user.uid}
              isFollow={user.is_follow}
              className="profile__follow"
              onToggle={(on) => track('personal_home_click_button', { button_name: on ? '关注' : '取消关注' })}
            />
            <Link
              to="/complain"
              search={{ type: 'user', id: user.uid }}
              className="button button--text button--small"
              onClick={() => track('personal_home_click_button', { button_name: '投诉' })}
            >
              投诉
            </Link>
          </div>
        )}
      </div>
      <dl className="profile__stats">
        {stats.map((stat) => (
          <div key={stat.label} className="profile__stat">
            <dt>{stat.label}</dt>
            <dd>{formatCount(stat.value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
