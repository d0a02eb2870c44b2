/**
 * Client-generated ids: `client_id` for retryable writes (the server does a write once per
 * client_id, however often it is sent: src/server/services/once.ts) and the browser's device id
 * (sent as Device-Id and at login).
 */

const DEVICE_ID_KEY = 'horde:device-id'; // horde: src/client/README.md ('horde')

/** A random RFC 4122 version 4 UUID from getRandomValues (randomUUID needs a secure context). */
function uuidFromRandomValues(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A new random id for one write (`client_id`): the same id is reused when the write is retried
 * or replayed from the outbox, so the server applies it exactly once.
 */
export function newClientId(): string {
  // crypto.randomUUID exists only in secure contexts (https, localhost); a plain-http LAN
  // deployment falls back to getRandomValues, which is available everywhere.
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : uuidFromRandomValues();
}

let memoryDeviceId: string | null = null;

/**
 * This browser's stable device id, created on first use and kept in localStorage. Where
 * storage is unavailable (disabled, or a sandboxed frame) the id lasts for the page's life.
 */
export function deviceId(): string {
  if (memoryDeviceId) return memoryDeviceId;
  let id: string | null = null;
  try {
    id = localStorage.getItem(DEVICE_ID_KEY);
    if (!id) {
      id = newClientId();
      localStorage.setItem(DEVICE_ID_KEY, id);
    }
  } catch {
    id ??= newClientId();
  }
  memoryDeviceId = id;
  return id;
}

/** Forgets the in-memory copy (tests). */
export function resetDeviceIdForTests(): void {
  memoryDeviceId = null;
}

export { DEVICE_ID_KEY };
