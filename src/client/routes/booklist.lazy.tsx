import { createLazyRoute } from '@tanstack/react-router';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { HomeLink } from '../ui/HomeLink.tsx';
import { Page } from '../ui/Page.tsx';
import { EmptyState } from '../ui/states.tsx';

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
