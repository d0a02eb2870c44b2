/**
 * /post (输入代码) and /code: the code snippet of the post being written, in the code editor
 * (CodeMirror loads with the page); every change is the draft's. 完成 shows it in the composer.
 */
import { createLazyRoute, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { CodeValue } from '../features/code/components/CodeEditor.tsx';
import { useQuery } from '@tanstack/react-query';
import { sessionQueryOptions } from '../entities/session/queries.ts';
import { postDraftKey, startDrafts, useDraft, useDrafts } from '../features/compose/drafts.ts';
import { canGoBackInSession } from '../lib/visit-history.ts';
import { LazyLayer, lazyComponent } from '../ui/LazyLayer.tsx';
import { Page } from '../ui/Page.tsx';
import { toast } from '../ui/toast/toast-store.ts';
import { LoadingRegion, SkeletonLines } from '../ui/Skeleton.tsx';
import './code-draft.lazy.css';

const CodeEditor = lazyComponent(() => import('../features/code/components/CodeEditor.tsx'));

/**
 * `standalone`: /code, opened on its own: 完成 opens the composer with the snippet in it and says
 * so. /post is opened from the composer: 完成 goes back to it.
 */
function CodeDraftPage({ title, standalone }: { title: string; standalone: boolean }) {
  const router = useRouter();
  const loaded = useDrafts((s) => s.loaded);
  const draftKey = postDraftKey(useQuery(sessionQueryOptions()).data?.uid);
  const draft = useDraft(draftKey);
  useEffect(() => startDrafts(), []);

  const value: CodeValue = { language: draft?.codeLanguage ?? 'javascript', title: draft?.codeTitle ?? '', code: draft?.codeContent ?? '' };
  const onChange = (next: CodeValue) =>
    useDrafts.getState().edit(draftKey, (d) => ({ ...d, codeLanguage: next.language, codeTitle: next.title, codeContent: next.code }));
  const done = () => {
    if (!standalone && canGoBackInSession()) return router.history.back();
    void router.navigate({ to: '/home', search: { compose: 1 }, replace: standalone });
    if (standalone && draft?.codeContent.trim()) toast.success('代码已放进动态草稿');
  };

  return (
    <Page title={title}>
      <div className="card code-draft">
        {loaded ? (
          <LazyLayer>
            <CodeEditor value={value} onChange={onChange} autoFocus />
          </LazyLayer>
        ) : (
          <LoadingRegion label="草稿加载中">
            <SkeletonLines lines={6} />
          </LoadingRegion>
        )}
        <div className="code-draft__actions">
          <button type="button" className="button button--primary" onClick={done}>
            完成
          </button>
        </div>
      </div>
    </Page>
  );
}

export const postCodeLazyRoute = createLazyRoute('/post')({ component: () => <CodeDraftPage title="输入代码" standalone={false} /> });

export const codeLazyRoute = createLazyRoute('/code')({ component: () => <CodeDraftPage title="代码" standalone /> });
