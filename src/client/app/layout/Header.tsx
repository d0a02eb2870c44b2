import { Link } from '@tanstack/react-router';
import type { ReactNode, Ref } from 'react';
import { IconSparkle } from '../../ui/icons.tsx';
import { useAppOffers } from './app-offers.ts';
import { openAiAssistant, selectShowHeaderAiEnter, useAiWidgetStore } from './ai-widget-store.ts';
import { COMMUNITY_NAME, PROVIDER_NAME } from '../../platform/runtime-config.ts';
import { LogoMark } from '../../ui/Logo.tsx';
import { HeaderSearch } from '../../features/search/components/HeaderSearch.tsx';


/** The header's AI entry: shown only once the floating widget was closed. */
export function HeaderAiEntry() {
  const show = useAiWidgetStore(selectShowHeaderAiEnter);
  if (!show) return null;
  return (
    // Its name is its visible text, then where it opens (WCAG 2.5.3: a spoken 'AI助手' finds it).
    <button type="button" className="header-ai header-ai--assistant" onClick={openAiAssistant}>
      <IconSparkle size={16} />
      <span className="header-ai__label">AI助手</span>
      <span className="visually-hidden">（新窗口）</span>
    </button>
  );
}

/** 安装应用: shown where the browser offers to install the app (app-offers.ts). */
export function HeaderInstallEntry() {
  const install = useAppOffers((s) => s.install);
  return install ? (
    <button type="button" className="header-ai" onClick={install}>
      安装应用
    </button>
  ) : null;
}

export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <Link to="/home" className="brand" aria-label={`${COMMUNITY_NAME}首页`}>
      <LogoMark size={compact ? 26 : 30} />
      <span className="brand__name">{PROVIDER_NAME}</span>
      <span className="brand__tag">社区</span>
    </Link>
  );
}

/** PC: the fixed header across the top, its content aligned with the 1200 px page. */
export function Header({ userSlot, onCompose, ref }: { userSlot: ReactNode; onCompose: () => void; ref?: Ref<HTMLElement> }) {
  return (
    <header ref={ref} className="app-header">
      <div className="app-header__inner">
        <Brand />
        <HeaderSearch />
        <div className="app-header__actions">
          <HeaderInstallEntry />
          <HeaderAiEntry />
          <button type="button" className="button button--primary button--small header-compose" onClick={onCompose}>
            发动态
          </button>
          {userSlot}
        </div>
      </div>
    </header>
  );
}
