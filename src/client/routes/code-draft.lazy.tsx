/**
 * /post (输入代码) and /code: the code snippet of the post being written, in the code editor
 * (CodeMirror loads with the page); every change is the draft's. 完成 returns to the composer.
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
import { LoadingRegion, SkeletonLines } from '../ui/Skeleton.tsx';
import './code-draft.lazy.css';

const CodeEditor = lazyComponent(() => import('../features/code/components/CodeEditor.tsx'));

function CodeDraftPage({ title }: { title: string }) {
  const router = useRouter();
  const loaded = useDrafts((s) => s.loaded);
  const draftKey = postDraftKey(useQuery(sessionQueryOptions()).data?.uid);
  const draft = useDraft(draftKey);
  useEffect(() => startDrafts(), []);

  const value: CodeValue = { language: draft?.codeLanguage ?? 'javascript', title: draft?.codeTitle ?? '', code: draft?.codeContent ?? '' };
  const onChange = (next: CodeValue) =>
    useDrafts.getState().edit(draftKey, (d) => ({ ...d, codeLanguage: next.language, codeTitle: next.title, codeContent: next.code }));
  const done = () => {
    if (canGoBackInSession()) router.history.back();
    else void router.navigate({ to: '/home', search: { compose: 1 } });
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

export const postCodeLazyRoute = createLazyRoute('/post')({ component: () => <CodeDraftPage title="输入代码" /> });

export const codeLazyRoute = createLazyRoute('/code')({ component: () => <CodeDraftPage title="代码" /> });
