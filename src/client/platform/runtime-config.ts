/**
 * Settings of this deployment that the client needs (src/shared/client-config.ts), read once
 * from the JSON the server inlines in index.html, so changing one needs no rebuild. A page
 * without it (the Vite dev server) or with a broken value keeps the defaults.
 */
import { CLIENT_CONFIG_ELEMENT_ID, DEFAULT_CLIENT_CONFIG, type ClientConfig } from '#shared/client-config.ts';

export function readClientConfig(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): ClientConfig {
  let inlined: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(doc?.getElementById(CLIENT_CONFIG_ELEMENT_ID)?.textContent || '{}');
    if (parsed && typeof parsed === 'object') inlined = parsed as Record<string, unknown>;
  } catch {
    // Unreadable: the defaults.
  }
  const config = { ...DEFAULT_CLIENT_CONFIG };
  for (const key of Object.keys(config) as (keyof ClientConfig)[]) {
    const value = inlined[key];
    if (typeof value === 'string' && value) config[key] = value;
  }
  return config;
}

export const clientConfig: Readonly<ClientConfig> = readClientConfig();
export const PROVIDER_NAME = clientConfig.providerName;
export const COMMUNITY_NAME = `${PROVIDER_NAME}社区`;
