import { createLazyRoute } from '@tanstack/react-router';
import { PostCard } from '../features/feed/components/PostCard.tsx';
import { ModerationLog, ModerationQueue } from '../features/moderation/components/ModerationLists.tsx';
import { Page } from '../ui/Page.tsx';
import { Tabs } from '../ui/Tabs.tsx';

export const moderationLazyRoute = createLazyRoute('/moderation')({ component: ModerationPage });

/** /moderation: tabs 待处理 (the queue) and 处理记录 (the audit log), the tab kept in the address. */
function ModerationPage() {
  const tab = moderationLazyRoute.useSearch({ select: (search) => search.tab ?? 'queue' });
  const navigate = moderationLazyRoute.useNavigate();
  return (
    <Page title="内容审核">
      <Tabs
        label="内容审核"
        selected={tab}
        onSelect={(key) => void navigate({ search: { tab: key === 'log' ? 'log' : undefined }, replace: true })}
        tabs={[
          { key: 'queue', label: '待处理', panel: <ModerationQueue renderPost={(post) => <PostCard post={post} />} /> },
          { key: 'log', label: '处理记录', panel: <ModerationLog /> },
        ]}
      />
    </Page>
  );
}
