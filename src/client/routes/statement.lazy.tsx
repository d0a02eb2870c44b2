import { createLazyRoute } from '@tanstack/react-router';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { Page } from '../ui/Page.tsx';

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
