import { createLazyRoute, Link } from '@tanstack/react-router';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { HomeLink } from '../ui/HomeLink.tsx';
import { IconError } from '../ui/icons.tsx';
import { Page } from '../ui/Page.tsx';
import { EmptyState } from '../ui/states.tsx';
import './pages.lazy.css';

export const statementLazyRoute = createLazyRoute('/statement')({ component: StatementPage });

function StatementPage() {
  return (
    <Page title="社区声明">
      <article className="card prose">
        <p>
          {PROVIDER_NAME}社区是学习者交流心得、分享代码与笔记的地方。社区中的动态、评论与代码片段由用户发布，观点仅代表作者本人。
        </p>
        <p>请友善发言，尊重原创；转载他人内容请注明出处。涉及违法违规、广告或人身攻击的内容会被移除。</p>
        <p>如果你发现不当内容，可以通过投诉功能告诉我们，我们会尽快核实处理。</p>
      </article>
    </Page>
  );
}

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

export const booklistLazyRoute = createLazyRoute('/booklist/$code')({ component: BooklistPage });

function BooklistPage() {
  const { code } = booklistLazyRoute.useParams();
  return (
    <Page title={`${PROVIDER_NAME} x 微信读书`}>
      <div className="card">
        <EmptyState
          title="联合书单即将上线"
          description={
            <>
              {PROVIDER_NAME}与微信读书为你精选的技术书单（编号 <span className="mono">{code}</span>）正在准备中。
            </>
          }
          action={<HomeLink />}
        />
      </div>
    </Page>
  );
}

export const errorLazyRoute = createLazyRoute('/error')({ component: ErrorPage });

function ErrorPage() {
  return (
    <Page title="出错了">
      <div className="card">
        <EmptyState
          icon={<IconError size={40} />}
          title="页面出了点问题"
          description="你要找的页面暂时无法显示，可能是链接有误或内容已被删除。"
          action={<HomeLink primary />}
        />
      </div>
    </Page>
  );
}
