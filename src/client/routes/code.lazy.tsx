import { useSuspenseQuery } from '@tanstack/react-query';
import type { RouterContext } from './root.tsx';
import { createLazyRoute } from '@tanstack/react-router';
import { CodeView } from '../features/code/components/CodeView.tsx';
import { prepareHighlightWithin } from '../features/code/highlight.ts';
import { codeDetailQueryOptions } from '../features/code/queries.ts';
import { HomeLink } from '../ui/HomeLink.tsx';
import { IconCode } from '../ui/icons.tsx';
import { Page } from '../ui/Page.tsx';
import { EmptyState } from '../ui/states.tsx';
import { parseId } from './params.ts';

/**
 * The loader of codeDetail: loaded with this page's code. The snippet's language loads and its
 * tokens are prepared before the page shows, so it appears highlighted; a language that is slow
 * or fails to load never holds or fails the page (it shows the plain text meanwhile).
 */
export async function loadCodeDetail({ context, params }: { context: RouterContext; params: { postid: string; uuid: string } }): Promise<void> {
  const snippet = await context.queryClient.ensureQueryData(codeDetailQueryOptions(parseId(params.postid), params.uuid));
  await prepareHighlightWithin(snippet.code, snippet.language);
}

export const codeLazyRoute = createLazyRoute('/code')({ component: CodePage });

function CodePage() {
  return (
    <Page title="代码">
      <div className="card">
        <EmptyState
          icon={<IconCode size={40} />}
          title="代码查看与编辑"
          description="动态里的代码片段会在这里完整展示，写动态时也可以在这里编辑要附带的代码。"
          action={<HomeLink label="去看看大家分享的代码" />}
        />
      </div>
    </Page>
  );
}

export const codeDetailLazyRoute = createLazyRoute('/code/$postid/$uuid')({ component: CodeDetailPage });

function CodeDetailPage() {
  const { postid, uuid } = codeDetailLazyRoute.useParams();
  const { data } = useSuspenseQuery(codeDetailQueryOptions(parseId(postid), uuid));
  return (
    <div className="content-page">
      <CodeView snippet={data} />
    </div>
  );
}
