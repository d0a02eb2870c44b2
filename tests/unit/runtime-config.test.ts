import { describe, expect, it } from 'vitest';
import { readClientConfig } from '../../src/client/platform/runtime-config.ts';
import { CLIENT_CONFIG_ELEMENT_ID, DEFAULT_CLIENT_CONFIG } from '../../src/shared/client-config.ts';

function pageWith(json: string | null): Document {
  const doc = document.implementation.createHTMLDocument('t');
  if (json !== null) {
    const script = doc.createElement('script');
    script.type = 'application/json';
    script.id = CLIENT_CONFIG_ELEMENT_ID;
    script.textContent = json;
    doc.head.append(script);
  }
  return doc;
}

describe('the run-time client config', () => {
  it('reads what the server inlined in the page', () => {
    const config = readClientConfig(pageWith(JSON.stringify({ providerName: '学而社', appScheme: 'xueer://' })));
    expect(config).toEqual({ ...DEFAULT_CLIENT_CONFIG, providerName: '学而社', appScheme: 'xueer://' });
  });

  it('keeps the defaults without the element, with broken JSON, and for values that are not text', () => {
    expect(readClientConfig(pageWith(null))).toEqual(DEFAULT_CLIENT_CONFIG);
    expect(readClientConfig(pageWith('{not json'))).toEqual(DEFAULT_CLIENT_CONFIG);
    expect(readClientConfig(pageWith(JSON.stringify({ providerName: 42, aiAssistantUrl: '' })))).toEqual(DEFAULT_CLIENT_CONFIG);
  });
});
