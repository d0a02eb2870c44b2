import { formatCount } from '#shared/count.ts';
import type { TopicDetail } from '#shared/schemas.ts';
import { TopicCover } from './TopicList.tsx';
import '../../../ui/entity-header.css';

export function TopicHeader({ topic, appLink }: { topic: TopicDetail; appLink?: string | null }) {
  return (
    <section className="topic-header card" aria-labelledby="topic-name">
      <TopicCover topic={topic} size={64} />
      <div className="topic-header__text">
        <h1 id="topic-name" className="topic-header__name">
          #{topic.topic_name}#
        </h1>
        {topic.intro ? <p className="topic-header__intro">{topic.intro}</p> : null}
        <p className="topic-header__meta">{formatCount(topic.post_count)} 条动态</p>
      </div>
      {appLink ? (
        <a className="button button--ghost button--small topic-header__app" href={appLink}>
          App 内打开
        </a>
      ) : null}
    </section>
  );
}
