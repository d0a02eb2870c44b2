/// <reference types="vite/client" />

/** The provider's name, defined at build time in vite.config.ts (PROVIDER_NAME, default 极客时间). */
declare const __PROVIDER_NAME__: string;

interface ImportMetaEnv {
  /** The external AI assistant page the floating widget and the header entry open. */
  readonly VITE_AI_ASSISTANT_URL?: string;
  /** The native app's link scheme for "App 内打开" links (default geektime://). */
  readonly VITE_APP_SCHEME?: string;
}
