import { createLazyRoute, Link } from '@tanstack/react-router';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { HomeLink } from '../ui/HomeLink.tsx';
import { Page } from '../ui/Page.tsx';
import './invite.lazy.css';

export const inviteLazyRoute = createLazyRoute('/invite')({ component: InvitePage });

function InvitePage() {
  return (
    <Page title={`${PROVIDER_NAME}邀请函`}>
      <article className="card invite">
        <p className="invite__greeting">亲爱的同学：</p>
        <p>
          诚邀你加入{PROVIDER_NAME}社区。在这里，你可以关注感兴趣的技术频道，和同行一起讨论课程里的问题、分享代码与学习笔记。
        </p>
        <p className="invite__sign">—— {PROVIDER_NAME}</p>
        <div className="invite__actions">
          <Link to="/invite/channelList" className="button button--primary">
            挑选感兴趣的频道
          </Link>
          <HomeLink label="先逛逛社区" />
        </div>
      </article>
    </Page>
  );
}
