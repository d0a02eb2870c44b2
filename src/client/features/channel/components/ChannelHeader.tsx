import type { ReactNode } from 'react';
import { formatCount } from '#shared/count.ts';
import type { ChannelDetail } from '#shared/schemas.ts';
import { IconGrid } from '../../../ui/icons-secondary.tsx';
import { Thumbnail } from '../../../ui/Thumbnail.tsx';
import '../../../ui/entity-header.css';

export function ChannelIcon({ channel, size = 48 }: { channel: ChannelDetail; size?: number }) {
  return <Thumbnail className="channel-icon" src={channel.icon} size={size} placeholder={<IconGrid size={Math.round(size * 0.5)} />} />;
}

/** `action`: the follow button, supplied by the route (the session feature owns following). */
export function ChannelHeader({ channel, action }: { channel: ChannelDetail; action?: ReactNode }) {
  return (
    <section className="channel-header card" aria-labelledby="channel-name">
      <ChannelIcon channel={channel} size={56} />
      <div className="channel-header__text">
        <h1 id="channel-name" className="channel-header__name">
          {channel.channel_name}
        </h1>
        {channel.intro ? <p className="channel-header__intro">{channel.intro}</p> : null}
        <p className="channel-header__meta">
          {formatCount(channel.follower_count)} 人关注 · {formatCount(channel.post_count)} 条动态
        </p>
      </div>
      {action}
    </section>
  );
}
