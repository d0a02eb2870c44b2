// What the client's modules add to Window (their `declare global` blocks). The tests check against
// the client's declarations, which carry a module's globals only where that module is loaded.
import type {} from '../../src/client/entities/session/credentials.ts';
import type {} from '../../src/client/lib/early-acts-catcher.ts';
import type {} from '../../src/client/platform/app-audio-store.ts';
import type {} from '../../src/client/platform/wechat-sdk.ts';
