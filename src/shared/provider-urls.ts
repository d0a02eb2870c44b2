/** Whether a URL is on the provider's domain family (provider-domains.ts), for the links of a user's text. Pure. */
import { DEFAULT_PROVIDER_DOMAINS, isProviderHost } from './provider-domains.ts';

/** The lower-cased host name of an absolute http(s) URL, or null. */
export function hostOf(url: string): string | null {
  const match = /^https?:\/\/(?:[^@/?#\s]*@)?(\[[^\]]*\]|[^:/?#\s]+)/i.exec(url.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/** Whether `url` is an http(s) URL on the provider's domain family. */
export function isProviderUrl(url: string, domainFamily: readonly string[] = DEFAULT_PROVIDER_DOMAINS): boolean {
  const host = hostOf(url);
  return host !== null && isProviderHost(host, domainFamily);
}
