import { useSuspenseQuery } from '@tanstack/react-query';
import type { RouterContext } from './root.tsx';
import { createLazyRoute } from '@tanstack/react-router';
import { CodeView } from '../features/code/components/CodeView.tsx';
import { prepareHighlightWithin } from '../features/code/highlight.ts';
import { codeDetailQueryOptions } from '../features/code/queries.ts';
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
