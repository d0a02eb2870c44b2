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

// Bindings, not constants, for the server's render of the first screen alone (adoptServerConfig).
export let clientConfig: Readonly<ClientConfig> = readClientConfig();
export let PROVIDER_NAME = clientConfig.providerName;
export let COMMUNITY_NAME = `${PROVIDER_NAME}社区`;

/**
 * The server's render of the first screen (app/first-screen.server.tsx) has no page to read: it is
 * given the configuration the page carries, so the header names the same community.
 */
export function adoptServerConfig(config: ClientConfig): void {
  clientConfig = config;
  PROVIDER_NAME = config.providerName;
  COMMUNITY_NAME = `${PROVIDER_NAME}社区`;
}
