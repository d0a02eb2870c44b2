import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEVICE_ID_KEY, deviceId, newClientId, resetDeviceIdForTests } from '../../src/client/lib/ids.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newClientId', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns distinct v4 UUIDs', () => {
    const ids = new Set(Array.from({ length: 100 }, () => newClientId()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });

  it('works without crypto.randomUUID (insecure contexts)', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true, writable: true });
    try {
      expect(newClientId()).toMatch(UUID_V4);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true, writable: true });
    }
  });
});

describe('deviceId', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
    resetDeviceIdForTests();
  });

  it('is created once and kept in localStorage', () => {
    const id = deviceId();
    expect(id).toMatch(UUID_V4);
    expect(localStorage.getItem(DEVICE_ID_KEY)).toBe(id);
    resetDeviceIdForTests();
    expect(deviceId()).toBe(id);
  });

  it('reuses an id already stored', () => {
    localStorage.setItem(DEVICE_ID_KEY, 'existing-id');
    expect(deviceId()).toBe('existing-id');
  });

  it('falls back to a per-page id when storage throws', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const id = deviceId();
    expect(id).toMatch(UUID_V4);
    expect(deviceId()).toBe(id);
  });
});
